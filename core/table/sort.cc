#include "core/table/sort.h"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <utility>

namespace asys {

namespace {

// A double as an int64 of the same order (-0.0 as 0.0, which it equals).
int64_t orderedBits(double d) {
  if (d == 0) d = 0;
  int64_t b;
  std::memcpy(&b, &d, sizeof b);  // std::bit_cast: not in Emscripten 3.1.6's libc++
  return b < 0 ? b ^ INT64_MAX : b;
}

}  // namespace

// One flat pass: each row's key as an int64 of the same order (a number, a
// double's ordered bits, a text's rank among the column's distinct texts)
// beside its row, sorted as pairs, "-" rows after them in row order. A view
// gives its column a chunk at a time (Table::copyColumn: for a trace, only
// the table columns that column reads), so a sort never makes its rows whole.
std::vector<uint32_t> sortedRowOrder(const Table& t, size_t col, bool descending) {
  const size_t rows = t.rowCount();
  if (col >= t.columns().size()) {
    std::vector<uint32_t> order(rows);
    std::iota(order.begin(), order.end(), 0u);
    return order;
  }
  const CellKind kind = t.columns()[col].kind;
  std::vector<std::pair<int64_t, uint32_t>> keyed;
  keyed.reserve(rows);
  std::vector<uint32_t> missing;
  StringPool texts;  // Text: the column's distinct texts; keys are their ids until ranked
  auto take = [&](const Table& chunk, size_t firstRow) {
    for (size_t r = 0; r < chunk.rowCount(); ++r) {
      const auto row = static_cast<uint32_t>(firstRow + r);
      if (chunk.isMissing(r, col)) {
        missing.push_back(row);
        continue;
      }
      switch (kind) {
        case CellKind::Int: keyed.emplace_back(chunk.intAt(r, col), row); break;
        case CellKind::Decimal1: keyed.emplace_back(orderedBits(chunk.decimalAt(r, col)), row); break;
        case CellKind::Text: keyed.emplace_back(texts.intern(chunk.textAt(r, col)), row); break;
      }
    }
  };
  if (!t.isView()) {
    take(t, 0);
  } else {
    Table chunk = t.emptyLike();
    for (size_t first = 0; first < rows; first += kChunkRows) {
      t.copyColumn(col, first, kChunkRows, chunk);
      take(chunk, first);
    }
  }
  if (kind == CellKind::Text) {
    // Texts in byte order, then each key its text's rank.
    std::vector<uint32_t> byText(texts.size());
    std::iota(byText.begin(), byText.end(), 0u);
    std::sort(byText.begin(), byText.end(), [&](uint32_t a, uint32_t b) { return texts.get(a) < texts.get(b); });
    std::vector<int64_t> rank(texts.size());
    for (size_t i = 0; i < byText.size(); ++i) {
      // Equal texts are one id, so ranks are distinct per text.
      rank[byText[i]] = static_cast<int64_t>(i);
    }
    for (auto& [key, row] : keyed) key = rank[static_cast<size_t>(key)];
  }
  // Stable: equal keys keep row order, ascending or descending.
  if (descending) {
    std::sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
  } else {
    std::sort(keyed.begin(), keyed.end());
  }
  std::vector<uint32_t> order;
  order.reserve(rows);
  for (const auto& [key, row] : keyed) order.push_back(row);
  order.insert(order.end(), missing.begin(), missing.end());
  return order;
}

}  // namespace asys
