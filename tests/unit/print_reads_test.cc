// What `asys stats --print-reads` says a rule reads (core/report/read_set.h):
// the recorder against statements whose reads are known by reading them, and
// the CLI against the columns the kernel summary's source asks for.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <cstdio>
#include <set>
#include <sstream>
#include <string>

#include "core/gen/generator.h"
#include "core/report/read_set.h"
#include "core/report/sqlite_db.h"
#include "tests/unit/cli_run.h"

namespace {

std::string tempPath(const char* name) {
  return ::testing::TempDir() + name + std::to_string(getpid()) + ".db";
}

// The lines of `text`, as a set (the order of first reads is not asserted).
std::set<std::string> linesOf(const std::string& text) {
  std::set<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.insert(line);
  return lines;
}

}  // namespace

TEST(ReadSet, RecordsTheColumnsAStatementReadsButNotTheRowidOrTheSchema) {
  const std::string path = tempPath("asys_read_set_");
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "CREATE TABLE t (a INTEGER, b INTEGER, c TEXT); CREATE TABLE u (x INTEGER, y INTEGER);"
                             "INSERT INTO t VALUES (1, 2, 'z'); INSERT INTO u VALUES (3, 4);",
                         nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(db);
  {
    asys::SqliteDb file(path);
    asys::Statement before(file, "SELECT x FROM u");  // prepared before: not recorded
    asys::ReadSet reads(file);
    asys::Statement first(file, "SELECT c, rowid FROM t WHERE a > 0 ORDER BY rowid");
    asys::Statement second(file, "SELECT 1 FROM u LIMIT 1");  // u named, no column read
    asys::Statement third(file, "SELECT a FROM t");           // a again: once
    ASSERT_TRUE(file.hasTable("t"));                          // reads sqlite_master
    ASSERT_EQ(reads.tables().size(), 1u);
    EXPECT_EQ(reads.tables()[0].first, "t");
    EXPECT_EQ(reads.tables()[0].second, (std::vector<std::string>{"c", "a"}));
  }
  std::remove(path.c_str());
}

TEST(PrintReads, KernelSummaryReadsTheColumnsItsSourceAsksFor) {
  const std::string path = tempPath("asys_print_reads_");
  asys::GenOptions o;
  o.seed = 11;
  o.scale = 1;
  asys::generateReport(o, path);
  // hggc_ppu_kern_sum.cc: kernels(kcol::time | kcol::deviceId | kcol::names),
  // and the names' texts from StringIds.
  const asys::test::CliRun one = asys::test::cli({"stats", "--print-reads", "-r", "hggc_ppu_kern_sum", path});
  EXPECT_EQ(one.status, 0) << one.err;
  EXPECT_EQ(linesOf(one.out), (std::set<std::string>{"0 StringIds id value",
                                                      "0 HGGC_KERNEL start end deviceId demangledName shortName mangledName"}));
  // A compare rule reads both reports: the same lines for report 1.
  const asys::test::CliRun two =
      asys::test::cli({"stats", "--print-reads", "-r", "ppu_kernel_summary_compare", path, path});
  EXPECT_EQ(two.status, 0) << two.err;
  const std::set<std::string> lines = linesOf(two.out);
  EXPECT_TRUE(lines.count("0 HGGC_KERNEL start end deviceId demangledName shortName mangledName")) << two.out;
  EXPECT_TRUE(lines.count("1 HGGC_KERNEL start end deviceId demangledName shortName mangledName")) << two.out;
  std::remove(path.c_str());
}
