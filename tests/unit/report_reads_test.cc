// How reports are read from the file: the read-ahead path answers exactly
// what SQLite's own reads answer, and a table is read from the file once per
// open report (reads counted by the report VFS, core/report/block_vfs.h).
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "core/cli/cli.h"
#include "core/gen/generator.h"
#include "core/report/block_vfs.h"
#include "core/report/report.h"
#include "core/rules/rule.h"
#include "tests/unit/temp_report.h"

namespace {

// A report of ~20 MB: larger than the native block cache (16 MiB), so the
// read-ahead path reads, evicts and reads again.
class ReportReads : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    path_ = asys::test::freshTempPath("reads");
    asys::GenOptions o;
    o.seed = 3;
    o.scale = 25;
    asys::generateReport(o, path_);
  }
  static void TearDownTestSuite() { std::remove(path_.c_str()); }
  void TearDown() override { asys::setReportReadMode(asys::ReadMode::Direct); }

  static std::string cli(const std::string& rules) {
    std::ostringstream out, err;
    const int rc = asys::runCli({"stats", "-r", rules, path_}, out, err);
    EXPECT_EQ(rc, 0) << err.str();
    return out.str();
  }
  static uint64_t reads() { return asys::blockVfsReads().reads; }

  static std::string path_;
};
std::string ReportReads::path_;

uint64_t readsOf(const std::function<void()>& f) {
  const uint64_t before = asys::blockVfsReads().reads;
  f();
  return asys::blockVfsReads().reads - before;
}

const char* const kRules[] = {"hggc_api_sum", "hggc_ppu_kern_sum", "hggc_ppu_kern_gb_sum", "hggc_ppu_trace",
                              "hgtx_sum", "hgtx_pushpop_trace", "osrt_sum", "ppu_metric_trace",
                              "pccl_stage_sum", "hggc_ppu_mem_size_sum", "ppu_device_attribute"};

}  // namespace

TEST_F(ReportReads, ReadAheadAnswersWhatDirectReadsAnswer) {
  for (const char* rule : kRules) {
    asys::setReportReadMode(asys::ReadMode::Direct);
    const std::string direct = cli(rule);
    asys::setReportReadMode(asys::ReadMode::ReadAhead);
    const std::string ahead = cli(rule);
    ASSERT_FALSE(direct.empty()) << rule;
    EXPECT_EQ(direct, ahead) << rule;
  }
}

TEST_F(ReportReads, ReadAheadReadsInFewLargeReads) {
  asys::setReportReadMode(asys::ReadMode::Direct);
  const uint64_t direct = readsOf([] { cli("hggc_ppu_kern_sum"); });
  asys::setReportReadMode(asys::ReadMode::ReadAhead);
  const uint64_t bytesBefore = asys::blockVfsReads().bytes;
  const uint64_t ahead = readsOf([] { cli("hggc_ppu_kern_sum"); });
  const uint64_t bytes = asys::blockVfsReads().bytes - bytesBefore;
  // Direct: one read per page of the kernel table (thousands); read-ahead:
  // the ~20 MB in blocks of up to 4 MiB, plus a few small reads on opening.
  EXPECT_GT(direct, 1000u);
  EXPECT_LT(ahead, 60u);
  // The file about once: nothing on the way (a count(*), or min() and max()
  // in one SELECT) may scan the table besides the load itself.
  const uint64_t size = std::filesystem::file_size(path_);
  EXPECT_LE(bytes, size + size / 10);
}

TEST_F(ReportReads, ASecondRuleOverALoadedTableReadsNothing) {
  for (asys::ReadMode mode : {asys::ReadMode::Direct, asys::ReadMode::ReadAhead}) {
    asys::setReportReadMode(mode);
    auto report = asys::Report::open(path_);
    report->planKernelColumns(asys::kcol::all);  // as the viewer does
    auto run = [&](const char* name) {
      const asys::RuleSpec* rule = asys::findRule(name);
      ASSERT_NE(rule, nullptr);
      asys::runRule(*rule, *report, asys::parseRuleOptions(*rule, {}));
    };
    EXPECT_GT(readsOf([&] { run("hggc_ppu_kern_sum"); }), 0u);
    EXPECT_EQ(readsOf([&] { run("hggc_ppu_kern_gb_sum"); }), 0u);
    EXPECT_EQ(readsOf([&] { run("hggc_ppu_kern_sum"); }), 0u);
    EXPECT_GT(readsOf([&] { run("hggc_ppu_trace"); }), 0u);  // reads HGGC_MEMCPY and HGGC_MEMSET, new
    EXPECT_EQ(readsOf([&] { run("hggc_ppu_trace"); }), 0u);
    EXPECT_EQ(readsOf([&] { run("hggc_ppu_kern_gb_sum"); }), 0u);
  }
}

TEST_F(ReportReads, WithoutAPlanTheNextRuleReadsTheTableAgain) {
  // The case the plan exists for: the test above could not pass without it.
  auto report = asys::Report::open(path_);
  auto run = [&](const char* name) {
    const asys::RuleSpec* rule = asys::findRule(name);
    asys::runRule(*rule, *report, asys::parseRuleOptions(*rule, {}));
  };
  run("hggc_ppu_kern_sum");
  EXPECT_GT(readsOf([&] { run("hggc_ppu_kern_gb_sum"); }), 1000u);
}

TEST_F(ReportReads, SeveralKernelRulesInOneCallReadTheKernelsOnce) {
  const uint64_t gb = readsOf([] { cli("hggc_ppu_kern_gb_sum"); });
  const uint64_t hgtx = readsOf([] { cli("hgtx_sum"); });
  const uint64_t sum = readsOf([] { cli("hggc_ppu_kern_sum"); });
  const uint64_t together = readsOf([] { cli("hggc_ppu_kern_sum,hggc_ppu_kern_gb_sum,hgtx_sum"); });
  // One open and one scan of each table: no more than the two runs that read
  // the kernels and the HGTX events once each (the kernel summary's own scan
  // is not repeated).
  EXPECT_LE(together, gb + hgtx);
  EXPECT_GT(sum, 1000u);
}
