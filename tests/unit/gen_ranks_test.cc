// `asys gen --ranks N --out-dir DIR` (core/gen/ranks.cc): one report per
// rank, each of one process and one PPU, whose PCCL collectives correspond
// across ranks; checked with plain SQL, not through the engine.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "core/gen/generator.h"
#include "tests/unit/cli_run.h"
#include "tests/unit/sql_query.h"

namespace fs = std::filesystem;

namespace {

using asys::test::cli;
using asys::test::CliRun;
using asys::test::slurp;
using asys::test::SqlFile;

constexpr int kRanks = 4;

std::string rankFile(const fs::path& dir, int r) { return (dir / ("rank-" + std::to_string(r) + ".asysrep")).string(); }

// One PCCL operator range's fields (the contract's "AllReduce, p:0, c:..., d:..., r:..., w:..., h:...").
struct Operator {
  std::string type, c, d, r, w, h;
};

Operator parseOperator(const std::string& text) {
  Operator op;
  op.type = text.substr(0, text.find(','));
  size_t at = text.find(',');
  while (at != std::string::npos) {
    const size_t next = text.find(',', at + 1);
    const std::string field = text.substr(at + 2, next == std::string::npos ? std::string::npos : next - at - 2);
    const std::string key = field.substr(0, field.find(':')), value = field.substr(field.find(':') + 1);
    if (key == "c") op.c = value;
    else if (key == "d") op.d = value;
    else if (key == "r") op.r = value;
    else if (key == "w") op.w = value;
    else if (key == "h") op.h = value;
    at = next;
  }
  return op;
}

std::vector<Operator> operators(const std::string& path) {
  SqlFile db(path);
  std::vector<Operator> ops;
  db.each(
      "SELECT s.value FROM HGTX_EVENTS h JOIN StringIds s ON s.id = h.textId "
      "WHERE h.eventType = 59 AND s.value LIKE 'AllReduce, %' ORDER BY h.start, h.rowid",
      [&](sqlite3_stmt* st) { ops.push_back(parseOperator(SqlFile::textOf(st, 0))); });
  return ops;
}

class GenRanks : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir = fs::temp_directory_path() / ("asys-gen-ranks-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    const CliRun r = cli({"gen", "--ranks", std::to_string(kRanks), "--scale", "0.5", "--seed", "5", "--out-dir",
                          (dir / "job").string()});
    ASSERT_EQ(r.status, 0) << r.err;
  }
  static void TearDownTestSuite() { fs::remove_all(dir); }
  static fs::path dir;
};
fs::path GenRanks::dir;

}  // namespace

TEST_F(GenRanks, OneReportPerRankOfOneProcessAndOnePpu) {
  for (int r = 0; r < kRanks; ++r) {
    const std::string path = rankFile(dir / "job", r);
    ASSERT_TRUE(fs::exists(path)) << path;
    SqlFile db(path);
    EXPECT_EQ(db.scalar("SELECT count(*) FROM PROCESSES"), 1);
    EXPECT_EQ(db.scalar("SELECT count(*) FROM TARGET_INFO_PPU"), 1);
    const int64_t gpid = db.scalar("SELECT globalPid FROM PROCESSES");
    EXPECT_EQ(db.scalar("SELECT count(DISTINCT globalPid) FROM HGGC_KERNEL"), 1);
    EXPECT_EQ(db.scalar("SELECT min(globalPid) FROM HGGC_KERNEL"), gpid);
    EXPECT_EQ(db.scalar("SELECT count(DISTINCT globalTid >> 24) FROM HGGC_API"), 1);
    EXPECT_EQ(db.scalar("SELECT min(globalTid >> 24) FROM HGGC_API"), gpid >> 24);
    EXPECT_EQ(db.scalar("SELECT count(*) FROM HGGC_KERNEL WHERE deviceId <> (SELECT id FROM TARGET_INFO_PPU)"), 0);
    EXPECT_EQ(db.text("SELECT value FROM META_DATA WHERE name = 'generator'"),
              "asys gen (seed=5, scale=0.5, profile=base, rank " + std::to_string(r) + " of 4)");
    EXPECT_EQ(db.text("SELECT value FROM META_DATA WHERE name = 'hostName'"), "ppu-train-node00");
    EXPECT_EQ(db.text("SELECT count(*) FROM HGTX_EVENTS WHERE eventType = 34 AND text LIKE "
                      "'pcclCommInitRank: rank " + std::to_string(r) + " nranks 4 busId %'"),
              "1");
  }
}

TEST_F(GenRanks, CollectivesCorrespondAcrossRanks) {
  std::vector<std::vector<Operator>> ops;
  for (int r = 0; r < kRanks; ++r) ops.push_back(operators(rankFile(dir / "job", r)));
  ASSERT_EQ(ops[0].size(), 8u);  // two iterations of three buckets and the gradient norm
  for (int r = 0; r < kRanks; ++r) {
    ASSERT_EQ(ops[r].size(), ops[0].size()) << "rank " << r;
    for (size_t k = 0; k < ops[r].size(); ++k) {
      const Operator& a = ops[0][k];
      const Operator& b = ops[r][k];
      EXPECT_EQ(b.type, a.type) << r << " " << k;
      EXPECT_EQ(b.c, a.c) << r << " " << k;
      EXPECT_EQ(b.d, a.d) << r << " " << k;
      EXPECT_EQ(b.h, a.h) << r << " " << k;  // one communicator
      EXPECT_EQ(b.w, "4");
      EXPECT_EQ(b.r, std::to_string(r));
    }
  }
  // The PCCL kernels: the same sequence on every rank, starting at
  // different times (each rank arrives when its gradients are ready) and
  // ending together (the data moves once the last rank has arrived).
  std::vector<std::vector<std::pair<int64_t, int64_t>>> times(kRanks);
  std::vector<std::vector<std::string>> names(kRanks);
  for (int r = 0; r < kRanks; ++r) {
    SqlFile db(rankFile(dir / "job", r));
    db.each("SELECT k.start, k.end, s.value FROM HGGC_KERNEL k JOIN StringIds s ON s.id = k.shortName "
            "WHERE s.value LIKE 'pcclKernel%' ORDER BY k.start",
            [&](sqlite3_stmt* st) {
              times[r].emplace_back(sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1));
              names[r].push_back(SqlFile::textOf(st, 2));
            });
    ASSERT_EQ(times[r].size(), ops[0].size());
    EXPECT_EQ(names[r], names[0]);
  }
  int64_t maxSkew = 0;
  for (size_t k = 0; k < times[0].size(); ++k) {
    int64_t s0 = INT64_MAX, s1 = INT64_MIN, e0 = INT64_MAX, e1 = INT64_MIN;
    for (int r = 0; r < kRanks; ++r) {
      s0 = std::min(s0, times[r][k].first);
      s1 = std::max(s1, times[r][k].first);
      e0 = std::min(e0, times[r][k].second);
      e1 = std::max(e1, times[r][k].second);
    }
    EXPECT_LT(e1 - e0, 10000) << k;
    EXPECT_LT(s1, e0) << k;  // all of them run together for a while
    if (k + 1 < times[0].size()) {
      for (int r = 0; r < kRanks; ++r) EXPECT_GE(times[r][k + 1].first, e1) << k;  // the next starts after all ended
    }
    maxSkew = std::max(maxSkew, s1 - s0);
  }
  EXPECT_GT(maxSkew, 100000);
}

TEST_F(GenRanks, RanksRunTheSameKernelsWithTheirOwnTimings) {
  std::vector<int64_t> counts, totals;
  for (int r = 0; r < kRanks; ++r) {
    SqlFile db(rankFile(dir / "job", r));
    // Compute kernels: a PCCL kernel's time is mostly its wait for the
    // other ranks, which differs by design.
    const char* compute = " FROM HGGC_KERNEL k JOIN StringIds s ON s.id = k.shortName WHERE s.value NOT LIKE 'pcclKernel%'";
    counts.push_back(db.scalar(std::string("SELECT count(*)") + compute));
    totals.push_back(db.scalar(std::string("SELECT sum(k.end - k.start)") + compute));
  }
  for (int r = 1; r < kRanks; ++r) {
    EXPECT_EQ(counts[r], counts[0]);
    EXPECT_NE(totals[r], totals[0]) << r;
    EXPECT_NEAR(static_cast<double>(totals[r]), static_cast<double>(totals[0]), 0.05 * static_cast<double>(totals[0]));
  }
}

TEST_F(GenRanks, SameSeedSameBytesOtherSeedOtherBytes) {
  const fs::path again = dir / "again", other = dir / "other";
  ASSERT_EQ(cli({"gen", "--ranks", "2", "--scale", "0.25", "--seed", "9", "--out-dir", again.string()}).status, 0);
  ASSERT_EQ(cli({"gen", "--ranks", "2", "--scale", "0.25", "--seed", "9", "--out-dir", (dir / "first").string()}).status, 0);
  ASSERT_EQ(cli({"gen", "--ranks", "2", "--scale", "0.25", "--seed", "10", "--out-dir", other.string()}).status, 0);
  for (int r = 0; r < 2; ++r) {
    EXPECT_EQ(slurp(rankFile(again, r)), slurp(rankFile(dir / "first", r)));
    EXPECT_NE(slurp(rankFile(again, r)), slurp(rankFile(other, r)));
  }
  EXPECT_NE(slurp(rankFile(again, 0)), slurp(rankFile(again, 1)));
  EXPECT_FALSE(fs::exists(rankFile(again, 0) + ".partial"));
}

TEST_F(GenRanks, BadOptionsFailInOneLine) {
  const std::string out = (dir / "bad").string();
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"gen", "--ranks", "0", "--out-dir", out}, "asys gen: --ranks: expected a whole number from 1 to 512, got '0'\n"},
      {{"gen", "--ranks", "four", "--out-dir", out},
       "asys gen: --ranks: expected a whole number from 1 to 512, got 'four'\n"},
      {{"gen", "--ranks", "2.5", "--out-dir", out}, "asys gen: --ranks: expected a whole number from 1 to 512, got '2.5'\n"},
      {{"gen", "--ranks", "513", "--out-dir", out}, "asys gen: --ranks: expected a whole number from 1 to 512, got '513'\n"},
      {{"gen", "--ranks", "4"}, "asys gen: --ranks: missing --out-dir DIR\n"},
      {{"gen", "--out-dir", out, "--ranks"}, "asys gen: --ranks: missing value\n"},
      {{"gen", "--ranks", "4", "--out-dir", out, "-o", out + ".asysrep"},
       "asys gen: -o: --ranks writes one report per rank; give --out-dir DIR instead\n"},
      {{"gen", "--out-dir", out}, "asys gen: --out-dir: give --ranks N (the demo report is written with -o OUT.asysrep)\n"},
  };
  for (const auto& [args, message] : cases) {
    const CliRun r = cli(args);
    EXPECT_EQ(r.status, 2) << message;
    EXPECT_EQ(r.err, message);
    EXPECT_EQ(r.out, "");
  }
  EXPECT_FALSE(fs::exists(out));
}

TEST_F(GenRanks, RefusesADirectoryHoldingALargerJob) {
  const fs::path job = dir / "larger";
  ASSERT_EQ(cli({"gen", "--ranks", "3", "--scale", "0.25", "--out-dir", job.string()}).status, 0);
  const std::string before = slurp(rankFile(job, 0));
  const CliRun r = cli({"gen", "--ranks", "2", "--scale", "0.25", "--seed", "2", "--out-dir", job.string()});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "asys gen: " + rankFile(job, 2) +
                       " is a rank of a larger job (--ranks 2 writes rank-0 to rank-1): remove it or choose another "
                       "--out-dir\n");
  EXPECT_EQ(slurp(rankFile(job, 0)), before);  // nothing was written
  // The same size again replaces the files.
  EXPECT_EQ(cli({"gen", "--ranks", "3", "--scale", "0.25", "--seed", "2", "--out-dir", job.string()}).status, 0);
  EXPECT_NE(slurp(rankFile(job, 0)), before);
}
