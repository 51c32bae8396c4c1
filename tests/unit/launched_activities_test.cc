// loadLaunchedActivities (the association's activity list, HGGC_KERNEL read
// a chunk at a time, each activity's launching call from a LaunchIndex)
// against the independent whole-table path: loadPpuActivities with the
// links loaded and launchingCalls' join, on a generated report, with and
// without the device, time and kernel filters; and the kernel columns the
// caller keeps are those a whole load reads. The lean list (durationsOnly,
// kernelTag) against the same whole-table list: its activities in table
// order, each one's end - start and its tag made from its row's columns.
// The list made with the memory operations among the kernels and sorted in
// place, the index given back first, against the list made from the index
// held (2026-12-06); and the association's narrow forms (no process, spans
// only with narrow starts, ends as durations; ranges without events or
// styles; launching calls as the tree's values) against its full list.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <tuple>

#include "core/analysis/associated_activities.h"
#include "core/analysis/hgtx_ranges.h"
#include "core/analysis/key_join.h"
#include "core/analysis/launch_index.h"
#include "core/analysis/ppu_activities.h"
#include "core/base/narrow_ints.h"
#include "core/base/permute.h"
#include "core/gen/generator.h"
#include "core/report/report.h"
#include "tests/unit/sql_query.h"

namespace fs = std::filesystem;

namespace asys {
namespace {

// The calls' index the association makes, from a chunked scan of HGGC_API;
// `evenOnly`: only the even rows, so that the kernels of the others have no
// launching call.
LaunchIndex callsOf(Report& report, bool evenOnly = false) {
  LaunchIndex calls(100);
  report.forEachHggcApiChunk(acol::globalTid | acol::correlationId, [&](const ApiCalls& rows, size_t first) {
    for (size_t i = 0; i < rows.size(); ++i)
      if (!evenOnly || (first + i) % 2 == 0)
        calls.add(static_cast<uint32_t>(first + i), rows.globalTid[i], rows.correlationId[i]);
  });
  calls.finish();
  return calls;
}

// The activities of `a` (whose kind and row say where each is) that ran a
// graph node, read from the tables' own graphNodeId columns: `a`'s index,
// its process and the node, in activity order.
std::vector<std::tuple<uint32_t, int64_t, int64_t>> graphNodesFromTables(Report& report, const PpuActivities& a) {
  const std::vector<int64_t>* column[] = {&report.kernels(kcol::graphNodeId).graphNodeId,
                                          &report.memcpys().graphNodeId, &report.memsets().graphNodeId};
  std::vector<std::tuple<uint32_t, int64_t, int64_t>> out;
  for (size_t i = 0; i < a.size(); ++i)
    if (const int64_t node = (*column[static_cast<size_t>(a.kind[i])])[a.row[i]]; node != kNoValue)
      out.emplace_back(static_cast<uint32_t>(i), a.globalPid[i], node);
  return out;
}
std::vector<std::tuple<uint32_t, int64_t, int64_t>> graphNodesOf(const PpuActivities& a) {
  std::vector<std::tuple<uint32_t, int64_t, int64_t>> out;
  for (const GraphNodeRun& g : a.graphNodes) out.emplace_back(g.activity, g.globalPid, g.node);
  return out;
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
    // The graph nodes: the activities that ran one, as the tables say,
    // renumbered into start order.
    const auto nodes = graphNodesFromTables(*wholeReport, want);
    EXPECT_EQ(graphNodesOf(want), nodes);
    EXPECT_EQ(graphNodesOf(got), nodes);
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

// The lean list: (row, duration, launching call, graph node) of every
// kernel the whole list has, in table (row) order, the process of those
// without a launching call only (the index here holds the even calls), and
// each kernel's tag the one its row's name columns give when loaded whole.
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
  const LaunchIndex calls = callsOf(*chunkReport, /*evenOnly=*/true);
  std::vector<uint32_t> gotCall;
  const PpuActivities got = loadLaunchedActivities(*chunkReport, sel, calls, gotCall);

  ASSERT_EQ(got.size(), want.size());
  ASSERT_GT(got.size(), 0u);
  EXPECT_TRUE(got.start.empty() && got.end.empty() && got.deviceId.empty() && got.kind.empty() && got.row.empty() &&
              got.globalPid.empty());
  const auto wantNodes = graphNodesFromTables(*wholeReport, want);  // in start order
  std::vector<std::tuple<uint32_t, int64_t, int64_t>> nodesByRow;
  size_t unlaunched = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    const size_t a = byRow[i];
    const uint32_t call = wantCall[a] != kNoMatch && wantCall[a] % 2 == 0 ? wantCall[a] : kNoMatch;
    ASSERT_EQ(got.duration.get(i), want.end[a] - want.start[a]) << i;
    ASSERT_EQ(got.tag[i], names.shortName[want.row[a]] ^ 0x5a5au) << i;
    ASSERT_EQ(gotCall[i], call) << i;
    ASSERT_EQ(got.processOf(i), call == kNoMatch ? want.globalPid[a] : kNoValue) << i;
    unlaunched += call == kNoMatch;
    for (const auto& [at, pid, node] : wantNodes)
      if (at == a) nodesByRow.emplace_back(static_cast<uint32_t>(i), pid, node);
  }
  EXPECT_GT(unlaunched, 0u);
  EXPECT_EQ(got.unlaunchedPid.size(), unlaunched);
  EXPECT_FALSE(nodesByRow.empty());
  EXPECT_EQ(graphNodesOf(got), nodesByRow);
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
    ASSERT_EQ(lean.duration.get(a), want.end[a] - want.start[a]);
    ASSERT_EQ(lean.tag[a], names.shortName[want.row[a]] ^ 0x5a5au);
  }
}

// The list made with the index given back before the sort is the one made
// with the index held, and both are the whole-table path's (start order,
// ties by kind and row), on a copy of the report where memcpys and memsets
// start with kernels (and with each other), so that the ties are exercised.
TEST_F(LaunchedActivities, IndexGivenBackAndTiesInTableOrder) {
  const std::string tied = test::editedCopy(
      path_, path_ + ".tied.asysrep",
      "UPDATE HGGC_MEMCPY SET end = end - start + (SELECT start FROM HGGC_KERNEL k WHERE k.rowid = "
      "HGGC_MEMCPY.rowid * 7 + 1), start = (SELECT start FROM HGGC_KERNEL k WHERE k.rowid = "
      "HGGC_MEMCPY.rowid * 7 + 1) WHERE rowid <= 20;"
      "UPDATE HGGC_MEMSET SET end = end - start + (SELECT start FROM HGGC_KERNEL k WHERE k.rowid = "
      "(21 - HGGC_MEMSET.rowid) * 7 + 1), start = (SELECT start FROM HGGC_KERNEL k WHERE k.rowid = "
      "(21 - HGGC_MEMSET.rowid) * 7 + 1) WHERE rowid <= 20;");
  auto wholeReport = Report::open(tied);
  ActivitySelection whole;
  whole.links = true;
  const PpuActivities want = loadPpuActivities(*wholeReport, whole);
  size_t ties = 0;
  for (size_t a = 1; a < want.size(); ++a) ties += want.start[a] == want.start[a - 1] && want.kind[a] != want.kind[a - 1];
  EXPECT_GE(ties, 20u);

  auto heldReport = Report::open(tied);
  auto givenReport = Report::open(tied);
  ActivitySelection sel;
  const LaunchIndex held = callsOf(*heldReport);
  std::vector<uint32_t> heldCall, givenCall;
  const PpuActivities a = loadLaunchedActivities(*heldReport, sel, held, heldCall);
  const PpuActivities b = loadLaunchedActivities(*givenReport, sel, callsOf(*givenReport), givenCall);
  EXPECT_EQ(a.start, want.start);
  EXPECT_EQ(a.end, want.end);
  EXPECT_EQ(a.kind, want.kind);
  EXPECT_EQ(a.row, want.row);
  EXPECT_EQ(b.start, a.start);
  EXPECT_EQ(b.end, a.end);
  EXPECT_EQ(b.globalPid, a.globalPid);
  EXPECT_EQ(b.deviceId, a.deviceId);
  EXPECT_EQ(b.kind, a.kind);
  EXPECT_EQ(b.row, a.row);
  EXPECT_EQ(givenCall, heldCall);
  EXPECT_EQ(graphNodesOf(b), graphNodesOf(a));
  EXPECT_EQ(graphNodesOf(a), graphNodesFromTables(*wholeReport, want));
  wholeReport.reset();
  heldReport.reset();
  givenReport.reset();
  fs::remove(tied);
}

// The association's narrow lists hold the same activities as its full one:
// without processes, with spans only, with ends as durations (endOf), each
// with the same launching calls and ranges.
TEST_F(LaunchedActivities, NarrowAssociationListsKeepTheSameActivities) {
  auto fullReport = Report::open(path_);
  const AssociatedActivities full = associateActivities(*fullReport, ActivitySelection{}, RangeSelection{});
  ASSERT_GT(full.activities.size(), 0u);
  ASSERT_FALSE(full.activities.globalPid.empty());
  ASSERT_FALSE(full.activities.end.empty());

  for (int form = 0; form < 3; ++form) {
    SCOPED_TRACE(form);
    auto report = Report::open(path_);
    ActivitySelection sel;
    sel.processes = form != 0;
    sel.spansOnly = form == 1;
    sel.endsAsDurations = form >= 1;
    const AssociatedActivities got = associateActivities(*report, sel, RangeSelection{});
    const PpuActivities& a = got.activities;
    ASSERT_EQ(a.size(), full.activities.size());
    // A spansOnly list holds its starts narrow (about 4 bytes each).
    EXPECT_EQ(a.start.empty(), form == 1);
    EXPECT_EQ(a.narrowStart.size(), form == 1 ? a.size() : 0u);
    for (size_t i = 0; i < a.size(); ++i) ASSERT_EQ(a.startOf(i), full.activities.start[i]) << i;
    EXPECT_EQ(a.globalPid.empty(), form == 0);
    EXPECT_EQ(a.end.empty(), form >= 1);
    EXPECT_EQ(a.deviceId.empty(), form == 1);
    EXPECT_EQ(a.kind.empty(), form == 1);
    EXPECT_EQ(a.row.empty(), form == 1);
    if (form != 1) {
      EXPECT_EQ(a.deviceId, full.activities.deviceId);
      EXPECT_EQ(a.kind, full.activities.kind);
      EXPECT_EQ(a.row, full.activities.row);
    }
    if (form != 0) EXPECT_EQ(a.globalPid, full.activities.globalPid);
    for (size_t i = 0; i < a.size(); ++i) ASSERT_EQ(a.endOf(i), full.activities.end[i]) << i;
    EXPECT_EQ(got.association.launchCall, full.association.launchCall);
    EXPECT_EQ(got.unlaunched, full.unlaunched);
    for (size_t i = 0; i < a.size(); ++i) {
      const auto x = got.association.rangesOf(i), y = full.association.rangesOf(i);
      ASSERT_TRUE(std::equal(x.begin(), x.end(), y.begin(), y.end())) << i;
    }
    // The launching calls turned into the tree's values (the projections):
    // every activity still reads the same ranges, the calls' values gone.
    HgtxAssociation byValue = got.association;
    byValue.holdCallValuesByActivity();
    size_t withRanges = 0;
    for (size_t i = 0; i < a.size(); ++i) {
      const auto x = byValue.rangesOf(i), y = full.association.rangesOf(i);
      ASSERT_TRUE(std::equal(x.begin(), x.end(), y.begin(), y.end())) << i;
      withRanges += !y.empty();
    }
    EXPECT_GT(withRanges, 0u);
  }
}

// hgtx_kern_trace's association (a startsOnly list, its starts narrow while
// it is made and sorted; the ranges' starts and threads narrow where they
// come back from the sweep) holds the same kernels in the same order, each
// with the same launching call and ranges, and every range the same start,
// end and thread, as the full association read the wide way.
TEST_F(LaunchedActivities, StartsOnlyListAndNarrowRestoredSpansKeepTheSameAssociation) {
  auto fullReport = Report::open(path_);
  ActivitySelection kernels;
  kernels.memory = false;
  const AssociatedActivities full = associateActivities(*fullReport, kernels, RangeSelection{});
  const AssociationRanges& F = full.association.ranges;
  ASSERT_GT(full.activities.size(), 0u);
  ASSERT_GT(F.size(), 0u);
  ASSERT_FALSE(F.start.empty());
  auto report = Report::open(path_);
  ActivitySelection sel = kernels;
  sel.startsOnly = true;
  sel.processes = false;
  RangeSelection ranges;
  ranges.narrowSpansAfterSweep = true;
  const AssociatedActivities got = associateActivities(*report, sel, std::move(ranges));
  const PpuActivities& a = got.activities;
  // The kernels in start order: the same rows (the starts given back).
  EXPECT_EQ(a.row, full.activities.row);
  EXPECT_TRUE(a.start.empty());
  EXPECT_EQ(a.narrowStart.size(), 0u);
  EXPECT_EQ(got.association.launchCall, full.association.launchCall);
  EXPECT_EQ(got.unlaunched, full.unlaunched);
  for (size_t i = 0; i < a.row.size(); ++i) {
    const auto x = got.association.rangesOf(i), y = full.association.rangesOf(i);
    ASSERT_TRUE(std::equal(x.begin(), x.end(), y.begin(), y.end())) << i;
  }
  // The ranges' spans came back narrow.
  const AssociationRanges& R = got.association.ranges;
  ASSERT_EQ(R.size(), F.size());
  EXPECT_TRUE(R.start.empty());
  EXPECT_TRUE(R.threadIndex.empty());
  EXPECT_EQ(R.narrowStart.size(), F.size());
  EXPECT_EQ(R.narrowThread.size(), F.size());
  for (size_t r = 0; r < F.size(); ++r) {
    ASSERT_EQ(R.startOf(r), F.start[r]) << r;
    ASSERT_EQ(R.end(r), F.end(r)) << r;
    ASSERT_EQ(R.thread(r), F.thread(r)) << r;
  }
}

// hgtx_ppu_proj_trace's association (a spansOnly list, the calls' values
// held by activity before the ranges' starts and threads come back narrow
// from the sweep: RangeSelection::callValuesByActivity) gives every
// activity the same ranges and every range the same start, end and thread
// as the full association; and the same count of activities with no
// launching call and no range, counted here from the full association (a
// seventh of HGGC_API's rows deleted, so that there are some).
TEST_F(LaunchedActivities, CallValuesByActivityBeforeTheSpansKeepTheSameAssociation) {
  const std::string missing =
      test::editedCopy(path_, path_ + ".missing.asysrep", "DELETE FROM HGGC_API WHERE rowid % 7 = 3;");
  auto fullReport = Report::open(missing);
  const AssociatedActivities full = associateActivities(*fullReport, ActivitySelection{}, RangeSelection{});
  const AssociationRanges& F = full.association.ranges;
  size_t unlaunched = 0;
  for (size_t i = 0; i < full.activities.size(); ++i)
    unlaunched += full.association.launchCall[i] == kNoMatch && full.association.rangesOf(i).empty();
  ASSERT_GT(unlaunched, 0u);
  ASSERT_GT(F.size(), 0u);
  auto report = Report::open(missing);
  ActivitySelection sel;
  sel.spansOnly = true;
  sel.endsAsDurations = true;
  sel.processes = false;
  sel.releaseMemoryOps = true;
  RangeSelection ranges;
  ranges.narrowSpansAfterSweep = true;
  ranges.callValuesByActivity = true;
  const AssociatedActivities got = associateActivities(*report, sel, std::move(ranges));
  EXPECT_TRUE(got.association.callValuesByActivity);
  EXPECT_EQ(got.unlaunched, unlaunched);
  ASSERT_EQ(got.activities.size(), full.activities.size());
  size_t withRanges = 0;
  for (size_t i = 0; i < got.activities.size(); ++i) {
    const auto x = got.association.rangesOf(i), y = full.association.rangesOf(i);
    ASSERT_TRUE(std::equal(x.begin(), x.end(), y.begin(), y.end())) << i;
    withRanges += !y.empty();
  }
  EXPECT_GT(withRanges, 0u);
  const AssociationRanges& R = got.association.ranges;
  ASSERT_EQ(R.size(), F.size());
  EXPECT_EQ(R.narrowStart.size(), F.size());
  for (size_t r = 0; r < F.size(); ++r) {
    ASSERT_EQ(R.startOf(r), F.start[r]) << r;
    ASSERT_EQ(R.end(r), F.end(r)) << r;
    ASSERT_EQ(R.thread(r), F.thread(r)) << r;
  }
  fullReport.reset();
  report.reset();
  fs::remove(missing);
}

// A startsOnly list of kernels holds no row while each kept kernel's row
// is its position in the list (ActivityListBuilder's implicit rows), and
// its sort's order becomes the rows; a kernel left out makes the rows
// from there on. The rows and launching calls against those worked out
// here from HGGC_KERNEL's own columns: each row the selection keeps (an
// end, the device, the window, the kernel filter), ordered by (start,
// row), its launching call the HGGC_API row of its (process, correlation
// id). Filters chosen so the rows are made at once (device 0), midway (one
// kernel left out at the table's middle, a window ending before the last
// start) or never (none); each made by both paths (the list alone, the
// index held; and the association's, the index given back before the sort).
TEST_F(LaunchedActivities, StartsOnlyRowsImplicitUntilAKernelIsLeftOut) {
  struct Table {
    std::vector<int64_t> start, end, pid, correlation;
    std::vector<int32_t> device;
  } k;
  std::vector<uint32_t> callOf;  // by kernel row
  {
    auto r = Report::open(path_);
    const Kernels& t = r->kernels(kActivityColumns | kActivityLinkColumns);
    k = {t.start, t.end, t.globalPid, t.correlationId, t.deviceId};
    const ApiCalls& api = r->hggcApi(acol::links);
    std::map<std::pair<int64_t, int64_t>, uint32_t> byKey;  // (pid, correlation id) -> its first call row
    for (size_t c = 0; c < api.size(); ++c)
      if (api.correlationId[c] != kNoValue) byKey.emplace(std::pair{pidOf(api.globalTid[c]), api.correlationId[c]}, c);
    for (size_t i = 0; i < k.start.size(); ++i) {
      const auto it = byKey.find({pidOf(k.pid[i]), k.correlation[i]});
      callOf.push_back(it == byKey.end() ? kNoMatch : it->second);
    }
  }
  const size_t n = k.start.size();
  ASSERT_GT(n, 100u);
  const int64_t first = *std::min_element(k.start.begin(), k.start.end());
  const int64_t last = *std::max_element(k.start.begin(), k.start.end());
  struct Case {
    const char* name;
    std::optional<std::vector<int64_t>> devices;
    int64_t windowEnd;
    uint32_t leftOut;  // a kernel row the filter leaves out, or none
  };
  const uint32_t none = UINT32_MAX;
  const std::vector<Case> cases = {
      {"every kernel", std::nullopt, TimeWindow{}.end, none},
      {"device 0", std::vector<int64_t>{0}, TimeWindow{}.end, none},
      {"one kernel left out midway", std::nullopt, TimeWindow{}.end, static_cast<uint32_t>(n / 2)},
      {"a window ending before the last start", std::nullopt, first + 9 * (last - first) / 10, none},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    std::vector<uint32_t> wantRow;
    for (uint32_t i = 0; i < n; ++i) {
      const bool device = !c.devices || std::count(c.devices->begin(), c.devices->end(), k.device[i]) > 0;
      const bool window = k.start[i] < c.windowEnd;  // no kernel here is an instant: [start, end) overlaps
      if (k.end[i] != kNoValue && k.end[i] > k.start[i] && device && window && i != c.leftOut) wantRow.push_back(i);
    }
    std::stable_sort(wantRow.begin(), wantRow.end(), [&](uint32_t x, uint32_t y) { return k.start[x] < k.start[y]; });
    std::vector<uint32_t> wantCall;
    for (const uint32_t row : wantRow) wantCall.push_back(callOf[row]);
    ASSERT_GT(wantRow.size(), 10u);
    // Each case makes the rows where it says: at once, midway, or never.
    if (c.devices) EXPECT_NE(wantRow.size(), n);
    if (c.leftOut != none || c.windowEnd != TimeWindow{}.end) EXPECT_LT(wantRow.size(), n);

    ActivitySelection sel;
    sel.memory = false;
    sel.startsOnly = true;
    sel.processes = false;
    sel.devices = c.devices;
    sel.window.end = c.windowEnd;
    if (c.leftOut != none) sel.keepKernel = [leftOut = c.leftOut](uint32_t row) { return row != leftOut; };
    {
      auto report = Report::open(path_);
      const LaunchIndex calls = callsOf(*report);
      std::vector<uint32_t> gotCall;
      const PpuActivities got = loadLaunchedActivities(*report, sel, calls, gotCall);
      EXPECT_EQ(got.row, wantRow);
      EXPECT_EQ(gotCall, wantCall);
    }
    {
      auto report = Report::open(path_);
      const AssociatedActivities got = associateActivities(*report, sel, RangeSelection{});
      EXPECT_EQ(got.activities.row, wantRow);
      EXPECT_EQ(got.association.launchCall, wantCall);
    }
  }
}

// A caller that read the ranges' events in `chosen` (eventsInChosenOnly)
// and reads no style (noStyles) gets the same association without those
// columns: as many ranges (AssociationRanges::size() counts the names),
// the same names, threads and spans, and each activity the same ranges;
// `chosen` itself still sees every event.
TEST_F(LaunchedActivities, RangesWithoutEventsOrStylesKeepTheSameAssociation) {
  auto fullReport = Report::open(path_);
  const AssociatedActivities full = associateActivities(*fullReport, ActivitySelection{}, RangeSelection{});
  const AssociationRanges& F = full.association.ranges;
  ASSERT_GT(F.size(), 0u);
  for (int form = 0; form < 2; ++form) {
    SCOPED_TRACE(form);
    auto report = Report::open(path_);
    RangeSelection ranges;
    std::vector<uint32_t> seen;
    ranges.chosen = [&](const AssociationRanges& R) { seen = R.event; };
    ranges.eventsInChosenOnly = true;
    ranges.noStyles = form == 1;
    const AssociatedActivities got = associateActivities(*report, ActivitySelection{}, std::move(ranges));
    const AssociationRanges& R = got.association.ranges;
    EXPECT_EQ(seen, F.event);
    EXPECT_TRUE(R.event.empty());
    EXPECT_EQ(R.startEnd.empty(), form == 1);
    if (form == 0) EXPECT_EQ(R.startEnd, F.startEnd);
    ASSERT_EQ(R.size(), F.size());
    EXPECT_EQ(R.name, F.name);
    EXPECT_EQ(R.threadIndex, F.threadIndex);
    EXPECT_EQ(R.start, F.start);
    for (size_t r = 0; r < R.size(); ++r) ASSERT_EQ(R.end(r), F.end(r)) << r;
    EXPECT_EQ(got.association.launchCall, full.association.launchCall);
    for (size_t i = 0; i < got.activities.size(); ++i) {
      const auto x = got.association.rangesOf(i), y = full.association.rangesOf(i);
      ASSERT_TRUE(std::equal(x.begin(), x.end(), y.begin(), y.end())) << i;
    }
  }
}

// The operator summaries' list (ActivitySelection::packPlaces, kernelTag
// read with each chunk, endsAsDurations while it is made, the ranges'
// threads given back after the sweep where the calls are swept as scanned:
// not on a report this small, whose few calls' ranges are kept as found)
// holds the same activities as the full one: each one's device and kind (deviceOf, kindOf), end, kernel name and
// ranges. With 70 devices (more than a byte holds) the list turns to the
// device and kind columns while it is made.
TEST_F(LaunchedActivities, PackedPlacesAndNameTagsKeepTheSameActivities) {
  for (const int devices : {0, 70}) {
    SCOPED_TRACE(devices);
    std::string path = path_;
    if (devices != 0)
      path = test::editedCopy(path_, path_ + ".devices.asysrep", "UPDATE HGGC_KERNEL SET deviceId = rowid % 70");
    auto fullReport = Report::open(path);
    const AssociatedActivities full = associateActivities(*fullReport, ActivitySelection{}, RangeSelection{});
    const PpuActivities& f = full.activities;
    ASSERT_GT(f.size(), 0u);
    auto report = Report::open(path);
    ActivitySelection sel;
    sel.processes = false;
    sel.endsAsDurations = true;
    sel.packPlaces = true;
    sel.chunkColumns = kcol::demangledName;
    sel.kernelTag = [](const Kernels& k, size_t i) { return k.demangledName[i]; };
    RangeSelection ranges;
    ranges.threadAfterSweep = false;
    const AssociatedActivities got = associateActivities(*report, sel, std::move(ranges));
    const PpuActivities& a = got.activities;
    ASSERT_EQ(a.size(), f.size());
    EXPECT_EQ(a.start, f.start);
    EXPECT_TRUE(a.end.empty());
    EXPECT_TRUE(a.row.empty());
    EXPECT_EQ(a.place.empty(), devices != 0);
    EXPECT_EQ(a.deviceId.empty(), devices == 0);
    EXPECT_EQ(got.association.ranges.name, full.association.ranges.name);
    const std::vector<uint32_t>& names = fullReport->kernels(kcol::demangledName).demangledName;
    for (size_t i = 0; i < a.size(); ++i) {
      ASSERT_EQ(a.deviceOf(i), f.deviceId[i]) << i;
      ASSERT_EQ(a.kindOf(i), f.kind[i]) << i;
      ASSERT_EQ(a.endOf(i), f.end[i]) << i;
      if (f.kind[i] == ActivityKind::Kernel)
        ASSERT_EQ(report->strings().get(a.tag[i]), fullReport->strings().get(names[f.row[i]])) << i;
    }
    EXPECT_EQ(got.association.launchCall, full.association.launchCall);
    for (size_t i = 0; i < a.size(); ++i) {
      const auto x = got.association.rangesOf(i), y = full.association.rangesOf(i);
      ASSERT_TRUE(std::equal(x.begin(), x.end(), y.begin(), y.end())) << i;
    }
    if (devices != 0) {
      report.reset();
      fullReport.reset();
      fs::remove(path);
    }
  }
}

// Durations held wide (past 4.3 s) move with their rows when a list is put
// in order in place.
TEST(NarrowIntsPermute, WideValuesMoveWithTheirRows) {
  const std::vector<int64_t> values = {5, int64_t{1} << 40, 7, -3, 9, 4294967295LL};
  NarrowInts d;
  std::vector<uint32_t> other;
  for (size_t i = 0; i < values.size(); ++i) {
    d.push_back(values[i]);
    other.push_back(static_cast<uint32_t>(i));
  }
  const std::vector<uint32_t> want = {4, 1, 5, 3, 0, 2};
  std::vector<uint32_t> order = want;
  d.permuteInPlace(order, [&](std::vector<uint32_t>& o, std::vector<uint32_t>& low) { permuteInPlace(o, other, low); });
  EXPECT_EQ(other, want);
  for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(d.get(i), values[want[i]]) << i;
  EXPECT_EQ(d.wideCount(), 3u);
}

}  // namespace
}  // namespace asys
