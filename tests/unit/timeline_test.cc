// The timeline's tracks and window queries: every event of the report on one
// track, and a window's slices checked against the events themselves (every
// overlapping event inside exactly one slice of its lane, counts adding up,
// no two slices of a lane in one pixel, the longest event naming its slice).
#include "core/timeline/timeline.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>

#include "core/analysis/hgtx_stacks.h"
#include "core/gen/generator.h"
#include "tests/unit/temp_report.h"

namespace asys {
namespace {

std::string demoReport() {
  static const std::string path = [] {
    GenOptions o;
    o.seed = 7;
    o.scale = 1;
    const std::string out = test::freshTempPath("timeline");
    generateReport(o, out);
    return out;
  }();
  return path;
}

TEST(Timeline, LanesTakeTheLowestFreeOne) {
  // [0,10) [2,4) [4,6) [5,20) [11,12): lanes 0 1 1 2 0.
  std::vector<uint16_t> lane;
  EXPECT_EQ(assignLanes({0, 2, 4, 5, 11}, {10, 4, 6, 20, 12}, lane), 3);
  EXPECT_EQ(lane, (std::vector<uint16_t>{0, 1, 1, 2, 0}));
}

TEST(Timeline, EveryEventIsOnOneTrack) {
  auto report = Report::open(demoReport());
  const Timeline t = Timeline::build(*report);
  std::map<TimelineKind, size_t> byKind;
  for (const TimelineTrack& tr : t.tracks()) {
    for (size_t i = 0; i < tr.size(); ++i) {
      ++byKind[tr.kind[i]];
      if (i > 0) EXPECT_LE(tr.start[i - 1], tr.start[i]) << tr.group << " " << tr.label;
      EXPECT_LE(tr.start[i], tr.end[i]);
      EXPECT_LT(tr.lane[i], tr.lanes);
    }
  }
  // PCCL kernels on their PPU's PCCL track, the others on their stream's.
  EXPECT_EQ(byKind[TimelineKind::Kernel] + byKind[TimelineKind::PcclKernel], report->kernels(kcol::time).size());
  EXPECT_GT(byKind[TimelineKind::PcclKernel], 0u);
  EXPECT_EQ(byKind[TimelineKind::Osrt], report->osrtApi().size());
  EXPECT_EQ(byKind[TimelineKind::PcclStage], report->pcclStages().size());
  EXPECT_GT(byKind[TimelineKind::Projection], 0u);
  EXPECT_EQ(byKind[TimelineKind::Memcpy], report->memcpys().size());
  EXPECT_EQ(byKind[TimelineKind::Memset], report->memsets().size());
  EXPECT_EQ(byKind[TimelineKind::Api] + byKind[TimelineKind::ApiError], report->hggcApi().size());
  size_t closedPushPop = 0;
  const HgtxEvents& h = report->hgtx();
  for (size_t i = 0; i < h.size(); ++i) closedPushPop += h.eventType[i] == kHgtxPushPop && h.end[i] != kNoValue;
  EXPECT_EQ(byKind[TimelineKind::Hgtx], closedPushPop);
  EXPECT_GT(closedPushPop, 0u);
  EXPECT_EQ(t.tracks().front().group.rfind("PPU ", 0), 0u);  // devices first
}

TEST(Timeline, ApiCallsCollectedInBatchesMakeTheSameTracks) {
  // One thread a batch (batchEvents 1: each thread is over it, a batch of
  // its own), one scan of HGGC_API each, against every thread in one batch.
  auto whole = Report::open(demoReport());
  auto batched = Report::open(demoReport());
  const Timeline a = Timeline::build(*whole);
  TimelineOptions options;
  options.batchEvents = 1;
  const Timeline b = Timeline::build(*batched, options);
  ASSERT_EQ(a.tracks().size(), b.tracks().size());
  size_t apiTracks = 0, calls = 0;
  for (size_t k = 0; k < a.tracks().size(); ++k) {
    const TimelineTrack &x = a.tracks()[k], &y = b.tracks()[k];
    EXPECT_EQ(x.group, y.group);
    EXPECT_EQ(x.label, y.label);
    ASSERT_EQ(x.size(), y.size()) << x.label;
    for (size_t i = 0; i < x.size(); ++i) {
      ASSERT_EQ(x.start[i], y.start[i]);
      ASSERT_EQ(x.end[i], y.end[i]);
      ASSERT_EQ(x.name[i], y.name[i]);
      ASSERT_EQ(x.kind[i], y.kind[i]);
      ASSERT_EQ(x.lane[i], y.lane[i]);
    }
    ASSERT_EQ(x.row.size(), y.row.size());
    for (size_t i = 0; i < x.row.size(); ++i) ASSERT_EQ(x.row[i], y.row[i]);
    EXPECT_EQ(x.levels.size(), y.levels.size());
    EXPECT_EQ(x.busy, y.busy);
    if (x.size() > 0 && (x.kind[0] == TimelineKind::Api || x.kind[0] == TimelineKind::ApiError)) {
      ++apiTracks;
      calls += x.size();
    }
  }
  EXPECT_GE(apiTracks, 2u);  // so that there were several batches
  EXPECT_EQ(calls, whole->hggcApi().size());
}

// A window's slices against the track's events, brute force. Read from raw
// events, the counts are the overlapping events exactly; read from a level of
// detail, a slice may also stand for events just outside the window.
void checkWindow(const TimelineTrack& tr, const TimelineSlices& s, int64_t from, int64_t to, uint32_t pixels) {
  bool fromLevel = false;
  for (const TimelineLevel& l : tr.levels) fromLevel |= l.resolution <= static_cast<double>(to - from) / pixels / 2;
  const double perPixel = static_cast<double>(to - from) / pixels;
  auto pixelOf = [&](int64_t v) { return static_cast<int64_t>(std::floor(static_cast<double>(v - from) / perPixel)); };
  size_t overlapping = 0, counted = 0;
  for (size_t k = 0; k < s.size(); ++k) counted += s.count[k];
  for (size_t i = 0; i < tr.size(); ++i) {
    const bool inside = tr.start[i] < to && (tr.end[i] > from || (tr.end[i] == tr.start[i] && tr.start[i] >= from));
    if (!inside) continue;
    ++overlapping;
    size_t holders = 0;
    for (size_t k = 0; k < s.size(); ++k)
      holders += s.lane[k] == tr.lane[i] && s.start[k] <= tr.start[i] && tr.end[i] <= s.end[k];
    ASSERT_EQ(holders, 1u) << tr.label << " event " << i;
  }
  if (fromLevel) EXPECT_GE(counted, overlapping);
  else EXPECT_EQ(counted, overlapping);
  std::map<uint16_t, size_t> lastOnLane;
  for (size_t k = 0; k < s.size(); ++k) {
    const TimelineTrack& t = tr;
    EXPECT_EQ(s.name[k], t.name[s.event[k]]);
    if (auto it = lastOnLane.find(s.lane[k]); it != lastOnLane.end()) {
      // Only two slices each at least a pixel wide may meet in one pixel
      // (back-to-back ranges keep their own labels).
      const size_t j = it->second;
      const bool bothWide = static_cast<double>(s.end[j] - s.start[j]) >= perPixel &&
                            static_cast<double>(s.end[k] - s.start[k]) >= perPixel;
      if (!bothWide) EXPECT_GT(pixelOf(s.start[k]), pixelOf(s.end[j])) << "two slices of a lane in one pixel";
    }
    lastOnLane[s.lane[k]] = k;
  }
  // The slice's name is its longest event's (of those on its lane inside it).
  for (size_t k = 0; k < s.size(); ++k) {
    int64_t longest = -1;
    for (size_t i = 0; i < tr.size(); ++i)
      if (tr.lane[i] == s.lane[k] && s.start[k] <= tr.start[i] && tr.end[i] <= s.end[k])
        longest = std::max(longest, tr.end[i] - tr.start[i]);
    EXPECT_EQ(tr.end[s.event[k]] - tr.start[s.event[k]], longest);
  }
}

TEST(Timeline, LevelsOfDetailMergeDenseEventsOnce) {
  // 10,000 events of 50 ns every 100 ns on one lane, one of 70 ns.
  TimelineEventVectors v;
  for (int i = 0; i < 10000; ++i) {
    v.start.push_back(100 * i);
    v.end.push_back(100 * i + (i == 4321 ? 70 : 50));
    v.name.push_back(i);
    v.lane.push_back(0);
    v.kind.push_back(TimelineKind::Kernel);
  }
  TimelineTrack t;
  t.setEvents(std::move(v));
  EXPECT_EQ(t.longest, 70);
  buildLevels(t);
  ASSERT_EQ(t.levels.size(), 1u);  // at 1 us every gap (50 ns) closes: one slice
  EXPECT_EQ(t.levels[0].resolution, 1000);
  EXPECT_EQ(t.levels[0].size(), 1u);
  EXPECT_EQ(t.levels[0].count[0], 10000u);
  EXPECT_EQ(t.levels[0].event[0], 4321u);
}

TEST(Timeline, BackToBackRangesKeepTheirOwnSlices) {
  // ProfilerStep-like ranges of 1 ms end to end, then two 10 ns events in
  // the gap-free tail: 100 px over 3.0001 ms is 30 us a pixel, so the ranges
  // (33 px each) stay three slices, and the tiny ones join the last range.
  TimelineEventVectors v;
  for (int64_t i = 0; i < 3; ++i) {
    v.start.push_back(i * 1000000);
    v.end.push_back((i + 1) * 1000000);
    v.name.push_back(static_cast<uint32_t>(i));
  }
  for (int64_t i = 0; i < 2; ++i) {
    v.start.push_back(3000000 + 10 * i);
    v.end.push_back(3000000 + 10 * (i + 1));
    v.name.push_back(static_cast<uint32_t>(3 + i));
  }
  v.lane.assign(5, 0);
  v.kind.assign(5, TimelineKind::Hgtx);
  TimelineTrack t;
  t.setEvents(std::move(v));
  EXPECT_EQ(t.longest, 1000000);
  buildLevels(t);
  // Every level keeps the ranges apart too.
  for (const TimelineLevel& l : t.levels) EXPECT_GE(l.size(), 3u) << "resolution " << l.resolution;
  const TimelineSlices s = trackWindow(t, 0, 3000100, 100);
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s.start, (std::vector<int64_t>{0, 1000000, 2000000}));
  EXPECT_EQ(s.end, (std::vector<int64_t>{1000000, 2000000, 3000020}));
  EXPECT_EQ(s.name, (std::vector<uint32_t>{0, 1, 2}));
  EXPECT_EQ(s.count, (std::vector<uint32_t>{1, 1, 3}));
}

// An [All Streams] row's window against its streams' windows: every slice
// of each stream's window once, at its own times, its event mapped back to
// it (Timeline::sourceEvent), in start order, on one of the row's lanes.
void checkMergedWindow(const Timeline& t, size_t track, int64_t from, int64_t to, uint32_t pixels) {
  const TimelineTrack& m = t.tracks()[track];
  const TimelineSlices s = t.window(track, from, to, pixels);
  std::multiset<std::tuple<size_t, uint32_t, int64_t, int64_t, uint32_t>> want, got;
  for (uint32_t k : m.sources) {
    const TimelineSlices w = t.window(k, from, to, pixels);
    for (size_t i = 0; i < w.size(); ++i) want.insert({k, w.event[i], w.start[i], w.end[i], w.count[i]});
  }
  for (size_t i = 0; i < s.size(); ++i) {
    const auto e = t.sourceEvent(track, s.event[i]);
    ASSERT_TRUE(e) << "slice " << i;
    got.insert({e->track, e->event, s.start[i], s.end[i], s.count[i]});
    EXPECT_LT(s.lane[i], m.lanes);
    if (i > 0) EXPECT_LE(s.start[i - 1], s.start[i]);  // start order
  }
  EXPECT_EQ(got, want);
}

TEST(Timeline, AllStreamsRowsMergeTheirStreams) {
  // The demo: each PPU has one context of two streams, so one [All Streams]
  // row each (its context compacted away), before its streams.
  auto report = Report::open(demoReport());
  const Timeline t = Timeline::build(*report);
  const int64_t span = t.last() - t.first();
  size_t rows = 0;
  for (size_t track = 0; track < t.tracks().size(); ++track) {
    const TimelineTrack& m = t.tracks()[track];
    if (!m.merged()) continue;
    ++rows;
    EXPECT_EQ(m.label, "[All Streams]");
    ASSERT_EQ(m.sources.size(), 2u);
    EXPECT_EQ(m.sources[0], track + 1);  // its streams follow it
    EXPECT_EQ(m.sources[1], track + 2);
    for (uint32_t k : m.sources) EXPECT_EQ(t.tracks()[k].label.rfind("Stream ", 0), 0u);
    for (auto [num, den, pixels] : std::vector<std::tuple<int64_t, int64_t, uint32_t>>{
             {0, 1, 800}, {1, 3, 200}, {1, 2, 5000}, {2, 5, 37}})
      checkMergedWindow(t, track, t.first() + span * num / den, t.first() + span * num / den + span / (den * 2) + 1, pixels);
  }
  EXPECT_EQ(rows, 4u);
}

TEST(Timeline, WindowsMergeToPixelsAndLoseNoEvent) {
  auto report = Report::open(demoReport());
  const Timeline t = Timeline::build(*report);
  const int64_t span = t.last() - t.first();
  size_t merged = 0, fromLevels = 0;
  for (size_t track = 0; track < t.tracks().size(); track += 3) {
    const TimelineTrack& tr = t.tracks()[track];
    if (tr.merged()) continue;  // no events of its own: AllStreamsRowsMergeTheirStreams
    for (auto [num, den, pixels] : std::vector<std::tuple<int64_t, int64_t, uint32_t>>{
             {0, 1, 800}, {1, 3, 200}, {1, 2, 5000}, {2, 5, 37}}) {
      const int64_t from = t.first() + span * num / den;
      const int64_t to = from + span / (den * 2) + 1;
      const TimelineSlices s = t.window(track, from, to, pixels);
      checkWindow(tr, s, from, to, pixels);
      for (size_t k = 0; k < s.size(); ++k) merged += s.count[k] > 1;
      for (const TimelineLevel& l : tr.levels) fromLevels += l.resolution <= static_cast<double>(to - from) / pixels / 2;
    }
  }
  EXPECT_GT(merged, 0u);      // the windows above do merge events
  EXPECT_GT(fromLevels, 0u);  // and some read a level of detail
}

TEST(Timeline, HgtxLevelsAreTheStacksLevels) {
  // The timeline's lanes come from buildHgtxLevels, the rules' from
  // buildHgtxStacks: the same ranges at the same levels.
  auto report = Report::open(demoReport());
  const HgtxEvents& h = report->hgtx();
  const HgtxStacks stacks = buildHgtxStacks(h);
  const HgtxLevels levels = buildHgtxLevels(h);
  ASSERT_EQ(levels.ranges, stacks.ranges);
  ASSERT_EQ(levels.level.size(), levels.ranges.size());
  size_t nested = 0;
  for (size_t k = 0; k < levels.ranges.size(); ++k) {
    EXPECT_EQ(levels.level[k], stacks.level[levels.ranges[k]]) << "range " << levels.ranges[k];
    nested += levels.level[k] > 0;
  }
  EXPECT_GT(nested, 0u);
}

TEST(Timeline, TablesReadAgainAfterTheBuildHaveTheSameRows) {
  // The tracks hold what they read; the report loads a released table again
  // when a rule asks for it, with the same rows.
  auto report = Report::open(demoReport());
  const size_t kernels = report->kernels(kcol::time).size(), calls = report->hggcApi(acol::start).size();
  const size_t ranges = report->hgtx().size();
  const Timeline t = Timeline::build(*report);
  EXPECT_EQ(report->kernels(kcol::time).size(), kernels);
  EXPECT_EQ(report->hggcApi(acol::start).size(), calls);
  EXPECT_EQ(report->hgtx().size(), ranges);
  size_t events = 0;
  for (const TimelineTrack& tr : t.tracks()) events += tr.size();
  EXPECT_GT(events, kernels + calls);
}

TEST(Timeline, AWindowOutsideTheEventsIsEmpty) {
  auto report = Report::open(demoReport());
  const Timeline t = Timeline::build(*report);
  EXPECT_EQ(t.window(0, t.last() + 10, t.last() + 20, 100).size(), 0u);
  EXPECT_EQ(t.window(0, t.first() - 20, t.first() - 10, 100).size(), 0u);
  EXPECT_EQ(t.window(t.tracks().size(), t.first(), t.last(), 100).size(), 0u);
}

}  // namespace
}  // namespace asys
