// projectRanges against projections worked out by hand: an activity list in
// start order, each activity launched by its own call, the calls' ranges as
// HgtxAssociation holds them (one list per call, and an activity refers to
// its call's), and a graph list of its own for one activity.
#include <gtest/gtest.h>

#include "core/analysis/hgtx_projection.h"
#include "tests/unit/test_random.h"

namespace {

asys::PpuActivities activities(std::vector<std::pair<int64_t, int64_t>> spans) {
  asys::PpuActivities a;
  for (auto [s, e] : spans) {
    a.start.push_back(s);
    a.end.push_back(e);
  }
  return a;
}

void addList(asys::RangeLists& lists, std::vector<uint32_t> ranges) {
  for (uint32_t r : ranges) lists.append(r);
  lists.endGroup();
}

// The next call's ranges, held as a list of its own (no tree here).
void addList(asys::CallRanges& calls, std::vector<uint32_t> ranges) { calls.setListed(calls.calls(), ranges); }

}  // namespace

TEST(ProjectRanges, UnionPerRangeOverSharedCallLists) {
  // a0 [0,10) a1 [5,20) a2 [30,40) a3 [35,35) (empty) a4 [50,60)
  const asys::PpuActivities act = activities({{0, 10}, {5, 20}, {30, 40}, {35, 35}, {50, 60}});
  asys::HgtxAssociation as;
  as.ranges.event = {0, 1, 2};
  as.launchCall = {0, 1, 2, 3, 4};
  addList(as.callRanges, {0});
  addList(as.callRanges, {0, 1});
  addList(as.callRanges, {0});
  addList(as.callRanges, {0, 1, 2});
  addList(as.callRanges, {1});
  const asys::RangeProjections p = asys::projectRanges(act, as);
  // Range 0: a0..a3 -> [0, 40); union [0,20) + [30,40) = 30.
  EXPECT_EQ(p.start[0], 0);
  EXPECT_EQ(p.end[0], 40);
  EXPECT_EQ(p.active[0], 30);
  EXPECT_EQ(p.ops[0], 4u);
  // Range 1: a1, a3, a4 -> [5, 60); 15 + 0 + 10 = 25.
  EXPECT_EQ(p.start[1], 5);
  EXPECT_EQ(p.end[1], 60);
  EXPECT_EQ(p.active[1], 25);
  EXPECT_EQ(p.ops[1], 3u);
  // Range 2: only the empty a3: a projection of no length.
  EXPECT_EQ(p.start[2], 35);
  EXPECT_EQ(p.end[2], 35);
  EXPECT_EQ(p.active[2], 0);
  EXPECT_EQ(p.ops[2], 1u);
}

TEST(ProjectRanges, GraphListReplacesTheCallsList) {
  const asys::PpuActivities act = activities({{0, 10}, {20, 30}});
  asys::HgtxAssociation as;
  as.ranges.event = {0, 1};
  as.launchCall = {0, asys::kNoMatch};  // a1 has no launching call
  addList(as.callRanges, {0});
  // a1 reaches range 1 through a graph node only; a0 keeps its call's list.
  as.addGraphList(2, 1);
  addList(as.graphRanges, {1});
  as.graphVia = {1};
  EXPECT_TRUE(as.viaGraph(1, 0));
  EXPECT_FALSE(as.viaGraph(0, 0));
  const asys::RangeProjections p = asys::projectRanges(act, as);
  EXPECT_EQ(p.active[0], 10);
  EXPECT_EQ(p.ops[0], 1u);
  EXPECT_EQ(p.start[1], 20);
  EXPECT_EQ(p.active[1], 10);
  EXPECT_EQ(p.ops[1], 1u);
}

TEST(ProjectRanges, TouchingOverlappingAndEmptyActivities) {
  // One range, activities in start order: a0 [0,10), a1 [10,15) touches
  // it, a2 [12,12) is empty inside it, a3 [14,30) overlaps a1, a4 [40,40)
  // is empty past the union, a5 [40,45) starts where a4 ends, a6 [41,43)
  // lies inside a5. Union [0,30) + [40,45) = 35; the projection [0, 45).
  const asys::PpuActivities act =
      activities({{0, 10}, {10, 15}, {12, 12}, {14, 30}, {40, 40}, {40, 45}, {41, 43}});
  asys::HgtxAssociation as;
  as.ranges.event = {0};
  as.launchCall = {0, 0, 0, 0, 0, 0, 0};
  addList(as.callRanges, {0});
  const asys::RangeProjections p = asys::projectRanges(act, as);
  EXPECT_EQ(p.start[0], 0);
  EXPECT_EQ(p.end[0], 45);
  EXPECT_EQ(p.active[0], 35);
  EXPECT_EQ(p.ops[0], 7u);
}

TEST(ProjectRanges, AnEmptyFirstActivityCoversNothing) {
  // a0 [5,5) is empty; a1 [5,8) then counts whole: 3; a2 [20,20) empty.
  const asys::PpuActivities act = activities({{5, 5}, {5, 8}, {20, 20}});
  asys::HgtxAssociation as;
  as.ranges.event = {0};
  as.launchCall = {0, 0, 0};
  addList(as.callRanges, {0});
  const asys::RangeProjections p = asys::projectRanges(act, as);
  EXPECT_EQ(p.start[0], 5);
  EXPECT_EQ(p.end[0], 20);
  EXPECT_EQ(p.active[0], 3);
  EXPECT_EQ(p.ops[0], 3u);
}

TEST(ProjectRanges, KeepOnlySpansLeavesStartAndEnd) {
  asys::PpuActivities act = activities({{0, 10}, {5, 20}});
  act.globalPid = {1, 1};
  act.deviceId = {0, 1};
  act.kind = {asys::ActivityKind::Kernel, asys::ActivityKind::Memcpy};
  act.row = {3, 4};
  asys::keepOnlySpans(act);
  EXPECT_EQ(act.start, (std::vector<int64_t>{0, 5}));
  EXPECT_EQ(act.end, (std::vector<int64_t>{10, 20}));
  EXPECT_TRUE(act.globalPid.empty());
  EXPECT_TRUE(act.deviceId.empty());
  EXPECT_TRUE(act.kind.empty());
  EXPECT_TRUE(act.row.empty());
}

TEST(ProjectRanges, WithoutActiveTimeTheSameProjections) {
  // As in TouchingOverlappingAndEmptyActivities, the active time not asked for.
  const asys::PpuActivities act = activities({{0, 10}, {10, 15}, {12, 12}, {14, 30}, {40, 40}});
  asys::HgtxAssociation as;
  as.ranges.event = {0, 1};
  as.launchCall = {0, 0, 1, 1, 0};
  addList(as.callRanges, {0});
  addList(as.callRanges, {0, 1});
  const asys::RangeProjections p = asys::projectRanges(act, as, /*withActive=*/false);
  EXPECT_TRUE(p.active.empty());
  EXPECT_EQ(p.start, (std::vector<int64_t>{0, 12}));
  EXPECT_EQ(p.end, (std::vector<int64_t>{40, 30}));
  EXPECT_EQ(p.ops, (std::vector<uint32_t>{5, 2}));
}

// projectRangesNarrow and projectFirsts give projectRanges' values, the wide ones too (a
// duration or active time past 4.3 s, a projection before its range's start).
TEST(ProjectRanges, NarrowGivesTheSameValues) {
  asys::test::Lcg random(12345);
  auto next = [&](uint64_t n) { return random.below(n); };
  for (int round = 0; round < 20; ++round) {
    const uint32_t ranges = 1 + static_cast<uint32_t>(next(30));
    asys::HgtxAssociation as;
    for (uint32_t r = 0; r < ranges; ++r) {
      as.ranges.event.push_back(r);
      // Some ranges start after their activities (a negative distance).
      as.ranges.start.push_back(static_cast<int64_t>(next(4)) * 3'000'000'000 - 1'000'000'000);
    }
    std::vector<std::pair<int64_t, int64_t>> spans;
    int64_t t = 0;
    const size_t n = 1 + next(200);
    for (size_t a = 0; a < n; ++a) {
      t += static_cast<int64_t>(next(3)) * 1'000'000'000 + static_cast<int64_t>(next(1000));
      // Long activities (past 4.3 s), short ones and empty ones.
      const int64_t len = next(5) == 0 ? 5'000'000'000 : static_cast<int64_t>(next(3)) - 1;
      spans.emplace_back(t, t + len);
      as.launchCall.push_back(static_cast<uint32_t>(a));
      std::vector<uint32_t> list;
      for (uint32_t r = 0; r < ranges; ++r)
        if (next(3) == 0) list.push_back(r);
      addList(as.callRanges, list);
    }
    const asys::PpuActivities act = activities(spans);
    const asys::RangeProjections p = asys::projectRanges(act, as);
    const asys::NarrowProjections q = asys::projectRangesNarrow(act, as);
    const asys::RangeFirsts f = asys::projectFirsts(act, as);
    ASSERT_EQ(f.ops, p.ops);
    ASSERT_EQ(q.size(), ranges);
    for (uint32_t r = 0; r < ranges; ++r) {
      ASSERT_EQ(q.ops(r), p.ops[r]) << "round " << round << " range " << r;
      EXPECT_EQ(f.projected(r), p.ops[r] > 0) << "round " << round << " range " << r;
      if (p.ops[r] == 0) continue;
      EXPECT_EQ(q.start(as.ranges, r), p.start[r]) << "round " << round << " range " << r;
      EXPECT_EQ(q.start(as.ranges, r) + q.duration(r), p.end[r]) << "round " << round << " range " << r;
      EXPECT_EQ(q.active(r), p.active[r]) << "round " << round << " range " << r;
      ASSERT_TRUE(f.projected(r));
      EXPECT_EQ(f.span(act, r), (asys::Span{p.start[r], p.end[r]})) << "round " << round << " range " << r;
    }
  }
}

// The trace's projections hold a range's op count and idle time (duration
// less active time) in 2 bytes each while below 65,535: a range past both
// (70,000 activities; idle gaps of 3 ns and of 70 us, an empty activity
// past the end) and a range within both give projectRanges' values, and
// the first range's idle time crosses 65,535 on the way.
TEST(ProjectRanges, NarrowOpsAndIdleTimePastTwoBytes) {
  asys::HgtxAssociation as;
  as.ranges.event = {0, 1};
  as.ranges.start = {0, 0};
  std::vector<std::pair<int64_t, int64_t>> spans;
  int64_t t = 100;
  for (uint32_t a = 0; a < 70'000; ++a) {
    const int64_t gap = a % 1000 == 999 ? 70'000 : 3;
    spans.emplace_back(t, t + 10);
    t += 10 + gap;
    as.launchCall.push_back(a);
    addList(as.callRanges, a < 5 ? std::vector<uint32_t>{0, 1} : std::vector<uint32_t>{0});
  }
  spans.emplace_back(t + 5, t + 5);  // empty, past the end: the duration grows, the active time does not
  as.launchCall.push_back(70'000);
  addList(as.callRanges, {0});
  const asys::PpuActivities act = activities(spans);
  const asys::RangeProjections p = asys::projectRanges(act, as);
  const asys::NarrowProjections q = asys::projectRangesNarrow(act, as);
  ASSERT_EQ(p.ops, (std::vector<uint32_t>{70'001, 5}));
  ASSERT_GT(p.end[0] - p.start[0] - p.active[0], 65'535);
  for (uint32_t r = 0; r < 2; ++r) {
    EXPECT_EQ(q.ops(r), p.ops[r]) << r;
    EXPECT_EQ(q.start(as.ranges, r), p.start[r]) << r;
    EXPECT_EQ(q.start(as.ranges, r) + q.duration(r), p.end[r]) << r;
    EXPECT_EQ(q.active(r), p.active[r]) << r;
  }
}

// The trace's fold over a list it gives back as it passes it
// (projectRangesNarrowGivingBack: the list's starts in about 4 bytes and
// its durations, as the trace's spansOnly list holds them, and the
// activities' launching calls, given back a step of 65,536 activities at a
// time) gives projectRanges' values, worked out first from a copy of the
// list; 300,000 activities, so that pages are given back, and ranges
// nested three deep, some with no activity (no projection).
TEST(ProjectRanges, GivingTheListBackGivesTheSameValues) {
  asys::test::Lcg random(2026);
  auto next = [&](uint64_t n) { return random.below(n); };
  constexpr uint32_t kOuter = 300;  // each outer range holds two inner ones
  asys::HgtxAssociation as;
  std::vector<int64_t> rangeStart;
  for (uint32_t r = 0; r < 3 * kOuter; ++r) {
    as.ranges.event.push_back(r);
    rangeStart.push_back(static_cast<int64_t>(r / 3) * 3'000 + (r % 3));
  }
  std::vector<std::pair<int64_t, int64_t>> spans;
  int64_t t = 0;
  for (uint32_t a = 0; a < 300'000; ++a) {
    t += static_cast<int64_t>(next(7));
    const int64_t len = next(1000) == 0 ? 5'000'000'000 : static_cast<int64_t>(next(40));
    spans.emplace_back(t, t + len);
    as.launchCall.push_back(a);
    // The outer range by time, and one of its inner ones or neither; the
    // last outer ranges get no activity.
    const uint32_t outer = static_cast<uint32_t>(std::min<int64_t>(t / 3'000, kOuter - 10));
    const uint64_t inner = next(3);
    std::vector<uint32_t> list{3 * outer};
    if (inner > 0) list.push_back(3 * outer + static_cast<uint32_t>(inner));
    addList(as.callRanges, list);
  }
  const asys::PpuActivities wide = activities(spans);
  const asys::RangeProjections p = asys::projectRanges(wide, as);
  asys::StartTimes starts;
  starts.assign(rangeStart);
  asys::PpuActivities narrow;
  {
    std::vector<int64_t> start;
    for (auto [s, e] : spans) {
      start.push_back(s);
      narrow.duration.push_back(e - s);
    }
    narrow.narrowStart.assign(start);
  }
  const asys::NarrowProjections q = asys::projectRangesNarrowGivingBack(narrow, as, starts);
  ASSERT_EQ(q.size(), 3 * kOuter);
  size_t none = 0;
  for (uint32_t r = 0; r < 3 * kOuter; ++r) {
    ASSERT_EQ(q.ops(r), p.ops[r]) << r;
    if (p.ops[r] == 0) {
      ++none;
      continue;
    }
    EXPECT_EQ(q.start(starts, r), p.start[r]) << r;
    EXPECT_EQ(q.start(starts, r) + q.duration(r), p.end[r]) << r;
    EXPECT_EQ(q.active(r), p.active[r]) << r;
  }
  EXPECT_GE(none, 27u);
}
