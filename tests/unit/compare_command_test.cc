// `asys compare` (shared/spec/cli.md, the manual's asys compare): the default
// compare rules written to one CSV each, the same bytes `asys stats -r RULE
// BASE TARGET` prints, a short summary on the console, all-or-nothing
// refusal to overwrite, and the time filters applied to each report alone.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/cli/cli.h"
#include "core/gen/generator.h"
#include "core/report/report.h"
#include "core/rules/rule.h"
#include "core/table/writers.h"
#include "tests/unit/cli_run.h"

namespace fs = std::filesystem;

namespace {

using asys::test::cli;
using asys::test::CliRun;
using asys::test::slurp;

class CompareCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("asys-compare-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir / "out");
    base = (dir / "base.asysrep").string();
    target = (dir / "slow.asysrep").string();
    asys::generateReport({.seed = 3, .scale = 0.25, .profile = "base"}, base);
    asys::generateReport({.seed = 3, .scale = 0.25, .profile = "slow"}, target);
  }
  void TearDown() override { fs::remove_all(dir); }
  fs::path dir;
  std::string base, target;
};

// The manual digest's default set, in its order.
const char* const kRules[] = {"ppu_operator_type_summary_compare",     "ppu_time_util_compare",
                              "ppu_operator_summary_compare",          "ppu_operator_kernel_breakdown_compare",
                              "pccl_desync_summary_compare",           "ppu_kernel_summary_compare"};

}  // namespace

TEST_F(CompareCommand, WritesOneCsvPerRuleBesideTheBaseReport) {
  CliRun r = cli({"compare", base, target});
  ASSERT_EQ(r.status, 0) << r.err;
  for (const char* rule : kRules) {
    const fs::path file = dir / (std::string("base_vs_slow_") + rule + ".csv");
    ASSERT_TRUE(fs::exists(file)) << file;
    const std::string csv = slurp(file);
    EXPECT_EQ(csv, cli({"stats", "-r", rule, base, target}).out) << rule;
    // The summary names the rule, its row count and the file, then the first rows.
    const size_t rows = static_cast<size_t>(std::count(csv.begin(), csv.end(), '\n')) - 1;
    const std::string count = std::to_string(rows) + (rows == 1 ? " row" : " rows");
    EXPECT_NE(r.out.find(std::string("# ") + rule + ": " + count + ", written to " + file.string()),
              std::string::npos)
        << r.out;
  }
}

TEST_F(CompareCommand, OutputPrefixAndNoOverwriteWithoutForce) {
  const std::string prefix = (dir / "out" / "cmp").string();
  ASSERT_EQ(cli({"compare", "--output", prefix, base, target}).status, 0);
  const fs::path first = dir / "out" / "cmp_ppu_operator_type_summary_compare.csv";
  const fs::path second = dir / "out" / "cmp_ppu_kernel_summary_compare.csv";
  ASSERT_TRUE(fs::exists(first) && fs::exists(second));
  // One file exists: one line naming it, and nothing is written, not even the others.
  fs::remove(second);
  std::ofstream(first) << "kept\n";
  CliRun again = cli({"compare", "--output", prefix, base, target});
  EXPECT_EQ(again.status, 2);
  EXPECT_EQ(again.err, "asys compare: " + first.string() + " exists (use -f true to overwrite); nothing was written\n");
  EXPECT_EQ(slurp(first), "kept\n");
  EXPECT_FALSE(fs::exists(second));
  ASSERT_EQ(cli({"compare", "-f", "true", "--output", prefix, base, target}).status, 0);
  EXPECT_NE(slurp(first), "kept\n");
}

TEST_F(CompareCommand, FilterHgtxFindsTheRangeInEachReport) {
  // The slow profile's ranges are longer: the same range name and index is at
  // another time there, and each report's table covers its own range.
  const std::string prefix = (dir / "out" / "it1").string();
  ASSERT_EQ(cli({"compare", "--filter-hgtx", "[prof_range]: iter 0", "--output", prefix, base, target}).status, 0);
  EXPECT_EQ(slurp(dir / "out" / "it1_ppu_kernel_summary_compare.csv"),
            cli({"stats", "-r", "ppu_kernel_summary_compare", "--filter-hgtx", "[prof_range]: iter 0", base, target}).out);
  const std::string baseOnly =
      cli({"stats", "-r", "hggc_ppu_kern_sum", "--filter-hgtx", "[prof_range]: iter 0", base}).out;
  const std::string whole = cli({"stats", "-r", "hggc_ppu_kern_sum", base}).out;
  EXPECT_NE(baseOnly, whole);  // the filter narrowed something
}

TEST_F(CompareCommand, RunsTheDefaultSetInTheManualsOrderWithOperatorRules) {
  CliRun r = cli({"compare", "--ppu-op-config", "Router=hgtx:^ACBLAS:GemmEx,t,n,128,", base, target});
  ASSERT_EQ(r.status, 0) << r.err;
  size_t at = 0;
  for (const char* rule : kRules) {
    const size_t found = r.out.find(std::string("# ") + rule + ":");
    ASSERT_NE(found, std::string::npos) << rule;
    EXPECT_GT(found + 1, at) << rule << " out of order";
    at = found;
  }
  // The custom rule reaches the operator compare rules: the router GEMMs are a type of their own.
  const std::string types = slurp(dir / "base_vs_slow_ppu_operator_type_summary_compare.csv");
  EXPECT_NE(types.find("\"Router\""), std::string::npos) << types;
  EXPECT_EQ(types.rfind("Row#,Device Name,OP Type,", 0), 0u);
  EXPECT_NE(types.find("\n1,\"PPU-ZW810E / PPU-ZW810E\",\"Summary\","), std::string::npos) << types;
  // A bad config is one line and nothing runs.
  CliRun bad = cli({"compare", "--ppu-op-config", "GEMM=kernel:(x", base, target});
  EXPECT_EQ(bad.status, 2);
  EXPECT_EQ(bad.err,
            "asys compare: --ppu-op-config 'GEMM=kernel:(x': invalid regular expression '(x' at position 2: missing "
            "closing parenthesis\n");
}

TEST_F(CompareCommand, NeedsTwoReports) {
  CliRun r = cli({"compare", base});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "asys compare: give a base and a target report, got 1\n");
  CliRun plain = cli({"compare", "-r", "hggc_ppu_kern_sum", base, target});
  EXPECT_EQ(plain.status, 2);
  EXPECT_EQ(plain.err, "asys compare: 'hggc_ppu_kern_sum' is not a compare rule\n");
}

// A side whose report held no names before it ran gives back what it read
// (core/rules/compare.cc), so that the other side runs beside its rows
// alone: the tables are those of reports that keep what they read (names
// loaded before, nothing given back), the reports are as opened after, and
// a second run on them, which reads everything again, gives the same table.
TEST_F(CompareCommand, ASideGivesBackWhatItReadAndTheTableIsTheSame) {
  auto csvOf = [](const asys::Table& t) {
    std::ostringstream out;
    asys::writeCsv(t, out);
    return out.str();
  };
  size_t compared = 0;
  for (const asys::RuleSpec* rule : asys::allRules()) {
    if (!rule->compare) continue;
    ++compared;
    const asys::RuleOptions options = asys::parseRuleOptions(*rule, {});
    auto kept = asys::Report::open(base), keptTarget = asys::Report::open(target);
    keptTarget->strings();
    kept->strings();  // loaded before: nothing is given back
    const std::string expected = csvOf(asys::runCompareRule(*rule, *kept, *keptTarget, options, {}, {}));
    EXPECT_TRUE(kept->stringsLoaded() && keptTarget->stringsLoaded()) << rule->name;

    auto fresh = asys::Report::open(base), freshTarget = asys::Report::open(target);
    EXPECT_EQ(csvOf(asys::runCompareRule(*rule, *fresh, *freshTarget, options, {}, {})), expected) << rule->name;
    EXPECT_FALSE(fresh->stringsLoaded()) << rule->name;
    EXPECT_FALSE(freshTarget->stringsLoaded()) << rule->name;
    EXPECT_EQ(fresh->loadedKernelColumns(), 0u) << rule->name;
    EXPECT_EQ(fresh->loadedHggcApiColumns(), 0u) << rule->name;
    EXPECT_FALSE(fresh->hgtxLoaded()) << rule->name;
    EXPECT_EQ(csvOf(asys::runCompareRule(*rule, *fresh, *freshTarget, options, {}, {})), expected) << rule->name;
  }
  EXPECT_EQ(compared, 8u);
}
