// The PCCL rules on real NCCL traces (shared/data/real, skipped when absent):
// the DLRM ranks as one report (one collective's desync and one operator's
// bandwidth against values read by hand from the JSON) and HTA's NCCL trace
// (one operator's bandwidth from its kernels' args and durations).
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "tests/unit/cli_run.h"
#include "core/cli/cli.h"
#include "core/import/importer.h"

namespace fs = std::filesystem;

namespace {

const std::string kData = ASYS_REAL_DATA_DIR;

using asys::test::cli;
using CliResult = asys::test::CliRun;

// The CSV line whose text contains `key` (the first), without its Row#.
std::string rowWith(const std::string& csv, const std::string& key) {
  std::istringstream lines(csv);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.find(key) == std::string::npos) continue;
    return line.substr(line.find(',') + 1);
  }
  return "(no row with " + key + ")";
}

std::string importedReport(const std::vector<std::string>& inputs, const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("asys-pccl-real-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string out = (dir / name).string();
  if (!fs::exists(out)) asys::importReports(inputs, out);
  return out;
}

class RemoveTemp : public testing::Environment {
 public:
  void TearDown() override {
    std::error_code ignored;
    fs::remove_all(fs::temp_directory_path() / ("asys-pccl-real-" + std::to_string(::getpid())), ignored);
  }
};
testing::Environment* const kRemoveTemp = testing::AddGlobalTestEnvironment(new RemoveTemp);

// Ranks 0-3 of the DLRM step (rank N runs on device N); the set may hold more
// ranks, which device=0/1/2/3 leaves out so the figures below stay those of
// the four ranks read here.
std::vector<std::string> dlrmRanks0To3() {
  std::vector<std::string> files;
  const fs::path dir = kData + "/kineto/param/dlrm_kineto";
  if (!fs::exists(dir)) return {};
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().filename().string().rfind("worker", 0) == 0) files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  for (const char* w : {"worker0_", "worker1_", "worker2_", "worker3_"}) {
    if (std::none_of(files.begin(), files.end(),
                     [&](const std::string& f) { return fs::path(f).filename().string().rfind(w, 0) == 0; }))
      return {};
  }
  return files;
}

// The first AllReduce of the step, as each worker's JSON has its kernel
// "ncclKernel_AllReduce_RING_LL_Sum_float(...)" (ts, dur in µs, offset
// 1694128201000000): rank 0 436304 + 246, rank 1 436240 + 307, rank 2
// 436347 + 198, rank 3 436255 + 291. Its enclosing "nccl:all_reduce" has
// Input Dims [[394241]], Input type float; world size 8.
TEST(PcclReal, DlrmFirstAllReduceDesync) {
  const std::vector<std::string> files = dlrmRanks0To3();
  if (files.empty()) GTEST_SKIP() << "DLRM ranks 0-3 are not in this checkout";
  const std::string report = importedReport(files, "dlrm.asysrep");
  const CliResult r = cli({"stats", "-r", "pccl_desync_trace:device=0/1/2/3", report});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  // Start 436240 µs (rank 1); the last end 436550 (rank 0): Duration 310 µs.
  // Overlap: min end 436545 (rank 2) - max start 436347 (rank 2) = 198 µs.
  // Rate 112 / 310 = 36.13 -> 36.1; the last to start is rank 2 (pid 59813,
  // device 2). Durations 307, 291, 246, 198: max 307, min 198, avg 1042 / 4 =
  // 260.5 µs = 260500 ns. Last Kernel: the importer's row of rank 2's kernel
  // (not checked here).
  const std::string row = rowWith(r.out, "1694128201436240000,");
  EXPECT_EQ(row.substr(0, row.find(",59813,")), "1694128201436240000,310000,198000,36.1") << row;
  EXPECT_NE(row.find(",59813,2,"), std::string::npos) << row;
  EXPECT_NE(row.find(",307000,198000,260500,4,\"ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)\","),
            std::string::npos)
      << row;
  // All eight NCCL kernels of each rank take part: five SendRecv (all_to_all)
  // and three AllReduce communications, each of four kernels.
  const CliResult s = cli({"stats", "-r", "pccl_desync_summary:device=0/1/2/3:base", report});
  ASSERT_EQ(s.status, 0) << s.err;
  EXPECT_NE(rowWith(s.out, "ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t").find(",5,"), std::string::npos) << s.out;
  EXPECT_NE(rowWith(s.out, "ncclKernel_AllReduce_RING_LL_Sum_float").find(",3,"), std::string::npos) << s.out;
}

TEST(PcclReal, DlrmFirstAllReduceBandwidth) {
  const std::vector<std::string> files = dlrmRanks0To3();
  if (files.empty()) GTEST_SKIP() << "DLRM ranks 0-3 are not in this checkout";
  const std::string report = importedReport(files, "dlrm.asysrep");
  const CliResult r = cli({"stats", "-r", "pccl_op_sum:device=0/1/2/3", report});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  // One execution, four participants: Trans Time = the shortest kernel (198 µs)
  // x 4 = 792000 ns; Total = (246 + 307 + 198 + 291) µs = 1042000 ns (76.0 %);
  // Trans Size = 4 x 394241 x 4 bytes x 2 (8 - 1) / 8 = 11038748; bandwidth
  // 11038748e9 / 792000 = 13937813131.3. The earliest operator range is rank
  // 1's (its launch at 436231 µs comes first).
  EXPECT_EQ(rowWith(r.out, "c:394241,"),
            "792000,76.0,1042000,1,\"0xF\",11038748,13937813131,\"AllReduce, p:0, c:394241, d:7, r:1, w:8, "
            "h:1d6c8d1429e6580f, t:1, b:-\",");
}

// HTA's rank-0 trace with NCCL metadata: three Broadcasts of 53 Long (int64)
// elements in a group of 2 ("In msg nelems": 53, "dtype": "Long") whose
// kernels last 7.775, 7.648 and 7.904 µs, and three AllReduces of 2431040
// floats (2129.38, 1689.577, 2028.293 µs). One rank: each execution has one
// participant, Trans Time = Total Time.
TEST(PcclReal, HtaNcclOperatorBandwidth) {
  const std::string trace = kData + "/kineto/hta/nccl_parser_config/nccl_data.json.gz";
  if (!fs::exists(trace)) GTEST_SKIP() << trace << " is not in this checkout";
  const std::string report = importedReport({trace}, "hta_nccl.asysrep");
  const CliResult r = cli({"stats", "-r", "pccl_op_sum", report});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  // 7775 + 7648 + 7904 = 23327 ns; 3 x 53 x 8 x 1 = 1272 bytes;
  // 1272e9 / 23327 = 54529086.5 -> 54529086.
  EXPECT_EQ(rowWith(r.out, "Broadcast, p:0, c:53,"),
            "23327,100.0,23327,3,\"0x1\",1272,54529086,\"Broadcast, p:0, c:53, d:4, r:0, w:2, h:3934555e5b940ccc, "
            "t:1, b:-\",");
  // 2129380 + 1689577 + 2028293 = 5847250 ns; 3 x 2431040 x 4 x 2 (2 - 1) / 2 =
  // 29172480 bytes; 29172480e9 / 5847250 = 4989094018.6.
  EXPECT_EQ(rowWith(r.out, "c:2431040,"),
            "5847250,100.0,5847250,3,\"0x1\",29172480,4989094018,\"AllReduce, p:0, c:2431040, d:7, r:0, w:2, "
            "h:3934555e5b940ccc, t:1, b:-\",");
  // Rank 0 alone: every communication is one kernel, rate 0.
  const CliResult s = cli({"stats", "-r", "pccl_desync_summary", report});
  ASSERT_EQ(s.status, 0) << s.err;
  EXPECT_EQ(rowWith(s.out, "ncclKernel_AllReduce_RING_LL_Sum_float"),
            "99.8,15,0.0,0.0,0.0,0.0,0.0,0.0,46762159,46762159,\"ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, "
            "unsigned long, ncclWork*)\",");
}

}  // namespace
