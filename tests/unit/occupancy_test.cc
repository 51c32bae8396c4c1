// Occupancy histograms (core/timeline/occupancy.h): each pixel's busy
// fraction, against hand-worked values and against a brute-force union per
// pixel over random tracks of more than one block of events.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "core/timeline/occupancy.h"
#include "core/timeline/timeline.h"
#include "tests/unit/union_oracle.h"

namespace asys {
namespace {

TimelineTrack trackOf(std::vector<std::pair<int64_t, int64_t>> spans) {
  std::sort(spans.begin(), spans.end());
  TimelineEventVectors v;
  for (const auto& [s, e] : spans) {
    v.start.push_back(s);
    v.end.push_back(e);
    v.name.push_back(0);
    v.kind.push_back(TimelineKind::Kernel);
  }
  assignLanes(v.start, v.end, v.lane);
  TimelineTrack t;
  t.setEvents(std::move(v));
  return t;
}

// Events [0, 10), [5, 15), [30, 40) over [0, 40) at 4 pixels of 10 ns:
// pixel 0 [0, 10) busy 10 -> 1; pixel 1 [10, 20) busy [10, 15) = 5 -> 0.5;
// pixel 2 [20, 30) nothing -> 0; pixel 3 [30, 40) -> 1.
TEST(TimelineOccupancy, HandWorked) {
  const TimelineTrack t = trackOf({{0, 10}, {5, 15}, {30, 40}});
  const BusyCheckpoints c = busyCheckpointsOf(t);
  EXPECT_EQ(c.before, (std::vector<int64_t>{0}));
  EXPECT_EQ(c.reach, (std::vector<int64_t>{INT64_MIN}));
  EXPECT_EQ(occupancyOf(t, c, 0, 40, 4), (std::vector<float>{1.0f, 0.5f, 0.0f, 1.0f}));
  // Before and after the events: idle.
  EXPECT_EQ(occupancyOf(t, c, -20, 0, 2), (std::vector<float>{0.0f, 0.0f}));
  EXPECT_EQ(occupancyOf(t, c, 40, 60, 2), (std::vector<float>{0.0f, 0.0f}));
  // 3 pixels over [0, 10): edges 0, 3, 6, 10 (rounded down), each busy.
  EXPECT_EQ(occupancyOf(t, c, 0, 10, 3), (std::vector<float>{1.0f, 1.0f, 1.0f}));
  EXPECT_TRUE(occupancyOf(t, c, 10, 10, 3).empty());
}

TEST(TimelineOccupancy, CheckpointsCarryTheEarlierBlocksUnion) {
  // 300 events of 10 ns every 5 ns (each overlaps the next), then a long one
  // from the first block reaching past the second block's start.
  std::vector<std::pair<int64_t, int64_t>> spans;
  for (int64_t i = 0; i < 300; ++i) spans.push_back({i * 100, i * 100 + 10});
  spans.push_back({5, 25'550});  // starts in block 0, reaches into block 1 (which starts at 25'500)
  const TimelineTrack t = trackOf(spans);
  const BusyCheckpoints c = busyCheckpointsOf(t);
  ASSERT_EQ(c.before.size(), 2u);
  // In start order, events 0..255 are the short ones at 0, 100, ..., 25'400
  // and the long one: their union [0, 25'550); block 1 starts at 25'500.
  EXPECT_EQ(c.before[1], 25'550);
  EXPECT_EQ(c.reach[1], 25'550);
  EXPECT_EQ(t.start[256], 25'500);
  // A window inside block 1 sees the long event's reach: [25'500, 25'600) at 2 pixels:
  // [25'500, 25'550) all busy; [25'550, 25'600) the short event [25'500, 25'510)? no: [25'600...) none -> 0.
  EXPECT_EQ(occupancyOf(t, c, 25'500, 25'600, 2), (std::vector<float>{1.0f, 0.0f}));
}

TEST(TimelineOccupancy, AgainstABruteForceUnionPerPixel) {
  std::mt19937_64 rng(7);
  for (int round = 0; round < 20; ++round) {
    std::vector<std::pair<int64_t, int64_t>> spans;
    const int n = 200 + static_cast<int>(rng() % 2000);
    int64_t at = static_cast<int64_t>(rng() % 1000);
    for (int i = 0; i < n; ++i) {
      at += static_cast<int64_t>(rng() % 50);
      const int64_t len = rng() % 10 == 0 ? static_cast<int64_t>(rng() % 5000) : static_cast<int64_t>(rng() % 60);
      spans.push_back({at, at + len});
    }
    const TimelineTrack t = trackOf(spans);
    const BusyCheckpoints c = busyCheckpointsOf(t);
    const int64_t lo = spans.front().first, hi = at + 5000;
    for (int w = 0; w < 10; ++w) {
      int64_t from = lo - 100 + static_cast<int64_t>(rng() % static_cast<uint64_t>(hi - lo));
      int64_t to = from + 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(hi - lo));
      const uint32_t pixels = 1 + static_cast<uint32_t>(rng() % 300);
      const std::vector<float> got = occupancyOf(t, c, from, to, pixels);
      ASSERT_EQ(got.size(), pixels);
      const __int128 span = static_cast<__int128>(to) - from;
      for (uint32_t j = 0; j < pixels; ++j) {
        const int64_t a = static_cast<int64_t>(from + span * j / pixels), b = static_cast<int64_t>(from + span * (j + 1) / pixels);
        const float want = b > a ? static_cast<float>(static_cast<double>(test::bruteUnionIn(spans, a, b)) / static_cast<double>(b - a)) : 0.0f;
        ASSERT_EQ(got[j], want) << "round " << round << " window " << w << " pixel " << j;
      }
    }
  }
}

TEST(TimelineOccupancy, DrawnWhereEventsOutnumberPixels) {
  std::vector<std::pair<int64_t, int64_t>> spans;
  for (int64_t i = 0; i < 100; ++i) spans.push_back({i * 10, i * 10 + 5});
  const TimelineTrack t = trackOf(spans);
  EXPECT_TRUE(drawnAsOccupancy(t, 0, 1000, 99));    // 100 events, 99 pixels
  EXPECT_FALSE(drawnAsOccupancy(t, 0, 1000, 100));  // as many pixels as events: slices
  EXPECT_FALSE(drawnAsOccupancy(t, 0, 100, 99));    // zoomed in: 10 events
  TimelineTrack merged;
  merged.sources = {0};
  EXPECT_FALSE(drawnAsOccupancy(merged, 0, 1000, 1));
}

}  // namespace
}  // namespace asys
