// The timeline's tracks of issue 14 on hand-built reports, every value
// worked out by hand: OSRT calls per thread, PCCL kernels and stages per PPU,
// the HGTX projection (also against hgtx_ppu_proj_trace on the same
// fixture), memory in use and metric counters, counter windows merged to
// pixels, and each node's share of its parent's busy time.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <fstream>
#include <string>
#include <tuple>
#include <random>
#include <sstream>

#include "core/base/error.h"
#include "core/rules/rule.h"
#include "core/timeline/timeline.h"
#include "tests/unit/sql_query.h"

namespace asys {
namespace {

// A report from SQL text, in the test's temporary folder.
std::string reportFrom(const std::string& sql, const std::string& name) {
  return test::reportFromSql("tl", sql, name);
}

// P1 pid 100 (globalPid 1677721600): T1 tid 101 (1677721701), T2 tid 102 (1677721702).
//
// PPU 0: stream 7 k_a [0, 30), stream 8 k_a [25, 35): busy 30 and 10,
//        overlapping 5, the PPU's union 35 -> 85.7 % and 28.6 %.
// PPU 1: a PCCL kernel [100, 150) on stream 9 (so no "Stream 9" track), PCCL
//        stages ch 3 TX GPUWait [100, 120) SendWait [120, 160), ch 3 RX
//        RecvWait [110, 130). The PPU's busy time is its work, the kernel:
//        50. The stages are not its work: their share is the part of those
//        50 they cover: TX [100, 150) 50/50, RX [110, 130) 20/50.
//        PPU side: 35 + 50 = 85 -> PPU 0 35/85 = 41.2 %, PPU 1 50/85 = 58.8 %.
// Host: T1 OSRT read [10, 20), write [15, 40) (overlapping: two lanes),
//       T2 HGGC API [0, 10): process union [0, 40) = 40 -> OSRT 30/40,
//       API 10/40; the process is the only one: 100 %.
// Memory, PPU 0 (P1): alloc A 100 at 5, alloc B 50 at 10, free A at 20, a
//       release of an address never allocated at 25 (no change)
//       -> (5, 100) (10, 150) (20, 50). PPU 1: allocs of 2^53 + 1 and 3 at
//       one ns 100 -> one step (100, 9007199254740996), exact. A host event
//       (deviceId NULL) takes no part.
// Metrics, PPU 0: util (%) [0,10) 50, [10,20) 75.5, [30,40) 20 -> (0, 50)
//       (10, 75.5) (20, none) (30, 20) (40, none); clock (Hz) [0, 40) 1e9.
// The asysrep HGGC_KERNEL table (the format's columns), for the reports below.
const char* kKernelTable = R"SQL(
CREATE TABLE HGGC_KERNEL (start INTEGER, end INTEGER, deviceId INTEGER, contextId INTEGER,
  streamId INTEGER, correlationId INTEGER, globalPid INTEGER, demangledName INTEGER,
  shortName INTEGER, mangledName INTEGER, gridX INTEGER, gridY INTEGER, gridZ INTEGER,
  blockX INTEGER, blockY INTEGER, blockZ INTEGER, registersPerThread INTEGER,
  staticSharedMemory INTEGER, dynamicSharedMemory INTEGER, graphNodeId INTEGER, graphId INTEGER);
)SQL";

const std::string kTracksSql = std::string(R"SQL(
CREATE TABLE META_DATA (name TEXT PRIMARY KEY, value TEXT);
INSERT INTO META_DATA VALUES ('format', 'asysrep'), ('formatVersion', '1'), ('captureStart', '0'), ('captureEnd', '200');
CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO StringIds VALUES (1, 'read'), (2, 'write'), (3, 'GPUWait'), (4, 'SendWait'), (5, 'RecvWait'),
  (6, 'k_a(int)'), (7, 'k_a'), (8, 'pcclKernel_AllReduce(x)'), (9, 'pcclKernel_AllReduce'), (10, 'hgLaunchKernel');
CREATE TABLE PROCESSES (globalPid INTEGER PRIMARY KEY, pid INTEGER, name TEXT);
INSERT INTO PROCESSES VALUES (1677721600, 100, 'app');
)SQL") + kKernelTable + R"SQL(
INSERT INTO HGGC_KERNEL VALUES
  (  0,  30, 0, 1, 7, 1, 1677721600, 6, 7, 7, 1, 1, 1, 32, 1, 1, 32, 0, 0, NULL, NULL),
  ( 25,  35, 0, 1, 8, 2, 1677721600, 6, 7, 7, 1, 1, 1, 32, 1, 1, 32, 0, 0, NULL, NULL),
  (100, 150, 1, 1, 9, 3, 1677721600, 8, 9, 9, 1, 1, 1, 32, 1, 1, 32, 0, 0, NULL, NULL);
CREATE TABLE HGGC_API (start INTEGER, end INTEGER, eventClass INTEGER, globalTid INTEGER,
  correlationId INTEGER, nameId INTEGER, returnValue INTEGER, callchainId INTEGER);
INSERT INTO HGGC_API VALUES (0, 10, 1, 1677721702, 1, 10, 0, NULL);
CREATE TABLE OSRT_API (start INTEGER, end INTEGER, eventClass INTEGER, globalTid INTEGER,
  nameId INTEGER, returnValue INTEGER, nestingLevel INTEGER, callchainId INTEGER);
INSERT INTO OSRT_API VALUES (10, 20, 27, 1677721701, 1, 0, 0, NULL), (15, 40, 27, 1677721701, 2, 0, 0, NULL);
CREATE TABLE PCCL_STAGE_EVENTS (start INTEGER, end INTEGER, globalTid INTEGER, deviceId INTEGER,
  channelId INTEGER, channelType TEXT, nameId INTEGER);
INSERT INTO PCCL_STAGE_EVENTS VALUES
  (110, 130, 1677721701, 1, 3, 'RX', 5), (100, 120, 1677721701, 1, 3, 'TX', 3), (120, 160, 1677721701, 1, 3, 'TX', 4);
CREATE TABLE PPU_MEMORY_USAGE_EVENTS (start INTEGER, globalPid INTEGER, globalTid INTEGER,
  deviceId INTEGER, contextId INTEGER, eventId INTEGER, address INTEGER, bytes INTEGER,
  memKind INTEGER, memoryOperationType INTEGER, accessFlags INTEGER, correlationId INTEGER,
  callchainId INTEGER);
INSERT INTO PPU_MEMORY_USAGE_EVENTS VALUES
  ( 5, 1677721600, 1677721701, 0, 1, 1, 4096, 100, 1, 0, 0, NULL, NULL),
  (10, 1677721600, 1677721701, 0, 1, 2, 8192,  50, 1, 0, 0, NULL, NULL),
  (20, 1677721600, 1677721701, 0, 1, 3, 4096, 100, 1, 1, 0, NULL, NULL),
  (25, 1677721600, 1677721701, 0, 1, 4, 9999,  70, 1, 1, 0, NULL, NULL),
  (12, 1677721600, 1677721701, NULL, 1, 5, 1234, 500, 1, 0, 0, NULL, NULL),
  (100, 1677721600, 1677721701, 1, 1, 6, 4096, 9007199254740993, 1, 0, 0, NULL, NULL),
  (100, 1677721600, 1677721701, 1, 1, 7, 16384, 3, 1, 0, 0, NULL, NULL);
CREATE TABLE TARGET_INFO_PPU_METRICS (metricId INTEGER PRIMARY KEY, metricName TEXT, unit TEXT);
INSERT INTO TARGET_INFO_PPU_METRICS VALUES (1, 'util', '%'), (2, 'clock', 'Hz');
CREATE TABLE PPU_METRICS (deviceId INTEGER, start INTEGER, duration INTEGER, metricId INTEGER, value REAL);
INSERT INTO PPU_METRICS VALUES (0, 0, 10, 1, 50.0), (0, 0, 40, 2, 1000000000.0), (0, 10, 10, 1, 75.5),
  (0, 30, 10, 1, 20.0);
)SQL";

class TimelineTracks : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    report_ = Report::open(reportFrom(kTracksSql, "tracks")).release();
    timeline_ = new Timeline(Timeline::build(*report_));
  }
  static void TearDownTestSuite() {
    delete timeline_;
    delete report_;
  }
  // The track labelled `label` in `group`; fails the test when there is none.
  static const TimelineTrack& track(const std::string& group, const std::string& label) {
    for (const TimelineTrack& t : timeline_->tracks())
      if (t.group == group && t.label == label) return t;
    ADD_FAILURE() << "no track " << group << " / " << label;
    static const TimelineTrack none;
    return none;
  }
  static size_t idOf(const TimelineTrack& t) { return &t - timeline_->tracks().data(); }
  static std::string name(uint32_t id) { return std::string(report_->strings().get(id)); }
  static Report* report_;
  static Timeline* timeline_;
};
Report* TimelineTracks::report_ = nullptr;
Timeline* TimelineTracks::timeline_ = nullptr;

TEST_F(TimelineTracks, TracksInOrderWithTheirLabels) {
  std::vector<std::string> rows;
  for (const TimelineTrack& t : timeline_->tracks()) rows.push_back(t.group + " / " + t.label);
  EXPECT_EQ(rows, (std::vector<std::string>{
                      "PPU 0 / [All Streams]",  // its one context of two streams
                      "PPU 0 / Stream 7",
                      "PPU 0 / Stream 8",
                      "PPU 0 / Memory in use",
                      "PPU 0 / util",
                      "PPU 0 / clock",
                      "PPU 1 / PCCL kernels",
                      "PPU 1 / PCCL ch 3 TX",
                      "PPU 1 / PCCL ch 3 RX",
                      "PPU 1 / Memory in use",
                      "Process 100 (app) / Thread 101 OSRT",
                      "Process 100 (app) / Thread 102 HGGC API",
                  }));
}

TEST_F(TimelineTracks, OsrtCallsOnTheirThreadsTrack) {
  const TimelineTrack& t = track("Process 100 (app)", "Thread 101 OSRT");
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t.start, (std::vector<int64_t>{10, 15}));
  EXPECT_EQ(t.end, (std::vector<int64_t>{20, 40}));
  EXPECT_EQ(name(t.name[0]), "read");
  EXPECT_EQ(name(t.name[1]), "write");
  EXPECT_EQ(t.kind, (std::vector<TimelineKind>{TimelineKind::Osrt, TimelineKind::Osrt}));
  EXPECT_EQ(t.lane, (std::vector<uint16_t>{0, 1}));  // write starts while read runs
  EXPECT_EQ(t.lanes, 2);
}

TEST_F(TimelineTracks, PcclKernelsAndStagesOnTheirPpu) {
  const TimelineTrack& k = track("PPU 1", "PCCL kernels");
  ASSERT_EQ(k.size(), 1u);
  EXPECT_EQ(k.start[0], 100);
  EXPECT_EQ(k.end[0], 150);
  EXPECT_EQ(k.kind[0], TimelineKind::PcclKernel);
  EXPECT_EQ(name(k.name[0]), "pcclKernel_AllReduce(x)");
  const TimelineTrack& tx = track("PPU 1", "PCCL ch 3 TX");
  EXPECT_EQ(tx.start, (std::vector<int64_t>{100, 120}));
  EXPECT_EQ(tx.end, (std::vector<int64_t>{120, 160}));
  EXPECT_EQ(name(tx.name[0]), "GPUWait");
  EXPECT_EQ(name(tx.name[1]), "SendWait");
  EXPECT_EQ(tx.kind[0], TimelineKind::PcclStage);
  const TimelineTrack& rx = track("PPU 1", "PCCL ch 3 RX");
  EXPECT_EQ(rx.start, (std::vector<int64_t>{110}));
  EXPECT_EQ(name(rx.name[0]), "RecvWait");
}

TEST_F(TimelineTracks, MemoryInUseSteps) {
  const TimelineTrack& m0 = track("PPU 0", "Memory in use");
  ASSERT_TRUE(m0.counter);
  EXPECT_TRUE(m0.counter->integer);
  EXPECT_EQ(m0.counter->unit, "B");
  EXPECT_EQ(m0.counter->time, (std::vector<int64_t>{5, 10, 20}));
  EXPECT_EQ(m0.counter->ivalue, (std::vector<int64_t>{100, 150, 50}));
  EXPECT_EQ(m0.counter->imax, 150);
  const TimelineTrack& m1 = track("PPU 1", "Memory in use");
  ASSERT_TRUE(m1.counter);
  EXPECT_EQ(m1.counter->time, (std::vector<int64_t>{100}));
  EXPECT_EQ(m1.counter->ivalue, (std::vector<int64_t>{9007199254740996}));
}

TEST_F(TimelineTracks, MetricCounters) {
  const TimelineTrack& u = track("PPU 0", "util");
  ASSERT_TRUE(u.counter);
  EXPECT_FALSE(u.counter->integer);
  EXPECT_EQ(u.counter->unit, "%");
  EXPECT_EQ(u.counter->time, (std::vector<int64_t>{0, 10, 20, 30, 40}));
  const std::vector<double>& v = u.counter->dvalue;
  ASSERT_EQ(v.size(), 5u);
  EXPECT_EQ(v[0], 50.0);
  EXPECT_EQ(v[1], 75.5);
  EXPECT_TRUE(std::isnan(v[2]));  // the gap [20, 30)
  EXPECT_EQ(v[3], 20.0);
  EXPECT_TRUE(std::isnan(v[4]));  // after the last sample
  EXPECT_EQ(u.counter->dmax, 75.5);
  const TimelineTrack& c = track("PPU 0", "clock");
  ASSERT_TRUE(c.counter);
  EXPECT_EQ(c.counter->unit, "Hz");
  EXPECT_EQ(c.counter->time, (std::vector<int64_t>{0, 40}));
  EXPECT_EQ(c.counter->dvalue[0], 1e9);
}

TEST_F(TimelineTracks, CounterWindowsMergeToPixels) {
  const size_t m0 = idOf(track("PPU 0", "Memory in use"));
  // 10 ns a pixel: one point a pixel, every step exact.
  CounterSlices s = timeline_->counterWindow(m0, 0, 40, 4);
  EXPECT_EQ(s.time, (std::vector<int64_t>{5, 10, 20}));
  EXPECT_EQ(s.imin, (std::vector<int64_t>{100, 150, 50}));
  EXPECT_EQ(s.imax, (std::vector<int64_t>{100, 150, 50}));
  // 40 ns a pixel: all three in pixel 0: one step from 5 between 50 and 150,
  // then from pixel 1 (ns 40) the last value, 50.
  s = timeline_->counterWindow(m0, 0, 80, 2);
  EXPECT_EQ(s.time, (std::vector<int64_t>{5, 40}));
  EXPECT_EQ(s.imin, (std::vector<int64_t>{50, 50}));
  EXPECT_EQ(s.imax, (std::vector<int64_t>{150, 50}));
  // The step in force at the window's start comes first.
  s = timeline_->counterWindow(m0, 12, 18, 6);
  EXPECT_EQ(s.time, (std::vector<int64_t>{10}));
  EXPECT_EQ(s.imax, (std::vector<int64_t>{150}));
  // Metrics: 20 ns a pixel over [0, 40): 50 and 75.5 merge; the gap's "no
  // value" merges into the 20 after it (min and max skip it).
  const size_t u = idOf(track("PPU 0", "util"));
  const CounterSlices d = timeline_->counterWindow(u, 0, 40, 2);
  EXPECT_EQ(d.time, (std::vector<int64_t>{0, 20}));
  EXPECT_EQ(d.dmin, (std::vector<double>{50, 20}));
  EXPECT_EQ(d.dmax, (std::vector<double>{75.5, 20}));
  // An event track has no counter window, a counter no slices.
  EXPECT_EQ(timeline_->counterWindow(0, 0, 40, 4).size(), 0u);
  EXPECT_EQ(timeline_->window(m0, 0, 40, 4).size(), 0u);
}

TEST(TimelineCounters, WindowsAgainstBruteForce) {
  // 20,000 points, 3 to 9 ns apart: windows of a few pixels read the block
  // tables (blocks of 8 points, of 8 blocks, ...), the others points.
  TimelineCounter c;
  c.integer = true;
  std::mt19937 rng(5);
  int64_t t = 0;
  for (int i = 0; i < 20000; ++i) {
    t += 3 + rng() % 7;
    c.addedTime.push_back(t);
    c.ivalue.push_back(static_cast<int64_t>(rng() % 1000000) - 1000);
  }
  finishCounter(c);
  for (auto [from, to, pixels] : std::vector<std::tuple<int64_t, int64_t, uint32_t>>{
           {0, t + 10, 800}, {1000, 50000, 37}, {t / 3, t / 2, 5000}, {-50, t, 1}, {0, t, 7}, {t / 7, t - 1000, 3}}) {
    const CounterSlices s = counterWindow(c, from, to, pixels);
    EXPECT_LE(s.size(), 2u * pixels + 1);
    ASSERT_GT(s.size(), 0u);
    for (size_t k = 0; k < s.size(); ++k) {
      // The points inside step k: from its time (the first: the point in
      // force at `from`) until the next step's.
      const int64_t a = s.time[k], b = k + 1 < s.size() ? s.time[k + 1] : to;
      int64_t mn = INT64_MAX, mx = INT64_MIN;
      for (size_t i = 0; i < c.size(); ++i) {
        const bool inForce = c.time[i] <= a && (i + 1 == c.size() || c.time[i + 1] > a);
        if ((c.time[i] >= a && c.time[i] < b) || inForce) {
          mn = std::min(mn, c.ivalue[i]);
          mx = std::max(mx, c.ivalue[i]);
        }
      }
      ASSERT_EQ(s.imin[k], mn) << "step " << k << " of window " << from << ".." << to;
      ASSERT_EQ(s.imax[k], mx) << "step " << k;
    }
  }
}

// The min and max of the points inside each step of `s`, by brute force:
// step k holds the points from its time until the next step's (the first
// step also the point in force at its time). NaN (no value) is skipped; a
// step of only NaN has NaN. Compared as bits, so NaN equals NaN.
template <typename T>
void checkAgainstBruteForce(const TimelineCounter& c, const std::vector<T>& v, const std::vector<int64_t>& time,
                            const std::vector<T>& smin, const std::vector<T>& smax, int64_t to, const std::string& what) {
  auto lo = [](T a, T b) { return a != a ? b : b != b ? a : std::min(a, b); };
  auto hi = [](T a, T b) { return a != a ? b : b != b ? a : std::max(a, b); };
  auto same = [](T a, T b) { return a == b || (a != a && b != b); };
  for (size_t k = 0; k < time.size(); ++k) {
    const int64_t a = time[k], b = k + 1 < time.size() ? time[k + 1] : to;
    size_t i = c.time.upperBound(a);
    if (i > 0) --i;  // in force at a
    T mn = v[i], mx = v[i];
    for (; i < c.size() && c.time[i] < b; ++i) {
      mn = lo(mn, v[i]);
      mx = hi(mx, v[i]);
    }
    ASSERT_TRUE(same(smin[k], mn)) << what << ", step " << k << " at " << a << ": " << smin[k] << " vs " << mn;
    ASSERT_TRUE(same(smax[k], mx)) << what << ", step " << k << " at " << a << ": " << smax[k] << " vs " << mx;
  }
}

TEST(TimelineCounters, WindowsAcrossBlockBoundariesAgainstBruteForce) {
  // One point a ns, so a point's index is its time and a window of P ns a
  // pixel puts the pixels' edges where chosen: on the edges of the blocks of
  // every level (P = 8, 64, 512, 4096), and one ns either side of them.
  // Values: noise with a spike every 997 points and a dip every 1009, and for
  // the metric counter runs of NaN (no value) across block edges.
  const size_t n = 8 * 8 * 8 * 8 * 8 + 123;
  TimelineCounter ci, cd;
  ci.integer = true;
  std::mt19937 rng(11);
  for (size_t i = 0; i < n; ++i) {
    const int64_t t = static_cast<int64_t>(i);
    int64_t v = static_cast<int64_t>(rng() % 1000);
    if (i % 997 == 0) v = 1'000'000 + static_cast<int64_t>(i);
    if (i % 1009 == 0) v = -1'000'000 - static_cast<int64_t>(i);
    ci.addedTime.push_back(t);
    ci.ivalue.push_back(v);
    cd.addedTime.push_back(t);
    cd.dvalue.push_back(i % 700 < 90 ? std::nan("") : static_cast<double>(v) / 3);
  }
  finishCounter(ci);
  finishCounter(cd);
  for (int64_t perPixel : {1, 7, 8, 9, 63, 64, 65, 511, 512, 513, 4095, 4096, 4097}) {
    for (int64_t from : {int64_t{0}, int64_t{1}, int64_t{7}, perPixel - 1, int64_t{4096 * 3 - 1}}) {
      const uint32_t pixels = static_cast<uint32_t>(std::min<int64_t>(2000, (static_cast<int64_t>(n) - from) / perPixel + 2));
      const int64_t to = from + perPixel * pixels;
      const std::string what = "window " + std::to_string(from) + ".." + std::to_string(to) + " at " +
                               std::to_string(perPixel) + " ns a pixel";
      const CounterSlices si = counterWindow(ci, from, to, pixels);
      ASSERT_GT(si.size(), 0u) << what;
      EXPECT_LE(si.size(), 2u * pixels + 1) << what;
      checkAgainstBruteForce(ci, ci.ivalue, si.time, si.imin, si.imax, to, what);
      const CounterSlices sd = counterWindow(cd, from, to, pixels);
      ASSERT_GT(sd.size(), 0u) << what;
      checkAgainstBruteForce(cd, cd.dvalue, sd.time, sd.dmin, sd.dmax, to, what + " (metric)");
    }
  }
}

TEST_F(TimelineTracks, BusySharesOfTracksAndGroups) {
  auto share = [&](const char* g, const char* l) { return track(g, l).share; };
  EXPECT_EQ(track("PPU 0", "Stream 7").busy, 30);
  EXPECT_EQ(track("PPU 0", "Stream 8").busy, 10);
  EXPECT_NEAR(share("PPU 0", "Stream 7"), 30.0 / 35, 1e-12);  // 85.7 %
  EXPECT_NEAR(share("PPU 0", "Stream 8"), 10.0 / 35, 1e-12);  // 28.6 %
  EXPECT_EQ(track("PPU 0", "[All Streams]").busy, 35);  // its streams' union: the PPU's work
  EXPECT_NEAR(share("PPU 0", "[All Streams]"), 1.0, 1e-12);
  EXPECT_NEAR(share("PPU 1", "PCCL kernels"), 1.0, 1e-12);
  EXPECT_EQ(track("PPU 1", "PCCL ch 3 TX").busy, 60);  // its own union, partly outside the PPU's work
  EXPECT_NEAR(share("PPU 1", "PCCL ch 3 TX"), 50.0 / 50, 1e-12);
  EXPECT_NEAR(share("PPU 1", "PCCL ch 3 RX"), 20.0 / 50, 1e-12);
  EXPECT_NEAR(share("Process 100 (app)", "Thread 101 OSRT"), 30.0 / 40, 1e-12);
  EXPECT_NEAR(share("Process 100 (app)", "Thread 102 HGGC API"), 10.0 / 40, 1e-12);
  EXPECT_TRUE(std::isnan(share("PPU 0", "Memory in use")));  // counters have none
  EXPECT_TRUE(std::isnan(share("PPU 0", "util")));
  const std::vector<TimelineGroup>& g = timeline_->groups();
  ASSERT_EQ(g.size(), 3u);
  EXPECT_EQ(g[0].name, "PPU 0");
  EXPECT_EQ(g[0].busy, 35);
  EXPECT_NEAR(g[0].share, 35.0 / 85, 1e-12);  // 41.2 % of the PPUs' busy time
  EXPECT_EQ(g[1].busy, 50);
  EXPECT_NEAR(g[1].share, 50.0 / 85, 1e-12);
  EXPECT_EQ(g[2].busy, 40);
  EXPECT_NEAR(g[2].share, 1.0, 1e-12);
}

// A report of kernels and memsets only, between capture times 0 and 100:
// `strings` the StringIds rows, `kernels` and `memsets` the rows of the two
// tables (kKernelTable's 21 columns; the memset table's 12).
std::unique_ptr<Report> kernelsAndMemsets(const std::string& strings, const std::string& kernels,
                                          const std::string& memsets, const std::string& name) {
  return Report::open(reportFrom(R"SQL(
CREATE TABLE META_DATA (name TEXT PRIMARY KEY, value TEXT);
INSERT INTO META_DATA VALUES ('format', 'asysrep'), ('formatVersion', '1'), ('captureStart', '0'), ('captureEnd', '100');
CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO StringIds VALUES )SQL" + strings + ";\n" + kKernelTable +
                                     "INSERT INTO HGGC_KERNEL VALUES " + kernels + R"SQL(;
CREATE TABLE HGGC_MEMSET (start INTEGER, end INTEGER, deviceId INTEGER, contextId INTEGER,
  streamId INTEGER, correlationId INTEGER, globalPid INTEGER, value INTEGER, bytes INTEGER,
  memKind INTEGER, graphNodeId INTEGER, graphId INTEGER);
INSERT INTO HGGC_MEMSET VALUES )SQL" + memsets + ";\n",
                                 name));
}

// Device -> context -> stream. PPU 0 has streams of two contexts, stream 7
// in both: context 1 stream 7 [0, 30), stream 8 [20, 40) -> context 1 busy
// [0, 40) = 40; context 2 stream 7 [50, 60), a memset on stream 9 [55, 70)
// -> context 2 busy [50, 70) = 20; the PPU 60. Shares: 30/40, 20/40, 10/20,
// 15/20; the contexts 40/60 and 20/60. PPU 1 has one context: its stream is
// shown without it (a single child compacted) and its share is of the PPU.
// Each context of two streams has an [All Streams] row first: context 1's
// busy 40 (40/60 of the PPU), its two kernels overlapping in [20, 30) (two
// lanes); context 2's busy 20 (20/60), two lanes ([50, 60) and [55, 70)).
std::unique_ptr<Report> contextsReport() {
  return kernelsAndMemsets("(1, 'k')", R"SQL(
  ( 0, 30, 0, 1, 7, 1, 1677721600, 1, 1, 1, 1, 1, 1, 32, 1, 1, 32, 0, 0, NULL, NULL),
  (20, 40, 0, 1, 8, 2, 1677721600, 1, 1, 1, 1, 1, 1, 32, 1, 1, 32, 0, 0, NULL, NULL),
  (50, 60, 0, 2, 7, 3, 1677721600, 1, 1, 1, 1, 1, 1, 32, 1, 1, 32, 0, 0, NULL, NULL),
  ( 0, 10, 1, 3, 4, 4, 1677721600, 1, 1, 1, 1, 1, 1, 32, 1, 1, 32, 0, 0, NULL, NULL))SQL",
                           "(55, 70, 0, 2, 9, 5, 1677721600, 0, 64, 1, NULL, NULL)", "contexts");
}

TEST(TimelineContexts, StreamsOfSeveralContextsUnderTheirContext) {
  const std::unique_ptr<Report> report = contextsReport();
  const Timeline t = Timeline::build(*report);
  std::vector<std::string> rows;
  for (const TimelineTrack& tr : t.tracks()) rows.push_back(tr.group + " / " + tr.context + " / " + tr.label);
  EXPECT_EQ(rows, (std::vector<std::string>{"PPU 0 / Context 1 / [All Streams]", "PPU 0 / Context 1 / Stream 7",
                                            "PPU 0 / Context 1 / Stream 8", "PPU 0 / Context 2 / [All Streams]",
                                            "PPU 0 / Context 2 / Stream 7", "PPU 0 / Context 2 / Stream 9",
                                            "PPU 1 /  / Stream 4"}));
  ASSERT_EQ(t.tracks().size(), 7u);
  const std::vector<TimelineTrack>& tr = t.tracks();
  EXPECT_EQ(tr[1].contextBusy, 40);
  EXPECT_EQ(tr[4].contextBusy, 20);
  EXPECT_NEAR(tr[1].share, 30.0 / 40, 1e-12);
  EXPECT_NEAR(tr[2].share, 20.0 / 40, 1e-12);
  EXPECT_NEAR(tr[4].share, 10.0 / 20, 1e-12);
  EXPECT_NEAR(tr[5].share, 15.0 / 20, 1e-12);
  EXPECT_NEAR(tr[1].contextShare, 40.0 / 60, 1e-12);
  EXPECT_NEAR(tr[2].contextShare, 40.0 / 60, 1e-12);
  EXPECT_NEAR(tr[5].contextShare, 20.0 / 60, 1e-12);
  EXPECT_TRUE(std::isnan(tr[6].contextShare));
  EXPECT_NEAR(tr[6].share, 1.0, 1e-12);
  EXPECT_EQ(t.groups()[0].busy, 60);
  // The [All Streams] rows: their streams' union, the context's share.
  EXPECT_EQ(tr[0].sources, (std::vector<uint32_t>{1, 2}));
  EXPECT_EQ(tr[3].sources, (std::vector<uint32_t>{4, 5}));
  EXPECT_EQ(tr[0].size(), 0u);
  EXPECT_EQ(tr[0].busy, 40);
  EXPECT_EQ(tr[3].busy, 20);
  EXPECT_NEAR(tr[0].share, 40.0 / 60, 1e-12);
  EXPECT_NEAR(tr[3].share, 20.0 / 60, 1e-12);
  EXPECT_EQ(tr[0].lanes, 2);
  EXPECT_EQ(tr[3].lanes, 2);
  EXPECT_TRUE(tr[6].sources.empty());
}

// The [All Streams] row's window: its streams' events, each on the lowest
// lane free at its start, numbered past the streams before its own.
TEST(TimelineContexts, AllStreamsMergesItsStreamsWindows) {
  const std::unique_ptr<Report> report = contextsReport();
  const Timeline t = Timeline::build(*report);
  // Context 1: stream 7 [0, 30) (event 0), stream 8 [20, 40) (its event 0:
  // event 1 of the row), 1 ns a pixel: nothing merges.
  const TimelineSlices s = t.window(0, 0, 100, 100);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s.start, (std::vector<int64_t>{0, 20}));
  EXPECT_EQ(s.end, (std::vector<int64_t>{30, 40}));
  EXPECT_EQ(s.lane, (std::vector<uint16_t>{0, 1}));
  EXPECT_EQ(s.event, (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(s.count, (std::vector<uint32_t>{1, 1}));
  // Context 2: a kernel [50, 60) and a memset [55, 70): the memset is kind Memset.
  const TimelineSlices c2 = t.window(3, 0, 100, 100);
  ASSERT_EQ(c2.size(), 2u);
  EXPECT_EQ(c2.kind[0], TimelineKind::Kernel);
  EXPECT_EQ(c2.kind[1], TimelineKind::Memset);
  EXPECT_EQ(c2.lane, (std::vector<uint16_t>{0, 1}));
  // A window after the first kernel: only stream 8's, on the free lane 0.
  const TimelineSlices late = t.window(0, 31, 100, 69);
  ASSERT_EQ(late.size(), 1u);
  EXPECT_EQ(late.start[0], 20);
  EXPECT_EQ(late.lane[0], 0);
  EXPECT_EQ(late.event[0], 1u);
  // Its events map back to their streams'.
  const auto e0 = t.sourceEvent(0, 0), e1 = t.sourceEvent(0, 1);
  ASSERT_TRUE(e0 && e1);
  EXPECT_EQ(e0->track, 1u);
  EXPECT_EQ(e0->event, 0u);
  EXPECT_EQ(e1->track, 2u);
  EXPECT_EQ(e1->event, 0u);
  EXPECT_FALSE(t.sourceEvent(0, 2));
  const auto own = t.sourceEvent(6, 0);
  ASSERT_TRUE(own);
  EXPECT_EQ(own->track, 6u);
  EXPECT_FALSE(t.sourceEvent(6, 1));
}

// Shares inside [25, 55) (events clipped to it): context 1 stream 7 [25, 30)
// 5, stream 8 [25, 40) 15, union 15; context 2 stream 7 [50, 55) 5, the
// memset [55, 70) none of it; PPU 0 busy 20 (the PPU side's whole busy time:
// PPU 1's kernel [0, 10) is outside). Stream shares 5/15, 15/15, 5/5, 0/5;
// contexts and their [All Streams] rows 15/20, 5/20; PPU 0 20/20, PPU 1 0/20,
// its stream no share (its PPU not busy).
TEST(TimelineContexts, SharesRecomputedInsideARange) {
  const std::unique_ptr<Report> report = contextsReport();
  const Timeline t = Timeline::build(*report);
  const TimelineShares s = t.sharesIn(25, 55);
  ASSERT_EQ(s.share.size(), 7u);
  EXPECT_EQ(s.busy, (std::vector<int64_t>{15, 5, 15, 5, 5, 0, 0}));
  EXPECT_NEAR(s.share[1], 5.0 / 15, 1e-12);
  EXPECT_NEAR(s.share[2], 1.0, 1e-12);
  EXPECT_NEAR(s.share[4], 1.0, 1e-12);
  EXPECT_NEAR(s.share[5], 0.0, 1e-12);
  EXPECT_NEAR(s.share[0], 15.0 / 20, 1e-12);
  EXPECT_NEAR(s.share[3], 5.0 / 20, 1e-12);
  EXPECT_NEAR(s.contextShare[1], 15.0 / 20, 1e-12);
  EXPECT_NEAR(s.contextShare[5], 5.0 / 20, 1e-12);
  EXPECT_TRUE(std::isnan(s.share[6]));
  ASSERT_EQ(s.groupShare.size(), 2u);
  EXPECT_EQ(s.groupBusy, (std::vector<int64_t>{20, 0}));
  EXPECT_NEAR(s.groupShare[0], 1.0, 1e-12);
  EXPECT_NEAR(s.groupShare[1], 0.0, 1e-12);
  // The whole capture: the build's own.
  const TimelineShares all = t.sharesIn(INT64_MIN, INT64_MAX);
  for (size_t i = 0; i < t.tracks().size(); ++i) {
    EXPECT_EQ(all.busy[i], t.tracks()[i].busy) << i;
    if (std::isnan(t.tracks()[i].share)) EXPECT_TRUE(std::isnan(all.share[i])) << i;
    else EXPECT_DOUBLE_EQ(all.share[i], t.tracks()[i].share) << i;
  }
}

TEST_F(TimelineTracks, TheExtentCoversCounters) {
  EXPECT_EQ(timeline_->first(), 0);
  EXPECT_EQ(timeline_->last(), 160);
}

// The HGTX projection on the association fixture: per PPU, the ranges of
// hgtx_ppu_proj_trace:device=N (tests/golden/cases/assoc_proj_trace.case
// works them out): PPU 0 outer [2500, 13700), mid [2500, 4800), inner
// [2500, 4200), capture [11000, 13700), Lib:step [11000, 11600).
std::string fixtureSql(const char* file) {
  std::ifstream in(std::string(ASYS_GOLDEN_DIR) + "/fixtures/" + file);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(TimelineProjection, AsHgtxPpuProjTraceGivesIt) {
  auto report = Report::open(reportFrom(fixtureSql("hgtx_ppu.sql"), "proj"));
  const Timeline t = Timeline::build(*report);
  auto rows = [&](const TimelineTrack& tr) {
    std::vector<std::tuple<int64_t, int64_t, std::string>> out;
    for (size_t i = 0; i < tr.size(); ++i)
      out.emplace_back(tr.start[i], tr.end[i], std::string(report->strings().get(tr.name[i])));
    std::sort(out.begin(), out.end());
    return out;
  };
  std::map<std::string, std::vector<std::tuple<int64_t, int64_t, std::string>>> byGroup;
  for (const TimelineTrack& tr : t.tracks())
    if (tr.label == "HGTX projection") {
      for (size_t i = 0; i < tr.size(); ++i) EXPECT_EQ(tr.kind[i], TimelineKind::Projection);
      byGroup[tr.group] = rows(tr);
    }
  using R = std::vector<std::tuple<int64_t, int64_t, std::string>>;
  EXPECT_EQ(byGroup["PPU 0"], (R{{2500, 4200, "inner"},
                                 {2500, 4800, "mid"},
                                 {2500, 13700, "outer"},
                                 {11000, 11600, "Lib:step"},
                                 {11000, 13700, "capture"}}));
  // Every PPU's row against the rule, device by device.
  const RuleSpec* rule = findRule("hgtx_ppu_proj_trace");
  ASSERT_NE(rule, nullptr);
  for (int device : {0, 1, 2}) {
    Table table = runRule(*rule, *report, parseRuleOptions(*rule, {"device=" + std::to_string(device)}));
    table.materialize();  // the trace is a view: its cells are made when asked
    R expected;
    for (size_t r = 0; r < table.rowCount(); ++r) {
      const int64_t start = table.intAt(r, 1);
      expected.emplace_back(start, start + table.intAt(r, 2), std::string(table.textAt(r, 0)));
    }
    std::sort(expected.begin(), expected.end());
    EXPECT_FALSE(expected.empty());
    EXPECT_EQ(byGroup["PPU " + std::to_string(device)], expected) << "device " << device;
  }
  // PPU 0's work: k1..k6, k10, k11 and m1: [2500, 4200) [4500, 4800)
  // [6200, 6300) [11000, 11600) [13000, 13700) [14000, 14100) = 3500 ns; the
  // projection (outer spans [2500, 13700), k11's gap too) covers all of it
  // but k10: 3400 / 3500.
  for (const TimelineTrack& tr : t.tracks())
    if (tr.group == "PPU 0" && tr.label == "HGTX projection") EXPECT_NEAR(tr.share, 3400.0 / 3500, 1e-12);
  EXPECT_TRUE(t.notes().empty());
  // Above the activity budget the row is left out, and a note says so.
  const Timeline small = Timeline::build(*report, TimelineOptions{.projectionMaxActivities = 12});
  for (const TimelineTrack& tr : small.tracks()) EXPECT_NE(tr.label, "HGTX projection");
  ASSERT_EQ(small.notes().size(), 1u);
  EXPECT_EQ(small.notes()[0],
            "No HGTX projection rows: 13 PPU activities are more than the 12 whose association fits in memory "
            "beside the timeline; hgtx_ppu_proj_trace lists the same projections");
  // k8 (pcclKernel_AllReduce on PPU 2) is on PPU 2's PCCL kernels track, not its stream.
  bool pccl = false;
  for (const TimelineTrack& tr : t.tracks())
    if (tr.group == "PPU 2" && tr.label == "PCCL kernels") pccl = tr.size() == 1 && tr.start[0] == 1500;
  EXPECT_TRUE(pccl);
}

}  // namespace
}  // namespace asys

namespace asys {
namespace {

// Kernels grouped by base name. PPU 0 stream 7: gemm<float> [0, 10) and
// [30, 40) (base name gemm), relu(int) [5, 20) (base relu), a memset
// [50, 60). The stream's busy [0, 20) + [30, 40) + [50, 60) = 40; gemm 20 of
// it (0.5), relu 15 (0.375), the busiest first; the memset is no kernel's.
// Inside [0, 35): the stream [0, 20) + [30, 35) = 25, gemm 10 + 5 = 15
// (0.6), relu 15 (0.6). The rows are not the PPU's work: its busy time and
// the selection's kernels stay the stream's.
TEST(TimelineKernelGroups, AStreamsKernelsByBaseName) {
  const std::unique_ptr<Report> report = kernelsAndMemsets("(2, 'gemm'), (3, 'gemm<float>'), (4, 'relu'), (5, 'relu(int)')", R"SQL(
  ( 0, 10, 0, 1, 7, 1, 1677721600, 3, 2, 3, 1, 1, 1, 32, 1, 1, 32, 0, 0, NULL, NULL),
  ( 5, 20, 0, 1, 7, 2, 1677721600, 5, 4, 5, 1, 1, 1, 32, 1, 1, 32, 0, 0, NULL, NULL),
  (30, 40, 0, 1, 7, 3, 1677721600, 3, 2, 3, 1, 1, 1, 32, 1, 1, 32, 0, 0, NULL, NULL))SQL",
                                                                 "(50, 60, 0, 1, 7, 4, 1677721600, 0, 64, 1, NULL, NULL)",
                                                                 "kernel_groups");
  Timeline t = Timeline::build(*report);
  ASSERT_EQ(t.tracks().size(), 1u);
  EXPECT_EQ(t.tracks()[0].label, "Stream 7");
  EXPECT_EQ(t.tracks()[0].busy, 40);
  const std::vector<size_t> ids = t.kernelGroups(*report, 0);
  ASSERT_EQ(ids, (std::vector<size_t>{1, 2}));
  EXPECT_EQ(t.kernelGroups(*report, 0), ids);  // kept: asked again, the same rows
  const TimelineTrack& gemm = t.tracks()[1];
  const TimelineTrack& relu = t.tracks()[2];
  EXPECT_EQ(gemm.label, "gemm");
  EXPECT_EQ(relu.label, "relu");
  EXPECT_EQ(gemm.parent, 0u);
  EXPECT_EQ(gemm.group, t.tracks()[0].group);
  EXPECT_EQ(gemm.start, (std::vector<int64_t>{0, 30}));
  EXPECT_EQ(gemm.end, (std::vector<int64_t>{10, 40}));
  EXPECT_EQ(std::string(report->strings().get(gemm.name[0])), "gemm<float>");  // drawn with their own names
  EXPECT_EQ(gemm.row, (std::vector<uint32_t>{0, 2}));
  EXPECT_EQ(relu.start, (std::vector<int64_t>{5}));
  EXPECT_EQ(gemm.busy, 20);
  EXPECT_NEAR(gemm.share, 0.5, 1e-12);
  EXPECT_NEAR(relu.share, 15.0 / 40, 1e-12);
  EXPECT_FALSE(isPpuWork(gemm));
  const TimelineShares s = t.sharesIn(0, 35);
  ASSERT_EQ(s.share.size(), 3u);
  EXPECT_EQ(s.busy, (std::vector<int64_t>{25, 15, 15}));
  EXPECT_NEAR(s.share[1], 0.6, 1e-12);
  EXPECT_NEAR(s.share[2], 0.6, 1e-12);
  EXPECT_NEAR(s.share[0], 1.0, 1e-12);  // the stream of its PPU, as before
  EXPECT_EQ(s.groupBusy, (std::vector<int64_t>{25}));
  // The whole capture's shares with the rows added: the same as built.
  const TimelineShares all = t.sharesIn(INT64_MIN, INT64_MAX);
  EXPECT_EQ(all.busy, (std::vector<int64_t>{40, 20, 15}));
  EXPECT_EQ(all.groupBusy, (std::vector<int64_t>{40}));
  // Each event is still found on its stream (the first track that has it).
  const auto at = t.findEvent(EventTable::Kernel, 2);
  ASSERT_TRUE(at);
  EXPECT_EQ(at->track, 0u);
  // No such track; too many kernels: one line each.
  EXPECT_THROW(t.kernelGroups(*report, 9), Error);
  Timeline fresh = Timeline::build(*report);
  try {
    fresh.kernelGroups(*report, 0, 2);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "timeline: PPU 0 Stream 7 has 3 kernels, more than the 2 whose rows by base name fit in memory beside the timeline");
  }
}

}  // namespace
}  // namespace asys
