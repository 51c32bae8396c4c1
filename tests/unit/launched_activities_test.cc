// loadLaunchedActivities (the association's activity list, HGGC_KERNEL read
// a chunk at a time, each activity's launching call from a LaunchIndex)
// against the independent whole-table path: loadPpuActivities with the
// links loaded and launchingCalls' join, on a generated report, with and
// without the device, time and kernel filters; and the kernel columns the
// caller keeps are those a whole load reads. The lean list (durationsOnly,
// kernelTag) against the same whole-table list: its activities in table
// order, each one's end - start and its tag made from its row's columns.
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

// The calls' index the association makes, from a chunked scan of HGGC_API.
LaunchIndex callsOf(Report& report) {
  LaunchIndex calls(100);
  report.forEachHggcApiChunk(acol::globalTid | acol::correlationId, [&](const ApiCalls& rows, size_t first) {
    for (size_t i = 0; i < rows.size(); ++i)
      calls.add(static_cast<uint32_t>(first + i), rows.globalTid[i], rows.correlationId[i]);
  });
  calls.finish();
  return calls;
}

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
    const LaunchIndex calls = callsOf(*chunkReport);
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

// The lean list: (row, duration, process, launching call, graph node) of
// every kernel the whole list has, in table (row) order, and each kernel's
// tag the one its row's name columns give when loaded whole.
TEST_F(LaunchedActivities, DurationsOnlyWithATagInTableOrder) {
  auto wholeReport = Report::open(path_);
  auto chunkReport = Report::open(path_);
  ActivitySelection whole;
  whole.links = true;
  whole.memory = false;
  const PpuActivities want = loadPpuActivities(*wholeReport, whole);
  const std::vector<uint32_t> wantCall =
      launchingCalls(want.globalPid, want.correlationId, wholeReport->hggcApi(acol::links));
  const Kernels& names = wholeReport->kernels(kcol::shortName);
  // The whole list's kernels by row: table order.
  std::vector<size_t> byRow(want.size());
  for (size_t a = 0; a < want.size(); ++a) byRow[a] = a;
  std::sort(byRow.begin(), byRow.end(), [&](size_t x, size_t y) { return want.row[x] < want.row[y]; });

  ActivitySelection sel;
  sel.memory = false;
  sel.durationsOnly = true;
  sel.chunkColumns = kcol::shortName;
  sel.kernelTag = [](const Kernels& chunk, size_t i) { return chunk.shortName[i] ^ 0x5a5au; };
  const LaunchIndex calls = callsOf(*chunkReport);
  std::vector<uint32_t> gotCall;
  const PpuActivities got = loadLaunchedActivities(*chunkReport, sel, calls, gotCall);

  ASSERT_EQ(got.size(), want.size());
  ASSERT_GT(got.size(), 0u);
  EXPECT_TRUE(got.start.empty() && got.end.empty() && got.deviceId.empty() && got.kind.empty() && got.row.empty());
  const bool anyNode =
      std::any_of(want.graphNodeId.begin(), want.graphNodeId.end(), [](int64_t n) { return n != kNoValue; });
  for (size_t i = 0; i < got.size(); ++i) {
    const size_t a = byRow[i];
    ASSERT_EQ(got.duration[i], want.end[a] - want.start[a]) << i;
    ASSERT_EQ(got.tag[i], names.shortName[want.row[a]] ^ 0x5a5au) << i;
    ASSERT_EQ(got.globalPid[i], want.globalPid[a]) << i;
    ASSERT_EQ(gotCall[i], wantCall[a]) << i;
    if (anyNode) ASSERT_EQ(got.graphNodeId[i], want.graphNodeId[a]) << i;
  }
  // The tag's column was read with the chunks, not kept.
  EXPECT_EQ(chunkReport->loadedKernelColumns(), 0u);

  // The whole-table path gives the same lean columns, in its start order.
  ActivitySelection wholeLean = sel;
  wholeLean.links = true;
  auto leanReport = Report::open(path_);
  const PpuActivities lean = loadPpuActivities(*leanReport, wholeLean);
  ASSERT_EQ(lean.size(), want.size());
  EXPECT_TRUE(lean.start.empty() && lean.row.empty());
  for (size_t a = 0; a < want.size(); ++a) {
    ASSERT_EQ(lean.duration[a], want.end[a] - want.start[a]);
    ASSERT_EQ(lean.tag[a], names.shortName[want.row[a]] ^ 0x5a5au);
  }
}

}  // namespace
}  // namespace asys
