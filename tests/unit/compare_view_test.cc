// The compare layer's output as a view (core/rules/compare.cc): each side is
// held as the columns its output reads, a Key column's text read back from
// the row's key, and the output's cells ("base / target" texts, ratios,
// the shown keys) made when a chunk is asked for. Hand-made side tables,
// hand-worked rows.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "core/gen/generator.h"
#include "core/report/report.h"
#include "core/rules/compare.h"
#include "core/rules/rule.h"
#include "core/table/writers.h"

namespace fs = std::filesystem;

namespace {

using asys::CellKind;
using asys::ColumnRole;
using asys::Table;

std::vector<asys::ColumnSpec> sideColumns() {
  return {
      {"Name", "", CellKind::Text, "name", ColumnRole::Key},
      {"Kind", "", CellKind::Text, "kind", ColumnRole::Key},
      {"Share", "%", CellKind::Decimal1, "share"},
      {"Time", "ns", CellKind::Int, "time"},
      {"Note", "", CellKind::Text, "note"},
      {"Extra", "", CellKind::Int, "not read by the compare"},
  };
}

struct Row {
  std::string name, kind;
  double share;
  int64_t time;  // -1: "-"
  std::string note;  // "": "-"
};

Table sideTable(const std::vector<Row>& rows) {
  Table t(sideColumns());
  for (const Row& r : rows) {
    t.setText(0, r.name);
    t.setText(1, r.kind);
    t.setDecimal(2, r.share);
    if (r.time >= 0) t.setInt(3, r.time);
    if (!r.note.empty()) t.setText(4, r.note);
    t.setInt(5, 7);
    t.endRow();
  }
  return t;
}

std::string csvOf(const Table& t) {
  std::ostringstream out;
  asys::writeCsv(t, out);
  return out.str();
}

class CompareView : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir = fs::temp_directory_path() / ("asys-compare-view-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    path = (dir / "r.asysrep").string();
    asys::generateReport({.seed = 3, .scale = 0.05, .profile = "base"}, path);
  }
  static void TearDownTestSuite() { fs::remove_all(dir); }

  // The compare of `base` and `target` rows: Time with its ratio, Note,
  // then Base / Target Name.
  Table compare(std::vector<Row> base, std::vector<Row> target, bool matchedOnly) {
    auto b = asys::Report::open(path), t = asys::Report::open(path);
    asys::Report* baseReport = b.get();
    asys::CompareSpec spec{
        .side = [&](asys::RuleContext& ctx) { return sideTable(&ctx.report == baseReport ? base : target); },
        .sideColumns = sideColumns(),
        .shownKey = "Name",
        .shownLabel = "Name",
        .shownHelp = "Name",
        .deviceName = false,
        .share = "Share",
        .values = {{.from = "Time", .ratio = "Time Ratio", .ratioHelp = "base / target"}, {.from = "Note"}},
    };
    asys::RuleOptions options;
    asys::RuleContext bc{*b, options, {}, asys::RuleConfig::defaults()};
    asys::RuleContext tc{*t, options, {}, asys::RuleConfig::defaults()};
    Table out = asys::compareTables(spec, bc, tc, matchedOnly);
    // The view outlives the spec, the side tables and the reports.
    return out;
  }

  // A compare of two hand-made side tables, each report's own.
  Table compareTablesOf(const asys::CompareSpec& declared, Table base, Table target) {
    auto b = asys::Report::open(path), t = asys::Report::open(path);
    asys::Report* baseReport = b.get();
    asys::CompareSpec spec = declared;
    spec.side = [&](asys::RuleContext& ctx) { return &ctx.report == baseReport ? base : target; };
    asys::RuleOptions options;
    asys::RuleContext bc{*b, options, {}, asys::RuleConfig::defaults()};
    asys::RuleContext tc{*t, options, {}, asys::RuleConfig::defaults()};
    return asys::compareTables(spec, bc, tc, false);
  }

  static fs::path dir;
  static std::string path;
};

fs::path CompareView::dir;
std::string CompareView::path;

// Base a|x 50 % 300 "n1", b|x 20 % 100 (no note); target a|x 40 % 200 "n2",
// b|y 30 % 0 "n3", e|x 5 % (no time) "n4". Keys are Name and Kind: b|x and
// b|y do not match. By the larger share: a|x 50, b|y 30, b|x 20, e|x 5.
// a: 300 / 200 = 1.5. b|y: the target time is 0 and the base has none: no
// ratio. b|x: no note on either side: "-" alone. e|x: no time either side.
TEST_F(CompareView, RowsAreMadeFromTheHeldColumns) {
  const std::vector<Row> base = {{"a", "x", 50.0, 300, "n1"}, {"b", "x", 20.0, 100, ""}};
  const std::vector<Row> target = {{"a", "x", 40.0, 200, "n2"}, {"b", "y", 30.0, 0, "n3"}, {"e", "x", 5.0, -1, "n4"}};
  const Table t = compare(base, target, false);
  EXPECT_TRUE(t.isView());
  EXPECT_EQ(t.rowCount(), 4u);
  EXPECT_EQ(csvOf(t),
            "Row#,Time (ns),Time Ratio,Note,Base Name,Target Name,\n"
            "1,\"300 / 200\",1.5,\"n1 / n2\",\"a\",\"a\",\n"
            "2,\"- / 0\",\"-\",\"- / n3\",\"-\",\"b\",\n"
            "3,\"100 / -\",\"-\",\"-\",\"b\",\"-\",\n"
            "4,\"-\",\"-\",\"- / n4\",\"-\",\"e\",\n");
  // Chunks of the view write what the whole does.
  std::ostringstream parts;
  asys::writeCsvRows(t, 0, 3, true, parts);
  asys::writeCsvRows(t, 3, 1, false, parts);
  EXPECT_EQ(parts.str(), csvOf(t));

  const Table matched = compare(base, target, true);
  EXPECT_EQ(csvOf(matched),
            "Row#,Time (ns),Time Ratio,Note,Base Name,Target Name,\n"
            "1,\"300 / 200\",1.5,\"n1 / n2\",\"a\",\"a\",\n");
}

// A name holding the key's separator cannot be read back from the key: its
// column is held as texts, and the rows are the same. Equal shares are
// ordered by key ("a\x1fb\x1fx" < "a\x1fx").
TEST_F(CompareView, ANameWithTheSeparatorIsHeldAsItsText) {
  const std::vector<Row> base = {{"a\x1f" "b", "x", 10.0, 5, "n"}, {"a", "x", 10.0, 4, "m"}};
  const std::vector<Row> target = {{"a", "x", 10.0, 8, "m"}};
  EXPECT_EQ(csvOf(compare(base, target, false)),
            "Row#,Time (ns),Time Ratio,Note,Base Name,Target Name,\n"
            "1,\"5 / -\",\"-\",\"n / -\",\"a\x1f" "b\",\"-\",\n"
            "2,\"4 / 8\",0.5,\"m / m\",\"a\",\"a\",\n");
}

// A base side past a mebibyte (20,000 names of 73 bytes) is packed while
// the target side runs and comes back whole: base row i is "range <i, six
// digits>" and 60 'p's, share (20000 - i) / 10 (so the rows stay in i's
// order), time i + 1; the target has the even i's with time 2 (i + 1)
// (ratio 0.5) and "other 0" .. "other 9" with share 0.05, last, by key.
TEST_F(CompareView, ALargeBaseSideComesBackFromItsPackedBytes) {
  constexpr int kRows = 20000;
  std::vector<Row> base, target;
  auto name = [](int i) {
    std::string n = std::to_string(i);
    return "range " + std::string(6 - n.size(), '0') + n + std::string(60, 'p');
  };
  for (int i = 0; i < kRows; ++i) {
    base.push_back({name(i), "x", (kRows - i) / 10.0, i + 1, ""});
    if (i % 2 == 0) target.push_back({name(i), "x", (kRows - i) / 10.0, 2 * (i + 1), ""});
  }
  for (int i = 9; i >= 0; --i) target.push_back({"other " + std::to_string(i), "x", 0.05, 1, "o"});
  const std::string csv = csvOf(compare(base, target, false));
  std::string expected = "Row#,Time (ns),Time Ratio,Note,Base Name,Target Name,\n";
  for (int i = 0; i < kRows; ++i) {
    const std::string n = std::to_string(i + 1);
    expected += n + ",\"" + n + " / " + (i % 2 == 0 ? std::to_string(2 * (i + 1)) + "\",0.5," : "-\",\"-\",") +
                "\"-\",\"" + name(i) + "\",\"" + (i % 2 == 0 ? name(i) : "-") + "\",\n";
  }
  for (int i = 0; i < 10; ++i)
    expected += std::to_string(kRows + i + 1) + ",\"- / 1\",\"-\",\"- / o\",\"-\",\"other " + std::to_string(i) + "\",\n";
  EXPECT_EQ(csv.substr(0, 300), expected.substr(0, 300));
  EXPECT_EQ(csv, expected);
}

// Side blocks: a row one side lacks shows that side's row of the same
// level prefix. The target side's keys are made against a pool of its own
// and renumbered into the base's (compareTables): its levels' first rows
// must be by the shared ids. Base A|k1 100/60, A|k2 100/40, B|k3 50/50;
// target C|k5 70/70, A|k1 90/30, A|k4 90/60 (Op Time / Kernel Time). Order
// by the larger Op Time, then Kernel Time, descending, ties by key: A|k1
// (100, 60), A|k4 (100, 60; the base's A is 100), A|k2 (100, 40), C|k5 (70,
// 70), B|k3 (50, 50). A|k2's target block shows the target's A (its first
// row, 90) and no kernel; A|k4's base block the base's A (100); C and B
// are on one side only.
TEST_F(CompareView, SideBlocksFindTheOtherSidesLevelRowByTheSharedKeys) {
  const std::vector<asys::ColumnSpec> columns = {
      {"Op", "", CellKind::Text, "op", ColumnRole::Key},
      {"Kernel", "", CellKind::Text, "kernel", ColumnRole::Key},
      {"Op Time", "", CellKind::Int, "op time"},
      {"Kernel Time", "", CellKind::Int, "kernel time"},
  };
  auto side = [&](const std::vector<std::tuple<std::string, std::string, int64_t, int64_t>>& rows) {
    Table t(columns);
    for (const auto& [op, kernel, opTime, kernelTime] : rows) {
      t.setText(0, op);
      t.setText(1, kernel);
      t.setInt(2, opTime);
      t.setInt(3, kernelTime);
      t.endRow();
    }
    return t;
  };
  asys::CompareSpec spec;
  spec.sideColumns = columns;
  spec.deviceName = false;
  spec.levels = {{1, "Op Time", {{.from = "Op"}, {.from = "Op Time"}}},
                 {2, "Kernel Time", {{.from = "Kernel"}, {.from = "Kernel Time"}}}};
  spec.ratios = {{.from = "Kernel Time", .ratio = "Kernel Ratio", .ratioHelp = "base / target"}};
  const Table t = compareTablesOf(spec, side({{"A", "k1", 100, 60}, {"A", "k2", 100, 40}, {"B", "k3", 50, 50}}),
                                  side({{"C", "k5", 70, 70}, {"A", "k1", 90, 30}, {"A", "k4", 90, 60}}));
  EXPECT_EQ(csvOf(t),
            "Row#,Base Op,Base Op Time,Base Kernel,Base Kernel Time,Target Op,Target Op Time,Target Kernel,"
            "Target Kernel Time,Kernel Ratio,\n"
            "1,\"A\",100,\"k1\",60,\"A\",90,\"k1\",30,2.0,\n"
            "2,\"A\",100,\"-\",\"-\",\"A\",90,\"k4\",60,\"-\",\n"
            "3,\"A\",100,\"k2\",40,\"A\",90,\"-\",\"-\",\"-\",\n"
            "4,\"-\",\"-\",\"-\",\"-\",\"C\",70,\"k5\",70,\"-\",\n"
            "5,\"B\",50,\"k3\",50,\"-\",\"-\",\"-\",\"-\",\"-\",\n");
}

}  // namespace
