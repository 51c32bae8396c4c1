// Occupancy histograms of the merged rows (core/timeline/occupancy.h:
// `[All Streams]`, the device row's two halves): each pixel's busy fraction
// of the union of several source rows, against a brute-force union computed
// here over random overlapping events of 3 source rows (several seeds, ties
// across the rows, events longer than a block, an empty row, windows whose
// edges fall on the checkpoints' block edges), and a device row's two
// halves worked out by hand on a hand-built report.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <tuple>

#include "core/timeline/occupancy.h"
#include "core/timeline/timeline.h"
#include "tests/unit/sql_query.h"
#include "tests/unit/union_oracle.h"
#include "tests/unit/device_row_report.h"

namespace asys {
namespace {

struct Span {
  int64_t start, end;
  TimelineKind kind;
};

TimelineTrack trackOf(std::vector<Span> spans) {
  std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) {
    return std::tie(a.start, a.end) < std::tie(b.start, b.end);
  });
  TimelineEventVectors v;
  for (const Span& s : spans) {
    v.start.push_back(s.start);
    v.end.push_back(s.end);
    v.name.push_back(0);
    v.kind.push_back(s.kind);
  }
  assignLanes(v.start, v.end, v.lane);
  TimelineTrack t;
  t.setEvents(std::move(v));
  return t;
}

bool isKernel(TimelineKind k) { return k == TimelineKind::Kernel || k == TimelineKind::PcclKernel; }
bool isMemory(TimelineKind k) { return k == TimelineKind::Memcpy || k == TimelineKind::Memset; }

// Every pixel of the window against the brute-force union of the half's spans.
void expectExact(const std::vector<const TimelineTrack*>& sources, const MergedCheckpoints& c,
                 const std::vector<std::vector<std::pair<int64_t, int64_t>>>& halves, int64_t from, int64_t to,
                 uint32_t pixels, const std::string& where) {
  size_t reads = 0;
  const std::vector<std::vector<float>> got = mergedOccupancyOf(sources, c, from, to, pixels, &reads);
  ASSERT_EQ(got.size(), halves.size()) << where;
  // The bound: at most a block of events read for each of the pixels + 1 column edges.
  ASSERT_LE(reads, (static_cast<size_t>(pixels) + 1) * 256) << where;
  const __int128 span = static_cast<__int128>(to) - from;
  for (size_t h = 0; h < halves.size(); ++h) {
    ASSERT_EQ(got[h].size(), pixels) << where;
    for (uint32_t j = 0; j < pixels; ++j) {
      const int64_t a = static_cast<int64_t>(from + span * j / pixels), b = static_cast<int64_t>(from + span * (j + 1) / pixels);
      const float want = b > a ? static_cast<float>(static_cast<double>(test::bruteUnionIn(halves[h], a, b)) / static_cast<double>(b - a)) : 0.0f;
      ASSERT_EQ(got[h][j], want) << where << " half " << h << " pixel " << j << " [" << a << ", " << b << ")";
    }
  }
}

// 3 source rows of random overlapping events (starts on a coarse grid, so
// rows tie with each other; now and then an event far longer than a block
// spans), a fourth row empty; 1 half (every event) or 2 (kernels, memory).
void againstBruteForce(uint64_t seed, uint8_t halvesWanted) {
  std::mt19937_64 rng(seed);
  const TimelineKind kinds[] = {TimelineKind::Kernel, TimelineKind::Memcpy, TimelineKind::Memset, TimelineKind::PcclKernel};
  for (int round = 0; round < 6; ++round) {
    std::vector<TimelineTrack> rows;
    std::vector<std::vector<std::pair<int64_t, int64_t>>> halves(halvesWanted);
    int64_t hi = 0;
    for (int r = 0; r < 3; ++r) {
      std::vector<Span> spans;
      const int n = static_cast<int>(rng() % 900) + (r == 0 ? 300 : 0);
      int64_t at = static_cast<int64_t>(rng() % 500) / 10 * 10;
      for (int i = 0; i < n; ++i) {
        at += static_cast<int64_t>(rng() % 4) * 10;  // ties within and across rows
        const int64_t len = rng() % 40 == 0 ? static_cast<int64_t>(rng() % 20'000) : static_cast<int64_t>(rng() % 45);
        const TimelineKind kind = kinds[rng() % 4];
        spans.push_back({at, at + len, kind});
        hi = std::max(hi, at + len);
        const int h = halvesWanted == 1 ? 0 : isKernel(kind) ? 0 : isMemory(kind) ? 1 : -1;
        if (h >= 0) halves[h].push_back({at, at + len});
      }
      rows.push_back(trackOf(spans));
      if (r == 1) rows.push_back(TimelineTrack{});  // an empty stream among them
    }
    std::vector<const TimelineTrack*> sources;
    for (const TimelineTrack& t : rows) sources.push_back(&t);
    const MergedCheckpoints c = mergedCheckpointsOf(sources, halvesWanted);
    size_t total = 0;
    for (const TimelineTrack& t : rows) total += t.size();
    ASSERT_EQ(c.at.size(), (total + 255) / 256);
    ASSERT_EQ(c.before.size(), c.at.size() * halvesWanted);
    const std::string tag = "seed " + std::to_string(seed) + " round " + std::to_string(round);
    // The whole capture and beyond, at several widths.
    for (uint32_t pixels : {1u, 7u, 300u, 1200u}) expectExact(sources, c, halves, -1000, hi + 1000, pixels, tag + " whole");
    // Windows from and to the blocks' first starts (and a ns either side),
    // one pixel a block, or a pixel edge on every block edge.
    for (size_t k = 0; k + 1 < c.at.size(); ++k) {
      for (int64_t d : {-1, 0, 1}) {
        expectExact(sources, c, halves, c.at[k] + d, c.at[k + 1] + d, 3, tag + " block " + std::to_string(k));
        if (c.at.back() > c.at[k] + d) expectExact(sources, c, halves, c.at[k] + d, c.at.back(),
                                                   static_cast<uint32_t>(c.at.size() - k), tag + " blocks on");
      }
    }
    // Random windows.
    for (int w = 0; w < 30; ++w) {
      const int64_t from = static_cast<int64_t>(rng() % static_cast<uint64_t>(hi + 100)) - 50;
      const int64_t to = from + 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(hi + 100));
      expectExact(sources, c, halves, from, to, 1 + static_cast<uint32_t>(rng() % 500), tag + " window " + std::to_string(w));
    }
  }
}

TEST(TimelineMergedOccupancy, AllStreamsAgainstABruteForceUnion) {
  for (uint64_t seed : {1, 2, 3, 4, 5}) againstBruteForce(seed, 1);
}

TEST(TimelineMergedOccupancy, DeviceHalvesAgainstABruteForceUnion) {
  for (uint64_t seed : {11, 12, 13}) againstBruteForce(seed, 2);
}

// Ties past a block: 600 events at one start across 3 rows, then later
// ones: the block edges fall inside the tie, and a window's edges right on it.
TEST(TimelineMergedOccupancy, BlocksEdgesInsideATie) {
  std::vector<TimelineTrack> rows;
  std::vector<std::vector<std::pair<int64_t, int64_t>>> halves(1);
  for (int r = 0; r < 3; ++r) {
    std::vector<Span> spans;
    for (int i = 0; i < 200; ++i) spans.push_back({1000, 1000 + (i * 7 + r * 13) % 900, TimelineKind::Kernel});
    for (int i = 0; i < 100; ++i) spans.push_back({3000 + i * 20 + r * 5, 3000 + i * 20 + r * 5 + 8, TimelineKind::Kernel});
    for (const Span& s : spans) halves[0].push_back({s.start, s.end});
    rows.push_back(trackOf(spans));
  }
  std::vector<const TimelineTrack*> sources;
  for (const TimelineTrack& t : rows) sources.push_back(&t);
  const MergedCheckpoints c = mergedCheckpointsOf(sources, 1);
  ASSERT_EQ(c.at.size(), 4u);  // 900 events
  EXPECT_EQ(c.at[1], 1000);    // the second and third blocks start inside the tie
  EXPECT_EQ(c.at[2], 1000);
  EXPECT_EQ(c.source[1], 1u);  // (start, source, index): row 0's 200, then row 1's from index 56
  EXPECT_EQ(c.index[1], 56u);
  for (int64_t from : {0, 999, 1000, 1001, 1899, 2999, 3000})
    for (uint32_t pixels : {1u, 2u, 50u, 2000u}) expectExact(sources, c, halves, from, 5100, pixels, "tie");
  // An edge just past the tie reads from the last block inside it: 88 events
  // (600 - 512), not the tie again from each row's first.
  size_t reads = 0;
  mergedOccupancyOf(sources, c, 1001, 1002, 1, &reads);
  EXPECT_EQ(reads, 88u);
}

TEST(TimelineMergedOccupancy, DrawnWhereTheSourcesEventsOutnumberPixels) {
  std::vector<TimelineTrack> rows;
  for (int r = 0; r < 3; ++r) {
    std::vector<Span> spans;
    for (int64_t i = 0; i < 40; ++i) spans.push_back({i * 25 + r, i * 25 + r + 5, TimelineKind::Kernel});
    rows.push_back(trackOf(spans));
  }
  rows.push_back(TimelineTrack{});
  std::vector<const TimelineTrack*> sources;
  for (const TimelineTrack& t : rows) sources.push_back(&t);
  EXPECT_TRUE(mergedDrawnAsOccupancy(sources, 0, 1000, 119));    // 120 events, 119 pixels
  EXPECT_FALSE(mergedDrawnAsOccupancy(sources, 0, 1000, 120));   // as many pixels as events: slices
  EXPECT_FALSE(mergedDrawnAsOccupancy(sources, 0, 100, 119));    // zoomed in: 12 events
  EXPECT_FALSE(mergedDrawnAsOccupancy(std::vector<const TimelineTrack*>{&rows[3]}, 0, 1000, 1));  // an empty row
  // Each row alone is under the threshold: merged, it is over it.
  EXPECT_FALSE(drawnAsOccupancy(rows[0], 0, 1000, 119));
}

std::string reportFrom(const std::string& sql, const std::string& name) {
  return test::reportFromSql("occmerged", sql, name);
}

// The report of device_row_test.cc (tests/unit/device_row_report.h).
const char* const kSql = test::kDeviceRowReportSql;

TEST(TimelineMergedOccupancy, DeviceRowHalvesAndAllStreamsByHand) {
  const std::unique_ptr<Report> report = Report::open(reportFrom(kSql, "hand"));
  Timeline t = Timeline::build(*report);
  const std::vector<size_t> ids = t.deviceRows(*report);
  ASSERT_EQ(ids, (std::vector<size_t>{4, 5}));
  ASSERT_EQ(t.tracks()[0].label, "[All Streams]");
  // [0, 80) at 4 pixels of 20 ns; PPU 0 has 7 events, more than 4 pixels.
  // Kernels [0, 35): 20/20, 15/20, 0, 0. Memory [40, 60) + [70, 80): 0, 0, 20/20, 10/20.
  const TimelineSlices d = t.window(4, 0, 80, 4);
  EXPECT_EQ(d.occupancy, (std::vector<float>{1.0f, 0.75f, 0.0f, 0.0f}));
  EXPECT_EQ(d.memoryOccupancy, (std::vector<float>{0.0f, 0.0f, 1.0f, 0.5f}));
  EXPECT_GT(d.size(), 0u);  // the slices stay under the bars (clicks)
  // [All Streams]: the union of everything, [0, 35) + [40, 60) + [70, 80).
  const TimelineSlices a = t.window(0, 0, 80, 4);
  EXPECT_EQ(a.occupancy, (std::vector<float>{1.0f, 0.75f, 1.0f, 0.5f}));
  EXPECT_TRUE(a.memoryOccupancy.empty());
  EXPECT_GT(a.size(), 0u);
  // 7 pixels for 7 events: slices only, as an ordinary row at as many pixels as events.
  EXPECT_TRUE(t.window(4, 0, 80, 7).occupancy.empty());
  EXPECT_TRUE(t.window(0, 0, 80, 7).occupancy.empty());
  // PPU 1's one kernel: never more events than pixels.
  EXPECT_TRUE(t.window(5, 0, 80, 1).occupancy.empty());
  // An ordinary stream at 1 pixel: 3 events, a histogram as before (its own busy time).
  EXPECT_EQ(t.window(2, 0, 80, 1).occupancy, (std::vector<float>{static_cast<float>(40.0 / 80)}));
  // The shares are untouched by the histograms.
  EXPECT_DOUBLE_EQ(t.tracks()[4].kernelShare, 35.0 / 65);
  const TimelineShares in = t.sharesIn(25, 75);
  EXPECT_DOUBLE_EQ(in.kernelShare[4], 10.0 / 35);
  EXPECT_DOUBLE_EQ(in.memoryShare[4], 25.0 / 35);
  // The checkpoints: [All Streams] 1 block of 1 half, the device row 1 of 2.
  EXPECT_GT(t.occupancyBytes(), 0u);
}

}  // namespace
}  // namespace asys
