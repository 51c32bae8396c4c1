// The viewer's questions to a paged result (core/table/result_queries.h),
// each answer worked out by hand from the rows below, for a table that holds
// its cells and for a view of the same rows (which reads them by chunk).
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/table/result_queries.h"

using namespace asys;

namespace {

std::vector<ColumnSpec> columns() {
  return {{"Name", "", CellKind::Text, ""}, {"Duration", "ns", CellKind::Int, ""}, {"Util", "%", CellKind::Decimal1, ""}};
}

// Row i of 200 000: Name "Kern<i % 3>" ("-" when i % 7 == 6), Duration
// 1000 * i + 1234567 ("-" when i % 11 == 10), Util (i % 10) / 10 + 0.5;
// its event (declared "Activity"): none when i % 5 == 4, else kernel
// (i even) or memcpy (i odd) row 200 000 - i, so each event is one row's.
void appendRow(Table& t, size_t i) {
  if (i % 5 != 4) t.setEvent(0, i % 2 == 0 ? EventTable::Kernel : EventTable::Memcpy, static_cast<uint32_t>(200000 - i));
  if (i % 7 != 6) t.setText(0, "Kern" + std::to_string(i % 3));
  if (i % 11 != 10) t.setInt(1, static_cast<int64_t>(1000 * i + 1234567));
  t.setDecimal(2, static_cast<double>(i % 10) / 10 + 0.5);
  t.endRow();
}

constexpr size_t kRows = 200000;  // past one chunk (65 536 rows), so a view reads several

class Rows : public RowSource {
 public:
  size_t rowCount() const override { return kRows; }
  void appendRows(size_t first, size_t count, Table& t) override {
    for (size_t i = first; i < first + count; ++i) appendRow(t, i);
  }
};

Table held() {
  Table t(columns());
  t.declareEvents({"Activity"});
  for (size_t i = 0; i < kRows; ++i) appendRow(t, i);
  return t;
}

Table view() {
  Table t(columns(), std::make_shared<Rows>());
  t.declareEvents({"Activity"});
  return t;
}

class ResultQueries : public ::testing::TestWithParam<bool> {
 protected:
  Table table() { return GetParam() ? view() : held(); }
};

TEST_P(ResultQueries, RowsOfAreTheRowsAskedForInTheirOrder) {
  const Table t = table();
  const std::vector<uint32_t> rows = {199999, 5, 6, 70000, 5, 10};
  const Table page = rowsOf(t, rows);
  ASSERT_EQ(page.rowCount(), rows.size());
  EXPECT_FALSE(page.isView());
  EXPECT_EQ(page.textAt(0, 0), "Kern1");  // 199999 % 3 = 1
  EXPECT_EQ(page.intAt(0, 1), 1000 * 199999 + 1234567);
  EXPECT_EQ(page.textAt(1, 0), "Kern2");
  EXPECT_TRUE(page.isMissing(2, 0));  // 6 % 7 == 6
  EXPECT_EQ(page.intAt(3, 1), 1000 * 70000 + 1234567);
  EXPECT_EQ(page.textAt(4, 0), "Kern2");  // row 5 again
  EXPECT_TRUE(page.isMissing(5, 1));      // 10 % 11 == 10
  EXPECT_DOUBLE_EQ(page.decimalAt(5, 2), 0.5);
  EXPECT_THROW(rowsOf(t, std::vector<uint32_t>{200000}), Error);
  // Each row's event comes with it: 199999 has none (% 5 == 4), 5 a memcpy (odd), 70000 a kernel.
  ASSERT_EQ(page.eventNames(), std::vector<std::string>{"Activity"});
  EXPECT_EQ(page.eventTables(0)[0], EventTable::None);
  EXPECT_EQ(page.eventTables(0)[1], EventTable::Memcpy);
  EXPECT_EQ(page.eventIndexes(0)[1], 200000u - 5);
  EXPECT_EQ(page.eventTables(0)[3], EventTable::Kernel);
  EXPECT_EQ(page.eventIndexes(0)[3], 200000u - 70000);
}

TEST_P(ResultQueries, RowOfEventFindsTheRowStandingForIt) {
  const Table t = table();
  // Kernel row 20 000 is row 180 000's (even, 180000 % 5 == 0): past the first chunks of a view.
  EXPECT_EQ(rowOfEvent(t, 0, EventTable::Kernel, 20000), std::optional<size_t>(180000));
  // Memcpy row 199 999 is row 1's; kernel row 199 999 is no row's (row 1 is odd).
  EXPECT_EQ(rowOfEvent(t, 0, EventTable::Memcpy, 199999), std::optional<size_t>(1));
  EXPECT_EQ(rowOfEvent(t, 0, EventTable::Kernel, 199999), std::nullopt);
  // Row 4 has no event (4 % 5 == 4): kernel row 199 996 is no row's.
  EXPECT_EQ(rowOfEvent(t, 0, EventTable::Kernel, 200000 - 4), std::nullopt);
  // No such table, no such slot.
  EXPECT_EQ(rowOfEvent(t, 0, EventTable::Api, 20000), std::nullopt);
  EXPECT_EQ(rowOfEvent(t, 1, EventTable::Kernel, 20000), std::nullopt);
  EXPECT_EQ(rowOfEvent(t, 0, EventTable::None, 0), std::nullopt);
}

TEST_P(ResultQueries, SearchMatchesTextIgnoringCaseAndNumbersWithoutGroups) {
  const Table t = table();
  EXPECT_FALSE(searchRows(t, "   ").has_value());
  // "KERN2" in any case: the rows with i % 3 == 2 and a name.
  auto kern2 = searchRows(t, "  kErN2 ");
  ASSERT_TRUE(kern2);
  size_t expected = 0, got = 0;
  for (size_t i = 0; i < kRows; ++i) {
    const bool want = i % 3 == 2 && i % 7 != 6;
    expected += want;
    got += (*kern2)[i];
    ASSERT_EQ((*kern2)[i], want ? 1 : 0) << i;
  }
  EXPECT_EQ(got, expected);
  // A number typed with the viewer's thin-space groups: Duration 201 233 567, the largest
  // (row 199999), is the only 9-digit cell of these digits; no Util holds them.
  auto one = searchRows(t, "201\u202f233\u202f567");
  ASSERT_TRUE(one);
  for (size_t i = 0; i < kRows; ++i) ASSERT_EQ((*one)[i], i == 199999 ? 1 : 0) << i;
  // "-": the missing names and durations.
  auto dash = searchRows(t, "-");
  ASSERT_TRUE(dash);
  for (size_t i = 0; i < kRows; ++i) ASSERT_EQ((*dash)[i], i % 7 == 6 || i % 11 == 10 ? 1 : 0) << i;
  // A Decimal1 display: "1.4" is Util of i % 10 == 9 (0.9 + 0.5), and in no Duration (no '.').
  auto util = searchRows(t, "1.4");
  ASSERT_TRUE(util);
  for (size_t i = 0; i < kRows; ++i) ASSERT_EQ((*util)[i], i % 10 == 9 ? 1 : 0) << i;
}

TEST_P(ResultQueries, SearchMatchesTimeColumnsAsShownFromTheirZero) {
  const Table t = table();
  // Duration (column 1) shown from a zero of 1234567: row i shows 1000 * i. "199 999 000" is row 199999's,
  // which no cell holds as stored (1000 * i + 1234567 = 199999000 has no whole i).
  const ShownTimes times{1234567, {1}};
  auto shifted = searchRows(t, "199 999 000", {}, times);
  ASSERT_TRUE(shifted);
  for (size_t i = 0; i < kRows; ++i) ASSERT_EQ((*shifted)[i], i == 199999 ? 1 : 0) << i;
  auto stored = searchRows(t, "199999000");
  ASSERT_TRUE(stored);
  for (size_t i = 0; i < kRows; ++i) ASSERT_EQ((*stored)[i], 0) << i;
  // The stored value no longer matches in the shifted column: 201233567 is row 199999's as stored.
  auto old = searchRows(t, "201233567", {}, times);
  ASSERT_TRUE(old);
  for (size_t i = 0; i < kRows; ++i) ASSERT_EQ((*old)[i], 0) << i;
  // Missing cells stay "-"; a Text column (0) or one past the table named in `times` is ignored.
  auto dash = searchRows(t, "-", {}, ShownTimes{1234567, {0, 1, 99}});
  ASSERT_TRUE(dash);
  for (size_t i = 0; i < kRows; ++i) ASSERT_EQ((*dash)[i], i % 7 == 6 || i % 11 == 10 ? 1 : 0) << i;
}

TEST_P(ResultQueries, KeyTotalsSumPerKeyInFirstAppearanceOrder) {
  const Table t = table();
  const KeyTotals byName = keyTotals(t, 0, 1);
  ASSERT_EQ(byName.keys, (std::vector<std::string>{"Kern0", "Kern1", "Kern2", "-"}));
  std::vector<double> sums(4, 0);
  for (size_t i = 0; i < kRows; ++i) {
    const size_t k = i % 7 == 6 ? 3 : i % 3;
    if (i % 11 != 10) sums[k] += static_cast<double>(1000 * i + 1234567);
  }
  EXPECT_EQ(byName.values, sums);
  const KeyTotals counted = keyTotals(t, 2, std::nullopt);
  ASSERT_EQ(counted.keys.size(), 10u);
  EXPECT_EQ(counted.keys[0], "0.5");
  EXPECT_EQ(counted.keys[9], "1.4");
  EXPECT_EQ(counted.values[0], kRows / 10);
}

TEST_P(ResultQueries, RowsWithKeysAreTheSliceRowsAscending) {
  const Table t = table();
  const std::vector<uint32_t> rows = rowsWithKeys(t, 0, {"Kern1", "-"});
  std::vector<uint32_t> want;
  for (uint32_t i = 0; i < kRows; ++i)
    if (i % 7 == 6 || i % 3 == 1) want.push_back(i);
  EXPECT_EQ(rows, want);
}

TEST_P(ResultQueries, ColumnTotalsAreExactAndLeaveOutMissingCellsAndTheSummaryRow) {
  const Table t = table();
  __int128 all = 0;
  for (size_t i = 0; i < kRows; ++i)
    if (i % 11 != 10) all += 1000 * static_cast<int64_t>(i) + 1234567;
  const auto totals = columnTotals(t, {0, 1, 2}, std::nullopt, "");
  ASSERT_EQ(totals.size(), 2u);  // the text column has no sum
  EXPECT_EQ(totals[0].col, 1u);
  EXPECT_TRUE(totals[0].exact);
  EXPECT_EQ(totals[0].digits, std::to_string(static_cast<long long>(all)));
  EXPECT_FALSE(totals[1].exact);
  // Selected rows 0, 10, 13, 2: row 10 is "Kern1", here the summary row, and is left out;
  // row 13 has no name (13 % 7 == 6) and counts. Durations 1234567 + 1247567 + 1236567,
  // Util 0.5 + 0.8 + 0.7.
  const auto some = columnTotals(t, {1, 2}, std::vector<uint32_t>{0, 10, 13, 2}, "Kern1");
  ASSERT_EQ(some.size(), 2u);
  EXPECT_EQ(some[0].digits, "3718701");
  EXPECT_DOUBLE_EQ(some[1].value, 0.5 + 0.8 + 0.7);
}

TEST_P(ResultQueries, RangesAnswerForTheirRowsOnly) {
  const Table t = table();
  // Rows 131070..131080 straddle the second chunk boundary (131072).
  const RowRange range{131070, 11};
  auto kern0 = searchRows(t, "kern0", range);
  ASSERT_TRUE(kern0);
  ASSERT_EQ(kern0->size(), 11u);
  for (size_t i = 0; i < 11; ++i) {
    const size_t row = 131070 + i;
    EXPECT_EQ((*kern0)[i], row % 3 == 0 && row % 7 != 6 ? 1 : 0) << row;
  }
  const KeyTotals counted = keyTotals(t, 0, std::nullopt, range);
  double all = 0;
  for (double v : counted.values) all += v;
  EXPECT_EQ(all, 11);
  std::vector<uint32_t> want;
  for (uint32_t row = 131070; row < 131081; ++row)
    if (row % 3 == 2 && row % 7 != 6) want.push_back(row);
  EXPECT_EQ(rowsWithKeys(t, 0, {"Kern2"}, range), want);
  __int128 sum = 0;
  for (size_t row = 131070; row < 131081; ++row)
    if (row % 11 != 10) sum += 1000 * static_cast<int64_t>(row) + 1234567;
  EXPECT_EQ(columnTotals(t, {1}, std::nullopt, "", range)[0].digits, std::to_string(static_cast<long long>(sum)));
  // A range past the end is empty, not an error.
  EXPECT_EQ(searchRows(t, "kern", {kRows + 5, 10})->size(), 0u);
}

INSTANTIATE_TEST_SUITE_P(HeldAndView, ResultQueries, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "View" : "Held"; });

}  // namespace
