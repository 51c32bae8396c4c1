#include "core/table/sort.h"

#include <algorithm>
#include <numeric>

namespace asys {

namespace {

// A view's column `col` as a table of its own that holds its cells.
Table columnOf(const Table& t, size_t col) {
  Table key({t.columns()[col]});
  forEachChunk(t, [&](const Table& chunk, size_t) {
    for (size_t r = 0; r < chunk.rowCount(); ++r) {
      if (!chunk.isMissing(r, col)) {
        switch (chunk.columns()[col].kind) {
          case CellKind::Int: key.setInt(0, chunk.intAt(r, col)); break;
          case CellKind::Decimal1: key.setDecimal(0, chunk.decimalAt(r, col)); break;
          case CellKind::Text: key.setText(0, chunk.textAt(r, col)); break;
        }
      }
      key.endRow();
    }
  });
  return key;
}

}  // namespace

std::vector<uint32_t> sortedRowOrder(const Table& t, size_t col, bool descending) {
  if (t.isView() && col < t.columns().size()) return sortedRowOrder(columnOf(t, col), 0, descending);
  std::vector<uint32_t> order(t.rowCount());
  std::iota(order.begin(), order.end(), 0u);
  if (col >= t.columns().size()) return order;
  auto compare = [&](uint32_t a, uint32_t b) -> int {  // <0, 0, >0
    switch (t.columns()[col].kind) {
      case CellKind::Int: return (t.intAt(a, col) > t.intAt(b, col)) - (t.intAt(a, col) < t.intAt(b, col));
      case CellKind::Decimal1:
        return (t.decimalAt(a, col) > t.decimalAt(b, col)) - (t.decimalAt(a, col) < t.decimalAt(b, col));
      case CellKind::Text: return t.textAt(a, col).compare(t.textAt(b, col));
    }
    return 0;
  };
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    bool ma = t.isMissing(a, col), mb = t.isMissing(b, col);
    if (ma || mb) return !ma && mb;
    int c = compare(a, b);
    return descending ? c > 0 : c < 0;
  });
  return order;
}

}  // namespace asys
