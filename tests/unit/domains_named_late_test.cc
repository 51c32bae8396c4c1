// HGTX domains created after their ranges, past the scan's first chunk:
// the association names ranges by the domain creations its scan has read,
// and where a creation comes after ranges it has named, the run is made
// again with the domains' names queried first (chooseRanges,
// HgtxDomainNamedLate, rule.cc's runners). The independent check: the same
// report with its creations at the start (as `asys gen` writes them), whose
// ranges the scan names alone, answers the same bytes, rule by rule.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "core/gen/generator.h"
#include "tests/unit/cli_run.h"

namespace fs = std::filesystem;

namespace {

using asys::test::cli;
using asys::test::CliRun;

class DomainsNamedLate : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir = fs::temp_directory_path() / ("asys-domains-late-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir / "first");
    fs::create_directories(dir / "late");
    // Scale 25: 92,251 HGTX events, more than the scan's chunk of 65,536;
    // its two domain creations (the PCCL domain of each process) are rows
    // 1 and 13, and 1,604 ranges are in that domain.
    asys::generateReport({.seed = 3, .scale = 25, .profile = "base"}, first());
    fs::copy_file(first(), late());
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(late().c_str(), &db), SQLITE_OK);
    char* err = nullptr;
    // The creations moved behind every range (new rowids at the end).
    const int rc = sqlite3_exec(db,
                                "CREATE TEMP TABLE d AS SELECT * FROM HGTX_EVENTS WHERE eventType = 75 ORDER BY rowid;"
                                "DELETE FROM HGTX_EVENTS WHERE eventType = 75;"
                                "INSERT INTO HGTX_EVENTS SELECT * FROM d ORDER BY rowid;",
                                nullptr, nullptr, &err);
    EXPECT_EQ(rc, SQLITE_OK) << (err ? err : "");
    sqlite3_free(err);
    sqlite3_close(db);
  }
  static void TearDownTestSuite() { fs::remove_all(dir); }
  static std::string first() { return (dir / "first" / "run.asysrep").string(); }
  static std::string late() { return (dir / "late" / "run.asysrep").string(); }
  static fs::path dir;
};
fs::path DomainsNamedLate::dir;

TEST_F(DomainsNamedLate, TheCreationsAreBehindTheRanges) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(late().c_str(), &db), SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db, "SELECT min(rowid), count(*) FROM HGTX_EVENTS WHERE eventType = 75", -1, &st, nullptr),
            SQLITE_OK);
  ASSERT_EQ(sqlite3_step(st), SQLITE_ROW);
  EXPECT_GT(sqlite3_column_int64(st, 0), 65536);
  EXPECT_EQ(sqlite3_column_int64(st, 1), 2);
  sqlite3_finalize(st);
  sqlite3_close(db);
}

// hgtx_kern_sum: a selection without state of its own, chosen again in
// place; ppu_op_sum: keepNamedRange (the operator set's recogniser);
// hgtx_ppu_proj_sum: alsoScan (the unclosed ranges' fold): both run again.
TEST_F(DomainsNamedLate, EveryRuleAnswersAsWithTheCreationsFirst) {
  for (const char* rule : {"hgtx_kern_sum", "ppu_op_sum", "hgtx_ppu_proj_sum", "moe_op_sum"}) {
    SCOPED_TRACE(rule);
    const CliRun a = cli({"stats", "-r", rule, first()});
    const CliRun b = cli({"stats", "-r", rule, late()});
    ASSERT_EQ(a.status, 0) << a.err;
    ASSERT_EQ(b.status, 0) << b.err;
    EXPECT_EQ(b.out, a.out);
    EXPECT_EQ(b.err, a.err);
  }
  // The domain's name is in the answer: ranges of it are named "PCCL:...".
  EXPECT_NE(cli({"stats", "-r", "hgtx_kern_sum", late()}).out.find("\"PCCL:"), std::string::npos);
}

TEST_F(DomainsNamedLate, ACompareRunsItsSideAgain) {
  const CliRun a = cli({"stats", "-r", "ppu_operator_summary_compare", first(), first()});
  const CliRun b = cli({"stats", "-r", "ppu_operator_summary_compare", first(), late()});
  ASSERT_EQ(a.status, 0) << a.err;
  ASSERT_EQ(b.status, 0) << b.err;
  EXPECT_EQ(b.out, a.out);
}

}  // namespace
