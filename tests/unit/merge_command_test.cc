// `asys merge` (core/import/report_merge.h): the rank reports of one job
// written as one report. Every number the merged report gives is checked
// against the rank reports read with plain SQL of the test's own, never
// through the rule code: row counts of every table, kernels per name,
// processes and devices, the links between tables, and the PCCL
// communications pccl_desync_* must find when each collective is paired
// across all ranks. Then the renumbering of colliding ids, the clocks, the
// dictionaries, and the one-line refusals.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "core/import/merge_columns.h"
#include "core/writer/report_writer.h"
#include "tests/unit/cli_run.h"
#include "tests/unit/csv_rows.h"
#include "tests/unit/sql_query.h"

namespace fs = std::filesystem;

namespace {

using asys::test::cli;
using asys::test::CliRun;
using asys::test::slurp;
using asys::test::SqlFile;
using asys_test::column;
using asys_test::parseCsv;

constexpr int kRanks = 4;

class MergeCommand : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir = fs::temp_directory_path() / ("asys-merge-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    const CliRun g = cli({"gen", "--ranks", std::to_string(kRanks), "--scale", "0.5", "--seed", "11", "--out-dir",
                          (dir / "job").string()});
    ASSERT_EQ(g.status, 0) << g.err;
    std::vector<std::string> args = {"merge"};
    for (int r = 0; r < kRanks; ++r) {
      ranks.push_back((dir / "job" / ("rank-" + std::to_string(r) + ".asysrep")).string());
      args.push_back(ranks.back());
    }
    merged = (dir / "all.asysrep").string();
    args.insert(args.end(), {"-o", merged});
    const CliRun m = cli(args);
    ASSERT_EQ(m.status, 0) << m.err;
    ASSERT_EQ(m.err, "");
  }
  static void TearDownTestSuite() { fs::remove_all(dir); }

  // A rule's CSV on `report`, as rows with the header first.
  static std::vector<std::vector<std::string>> rule(const std::string& name, const std::string& report) {
    const CliRun r = cli({"stats", "-r", name, report});
    EXPECT_EQ(r.status, 0) << r.err;
    return parseCsv(r.out);
  }

  static fs::path dir;
  static std::vector<std::string> ranks;
  static std::string merged;
};
fs::path MergeCommand::dir;
std::vector<std::string> MergeCommand::ranks;
std::string MergeCommand::merged;

int64_t sumOver(const std::vector<std::string>& paths, const std::string& sql) {
  int64_t total = 0;
  for (const std::string& p : paths) total += SqlFile(p).scalar(sql);
  return total;
}

// Per kernel name (demangled, the rule's default): instances and total ns.
std::map<std::string, std::pair<int64_t, int64_t>> kernelsByName(const std::string& path) {
  std::map<std::string, std::pair<int64_t, int64_t>> out;
  SqlFile(path).each(
      "SELECT s.value, count(*), sum(k.end - k.start) FROM HGGC_KERNEL k JOIN StringIds s ON s.id = k.demangledName "
      "GROUP BY s.value",
      [&](sqlite3_stmt* st) {
        out[SqlFile::textOf(st, 0)] = {sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 2)};
      });
  return out;
}

std::string copyOf(const std::string& from, const fs::path& to) {
  fs::copy_file(from, to, fs::copy_options::overwrite_existing);
  return to.string();
}

}  // namespace

// The merge's table of id kinds is the schema's, table for table and column
// for column: a column added to the schema must be classified there.
TEST(MergeColumns, CoverEveryTableAndColumnOfTheSchema) {
  const std::string path = (fs::temp_directory_path() / ("asys-merge-schema-" + std::to_string(::getpid()))).string();
  fs::remove(path);
  asys::writeReportFile(path, [](asys::ReportWriter&) {});
  SqlFile db(path);
  std::vector<std::string> schema;
  db.each("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY rowid",
          [&](sqlite3_stmt* st) { schema.push_back(SqlFile::textOf(st, 0)); });
  const auto& tables = asys::mergeTables();
  ASSERT_EQ(tables.size(), schema.size());
  for (size_t t = 0; t < tables.size(); ++t) {
    EXPECT_EQ(tables[t].name, schema[t]);
    std::vector<std::string> columns, ours;
    db.each("PRAGMA table_info(\"" + schema[t] + "\")", [&](sqlite3_stmt* st) { columns.push_back(SqlFile::textOf(st, 1)); });
    for (const auto& c : tables[t].columns) ours.emplace_back(c.name);
    EXPECT_EQ(ours, columns) << schema[t];
  }
  fs::remove(path);
}

TEST_F(MergeCommand, EveryTableHoldsEveryRanksRows) {
  SqlFile all(merged);
  for (const auto& t : asys::mergeTables()) {
    if (t.merge != asys::TableMerge::kRows) continue;
    const std::string count = std::string("SELECT count(*) FROM \"") + t.name + "\"";
    EXPECT_EQ(all.scalar(count), sumOver(ranks, count)) << t.name;
    EXPECT_GT(all.scalar(count), 0) << t.name;
  }
  // The dictionaries are the same in every rank: one copy of each row.
  for (const char* t : {"ENUM_HGGC_MEMCPY_OPER", "ENUM_HGGC_MEM_KIND", "TARGET_INFO_PPU_METRICS"}) {
    const std::string count = std::string("SELECT count(*) FROM ") + t;
    EXPECT_EQ(all.scalar(count), SqlFile(ranks[0]).scalar(count)) << t;
  }
  EXPECT_EQ(all.text("SELECT value FROM META_DATA WHERE name = 'generator'"), "asys merge (4 reports)");
  EXPECT_EQ(all.text("SELECT value FROM META_DATA WHERE name = 'hostName'"), "ppu-train-node00");
  int64_t end = 0;
  for (const std::string& r : ranks) end = std::max(end, SqlFile(r).scalar("SELECT value FROM META_DATA WHERE name = 'captureEnd'"));
  EXPECT_EQ(all.scalar("SELECT value FROM META_DATA WHERE name = 'captureEnd'"), end);
}

TEST_F(MergeCommand, KernelsAreTheSumOfTheRanksKernels) {
  SqlFile all(merged);
  EXPECT_EQ(all.scalar("SELECT count(*) FROM HGGC_KERNEL"), sumOver(ranks, "SELECT count(*) FROM HGGC_KERNEL"));
  EXPECT_EQ(all.scalar("SELECT sum(end - start) FROM HGGC_KERNEL"),
            sumOver(ranks, "SELECT sum(end - start) FROM HGGC_KERNEL"));
  // Processes and devices stay apart: N times one rank's (every rank has
  // one of each, all with device id 0).
  const int64_t oneProcesses = SqlFile(ranks[0]).scalar("SELECT count(*) FROM PROCESSES");
  const int64_t oneDevices = SqlFile(ranks[0]).scalar("SELECT count(*) FROM TARGET_INFO_PPU");
  EXPECT_EQ(all.scalar("SELECT count(DISTINCT globalPid) FROM PROCESSES"), kRanks * oneProcesses);
  EXPECT_EQ(all.scalar("SELECT count(DISTINCT globalPid) FROM HGGC_KERNEL"), kRanks * oneProcesses);
  EXPECT_EQ(all.scalar("SELECT count(DISTINCT globalTid >> 24) FROM HGGC_API"), kRanks * oneProcesses);
  EXPECT_EQ(all.scalar("SELECT count(DISTINCT id) FROM TARGET_INFO_PPU"), kRanks * oneDevices);
  EXPECT_EQ(all.scalar("SELECT count(DISTINCT deviceId) FROM HGGC_KERNEL"), kRanks * oneDevices);
  EXPECT_EQ(all.scalar("SELECT count(DISTINCT deviceId) FROM PPU_METRICS"), kRanks * oneDevices);
  // Each process's kernels on its own device, as in its rank report.
  EXPECT_EQ(all.scalar("SELECT count(*) FROM (SELECT DISTINCT globalPid, deviceId FROM HGGC_KERNEL)"), kRanks);
}

TEST_F(MergeCommand, KernelSummaryPerNameIsTheSumOverRanks) {
  std::map<std::string, std::pair<int64_t, int64_t>> expected;
  for (const std::string& r : ranks) {
    for (const auto& [name, v] : kernelsByName(r)) {
      expected[name].first += v.first;
      expected[name].second += v.second;
    }
  }
  const auto rows = rule("hggc_ppu_kern_sum", merged);
  ASSERT_GT(rows.size(), 1u);
  const size_t nameCol = column(rows[0], "Name"), instCol = column(rows[0], "Instances"),
               totalCol = column(rows[0], "Total Time (ns)");
  std::map<std::string, std::pair<int64_t, int64_t>> got;
  for (size_t i = 1; i < rows.size(); ++i)
    got[rows[i][nameCol]] = {std::stoll(rows[i][instCol]), std::stoll(rows[i][totalCol])};
  EXPECT_EQ(got, expected);
  // The ranks' kernels are alike but not identical: the merged totals are
  // not any one rank's times N.
  for (const std::string& r : ranks) {
    const auto one = kernelsByName(r);
    bool differs = false;
    for (const auto& [name, v] : one) differs = differs || v.second * kRanks != expected[name].second;
    EXPECT_TRUE(differs) << r;
  }
}

// Each rank's k-th PCCL kernel of a name, and what pccl_desync_summary must
// make of them when the k-th kernels of all ranks are one communication.
TEST_F(MergeCommand, DesyncPairsEveryCollectiveAcrossAllRanks) {
  std::map<std::string, std::vector<std::vector<std::pair<int64_t, int64_t>>>> byName;  // name -> rank -> k
  for (size_t r = 0; r < ranks.size(); ++r) {
    SqlFile(ranks[r]).each(
        "SELECT s.value, k.start, k.end FROM HGGC_KERNEL k JOIN StringIds s ON s.id = k.demangledName "
        "JOIN StringIds b ON b.id = k.shortName WHERE b.value LIKE 'pcclKernel%' ORDER BY k.start",
        [&](sqlite3_stmt* st) {
          auto& perRank = byName[SqlFile::textOf(st, 0)];
          perRank.resize(ranks.size());
          perRank[r].emplace_back(sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 2));
        });
  }
  ASSERT_EQ(byName.size(), 2u);  // the bucket AllReduce and the gradient norm's
  std::map<std::string, std::vector<int64_t>> expected;  // name -> count, total duration, total overlap
  int64_t communications = 0;
  for (const auto& [name, perRank] : byName) {
    const size_t count = perRank[0].size();
    int64_t duration = 0, overlap = 0;
    for (size_t k = 0; k < count; ++k) {
      int64_t first = INT64_MAX, last = INT64_MIN, latestStart = INT64_MIN, earliestEnd = INT64_MAX;
      for (const auto& kernels : perRank) {
        ASSERT_EQ(kernels.size(), count) << name;
        first = std::min(first, kernels[k].first);
        last = std::max(last, kernels[k].second);
        latestStart = std::max(latestStart, kernels[k].first);
        earliestEnd = std::min(earliestEnd, kernels[k].second);
      }
      duration += last - first;
      overlap += std::max<int64_t>(0, earliestEnd - latestStart);
    }
    expected[name] = {static_cast<int64_t>(count), duration, overlap};
    communications += static_cast<int64_t>(count);
  }
  const auto rows = rule("pccl_desync_summary", merged);
  ASSERT_EQ(rows.size(), byName.size() + 1);
  const size_t nameCol = column(rows[0], "Kernel Name"), countCol = column(rows[0], "Count"),
               durCol = column(rows[0], "Total Duration (ns)"), overlapCol = column(rows[0], "Total Overlap (ns)");
  for (size_t i = 1; i < rows.size(); ++i) {
    const std::vector<int64_t> got = {std::stoll(rows[i][countCol]), std::stoll(rows[i][durCol]),
                                      std::stoll(rows[i][overlapCol])};
    EXPECT_EQ(got, expected[rows[i][nameCol]]) << rows[i][nameCol];
  }
  // Every communication of pccl_desync_trace holds one kernel of each rank,
  // and some ran out of step (the ranks' skew).
  const auto trace = rule("pccl_desync_trace", merged);
  ASSERT_EQ(static_cast<int64_t>(trace.size()) - 1, communications);
  const size_t inst = column(trace[0], "Instances"), rate = column(trace[0], "Desync Rate (%)");
  double maxRate = 0;
  for (size_t i = 1; i < trace.size(); ++i) {
    EXPECT_EQ(trace[i][inst], std::to_string(kRanks));
    maxRate = std::max(maxRate, std::stod(trace[i][rate]));
  }
  EXPECT_GT(maxRate, 10.0);
}

// Links between tables survive the renumbering: every kernel's launch is
// the call with its correlation id in its own process, every thread name
// and call chain is found, every string id resolves.
TEST_F(MergeCommand, LinksBetweenTablesStayWithinEachRank) {
  SqlFile all(merged);
  const int64_t kernels = all.scalar("SELECT count(*) FROM HGGC_KERNEL");
  EXPECT_EQ(all.scalar("SELECT count(*) FROM HGGC_KERNEL k WHERE EXISTS (SELECT 1 FROM HGGC_API a WHERE "
                       "a.correlationId = k.correlationId AND a.globalTid >> 24 = k.globalPid >> 24)"),
            sumOver(ranks, "SELECT count(*) FROM HGGC_KERNEL k WHERE EXISTS (SELECT 1 FROM HGGC_API a WHERE "
                           "a.correlationId = k.correlationId AND a.globalTid >> 24 = k.globalPid >> 24)"));
  EXPECT_GT(kernels, 0);
  for (const char* sql : {
           "SELECT count(*) FROM HGGC_KERNEL k JOIN StringIds s ON s.id = k.demangledName",
           "SELECT count(*) FROM HGGC_API a JOIN StringIds s ON s.id = a.nameId",
           "SELECT count(*) FROM ThreadNames t JOIN StringIds s ON s.id = t.nameId",
           "SELECT count(*) FROM HGTX_EVENTS h JOIN StringIds s ON s.id = h.textId",
           "SELECT count(*) FROM PPU_MEMORY_USAGE_EVENTS m JOIN CALLCHAINS c ON c.id = m.callchainId AND c.stackDepth = 0",
           "SELECT count(*) FROM PPU_METRICS m JOIN TARGET_INFO_PPU_METRICS i ON i.metricId = m.metricId",
           "SELECT count(*) FROM HGGC_MEMCPY m JOIN ENUM_HGGC_MEMCPY_OPER e ON e.id = m.copyKind",
           "SELECT count(*) FROM ThreadNames t JOIN PROCESSES p ON p.globalPid = t.globalTid >> 24 << 24",
       }) {
    EXPECT_EQ(all.scalar(sql), sumOver(ranks, sql)) << sql;
  }
  // Texts survive: the same names, as many times.
  const char* texts = "SELECT count(*) FROM HGTX_EVENTS h JOIN StringIds s ON s.id = h.textId WHERE s.value = 'forward'";
  EXPECT_EQ(all.scalar(texts), sumOver(ranks, texts));
  EXPECT_EQ(all.scalar("SELECT count(*) FROM PPU_MEMORY_USAGE_EVENTS"),
            all.scalar("SELECT count(DISTINCT eventId) FROM PPU_MEMORY_USAGE_EVENTS"));
}

// Two copies of one report: every pid, thread, device and id collides, so
// the second copy's are renumbered; its tids and names stay.
TEST_F(MergeCommand, CollidingIdsAreRenumbered) {
  const std::string a = copyOf(ranks[1], dir / "a.asysrep"), b = copyOf(ranks[1], dir / "b.asysrep");
  const std::string out = (dir / "ab.asysrep").string();
  const CliRun r = cli({"merge", a, b, "-o", out});
  ASSERT_EQ(r.status, 0) << r.err;
  SqlFile db(out), one(a);
  EXPECT_EQ(db.scalar("SELECT count(DISTINCT globalPid) FROM PROCESSES"), 2);
  EXPECT_EQ(db.scalar("SELECT count(DISTINCT pid) FROM PROCESSES"), 2);
  EXPECT_EQ(db.scalar("SELECT count(*) FROM PROCESSES WHERE globalPid <> pid << 24"), 0);
  EXPECT_EQ(db.scalar("SELECT count(DISTINCT id) FROM TARGET_INFO_PPU"), 2);
  EXPECT_EQ(db.scalar("SELECT count(DISTINCT globalTid) FROM ThreadNames"),
            2 * one.scalar("SELECT count(DISTINCT globalTid) FROM ThreadNames"));
  EXPECT_EQ(db.scalar("SELECT count(DISTINCT globalTid & 16777215) FROM ThreadNames"),
            one.scalar("SELECT count(DISTINCT globalTid & 16777215) FROM ThreadNames"));
  EXPECT_EQ(db.scalar("SELECT count(DISTINCT id) FROM CALLCHAINS"), 2 * one.scalar("SELECT count(DISTINCT id) FROM CALLCHAINS"));
  EXPECT_EQ(db.scalar("SELECT count(*) FROM StringIds"), 2 * one.scalar("SELECT count(*) FROM StringIds"));
  // The first input keeps its ids; the second takes free ones.
  EXPECT_EQ(db.scalar("SELECT count(*) FROM PROCESSES WHERE globalPid = " + std::to_string(one.scalar("SELECT globalPid FROM PROCESSES"))), 1);
  EXPECT_EQ(db.scalar("SELECT count(*) FROM TARGET_INFO_PPU WHERE id = " + std::to_string(one.scalar("SELECT id FROM TARGET_INFO_PPU"))), 1);
  const auto once = kernelsByName(a), twice = kernelsByName(out);
  ASSERT_EQ(once.size(), twice.size());
  for (const auto& [name, v] : once) EXPECT_EQ(twice.at(name), std::make_pair(2 * v.first, 2 * v.second)) << name;
  const auto summary = rule("hggc_api_sum", out), single = rule("hggc_api_sum", a);
  EXPECT_EQ(summary.size(), single.size());
}

// Enum ids are merged by their texts: a report that numbers its copy kinds
// otherwise has its ids renumbered to the merged report's.
TEST_F(MergeCommand, DictionariesMergeByText) {
  const std::string a = copyOf(ranks[0], dir / "enum-a.asysrep"), b = copyOf(ranks[1], dir / "enum-b.asysrep");
  {
    SqlFile w(b, true);
    // Swap Host-to-Device (1) and Device-to-Host (2) in the enum and the rows.
    w.exec("UPDATE ENUM_HGGC_MEMCPY_OPER SET id = -id WHERE id IN (1, 2)");
    w.exec("UPDATE ENUM_HGGC_MEMCPY_OPER SET id = CASE id WHEN -1 THEN 2 ELSE 1 END WHERE id IN (-1, -2)");
    w.exec("UPDATE HGGC_MEMCPY SET copyKind = CASE copyKind WHEN 1 THEN 2 WHEN 2 THEN 1 ELSE copyKind END");
    // And a metric the other report lacks, under an id it uses.
    w.exec("UPDATE TARGET_INFO_PPU_METRICS SET metricName = 'extra metric' WHERE metricId = 1");
  }
  const std::string out = (dir / "enum.asysrep").string();
  ASSERT_EQ(cli({"merge", a, b, "-o", out}).status, 0);
  const char* byLabel =
      "SELECT count(*) FROM HGGC_MEMCPY m JOIN ENUM_HGGC_MEMCPY_OPER e ON e.id = m.copyKind WHERE e.label = "
      "'Host-to-Device'";
  EXPECT_EQ(SqlFile(out).scalar(byLabel), sumOver({a, b}, byLabel));
  EXPECT_EQ(SqlFile(out).scalar("SELECT count(*) FROM ENUM_HGGC_MEMCPY_OPER"),
            SqlFile(a).scalar("SELECT count(*) FROM ENUM_HGGC_MEMCPY_OPER"));
  const char* extra =
      "SELECT count(*) FROM PPU_METRICS m JOIN TARGET_INFO_PPU_METRICS i ON i.metricId = m.metricId WHERE i.metricName = "
      "'extra metric'";
  EXPECT_EQ(SqlFile(out).scalar(extra), SqlFile(b).scalar(extra));
  EXPECT_GT(SqlFile(out).scalar(extra), 0);
  EXPECT_EQ(SqlFile(out).scalar("SELECT count(*) FROM TARGET_INFO_PPU_METRICS"),
            SqlFile(a).scalar("SELECT count(*) FROM TARGET_INFO_PPU_METRICS") + 1);
}

// Reports that record their clock (epochOffset, as Kineto imports do) are
// moved onto the first one's; a report without it cannot be aligned.
TEST_F(MergeCommand, ClocksAreAlignedByEpochOffset) {
  const std::string a = copyOf(ranks[0], dir / "clock-a.asysrep"), b = copyOf(ranks[1], dir / "clock-b.asysrep");
  SqlFile(a, true).exec("INSERT INTO META_DATA VALUES ('epochOffset', '1000000000')");
  SqlFile(b, true).exec("INSERT INTO META_DATA VALUES ('epochOffset', '1000005000')");
  const std::string out = (dir / "clock.asysrep").string();
  ASSERT_EQ(cli({"merge", a, b, "-o", out}).status, 0);
  SqlFile db(out);
  const int64_t pidB = SqlFile(b).scalar("SELECT globalPid FROM PROCESSES");
  const int64_t firstB = SqlFile(b).scalar("SELECT min(start) FROM HGGC_KERNEL");
  EXPECT_EQ(db.scalar("SELECT min(start) FROM HGGC_KERNEL WHERE globalPid = " + std::to_string(pidB)), firstB + 5000);
  EXPECT_EQ(db.text("SELECT value FROM META_DATA WHERE name = 'epochOffset'"), "1000000000");
  SqlFile(b, true).exec("DELETE FROM META_DATA WHERE name = 'epochOffset'");
  const CliRun r = cli({"merge", a, b, "-o", (dir / "clock2.asysrep").string()});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "asys merge: " + b + ": no META_DATA epochOffset, but " + a + " has one: their clocks cannot be aligned\n");
  EXPECT_FALSE(fs::exists(dir / "clock2.asysrep"));
}

// A text where an id belongs is not turned into an id: the merged report
// holds the same text, which the engine rejects as it rejects the input.
TEST_F(MergeCommand, ABrokenIdCellStaysBroken) {
  const std::string a = copyOf(ranks[0], dir / "broken-a.asysrep"), b = copyOf(ranks[1], dir / "broken-b.asysrep");
  SqlFile(b, true).exec("UPDATE HGGC_KERNEL SET shortName = 'soon', globalPid = 'later' WHERE rowid = 3");
  const std::string out = (dir / "broken.asysrep").string();
  ASSERT_EQ(cli({"merge", a, b, "-o", out}).status, 0);
  const int64_t row = SqlFile(a).scalar("SELECT count(*) FROM HGGC_KERNEL") + 3;
  EXPECT_EQ(SqlFile(out).text("SELECT shortName || '/' || globalPid FROM HGGC_KERNEL WHERE rowid = " + std::to_string(row)),
            "soon/later");
  const CliRun r = cli({"stats", "-r", "hggc_ppu_kern_sum", out});
  EXPECT_NE(r.status, 0);
  EXPECT_EQ(r.err, "asys stats: hggc_ppu_kern_sum: " + out + ": table HGGC_KERNEL, column shortName, row " +
                       std::to_string(row) + ": 'soon' is not an integer\n");
}

TEST_F(MergeCommand, RefusalsAreOneLineAndLeaveNothingBehind) {
  const fs::path out = dir / "refused.asysrep";
  const std::string text = (dir / "notes.txt").string();
  std::ofstream(text) << "not a report\n";
  const std::string json = (dir / "trace.json").string();
  std::ofstream(json) << "{\"traceEvents\": []}\n";
  const std::string missing = (dir / "missing.asysrep").string();
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"merge", ranks[0], text, "-o", out.string()}, text + ": not an asysrep report (not an SQLite database)"},
      {{"merge", ranks[0], missing, "-o", out.string()}, missing + ": cannot open: No such file or directory"},
      {{"merge", json, ranks[0], "-o", out.string()},
       json + ": a PyTorch/Kineto trace, not an asysrep report (convert it first: asys import " + json + " -o OUT.asysrep)"},
      {{"merge", ranks[0], ranks[1], ranks[0], "-o", out.string()},
       ranks[0] + ": given twice (also as " + ranks[0] + "); a report merged with itself counts its events twice"},
      {{"merge", ranks[0], ranks[1], "-o", ranks[1], "-f", "true"}, ranks[1] + ": is also an input; choose another output file"},
  };
  for (const auto& [args, message] : cases) {
    const CliRun r = cli(args);
    EXPECT_EQ(r.status, 1) << message;
    EXPECT_EQ(r.err, "asys merge: " + message + "\n");
    EXPECT_FALSE(fs::exists(out)) << message;
    EXPECT_FALSE(fs::exists(out.string() + ".partial")) << message;
  }
  // An existing output is kept without -f true, replaced with it.
  std::ofstream(out) << "kept\n";
  const CliRun kept = cli({"merge", ranks[0], ranks[1], "-o", out.string()});
  EXPECT_EQ(kept.status, 1);
  EXPECT_EQ(kept.err, "asys merge: " + out.string() + " exists (use -f true to overwrite)\n");
  EXPECT_EQ(slurp(out), "kept\n");
  EXPECT_EQ(cli({"merge", ranks[0], ranks[1], "-o", out.string(), "-f", "false"}).status, 1);
  EXPECT_EQ(slurp(out), "kept\n");
  ASSERT_EQ(cli({"merge", ranks[0], ranks[1], "-o", out.string(), "-f", "true"}).status, 0);
  EXPECT_EQ(SqlFile(out.string()).scalar("SELECT count(*) FROM PROCESSES"), 2);
  // A refused merge over an existing output leaves it as it was.
  std::ofstream(out) << "kept\n";
  EXPECT_EQ(cli({"merge", ranks[0], text, "-o", out.string(), "-f", "true"}).status, 1);
  EXPECT_EQ(slurp(out), "kept\n");
}

TEST_F(MergeCommand, UsageErrors) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"merge", ranks[0]}, "asys merge: missing -o ALL.asysrep\n"},
      {{"merge", "-o", "x.asysrep"}, "asys merge: no report given\n"},
      {{"merge", ranks[0], "-o"}, "asys merge: -o: missing value\n"},
      {{"merge", ranks[0], "-o", "x.asysrep", "-f", "yes"}, "asys merge: -f: expected true or false, got 'yes'\n"},
      {{"merge", ranks[0], "--frobnicate", "-o", "x.asysrep"},
       "asys merge: unknown option '--frobnicate' (see asys merge --help)\n"},
  };
  for (const auto& [args, message] : cases) {
    const CliRun r = cli(args);
    EXPECT_EQ(r.status, 2) << message;
    EXPECT_EQ(r.err, message);
  }
  EXPECT_FALSE(fs::exists("x.asysrep"));
  const CliRun help = cli({"merge", "--help"});
  EXPECT_EQ(help.status, 0);
  EXPECT_EQ(help.out.rfind("usage: asys merge REPORT... -o ALL.asysrep [-f true|false]\n", 0), 0u);
  EXPECT_NE(cli({"--help"}).out.find("  merge    "), std::string::npos);
}
