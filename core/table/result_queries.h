#pragma once
// What the viewer asks of a result it does not hold (a paged result: a trace
// of ten million rows stays in the engine): some rows' cells, the rows that
// match its search box, a pie chart's sums per key, the rows of a pie slice,
// and column sums. Each answers what the viewer's own code answers for a
// result it holds (web/src/lib/search.ts, pie.ts, selection.ts), reading a
// view a chunk at a time, so none of them makes the result whole.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/table/table.h"

namespace asys {

// Rows [first, first + count) of a table: the questions below answer for a
// range, so the viewer can ask for a ten-million-row result part by part and
// show the rows it scrolls to in between.
struct RowRange {
  size_t first = 0;
  size_t count = SIZE_MAX;
};

// Rows `rows` of `t`, in that order, as a table that holds its cells (a
// page). A view reads each run of nearby rows once. Throws Error for a row
// past the table's.
Table rowsOf(const Table& t, std::span<const uint32_t> rows);

// Int columns the viewer shows as ns since a time zero (the report's capture
// start: web/src/lib/time_zero.ts), so a search matches them as shown.
struct ShownTimes {
  int64_t zero = 0;
  std::vector<size_t> columns;
};

// One byte per row, 1 where some cell contains `query` as the table shows
// it: trimmed, case ignored (ASCII letters), numbers without their digit
// groups (a query of digits, signs, '.', 'e' and spaces only), the columns
// of `times` as their value minus its zero, a "-" cell as the text "-".
// nullopt for a blank query (no search). The mask covers the rows of
// `range` (mask[i] is row range.first + i).
std::optional<std::vector<uint8_t>> searchRows(const Table& t, std::string_view query, RowRange range = {},
                                               const ShownTimes& times = {});

// A pie chart's data: per distinct key of column `keyCol` (its text, a
// number without digit groups, "-" when missing), the sum of column
// `valueCol` (a double, summed in row order; "-" adds 0), or the rows
// counted when `valueCol` is nullopt. Keys in order of first appearance.
struct KeyTotals {
  std::vector<std::string> keys;
  std::vector<double> values;
};
KeyTotals keyTotals(const Table& t, size_t keyCol, std::optional<size_t> valueCol, RowRange range = {});

// The rows (ascending) whose key cell, as keyTotals makes it, is one of `keys`.
std::vector<uint32_t> rowsWithKeys(const Table& t, size_t keyCol, const std::vector<std::string>& keys,
                                   RowRange range = {});

// The sum of each numeric column of `cols` over `rows` (the rows of `range`
// when nullopt), "-" cells and the summary row (whose first text column reads
// `summaryRow`, when not empty) left out. An Int column's sum is exact, as
// decimal digits; a Decimal1 column's a double summed in the order given.
struct ColumnTotal {
  size_t col;
  bool exact;         // Int: `digits` holds it
  std::string digits;
  double value = 0;   // Decimal1
};
std::vector<ColumnTotal> columnTotals(const Table& t, const std::vector<size_t>& cols,
                                      const std::optional<std::vector<uint32_t>>& rows, std::string_view summaryRow,
                                      RowRange range = {});

// The first row (in the table's order) whose event reference `slot`
// (Table::declareEvents) is row `index` of `table`: a timeline slice's
// "Show in table". nullopt when no row has it (outside the statistics
// range, filtered out by an option). A view is read a chunk at a time, the
// one column it reads cheapest (column 0) only: its events come with every row.
std::optional<size_t> rowOfEvent(const Table& t, size_t slot, EventTable table, uint32_t index);

}  // namespace asys
