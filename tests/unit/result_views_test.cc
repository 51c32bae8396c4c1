// Results as views (core/table/table.h RowSource): a view's rows made a chunk
// at a time write what the same rows held whole write; and hggc_ppu_trace,
// a view whose kernel cells are read from the file a page at a time
// (core/report/row_pages.h), prints what an independent SQLite query of
// the same report says, in tables of near-start order (read page by page)
// and of scrambled order (read whole), with its errors naming the row a
// whole-table load names.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <sstream>
#include <string>

#include "core/report/report.h"
#include "core/report/row_pages.h"
#include "core/rules/rule.h"
#include "core/table/sort.h"
#include "core/table/table.h"
#include "core/table/writers.h"
#include "tests/unit/cli_run.h"
#include "tests/unit/temp_report.h"
#include "tests/unit/test_random.h"

namespace {

using asys::CellKind;
using asys::Table;

std::vector<asys::ColumnSpec> toyColumns() {
  return {{"N", "", CellKind::Int, ""}, {"Half", "", CellKind::Decimal1, ""}, {"Name", "", CellKind::Text, ""}};
}

// Row i: N = 3i, Half = i / 2 for even i and "-" for odd, Name = "n<i % 5>".
class ToyRows : public asys::RowSource {
 public:
  explicit ToyRows(size_t rows) : rows_(rows) {}
  size_t rowCount() const override { return rows_; }
  void appendRows(size_t first, size_t count, Table& t) override {
    ++calls;
    for (size_t i = first; i < first + count; ++i) {
      t.setInt(0, static_cast<int64_t>(3 * i));
      if (i % 2 == 0) t.setDecimal(1, static_cast<double>(i) / 2);
      t.setText(2, "n" + std::to_string(i % 5));
      t.endRow();
    }
  }
  size_t calls = 0;

 private:
  size_t rows_;
};

std::string csvOf(const Table& t) {
  std::ostringstream out;
  asys::writeCsv(t, out);
  return out.str();
}

TEST(ResultViews, ChunksOfAViewAreItsRowsInOrder) {
  auto rows = std::make_shared<ToyRows>(50);
  Table view(toyColumns(), rows);
  ASSERT_TRUE(view.isView());
  EXPECT_EQ(view.rowCount(), 50u);
  std::vector<size_t> firsts;
  std::string names;
  asys::forEachChunk(
      view,
      [&](const Table& chunk, size_t first) {
        firsts.push_back(first);
        for (size_t r = 0; r < chunk.rowCount(); ++r) {
          EXPECT_EQ(chunk.intAt(r, 0), static_cast<int64_t>(3 * (first + r)));
          EXPECT_EQ(chunk.isMissing(r, 1), (first + r) % 2 == 1);
          names += std::string(chunk.textAt(r, 2));
        }
      },
      7);
  EXPECT_EQ(firsts, (std::vector<size_t>{0, 7, 14, 21, 28, 35, 42, 49}));
  EXPECT_EQ(rows->calls, 8u);
  EXPECT_EQ(names.size(), 100u);
  EXPECT_EQ(names.substr(0, 12), "n0n1n2n3n4n0");
}

TEST(ResultViews, AViewWritesWhatItsRowsHeldWholeWrite) {
  Table view(toyColumns(), std::make_shared<ToyRows>(4));
  // Worked by hand from ToyRows' definition.
  const std::string expected =
      "Row#,N,Half,Name,\n"
      "1,0,0.0,\"n0\",\n"
      "2,3,\"-\",\"n1\",\n"
      "3,6,1.0,\"n2\",\n"
      "4,9,\"-\",\"n3\",\n";
  EXPECT_EQ(csvOf(view), expected);
  Table whole = view;
  whole.materialize();
  EXPECT_FALSE(whole.isView());
  EXPECT_EQ(csvOf(whole), expected);
  std::ostringstream a, b;
  asys::writeColumn(view, a);
  asys::writeColumn(whole, b);
  EXPECT_EQ(a.str(), b.str());
  std::ostringstream ja, jb;
  asys::writeJson(view, ja);
  asys::writeJson(whole, jb);
  EXPECT_EQ(ja.str(), jb.str());
}

TEST(ResultViews, TruncateAndCopyRowsOfViewsAndHeldTables) {
  Table view(toyColumns(), std::make_shared<ToyRows>(50));
  view.truncate(10);
  EXPECT_EQ(view.rowCount(), 10u);
  Table into = view.emptyLike();
  view.copyRows(8, 5, into);  // only rows 8 and 9 are left
  ASSERT_EQ(into.rowCount(), 2u);
  EXPECT_EQ(into.intAt(1, 0), 27);
  Table whole = view;
  whole.materialize();
  EXPECT_EQ(whole.rowCount(), 10u);
  whole.copyRows(1, 2, into);
  ASSERT_EQ(into.rowCount(), 2u);
  EXPECT_EQ(into.intAt(0, 0), 3);
  EXPECT_TRUE(into.isMissing(0, 1));
  EXPECT_EQ(into.textAt(1, 2), "n2");
}

// A report of `kernels` kernels (plus 20 memsets) written with SQLite alone.
// Kernel k has rowid 3k + 5 (gaps), start `startOf(k)`, a 1000 + k % 7 ns
// duration (NULL end for every 9973rd: cut off), device k % 3, stream k % 4,
// grid k % 11 + 1, name id 1 + k % 13 ("kern_<id>").
class ViewReport {
 public:
  ViewReport(const std::string& name, size_t kernels, const std::function<int64_t(size_t)>& startOf,
             const std::string& badCell = "")
      : path_(::testing::TempDir() + name + "_" + std::to_string(getpid()) + ".asysrep") {
    std::filesystem::remove(path_);
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open(path_.c_str(), &db), SQLITE_OK);
    auto exec = [&](const std::string& sql) {
      char* error = nullptr;
      EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error), SQLITE_OK) << (error ? error : "");
      sqlite3_free(error);
    };
    exec("PRAGMA journal_mode=OFF; BEGIN;"
         "CREATE TABLE META_DATA (name TEXT, value TEXT);"
         "INSERT INTO META_DATA VALUES ('format','asysrep'),('formatVersion','1'),('captureStart','0');"
         "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT);"
         "CREATE TABLE HGGC_KERNEL (start INTEGER, end INTEGER, deviceId INTEGER, contextId INTEGER,"
         " streamId INTEGER, correlationId INTEGER, globalPid INTEGER, demangledName INTEGER,"
         " shortName INTEGER, mangledName INTEGER, gridX, gridY INTEGER, gridZ INTEGER, blockX INTEGER,"
         " blockY INTEGER, blockZ INTEGER, registersPerThread INTEGER, staticSharedMemory INTEGER,"
         " dynamicSharedMemory INTEGER, graphNodeId INTEGER, graphId INTEGER);"
         "CREATE TABLE HGGC_MEMSET (start INTEGER, end INTEGER, deviceId INTEGER, contextId INTEGER,"
         " streamId INTEGER, correlationId INTEGER, globalPid INTEGER, bytes INTEGER, memKind INTEGER,"
         " graphNodeId INTEGER, graphId INTEGER);");
    for (int id = 1; id <= 13; ++id) exec("INSERT INTO StringIds VALUES (" + std::to_string(id) + ", 'kern_" + std::to_string(id) + "')");
    sqlite3_stmt* st = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(db,
                                 "INSERT INTO HGGC_KERNEL (rowid, start, end, deviceId, contextId, streamId,"
                                 " correlationId, globalPid, demangledName, gridX, gridY, gridZ, blockX, blockY,"
                                 " blockZ, registersPerThread, staticSharedMemory, dynamicSharedMemory)"
                                 " VALUES (?, ?, ?, ?, 1, ?, ?, 16777216, ?, ?, 1, 1, 128, 1, 1, 32, 0, 0)",
                                 -1, &st, nullptr),
              SQLITE_OK);
    for (size_t k = 0; k < kernels; ++k) {
      const int64_t start = startOf(k);
      sqlite3_bind_int64(st, 1, static_cast<int64_t>(3 * k + 5));
      sqlite3_bind_int64(st, 2, start);
      if (k % 9973 == 9972) sqlite3_bind_null(st, 3);
      else sqlite3_bind_int64(st, 3, start + 1000 + static_cast<int64_t>(k % 7));
      sqlite3_bind_int64(st, 4, static_cast<int64_t>(k % 3));
      sqlite3_bind_int64(st, 5, static_cast<int64_t>(k % 4));
      sqlite3_bind_int64(st, 6, static_cast<int64_t>(k));
      sqlite3_bind_int64(st, 7, static_cast<int64_t>(1 + k % 13));
      if (!badCell.empty() && k == kernels - 10) sqlite3_bind_text(st, 8, badCell.c_str(), -1, SQLITE_TRANSIENT);
      else sqlite3_bind_int64(st, 8, static_cast<int64_t>(k % 11 + 1));
      EXPECT_EQ(sqlite3_step(st), SQLITE_DONE);
      sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    exec("WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 19)"
         " INSERT INTO HGGC_MEMSET SELECT i * 50000 + 7, i * 50000 + 500, 0, 1, 2, 900000 + i, 16777216,"
         " 4096 * (i + 1), NULL, NULL, NULL FROM n;"
         "COMMIT;");
    sqlite3_close(db);
  }
  ~ViewReport() { std::filesystem::remove(path_); }
  const std::string& path() const { return path_; }

  // hggc_ppu_trace's CSV as SQLite orders and this test formats it: one
  // UNION of both tables ordered by start, then kernels before memsets,
  // then rowid; missing cells "-" (no device names: "(ID)"; memset
  // throughput as Nsight, the integer division first).
  std::string expectedTrace() const {
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open_v2(path_.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
    const char* sql =
        "SELECT start, end, correlationId, gridX, '128,1,1,32,0,0', NULL, NULL, deviceId, contextId, streamId,"
        " (SELECT value FROM StringIds WHERE id = demangledName), 0 AS source, rowid FROM HGGC_KERNEL"
        " UNION ALL SELECT start, end, correlationId, NULL, NULL, bytes, bytes * (1000000000 / (end - start)),"
        " deviceId, contextId, streamId, 'Memset', 1, rowid FROM HGGC_MEMSET"
        " ORDER BY 1, source, rowid";
    sqlite3_stmt* st = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(db, sql, -1, &st, nullptr), SQLITE_OK);
    std::string csv =
        "Row#,Start (ns),Duration (ns),CorrId,GrdX,GrdY,GrdZ,BlkX,BlkY,BlkZ,Reg/Trd,StcSMem (bytes),"
        "DymSMem (bytes),Bytes (bytes),Throughput (B/s),SrcMemKd,DstMemKd,Device,Ctx,Strm,Name,\n";
    auto text = [&](int c) { return std::string(reinterpret_cast<const char*>(sqlite3_column_text(st, c))); };
    for (int row = 1; sqlite3_step(st) == SQLITE_ROW; ++row) {
      const bool kernel = sqlite3_column_int(st, 11) == 0;
      csv += std::to_string(row) + "," + text(0) + ",";
      csv += sqlite3_column_type(st, 1) == SQLITE_NULL ? "\"-\"," : std::to_string(sqlite3_column_int64(st, 1) - sqlite3_column_int64(st, 0)) + ",";
      csv += text(2) + ",";
      if (kernel) csv += text(3) + ",1,1," + text(4) + ",\"-\",\"-\",";
      else csv += "\"-\",\"-\",\"-\",\"-\",\"-\",\"-\",\"-\",\"-\",\"-\"," + text(5) + "," + text(6) + ",";
      csv += "\"-\",\"-\",\"(" + text(7) + ")\"," + text(8) + "," + text(9) + ",\"" + text(10) + "\",\n";
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return csv;
  }

 private:
  std::string path_;
};

// Starts in near order: kernel k at 100k, every block of 8 reversed.
int64_t nearOrder(size_t k) { return static_cast<int64_t>(100 * ((k / 8) * 8 + 7 - k % 8)); }

TEST(ResultViews, PagedTraceIsWhatSqliteSays) {
  // 150,000 kernels: three writer chunks, 147 blocks of rowid marks.
  ViewReport report("views_near", 150000, nearOrder);
  const auto run = asys::test::cli({"stats", "-r", "hggc_ppu_trace", report.path()});
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.out, report.expectedTrace());
}

TEST(ResultViews, EachColumnAloneSortsAsTheWholeRows) {
  // A sort reads one column of a view (RowSource::appendColumn: only the
  // kernel columns it needs, from the report where it holds them, else a
  // page at a time): for every column, the order of the rows made whole.
  ViewReport report("views_columns", 70000, nearOrder);
  auto opened = asys::Report::open(report.path());
  const asys::RuleSpec* rule = asys::findRule("hggc_ppu_trace");
  ASSERT_NE(rule, nullptr);
  asys::Table view = asys::runRule(*rule, *opened, asys::parseRuleOptions(*rule, {}));
  ASSERT_TRUE(view.isView());
  asys::Table whole = view;
  whole.materialize();
  for (size_t c = 0; c < view.columns().size(); ++c) {
    for (bool descending : {false, true}) {
      EXPECT_EQ(asys::sortedRowOrder(view, c, descending), asys::sortedRowOrder(whole, c, descending))
          << view.columns()[c].name << (descending ? " descending" : "");
    }
  }
}

TEST(ResultViews, ScrambledTableIsReadWholeAndAnswersTheSame) {
  // Start order unrelated to rowid order: paging would read every block
  // for every page, so the view loads the columns whole instead.
  const size_t n = 140000;
  auto scrambled = [n](size_t k) { return static_cast<int64_t>(10 * ((k * 7919) % n)); };
  ViewReport report("views_scrambled", n, scrambled);
  std::vector<int64_t> starts;
  for (size_t k = 0; k < n; ++k) starts.push_back(scrambled(k));
  std::vector<uint32_t> order(n);
  for (uint32_t k = 0; k < n; ++k) order[k] = k;
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return starts[a] < starts[b]; });
  EXPECT_EQ(asys::pagingMode(n, n, asys::kChunkRows, [&](size_t r) { return order[r]; }),
            asys::PagingMode::Loaded);
  EXPECT_EQ(asys::pagingMode(n, n, asys::kChunkRows, [](size_t r) { return static_cast<uint32_t>(r); }),
            asys::PagingMode::Paged);
  const auto run = asys::test::cli({"stats", "-r", "hggc_ppu_trace", report.path()});
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.out, report.expectedTrace());
}

TEST(ResultViews, AViewOutlivesTheReleaseOfTheColumnsItWasBuiltFrom) {
  // The timeline gives back the report's kernel columns once its tracks
  // hold them; a trace the viewer still pages must answer the same after
  // that, read page by page (near order) or whole into its own copy
  // (scrambled order).
  const size_t n = 140000;
  auto scrambled = [n](size_t k) { return static_cast<int64_t>(10 * ((k * 7919) % n)); };
  for (const auto& startOf : {std::function<int64_t(size_t)>(nearOrder), std::function<int64_t(size_t)>(scrambled)}) {
    ViewReport report("views_release", n, startOf);
    auto opened = asys::Report::open(report.path());
    for (const char* name : {"hggc_ppu_trace", "hggc_ppu_kern_gb_trace"}) {
      const asys::RuleSpec* rule = asys::findRule(name);
      ASSERT_NE(rule, nullptr);
      asys::Table view = asys::runRule(*rule, *opened, asys::parseRuleOptions(*rule, {}));
      const std::string before = csvOf(view);
      opened->releaseKernelColumns(asys::kcol::all);
      EXPECT_EQ(csvOf(view), before) << name;
      if (std::string(name) == "hggc_ppu_trace") EXPECT_EQ(before, report.expectedTrace());
      for (size_t c : {size_t{0}, size_t{1}}) {
        asys::Table whole = view;
        whole.materialize();
        opened->releaseKernelColumns(asys::kcol::all);
        EXPECT_EQ(asys::sortedRowOrder(view, c, true), asys::sortedRowOrder(whole, c, true)) << name << " column " << c;
      }
    }
  }
}

TEST(ResultViews, ABrokenCellReadWithAPageNamesItsRowAndLeavesNoFile) {
  const size_t n = 100000;
  ViewReport report("views_broken", n, nearOrder, "wide");
  // The row a whole-table load of the column names (the grid summary loads it whole).
  const auto whole = asys::test::cli({"stats", "-r", "hggc_ppu_kern_gb_sum", report.path()});
  ASSERT_EQ(whole.status, 1);
  const std::string where = "table HGGC_KERNEL, column gridX, row " + std::to_string(n - 10 + 1) + ": ";
  EXPECT_NE(whole.err.find(where), std::string::npos) << whole.err;
  const std::string dir = ::testing::TempDir() + "views_out_" + std::to_string(getpid()) + "/";
  std::filesystem::create_directories(dir);
  const auto paged = asys::test::cli({"stats", "-r", "hggc_ppu_trace", "--output", dir, report.path()});
  EXPECT_EQ(paged.status, 1);
  EXPECT_NE(paged.err.find(where), std::string::npos) << paged.err;
  // Found on the trace's second page: the file is written whole or not at all.
  EXPECT_TRUE(std::filesystem::is_empty(dir));
  std::filesystem::remove_all(dir);
}

}  // namespace

namespace {

// The order a plain stable sort with the documented comparison gives:
// numbers numerically, text by bytes, "-" last either way, ties in row order.
std::vector<uint32_t> bruteOrder(const asys::Table& t, size_t col, bool descending) {
  std::vector<uint32_t> order(t.rowCount());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const bool ma = t.isMissing(a, col), mb = t.isMissing(b, col);
    if (ma || mb) return !ma && mb;
    int c = 0;
    switch (t.columns()[col].kind) {
      case CellKind::Int: c = (t.intAt(a, col) > t.intAt(b, col)) - (t.intAt(a, col) < t.intAt(b, col)); break;
      case CellKind::Decimal1:
        c = (t.decimalAt(a, col) > t.decimalAt(b, col)) - (t.decimalAt(a, col) < t.decimalAt(b, col));
        break;
      case CellKind::Text: c = t.textAt(a, col).compare(t.textAt(b, col)); break;
    }
    return descending ? c > 0 : c < 0;
  });
  return order;
}

TEST(ResultViews, KeyedSortIsTheStableSortOfTheDocumentedComparison) {
  // Ints with repeats and INT64 extremes, decimals with negatives, -0.0 and
  // 0.0 (equal: row order), texts with shared prefixes and bytes past 0x7F,
  // and "-" cells in each.
  Table t(toyColumns());
  const int64_t ints[] = {5, -3, INT64_MAX, 5, INT64_MIN, 0, -3, 7};
  const double halves[] = {1.5, -0.0, 0.0, -2.5, 1.5, -0.5, 3.0, -2.5};
  const char* names[] = {"b", "ab", "a", "\xc3\xa9", "b", "abc", "", "a"};
  for (int i = 0; i < 40; ++i) {
    const int64_t v = ints[i % 8];
    const bool extreme = v == INT64_MIN || v == INT64_MAX;  // kept as they are: -INT64_MIN overflows
    if (i % 7 != 3) t.setInt(0, i % 3 == 0 || extreme ? v : -v);
    if (i % 5 != 1) t.setDecimal(1, halves[(i * 3) % 8]);
    if (i % 6 != 2) t.setText(2, names[(i * 5) % 8]);
    t.endRow();
  }
  for (size_t c = 0; c < 3; ++c) {
    for (bool descending : {false, true}) {
      EXPECT_EQ(asys::sortedRowOrder(t, c, descending), bruteOrder(t, c, descending))
          << t.columns()[c].name << (descending ? " descending" : "");
    }
  }
}

// Every cell and span of rows [0, n) of `t`, made `chunkRows` rows at a
// time: a view's rows must not depend on where its chunks begin.
std::string cellsInChunks(const Table& t, size_t chunkRows) {
  std::string out;
  asys::forEachChunk(
      t,
      [&](const Table& chunk, size_t) {
        for (size_t r = 0; r < chunk.rowCount(); ++r) {
          for (size_t c = 0; c < chunk.columns().size(); ++c) {
            if (chunk.isMissing(r, c)) out += "-";
            else if (chunk.columns()[c].kind == CellKind::Text) out += chunk.textAt(r, c);
            else out += std::to_string(chunk.intAt(r, c));
            out += '|';
          }
          for (size_t w = 0; w < chunk.spanNames().size(); ++w)
            out += std::to_string(chunk.spanStarts(w)[r]) + "+" + std::to_string(chunk.spanEnds(w)[r]) + "|";
          out += '\n';
        }
      },
      chunkRows);
  return out;
}

TEST(ResultViews, AssociationTraceRowsDoNotDependOnChunksOrReleasedColumns) {
  // hgtx_kern_trace is a view over the association: row r is found from
  // each kernel's first row (a kernel has one row per range, standalone
  // ones a row alone), and its kernel and call cells are read a page at a
  // time; hgtx_ppu_proj_trace keeps the projections and shares the HGTX
  // events; ppu_op_trace keeps the operator set and finds a row's operator
  // from each operator's first row. Chunks that begin inside a kernel's rows, and the release of
  // the report's columns after the run, must not change a cell.
  const std::string path = asys::test::freshTempPath("views_assoc");
  const auto gen = asys::test::cli({"gen", "--seed", "3", "--scale", "1", "-o", path});
  ASSERT_EQ(gen.status, 0) << gen.err;
  auto opened = asys::Report::open(path);
  using Items = std::vector<std::string>;
  const std::vector<std::pair<std::string, Items>> runs = {
      {"hgtx_kern_trace", {"standalone"}},
      {"hgtx_kern_trace", {"standalone", "range-include=step"}},
      {"hgtx_kern_trace", {"no-graph-mapping"}},
      {"hgtx_ppu_proj_trace", {}},
      {"hgtx_ppu_proj_trace", {"range-exclude=Gemm"}},
      {"ppu_op_trace", {}},
      {"ppu_op_trace", {"device=1"}},
  };
  for (const auto& [name, options] : runs) {
    SCOPED_TRACE(name + (options.empty() ? "" : ":" + options.back()));
    const asys::RuleSpec* rule = asys::findRule(name);
    ASSERT_NE(rule, nullptr);
    asys::Table view = asys::runRule(*rule, *opened, asys::parseRuleOptions(*rule, options));
    ASSERT_TRUE(view.isView());
    ASSERT_GT(view.rowCount(), 1000u);
    const std::string whole = cellsInChunks(view, view.rowCount());
    EXPECT_EQ(cellsInChunks(view, 7), whole);
    EXPECT_EQ(cellsInChunks(view, 4093), whole);
    opened->releaseKernelColumns(asys::kcol::all);
    opened->releaseHggcApiColumns(asys::acol::all);
    opened->releaseHgtx();
    EXPECT_EQ(cellsInChunks(view, 1000), whole);
  }
  std::filesystem::remove(path);
}

TEST(ResultViews, ApiTraceRowsDoNotDependOnWhereTheirOrderColumnsAreRead) {
  // hggc_api_trace's pages read the name and correlation id only while the
  // report keeps the start, end and thread columns the rule loaded, and all
  // five once the report has released them (the timeline's release of
  // globalTid alone, then of every column): each way, in any chunks, the
  // same cells.
  const std::string path = asys::test::freshTempPath("views_api");
  const auto gen = asys::test::cli({"gen", "--seed", "5", "--scale", "1", "-o", path});
  ASSERT_EQ(gen.status, 0) << gen.err;
  auto opened = asys::Report::open(path);
  const asys::RuleSpec* rule = asys::findRule("hggc_api_trace");
  ASSERT_NE(rule, nullptr);
  asys::Table view = asys::runRule(*rule, *opened, asys::parseRuleOptions(*rule, {}));
  ASSERT_TRUE(view.isView());
  ASSERT_GT(view.rowCount(), 1000u);
  const std::string whole = cellsInChunks(view, view.rowCount());
  EXPECT_EQ(cellsInChunks(view, 7), whole);
  opened->releaseHggcApiColumns(asys::acol::globalTid);
  EXPECT_EQ(cellsInChunks(view, 4093), whole);
  opened->releaseHggcApiColumns(asys::acol::all);
  EXPECT_EQ(cellsInChunks(view, 7), whole);
  // Loaded again by another rule: the report's columns are used again.
  opened->hggcApi(asys::acol::start | asys::acol::end | asys::acol::globalTid);
  EXPECT_EQ(cellsInChunks(view, 1000), whole);
  std::filesystem::remove(path);
}

}  // namespace

namespace {

TEST(ResultViews, KeyedSortOfManyRowsIsTheStableSortToo) {
  // Past the size where the radix sort takes over: keys that differ in
  // their low bytes only (durations, with repeats), in every byte (signed
  // extremes, negatives), and "-" cells, ascending and descending.
  Table t(toyColumns());
  asys::test::Lcg random(12345);
  auto next = [&] { return random.next(); };
  for (int i = 0; i < 40000; ++i) {
    const uint64_t r = next();
    if (i % 9 != 4) t.setInt(0, i % 11 == 0 ? static_cast<int64_t>(r) : static_cast<int64_t>(r >> 52));
    if (i % 13 != 6) t.setDecimal(1, static_cast<double>(static_cast<int64_t>(r >> 40) % 20001 - 10000) / 2);
    t.endRow();
  }
  for (size_t c = 0; c < 2; ++c) {
    for (bool descending : {false, true}) {
      EXPECT_EQ(asys::sortedRowOrder(t, c, descending), bruteOrder(t, c, descending))
          << t.columns()[c].name << (descending ? " descending" : "");
    }
  }
}

}  // namespace
