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

using Keyed = std::vector<std::pair<int64_t, uint32_t>>;

// Sorts (key, row) pairs by key, ascending or descending, stable (equal keys
// keep their rows' order): a least-significant-byte radix sort that skips
// the bytes every key shares, so a column of durations or times, which
// differ in their low bytes only, takes three or four passes over the pairs
// instead of a comparison sort's n log n (10 M rows: the viewer's sort).
void sortKeyed(Keyed& keyed, bool descending) {
  auto unsignedKey = [descending](int64_t k) {
    const uint64_t u = static_cast<uint64_t>(k) ^ (uint64_t{1} << 63);  // signed order as unsigned
    return descending ? ~u : u;
  };
  if (keyed.size() < 4096) {
    std::stable_sort(keyed.begin(), keyed.end(),
                     [&](const auto& a, const auto& b) { return unsignedKey(a.first) < unsignedKey(b.first); });
    return;
  }
  uint64_t all = ~uint64_t{0}, any = 0;
  for (const auto& [key, row] : keyed) {
    all &= unsignedKey(key);
    any |= unsignedKey(key);
  }
  const uint64_t differing = all ^ any;
  Keyed other(keyed.size());
  for (int shift = 0; shift < 64; shift += 8) {
    if (((differing >> shift) & 0xFF) == 0) continue;
    size_t at[256] = {};
    for (const auto& [key, row] : keyed) ++at[(unsignedKey(key) >> shift) & 0xFF];
    for (size_t b = 0, sum = 0; b < 256; ++b) {
      const size_t n = at[b];
      at[b] = sum;
      sum += n;
    }
    for (const auto& p : keyed) other[at[(unsignedKey(p.first) >> shift) & 0xFF]++] = p;
    keyed.swap(other);
  }
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
  Keyed keyed;
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
  // Stable: equal keys keep row order (the order they were taken in), ascending or descending.
  sortKeyed(keyed, descending);
  std::vector<uint32_t> order;
  order.reserve(rows);
  for (const auto& [key, row] : keyed) order.push_back(row);
  order.insert(order.end(), missing.begin(), missing.end());
  return order;
}

}  // namespace asys
