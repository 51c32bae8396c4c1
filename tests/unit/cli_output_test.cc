// `asys stats --output / --format / -f` (shared/spec/cli.md): where each
// rule's output goes, with which format, and refusing to overwrite.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/cli/cli.h"
#include "tests/unit/cli_run.h"
#include "core/gen/generator.h"

namespace fs = std::filesystem;

namespace {

using asys::test::cli;
using asys::test::CliRun;
using asys::test::slurp;

class CliOutput : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("asys-cli-output-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir / "out");
    report = (dir / "run.asysrep").string();
    asys::generateReport({.seed = 3, .scale = 0.25, .profile = "base"}, report);
  }
  void TearDown() override { fs::remove_all(dir); }
  fs::path dir;
  std::string report;
};

}  // namespace

TEST_F(CliOutput, DirPrefixWritesOneFilePerRuleWithItsFormat) {
  const std::string prefix = (dir / "out" / "p").string();
  CliRun r = cli({"stats", "-r", "hggc_api_sum,osrt_sum", "--format", "csv,json", "--output", prefix, report});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(slurp(dir / "out" / "p_hggc_api_sum.csv"), cli({"stats", "-r", "hggc_api_sum", report}).out);
  EXPECT_EQ(slurp(dir / "out" / "p_osrt_sum.json"),
            cli({"stats", "-r", "osrt_sum", "--format", "json", report}).out);
}

TEST_F(CliOutput, DotWritesBesideTheReport) {
  CliRun r = cli({"stats", "-r", "hggc_api_sum", "--output", ".", report});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(fs::exists(dir / "run_hggc_api_sum.csv"));
}

TEST_F(CliOutput, RefusesToOverwriteWithoutForce) {
  const std::string prefix = (dir / "out" / "p").string();
  ASSERT_EQ(cli({"stats", "-r", "hggc_api_sum", "--output", prefix, report}).status, 0);
  CliRun again = cli({"stats", "-r", "hggc_api_sum", "--output", prefix, report});
  EXPECT_EQ(again.status, 1);
  EXPECT_NE(again.err.find("p_hggc_api_sum.csv exists (use -f true to overwrite)"), std::string::npos) << again.err;
  EXPECT_EQ(std::count(again.err.begin(), again.err.end(), '\n'), 1);
  EXPECT_EQ(cli({"stats", "-r", "hggc_api_sum", "--output", prefix, "-f", "true", report}).status, 0);
}

TEST_F(CliOutput, SeveralRulesOnStandardOutputAreFramed) {
  CliRun r = cli({"stats", "-r", "hggc_api_sum", "-r", "osrt_sum", report});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string api = cli({"stats", "-r", "hggc_api_sum", report}).out;
  const std::string osrt = cli({"stats", "-r", "osrt_sum", report}).out;
  EXPECT_EQ(r.out, "# hggc_api_sum\n" + api + "\n# osrt_sum\n" + osrt + "\n");
}

TEST_F(CliOutput, LastFormatRepeatsForLaterRules) {
  CliRun r = cli({"stats", "-r", "hggc_api_sum,osrt_sum", "--format", "json", report});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "# hggc_api_sum\n" + cli({"stats", "-r", "hggc_api_sum", "--format", "json", report}).out +
                       "\n# osrt_sum\n" + cli({"stats", "-r", "osrt_sum", "--format", "json", report}).out + "\n");
}

TEST_F(CliOutput, UnknownFormatIsAnErrorBeforeAnythingRuns) {
  CliRun r = cli({"stats", "-r", "hggc_api_sum", "--format", "xml", report});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "asys stats: --format: unknown format 'xml' (expected csv, json, column or xlsx)\n");
  EXPECT_EQ(r.out, "");
}

// ppu_op_unit_test's Python: beside the report while the table goes to stdout,
// refused when it exists unless -f true, beside the table with --output.
TEST_F(CliOutput, RuleFilesBesideTheReportRefusedUnlessForced) {
  const std::string beside = (dir / "run_ppu_op_unit_test.py").string();
  const auto first = cli({"stats", "-r", "ppu_op_unit_test", report});
  ASSERT_EQ(first.status, 0) << first.err;
  EXPECT_EQ(first.err, "asys stats: ppu_op_unit_test: wrote " + beside + "\n");
  const std::string text = slurp(beside);
  EXPECT_EQ(text.rfind("#!/usr/bin/env python3\n", 0), 0u);

  const auto again = cli({"stats", "-r", "ppu_op_unit_test", report});
  EXPECT_EQ(again.status, 1);
  EXPECT_EQ(again.out, "");  // nothing printed when the file cannot be written
  EXPECT_EQ(again.err, "asys stats: ppu_op_unit_test: " + beside + " exists (use -f true to overwrite)\n");

  const auto forced = cli({"stats", "-r", "ppu_op_unit_test", "-f", "true", report});
  EXPECT_EQ(forced.status, 0) << forced.err;
  EXPECT_EQ(slurp(beside), text);  // the same report gives the same bytes
  EXPECT_EQ(forced.out, first.out);

  // --output DIR/: the table and the file both there; neither beside the report again.
  const auto out = cli({"stats", "-r", "ppu_op_unit_test", "--output", (dir / "out").string() + "/", report});
  ASSERT_EQ(out.status, 0) << out.err;
  EXPECT_EQ(slurp(dir / "out" / "ppu_op_unit_test.py"), text);
  EXPECT_EQ(slurp(dir / "out" / "ppu_op_unit_test.csv"), first.out);
}

// A standard output that stops taking bytes part-way (a full disk, a closed
// pipe): the run fails in one line per rule and says the table is short,
// instead of ending 0 with a truncated table.
TEST_F(CliOutput, AStandardOutputThatFailsFailsTheRun) {
  struct FullAfter : std::streambuf {
    explicit FullAfter(size_t room) : room(room) {}
    size_t room, taken = 0;
    int_type overflow(int_type c) override {
      if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
      return taken < room ? (++taken, c) : traits_type::eof();
    }
    std::streamsize xsputn(const char* s, std::streamsize n) override {
      const std::streamsize fits = std::min<std::streamsize>(n, static_cast<std::streamsize>(room - taken));
      taken += static_cast<size_t>(fits);
      (void)s;
      return fits;
    }
  };
  const std::string whole = cli({"stats", "-r", "hggc_api_sum", report}).out;
  ASSERT_GT(whole.size(), 100u);
  FullAfter full(whole.size() / 2);
  std::ostream out(&full);
  std::ostringstream err;
  EXPECT_EQ(asys::runCli({"stats", "-r", "hggc_api_sum,osrt_sum", report}, out, err), 1);
  EXPECT_EQ(err.str(),
            "asys stats: hggc_api_sum: standard output: cannot write (the table is incomplete)\n"
            "asys stats: osrt_sum: standard output: cannot write (the table is incomplete)\n");
  EXPECT_EQ(full.taken, whole.size() / 2);

  // Room for every byte: the same run succeeds (the check is on the stream, not the size).
  FullAfter roomy(1 << 20);
  std::ostream fine(&roomy);
  std::ostringstream quiet;
  EXPECT_EQ(asys::runCli({"stats", "-r", "hggc_api_sum", report}, fine, quiet), 0) << quiet.str();
  EXPECT_EQ(roomy.taken, whole.size());
}
