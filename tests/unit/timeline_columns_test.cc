// The timeline's packed event columns (core/timeline/event_columns.h) and a
// track's events read back through them, against values worked out by hand:
// times as 32-bit offsets from each block's smallest value, a block spanning
// 2^32 ns or more kept whole (a sparse track, an event longer than 4.3 s),
// rows as 16-bit offsets, names as 16-bit codes, lanes and kinds only where
// they vary; a level's longest durations.
#include "core/timeline/event_columns.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "core/timeline/timeline.h"

namespace asys {
namespace {

constexpr int64_t k2to32 = int64_t{1} << 32;

std::vector<int64_t> readBack(const PackedTimes& p) {
  std::vector<int64_t> out;
  for (size_t i = 0; i < p.size(); ++i) out.push_back(p[i]);
  return out;
}

TEST(TimelineColumns, TimesInOneBlockAreOffsetsFromItsSmallest) {
  // One block: base 1,000,000,000,000, offsets 0, 5, 4,294,967,295 (2^32 - 1, the largest that fits).
  const std::vector<int64_t> v = {1000000000000, 1000000000005, 1000000000000 + k2to32 - 1};
  const PackedTimes p(v);
  EXPECT_EQ(readBack(p), v);
  // 8 (base) + 8 (largest) + 4 (block's place) + 3 x 4 (offsets): no value kept whole.
  EXPECT_EQ(p.bytes(), 8u + 8u + 4u + 12u);
  EXPECT_EQ(p.blockMax(2), 1000000000000 + k2to32 - 1);
}

TEST(TimelineColumns, ABlockSpanning2To32IsKeptWhole) {
  // Block 0 (values 0..255): 0, 1, ..., 254, then 2^32 (span 2^32: whole).
  // Block 1 (256..299): 2^32 + 1000 + i, a span of 43 ns: offsets.
  std::vector<int64_t> v;
  for (int64_t i = 0; i < 255; ++i) v.push_back(i);
  v.push_back(k2to32);
  for (int64_t i = 0; i < 44; ++i) v.push_back(k2to32 + 1000 + i);
  const PackedTimes p(v);
  EXPECT_EQ(readBack(p), v);
  EXPECT_EQ(p[255], 4294967296);
  EXPECT_EQ(p[256], 4294968296);
  EXPECT_EQ(p[299], 4294968339);
  // 2 bases (16) + 2 largest (16) + 2 places (8) + 300 offsets (1200) + block 0 whole (256 x 8 = 2048).
  EXPECT_EQ(p.bytes(), 16u + 16u + 8u + 1200u + 2048u);
  EXPECT_EQ(p.blockMax(0), 4294967296);
  EXPECT_EQ(p.blockMax(299), 4294968339);
  EXPECT_EQ(p.max(), 4294968339);
}

TEST(TimelineColumns, ExtremeTimesReadBackExactly) {
  const std::vector<int64_t> v = {std::numeric_limits<int64_t>::min(), -5, 0, std::numeric_limits<int64_t>::max()};
  EXPECT_EQ(readBack(PackedTimes(v)), v);
  // Negative times near each other: offsets from -10.
  const std::vector<int64_t> w = {-10, -7, -7, 3};
  const PackedTimes q(w);
  EXPECT_EQ(readBack(q), w);
  EXPECT_EQ(q.bytes(), 8u + 8u + 4u + 16u);
}

TEST(TimelineColumns, LowerBoundFindsTheFirstValueNotBelow) {
  // 0, 10, 20, ..., 5990 (600 values over three blocks), and 10 twice.
  std::vector<int64_t> v;
  for (int64_t i = 0; i < 600; ++i) v.push_back(10 * i);
  v.insert(v.begin() + 2, 10);
  const PackedTimes p(v);
  EXPECT_EQ(p.lowerBound(INT64_MIN), 0u);
  EXPECT_EQ(p.lowerBound(0), 0u);
  EXPECT_EQ(p.lowerBound(1), 1u);
  EXPECT_EQ(p.lowerBound(10), 1u);   // the first of the two 10s
  EXPECT_EQ(p.lowerBound(11), 3u);   // 20 is at 3
  EXPECT_EQ(p.lowerBound(2565), 258u);  // 2570 = 10 x 257, one place later for the extra 10
  EXPECT_EQ(p.lowerBound(5990), 600u);
  EXPECT_EQ(p.lowerBound(5991), 601u);
}

TEST(TimelineColumns, UpperBoundFindsTheFirstValueAbove) {
  // 0, 10, 10, 20, ..., 5990, as above.
  std::vector<int64_t> v;
  for (int64_t i = 0; i < 600; ++i) v.push_back(10 * i);
  v.insert(v.begin() + 2, 10);
  const PackedTimes p(v);
  EXPECT_EQ(p.upperBound(INT64_MIN), 0u);
  EXPECT_EQ(p.upperBound(0), 1u);
  EXPECT_EQ(p.upperBound(10), 3u);  // past both 10s
  EXPECT_EQ(p.upperBound(2570), 259u);
  EXPECT_EQ(p.upperBound(5990), 601u);
  EXPECT_EQ(p.upperBound(INT64_MAX), 601u);
}

TEST(TimelineColumns, RowsAreTwoByteOffsetsWhereABlockSpansUnder65536) {
  // Block 0 (256 rows): 1,000,000 + 3i, a span of 765: 2-byte offsets.
  // Block 1 (256 rows): 0, 65,535, then 70,000 + i: a span of 70,253, past
  // 65,535: kept whole. Block 2 (10 rows): 5, then 65,540: a span of
  // exactly 65,535 fits.
  std::vector<uint32_t> v;
  for (uint32_t i = 0; i < 256; ++i) v.push_back(1000000 + 3 * i);
  v.push_back(0);
  v.push_back(65535);
  for (uint32_t i = 0; i < 254; ++i) v.push_back(70000 + i);
  for (uint32_t i = 0; i < 10; ++i) v.push_back(i == 0 ? 5 : 65540);
  const PackedIndices p(v);
  ASSERT_EQ(p.size(), v.size());
  for (size_t i = 0; i < v.size(); ++i) EXPECT_EQ(p[i], v[i]) << i;
  EXPECT_EQ(p[255], 1000765u);
  EXPECT_EQ(p[256 + 9], 70007u);
  EXPECT_EQ(p[512], 5u);
  EXPECT_EQ(p[521], 65540u);
  EXPECT_EQ(p.blockMax(256), 70253u);
  // 3 bases, 3 largest, 3 places (4 bytes each: 36) + 522 offsets (2 bytes:
  // 1044, a whole block's included) + block 1 whole (256 x 4: 1024).
  EXPECT_EQ(p.bytes(), 36u + 1044u + 1024u);
}

TEST(TimelineColumns, ALevelReadsADurationPast2To32FromTheTrack) {
  // A 5 s event (past 2^32 - 1 ns) from 0, then 400 events of 100 ns every
  // 2,000 ns from 5 s + 500 ns. At 1 us each short event stays apart (1,900
  // ns gaps): 400 slices of 401, more than 3/4, not kept. At 8 us they all
  // merge into the long event's slice (the long one and each short one are
  // not both at least 8 us): one slice of 401 events, named by event 0,
  // whose 5 s duration the level cannot keep in 4 bytes: read from the track.
  TimelineEventVectors v;
  v.start.push_back(0);
  v.end.push_back(5000000000);
  for (int64_t j = 0; j < 400; ++j) {
    v.start.push_back(5000000500 + 2000 * j);
    v.end.push_back(5000000500 + 2000 * j + 100);
  }
  v.name.assign(v.start.size(), 2);
  v.name[0] = 1;
  v.kind.assign(v.start.size(), TimelineKind::Hgtx);
  TimelineTrack t;
  t.setEvents(std::move(v));
  buildLevels(t);
  ASSERT_EQ(t.levels.size(), 1u);
  const TimelineLevel& l = t.levels[0];
  EXPECT_EQ(l.resolution, 8000);
  ASSERT_EQ(l.size(), 1u);
  EXPECT_EQ(l.longest[0], TimelineLevel::kLongDuration);
  EXPECT_EQ(l.event[0], 0u);
  EXPECT_EQ(l.count[0], 401u);
  // The whole track at 100 px (60 ms a pixel) reads the level: one slice.
  const TimelineSlices s = trackWindow(t, 0, 6000000000, 100);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s.start[0], 0);
  EXPECT_EQ(s.end[0], 5000000500 + 2000 * 399 + 100);
  EXPECT_EQ(s.event[0], 0u);
  EXPECT_EQ(s.name[0], 1u);
  EXPECT_EQ(s.count[0], 401u);
}

TEST(TimelineColumns, ALevelKeepsItsSlicesLongestDuration) {
  // 600 events on one lane: event i from 2,000 i, 1,000 ns long, except
  // event 301 (1,500 ns). At 1 us they stay apart (1,000 ns gaps; after
  // event 301 a 500 ns gap, but 301 and 302 are both at least 1 us long):
  // not kept. At 8 us every event (each under 8 us) merges into one slice,
  // whose longest event is 301: its 1,500 ns are kept in the level.
  TimelineEventVectors v;
  for (int64_t i = 0; i < 600; ++i) {
    v.start.push_back(2000 * i);
    v.end.push_back(2000 * i + (i == 301 ? 1500 : 1000));
  }
  v.name.assign(v.start.size(), 4);
  v.name[301] = 5;
  v.kind.assign(v.start.size(), TimelineKind::Kernel);
  TimelineTrack t;
  t.setEvents(std::move(v));
  buildLevels(t);
  ASSERT_EQ(t.levels.size(), 1u);
  const TimelineLevel& l = t.levels[0];
  EXPECT_EQ(l.resolution, 8000);
  ASSERT_EQ(l.size(), 1u);
  EXPECT_EQ(l.longest[0], 1500u);
  EXPECT_EQ(l.event[0], 301u);
  EXPECT_EQ(l.count[0], 600u);
  const TimelineSlices s = trackWindow(t, 0, 1200000, 10);  // 120 us a pixel: the level
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s.event[0], 301u);
  EXPECT_EQ(s.name[0], 5u);
  EXPECT_EQ(s.count[0], 600u);
}

TEST(TimelineColumns, NamesAreCodesIntoTheTracksNames) {
  const std::vector<uint32_t> names = {70, 9, 70, 123456, 9};
  const NameColumn c(names);
  for (size_t i = 0; i < names.size(); ++i) EXPECT_EQ(c[i], names[i]);
  // Three distinct names (12 bytes) and five 2-byte codes.
  EXPECT_EQ(c.bytes(), 12u + 10u);
  // 65,537 distinct names do not fit 16-bit codes: the ids themselves.
  std::vector<uint32_t> many;
  for (uint32_t i = 0; i < 65537; ++i) many.push_back(i * 3);
  const NameColumn d(many);
  for (size_t i = 0; i < many.size(); ++i) ASSERT_EQ(d[i], many[i]);
  EXPECT_EQ(d.bytes(), 4u * 65537);
  // 65,536 do.
  many.pop_back();
  EXPECT_EQ(NameColumn(many).bytes(), 4u * 65536 + 2u * 65536);
}

TEST(TimelineColumns, LanesAndKindsOnlyWhereTheyVary) {
  const LaneColumn none(std::vector<uint16_t>{0, 0, 0});
  EXPECT_EQ(none[2], 0);
  EXPECT_EQ(none.bytes(), 0u);
  const LaneColumn small(std::vector<uint16_t>{0, 255, 3});
  EXPECT_EQ(small[1], 255);
  EXPECT_EQ(small.bytes(), 3u);
  const LaneColumn wide(std::vector<uint16_t>{0, 256, 3});
  EXPECT_EQ(wide[1], 256);
  EXPECT_EQ(wide[2], 3);
  EXPECT_EQ(wide.bytes(), 6u);
  const KindColumn one(std::vector<TimelineKind>(4, TimelineKind::Api));
  EXPECT_EQ(one[3], TimelineKind::Api);
  EXPECT_EQ(one.bytes(), 0u);
  const KindColumn mixed(std::vector<TimelineKind>{TimelineKind::Api, TimelineKind::ApiError});
  EXPECT_EQ(mixed[0], TimelineKind::Api);
  EXPECT_EQ(mixed[1], TimelineKind::ApiError);
  EXPECT_EQ(mixed.bytes(), 2u);
}

TEST(TimelineColumns, AnEventLongerThan2To32NsKeepsItsEnd) {
  // A range of 10 s (10^10 ns, past 2^32) among 1 us kernels: its end reads
  // back exact, it is the track's longest event, and a window of 1 s at its
  // middle finds it (it starts 5 s before the window).
  TimelineEventVectors v;
  v.start = {0, 1000, 5000, 20000000000};
  v.end = {10000000000, 2000, 6000, 20000001000};
  v.name = {1, 2, 2, 3};
  v.lane = {0, 1, 1, 0};
  v.kind = {TimelineKind::Hgtx, TimelineKind::Hgtx, TimelineKind::Hgtx, TimelineKind::Hgtx};
  TimelineTrack t;
  t.setEvents(std::move(v));
  ASSERT_EQ(t.size(), 4u);
  EXPECT_EQ(t.end[0], 10000000000);
  EXPECT_EQ(t.end[3], 20000001000);
  EXPECT_EQ(t.end[0] - t.start[0], 10000000000);
  EXPECT_EQ(t.longest, 10000000000);
  EXPECT_EQ(t.lanes, 2);
  EXPECT_EQ(t.lane[1], 1);
  EXPECT_EQ(t.name[3], 3u);
  buildLevels(t);
  const TimelineSlices s = trackWindow(t, 5000000000, 6000000000, 100);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s.start[0], 0);
  EXPECT_EQ(s.end[0], 10000000000);
  EXPECT_EQ(s.event[0], 0u);
  EXPECT_EQ(s.name[0], 1u);
  EXPECT_EQ(s.count[0], 1u);
}

TEST(TimelineColumns, AWindowAfterALongEventSkipsWhatEndedBeforeIt) {
  // A 10 s range on lane 0, then 1,000 events of 5 ns every 10 ns on lane 1
  // from 1,000 ns (all ended by 11,000 ns), then one at 6 s: a window of
  // [5 s, 7 s) at 10 px holds the range and the event at 6 s, nothing else
  // (the 1,000 short events, four blocks of 256, are skipped whole).
  TimelineEventVectors v;
  v.start.push_back(0);
  v.end.push_back(10000000000);
  v.lane.push_back(0);
  for (int64_t i = 0; i < 1000; ++i) {
    v.start.push_back(1000 + 10 * i);
    v.end.push_back(1000 + 10 * i + 5);
    v.lane.push_back(1);
  }
  v.start.push_back(6000000000);
  v.end.push_back(6000000100);
  v.lane.push_back(1);
  v.name.assign(v.start.size(), 7);
  v.kind.assign(v.start.size(), TimelineKind::Osrt);
  TimelineTrack t;
  t.setEvents(std::move(v));
  const TimelineSlices s = trackWindow(t, 5000000000, 7000000000, 10);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s.start, (std::vector<int64_t>{0, 6000000000}));
  EXPECT_EQ(s.end, (std::vector<int64_t>{10000000000, 6000000100}));
  EXPECT_EQ(s.event, (std::vector<uint32_t>{0, 1001}));
  EXPECT_EQ(s.lane, (std::vector<uint16_t>{0, 1}));
  EXPECT_EQ(s.count, (std::vector<uint32_t>{1, 1}));
}

}  // namespace
}  // namespace asys
