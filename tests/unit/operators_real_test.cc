// The operator rules on a real PyTorch trace (shared/data/real, skipped when
// absent): TraceLens's H100 Qwen inference trace, imported (its cpu_ops carry
// their shapes and types), against the reference CSVs TraceLens ships beside
// it, and one aten::mm's Compute Util worked out by hand from its shape and
// the H100's datasheet peak.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "core/cli/cli.h"
#include "core/import/importer.h"
#include "tests/unit/csv_rows.h"

namespace fs = std::filesystem;
using asys_test::column;
using asys_test::parseCsv;

namespace {

const std::string kDir = std::string(ASYS_REAL_DATA_DIR) + "/kineto/tracelens/h100";
const std::string kTrace = kDir + "/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz";
const std::string kCsvs = kDir + "/Qwen_Qwen1.5-0.5B-Chat__1016005_perf_report_csvs";

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

struct CliResult {
  int status;
  std::string out, err;
};

CliResult cli(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  const int status = asys::runCli(args, out, err);
  return {status, out.str(), err.str()};
}

class QwenOperators : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!fs::exists(kTrace)) return;
    dir_ = fs::temp_directory_path() / ("asys-ops-real-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    report_ = (dir_ / "qwen.asysrep").string();
    asys::importReports({kTrace}, report_);
  }
  static void TearDownTestSuite() {
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
  }
  void SetUp() override {
    if (!fs::exists(kTrace)) GTEST_SKIP() << "real data not present: " << kTrace;
  }
  static std::vector<std::vector<std::string>> rule(const std::string& spec) {
    CliResult r = cli({"stats", "-r", spec, report_});
    EXPECT_EQ(r.status, 0) << r.err;
    return parseCsv(r.out);
  }
  static inline fs::path dir_;
  static inline std::string report_;
};

}  // namespace

// TraceLens's ops_summary_by_category counts 169 GEMM operators (aten::mm,
// aten::addmm, aten::bmm) whose kernels and memsets ran 9.001277587890625 ms
// (float sums); kernel_summary lists 73 GEMM kernels that no cpu_op launched
// (no launch event in the trace), 3935.211 us in all. ppu_op_sum has the
// same: the framework GEMM operators' instances and PPU active time, and the
// kernel-level GEMM row of those kernels.
TEST_F(QwenOperators, GemmOperatorsMatchTheTraceLensSummaries) {
  const auto rows = rule("ppu_op_sum:op=GEMM");
  ASSERT_GT(rows.size(), 1u);
  const auto& h = rows[0];
  const size_t type = column(h, "OP Type"), name = column(h, "OP Name"), inst = column(h, "Instances"),
               active = column(h, "PPU Active Time (ns)"), total = column(h, "Total Time (ns)");
  int64_t frameworkInstances = 0, frameworkActive = 0;
  bool sawKernelRow = false;
  for (size_t r = 1; r < rows.size(); ++r) {
    ASSERT_EQ(rows[r][type], "GEMM");
    if (rows[r][name].rfind("aten::", 0) == 0) {
      frameworkInstances += std::stoll(rows[r][inst]);
      frameworkActive += std::stoll(rows[r][active]);
    } else if (rows[r][name].rfind("sm90_xmma_gemm", 0) == 0) {
      sawKernelRow = true;
      EXPECT_EQ(rows[r][inst], "73");
      EXPECT_EQ(rows[r][total], "3935211");  // kernel_summary: 3935.211 us
    }
  }
  EXPECT_TRUE(sawKernelRow);

  const auto categories = parseCsv(slurp(kCsvs + "/ops_summary_by_category.csv"));
  ASSERT_GT(categories.size(), 1u);
  const size_t cat = column(categories[0], "op category"), count = column(categories[0], "Count"),
               ms = column(categories[0], "total_direct_kernel_time_ms");
  bool found = false;
  for (size_t r = 1; r < categories.size(); ++r) {
    if (categories[r][cat] != "GEMM") continue;
    found = true;
    EXPECT_EQ(frameworkInstances, std::stoll(categories[r][count]));
    // TraceLens sums in floating point; ours is exact in ns: within 0.01 us.
    EXPECT_NEAR(static_cast<double>(frameworkActive), std::stod(categories[r][ms]) * 1e6, 10.0);
  }
  EXPECT_TRUE(found);
}

// kernel_summary.csv lists, per (parent cpu_op, kernel name), the GEMM
// kernels each framework operator launched: under aten::mm 96 sm90_xmma
// kernels, 6588.415 us; under aten::addmm 72 of them, 2266.292 us; under
// aten::bmm one cutlass kernel, 3.52 us (TraceLens's own parent links, from
// the trace's launch correlations). The engine's own association must give
// the same kernels under the same framework operators: ppu_op_trace's
// activities of the GEMM operators named aten::mm / addmm / bmm (their
// memsets left aside, which TraceLens files as other rows), counted and
// summed exactly in ns; and ppu_op_kernel_breakdown's kernel rows under
// those framework operators, whose Kernel Instances must add up to the same
// count and whose truncated Kernel Avg must bracket the same sum.
TEST_F(QwenOperators, GemmKernelsUnderEachFrameworkOperatorMatchTraceLens) {
  struct Group {
    int64_t count = 0;
    double us = 0;                    // TraceLens
    int64_t traceCount = 0, traceNs = 0;  // ppu_op_trace
    int64_t breakdownCount = 0, breakdownLow = 0, breakdownHigh = 0;  // ppu_op_kernel_breakdown
  };
  std::map<std::pair<std::string, std::string>, Group> groups;  // (aten op, kernel name)
  auto atenOp = [](const std::string& opName) {
    for (const char* op : {"aten::mm", "aten::addmm", "aten::bmm"})
      if (opName == op || opName.rfind(std::string(op) + ",", 0) == 0) return std::string(op);
    return std::string();
  };

  const auto kernels = parseCsv(slurp(kCsvs + "/kernel_summary.csv"));
  ASSERT_GT(kernels.size(), 1u);
  const size_t kcat = column(kernels[0], "Parent op category"), kop = column(kernels[0], "Parent cpu_op"),
               kname = column(kernels[0], "Kernel name"), ksum = column(kernels[0], "Kernel duration (µs)_sum"),
               kcount = column(kernels[0], "Kernel duration (µs)_count");
  for (size_t r = 1; r < kernels.size(); ++r) {
    if (kernels[r][kcat] != "GEMM" || atenOp(kernels[r][kop]).empty()) continue;
    Group& g = groups[{kernels[r][kop], kernels[r][kname]}];
    g.count += std::stoll(kernels[r][kcount]);
    g.us += std::stod(kernels[r][ksum]);
  }
  ASSERT_EQ(groups.size(), 3u);  // the three (operator, kernel) pairs above
  int64_t referenceKernels = 0;
  for (const auto& [key, g] : groups) referenceKernels += g.count;
  EXPECT_EQ(referenceKernels, 96 + 72 + 1);

  const auto trace = rule("ppu_op_trace:op=GEMM");
  ASSERT_GT(trace.size(), 1u);
  const size_t tname = column(trace[0], "OP Name"), tact = column(trace[0], "Activity Name"),
               tdur = column(trace[0], "Activity Duration (ns)");
  for (size_t r = 1; r < trace.size(); ++r) {
    const std::string op = atenOp(trace[r][tname]);
    if (op.empty() || trace[r][tact] == "Memset") continue;
    auto it = groups.find({op, trace[r][tact]});
    ASSERT_NE(it, groups.end()) << op << " launched a GEMM kernel TraceLens does not list under it: " << trace[r][tact];
    ++it->second.traceCount;
    it->second.traceNs += std::stoll(trace[r][tdur]);
  }

  const auto breakdown = rule("ppu_op_kernel_breakdown:op=GEMM");
  ASSERT_GT(breakdown.size(), 1u);
  const size_t bfw = column(breakdown[0], "Framework OP"), bkernel = column(breakdown[0], "Kernel Name"),
               bavg = column(breakdown[0], "Kernel Avg (ns)"), binst = column(breakdown[0], "Kernel Instances");
  for (size_t r = 1; r < breakdown.size(); ++r) {
    const std::string op = atenOp(breakdown[r][bfw]);
    if (op.empty() || breakdown[r][bkernel] == "Memset" || breakdown[r][bkernel] == "Idle") continue;
    auto it = groups.find({op, breakdown[r][bkernel]});
    ASSERT_NE(it, groups.end()) << op << " has a GEMM kernel TraceLens does not list under it: " << breakdown[r][bkernel];
    const int64_t n = std::stoll(breakdown[r][binst]), avg = std::stoll(breakdown[r][bavg]);
    it->second.breakdownCount += n;
    it->second.breakdownLow += avg * n;         // Avg = sum / n truncated: avg * n <= sum
    it->second.breakdownHigh += (avg + 1) * n;  // and sum < (avg + 1) * n
  }

  for (const auto& [key, g] : groups) {
    SCOPED_TRACE(key.first + " / " + key.second);
    EXPECT_EQ(g.traceCount, g.count);
    // The trace's durations are whole ns (us with three decimals); TraceLens sums them as floats.
    EXPECT_NEAR(static_cast<double>(g.traceNs), g.us * 1000, 0.5);
    EXPECT_EQ(g.breakdownCount, g.count);
    EXPECT_LE(static_cast<double>(g.breakdownLow), g.us * 1000 + 0.5);
    EXPECT_LT(g.us * 1000 - 0.5, static_cast<double>(g.breakdownHigh));
  }
}

// One aten::mm by hand: [[8944, 1024], [1024, 2816]] bf16 is 2 x 8944 x 1024 x
// 2816 = 51,581,550,592 FLOPs (TraceLens's GFLOPS_first 51.58); an "NVIDIA
// H100 80GB HBM3" is the H100 SXM5, 1,979 TFLOP/s bf16 with sparsity on the
// datasheet, 989.5e12 dense. Compute Util = 48 calls x FLOPs / (peak x their
// summed duration). TraceLens's kernel-only rate for it (610.67 TFLOP/s mean)
// is a little higher: our time also holds each call's memset and the gap.
TEST_F(QwenOperators, OneAtenMmComputeUtilByHand) {
  const auto rows = rule("ppu_op_sum:op=GEMM");
  const auto& h = rows[0];
  const size_t name = column(h, "OP Name"), inst = column(h, "Instances"), total = column(h, "Total Time (ns)"),
               util = column(h, "Compute Util (%)"), load = column(h, "HBM Load Util (%)"),
               store = column(h, "HBM Store Util (%)");
  const std::string op = "aten::mm, sizes = [[8944, 1024], [1024, 2816]], types = [c10::BFloat16, c10::BFloat16]";
  bool found = false;
  for (size_t r = 1; r < rows.size(); ++r) {
    if (rows[r][name] != op) continue;
    found = true;
    ASSERT_EQ(rows[r][inst], "48");
    const double ns = std::stod(rows[r][total]);
    const double flops = 48.0 * 2 * 8944 * 1024 * 2816;
    const double expected = flops / (989.5e12 * ns * 1e-9) * 100;
    EXPECT_NEAR(std::stod(rows[r][util]), std::round(expected * 10) / 10, 1e-9) << expected;
    EXPECT_GT(expected, 55);
    EXPECT_LT(expected * 989.5 / 100, 610.67);  // below TraceLens's kernel-only TFLOP/s
    // HBM (3.35e12 B/s): A and B read, C written, bf16.
    const double read = 48.0 * (8944.0 * 1024 + 1024.0 * 2816) * 2, written = 48.0 * 8944 * 2816 * 2;
    EXPECT_NEAR(std::stod(rows[r][load]), std::round(read / (3.35e12 * ns * 1e-9) * 1000) / 10, 1e-9);
    EXPECT_NEAR(std::stod(rows[r][store]), std::round(written / (3.35e12 * ns * 1e-9) * 1000) / 10, 1e-9);
  }
  EXPECT_TRUE(found);
}

// The flash attention forward: FLOPs 4 B H Sq Sk D / 2 (causal, its Concrete
// Inputs say True) = TraceLens's 10.239 GFLOPS; over its kernel time that is
// TraceLens's 90.29 TFLOP/s mean, 9.1 % of the H100's 989.5.
TEST_F(QwenOperators, FlashAttentionMatchesTraceLens) {
  const auto rows = rule("ppu_op_sum:op=FlashAttention");
  const auto& h = rows[0];
  const size_t name = column(h, "OP Name"), util = column(h, "Compute Util (%)"), inst = column(h, "Instances");
  bool found = false;
  for (size_t r = 1; r < rows.size(); ++r) {
    if (rows[r][name].rfind("aten::_flash_attention_forward", 0) != 0) continue;
    found = true;
    EXPECT_EQ(rows[r][inst], "24");
    EXPECT_EQ(rows[r][util], "9.1");
  }
  EXPECT_TRUE(found);
  // And ppu_op_type_sum has the same types, the Summary first.
  const auto types = rule("ppu_op_type_sum");
  ASSERT_GT(types.size(), 2u);
  EXPECT_EQ(types[1][column(types[0], "OP Type")], "Summary");
}
