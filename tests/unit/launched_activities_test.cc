// loadLaunchedActivities (the association's activity list, HGGC_KERNEL read
// a chunk at a time, each activity's launching call from a LaunchIndex)
// against the independent whole-table path: loadPpuActivities with the
// links loaded and launchingCalls' join, on a generated report, with and
// without the device, time and kernel filters; and the kernel columns the
// caller keeps are those a whole load reads.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "core/analysis/hgtx_ranges.h"
#include "core/analysis/key_join.h"
#include "core/analysis/launch_index.h"
#include "core/analysis/ppu_activities.h"
#include "core/gen/generator.h"
#include "core/report/report.h"

namespace fs = std::filesystem;

namespace asys {
namespace {

class LaunchedActivities : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    path_ = (fs::temp_directory_path() / ("asys-launched-" + std::to_string(::getpid()) + ".asysrep")).string();
    generateReport({.seed = 5, .scale = 0.25, .profile = "base"}, path_);
  }
  static void TearDownTestSuite() { fs::remove(path_); }
  static std::string path_;

  // Both paths on fresh reports; `configure` narrows the selection, given
  // the first and last kernel start.
  void check(void (*configure)(ActivitySelection&, int64_t first, int64_t last)) {
    int64_t first = 0, last = 0;
    {
      auto r = Report::open(path_);
      const Kernels& k = r->kernels(kcol::start);
      first = *std::min_element(k.start.begin(), k.start.end());
      last = *std::max_element(k.start.begin(), k.start.end());
    }
    auto wholeReport = Report::open(path_);
    auto chunkReport = Report::open(path_);
    ActivitySelection whole;
    whole.links = true;
    configure(whole, first, last);
    const PpuActivities want = loadPpuActivities(*wholeReport, whole);
    const std::vector<uint32_t> wantCall =
        launchingCalls(want.globalPid, want.correlationId, wholeReport->hggcApi(acol::links));

    ActivitySelection sel;
    sel.kernelColumns = kcol::demangledName;
    configure(sel, first, last);
    LaunchIndex calls(100);
    chunkReport->forEachHggcApiChunk(acol::globalTid | acol::correlationId, [&](const ApiCalls& rows, size_t first) {
      for (size_t i = 0; i < rows.size(); ++i)
        calls.add(static_cast<uint32_t>(first + i), rows.globalTid[i], rows.correlationId[i]);
    });
    calls.finish();
    std::vector<uint32_t> gotCall;
    const PpuActivities got = loadLaunchedActivities(*chunkReport, sel, calls, gotCall);

    ASSERT_GT(want.size(), 0u) << "kernel starts " << first << " to " << last;
    EXPECT_EQ(got.start, want.start);
    EXPECT_EQ(got.end, want.end);
    EXPECT_EQ(got.globalPid, want.globalPid);
    EXPECT_EQ(got.deviceId, want.deviceId);
    EXPECT_EQ(got.kind, want.kind);
    EXPECT_EQ(got.row, want.row);
    EXPECT_EQ(gotCall, wantCall);
    EXPECT_TRUE(got.correlationId.empty());
    // The graph nodes: the same column, or none when no activity ran one.
    const bool anyNode =
        std::any_of(want.graphNodeId.begin(), want.graphNodeId.end(), [](int64_t n) { return n != kNoValue; });
    if (anyNode) {
      EXPECT_EQ(got.graphNodeId, want.graphNodeId);
    } else {
      EXPECT_TRUE(got.graphNodeId.empty());
    }
    // The kept column was read in the same scan, whole, and no other stayed.
    EXPECT_EQ(chunkReport->loadedKernelColumns(), kcol::demangledName);
    EXPECT_EQ(chunkReport->kernels(kcol::demangledName).demangledName,
              wholeReport->kernels(kcol::demangledName).demangledName);
    EXPECT_EQ(chunkReport->loadedHggcApiColumns(), 0u);
  }
};
std::string LaunchedActivities::path_;

TEST_F(LaunchedActivities, EveryActivityAsTheWholeTablePathFindsIt) {
  check([](ActivitySelection&, int64_t, int64_t) {});
}

TEST_F(LaunchedActivities, KernelsOnlyOnOneDeviceInAWindow) {
  check([](ActivitySelection& s, int64_t first, int64_t last) {
    s.memory = false;
    s.devices = std::vector<int64_t>{0};
    s.window.start = first;
    s.window.end = first + 3 * (last - first) / 4;
  });
}

TEST_F(LaunchedActivities, AKernelFilterAskedPerRow) {
  check([](ActivitySelection& s, int64_t, int64_t) { s.keepKernel = [](uint32_t row) { return row % 3 == 1; }; });
}

}  // namespace
}  // namespace asys
