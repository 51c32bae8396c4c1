// The graph rows (core/timeline/graph_rows.cc) on a hand-built report, every
// value worked out by hand: two graphs (1, 3) instantiated as two execs (2,
// 4), an exec of no known graph (9), launches on two streams, a launch with
// a memcpy node and one with a memset node; the rows, their labels, a slice
// per launch, each launch's counts and busy time, the shares over the
// capture and inside a range, the launching call (links), and that nothing
// counts a launch as an activity.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <cmath>
#include <map>
#include <tuple>
#include <string>

#include "core/timeline/correlation.h"
#include "core/timeline/selection_stats.h"
#include "core/timeline/timeline.h"
#include "tests/unit/sql_query.h"

namespace asys {
namespace {

std::string reportFrom(const std::string& sql, const std::string& name) {
  return test::reportFromSql("graphrows", sql, name);
}

// Process 100 (globalPid 1677721600), thread 101 (globalTid 1677721701).
// Graph nodes: graph 1 = nodes 1, 2 (captured); graph 3 = node 3; exec 2 =
// nodes 11 (from 1), 12 (from 2); exec 4 = node 13 (from 3). Exec 9 has no
// nodes: its graph is unknown.
// PPU 0, context 1:
//   stream 7: kernel [0, 10) corr 10 exec 2; memcpy [12, 20) corr 10 exec 2
//             (launch 1 of exec 2: span [0, 20), busy 18, 1 kernel 1 memcpy);
//             kernel [25, 30) corr 1 (no graph);
//             kernels [40, 45), [45, 50) corr 11 exec 2 (launch 2: [40, 50), busy 10, 2 kernels).
//             The stream's busy time: 10 + 8 + 5 + 10 = 33; the exec 2 row's 28.
//   stream 8: kernel [5, 15) corr 12 exec 4 (exec 4's launch: busy 10);
//             kernel [60, 70) and memset [72, 75) corr 13 exec 2 (span [60, 75), busy 13);
//             kernel [80, 90) corr 14 exec 9 (busy 10). Busy 33.
// Calls (thread 101, start order): corr 10 [0, 2), 12 [3, 4), 1 [21, 22),
// 11 [35, 36), 13 [55, 56), 14 [78, 79): HGGC API events 0..5.
const char* kSql = R"SQL(
CREATE TABLE META_DATA (name TEXT PRIMARY KEY, value TEXT);
INSERT INTO META_DATA VALUES ('format', 'asysrep'), ('formatVersion', '1'), ('captureStart', '0'), ('captureEnd', '100');
CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO StringIds VALUES (1, 'k'), (2, 'hgGraphLaunch'), (3, 'hgLaunchKernel');
CREATE TABLE HGGC_KERNEL (start INTEGER, end INTEGER, deviceId INTEGER, contextId INTEGER,
  streamId INTEGER, correlationId INTEGER, globalPid INTEGER, demangledName INTEGER,
  shortName INTEGER, mangledName INTEGER, gridX INTEGER, gridY INTEGER, gridZ INTEGER,
  blockX INTEGER, blockY INTEGER, blockZ INTEGER, registersPerThread INTEGER,
  staticSharedMemory INTEGER, dynamicSharedMemory INTEGER, graphNodeId INTEGER, graphId INTEGER);
INSERT INTO HGGC_KERNEL VALUES
  ( 0, 10, 0, 1, 7, 10, 1677721600, 1, 1, 1, 1, 1, 1, 32, 1, 1, 32, 0, 0, 11, 2),
  (25, 30, 0, 1, 7,  1, 1677721600, 1, 1, 1, 1, 1, 1, 32, 1, 1, 32, 0, 0, NULL, NULL),
  (40, 45, 0, 1, 7, 11, 1677721600, 1, 1, 1, 1, 1, 1, 32, 1, 1, 32, 0, 0, 11, 2),
  (45, 50, 0, 1, 7, 11, 1677721600, 1, 1, 1, 1, 1, 1, 32, 1, 1, 32, 0, 0, 12, 2),
  ( 5, 15, 0, 1, 8, 12, 1677721600, 1, 1, 1, 1, 1, 1, 32, 1, 1, 32, 0, 0, 13, 4),
  (60, 70, 0, 1, 8, 13, 1677721600, 1, 1, 1, 1, 1, 1, 32, 1, 1, 32, 0, 0, 11, 2),
  (80, 90, 0, 1, 8, 14, 1677721600, 1, 1, 1, 1, 1, 1, 32, 1, 1, 32, 0, 0, 21, 9);
CREATE TABLE HGGC_MEMCPY (start INTEGER, end INTEGER, deviceId INTEGER, contextId INTEGER,
  streamId INTEGER, correlationId INTEGER, globalPid INTEGER, bytes INTEGER,
  copyKind INTEGER, srcKind INTEGER, dstKind INTEGER, srcDeviceId INTEGER,
  dstDeviceId INTEGER, graphNodeId INTEGER, graphId INTEGER);
INSERT INTO HGGC_MEMCPY VALUES (12, 20, 0, 1, 7, 10, 1677721600, 1024, 1, 0, 2, NULL, NULL, 12, 2);
CREATE TABLE HGGC_MEMSET (start INTEGER, end INTEGER, deviceId INTEGER, contextId INTEGER,
  streamId INTEGER, correlationId INTEGER, globalPid INTEGER, value INTEGER, bytes INTEGER,
  memKind INTEGER, graphNodeId INTEGER, graphId INTEGER);
INSERT INTO HGGC_MEMSET VALUES (72, 75, 0, 1, 8, 13, 1677721600, 0, 64, 2, 12, 2);
CREATE TABLE ENUM_HGGC_MEMCPY_OPER (id INTEGER PRIMARY KEY, name TEXT, label TEXT);
INSERT INTO ENUM_HGGC_MEMCPY_OPER VALUES (1, 'HGGC_MEMCPY_KIND_HTOD', 'Host-to-Device');
CREATE TABLE ENUM_HGGC_MEM_KIND (id INTEGER PRIMARY KEY, name TEXT, label TEXT);
INSERT INTO ENUM_HGGC_MEM_KIND VALUES (0, 'HGGC_MEMORY_KIND_PAGEABLE', 'Pageable'), (2, 'HGGC_MEMORY_KIND_DEVICE', 'Device');
CREATE TABLE HGGC_GRAPH_NODE_EVENTS (start INTEGER, end INTEGER, globalTid INTEGER,
  nameId INTEGER, graphNodeId INTEGER, originalGraphNodeId INTEGER, graphId INTEGER);
INSERT INTO HGGC_GRAPH_NODE_EVENTS VALUES
  (0, 0, 1677721701, 3, 1, NULL, 1), (0, 0, 1677721701, 3, 2, NULL, 1), (0, 0, 1677721701, 3, 3, NULL, 3),
  (0, 0, 1677721701, 2, 11, 1, 2), (0, 0, 1677721701, 2, 12, 2, 2), (0, 0, 1677721701, 2, 13, 3, 4);
CREATE TABLE HGGC_API (start INTEGER, end INTEGER, eventClass INTEGER, globalTid INTEGER,
  correlationId INTEGER, nameId INTEGER, returnValue INTEGER, callchainId INTEGER);
INSERT INTO HGGC_API VALUES
  ( 0,  2, 1, 1677721701, 10, 2, 0, NULL), ( 3,  4, 1, 1677721701, 12, 2, 0, NULL),
  (21, 22, 1, 1677721701,  1, 3, 0, NULL), (35, 36, 1, 1677721701, 11, 2, 0, NULL),
  (55, 56, 1, 1677721701, 13, 2, 0, NULL), (78, 79, 1, 1677721701, 14, 2, 0, NULL);
)SQL";

size_t trackNamed(const Timeline& t, const std::string& label) {
  for (size_t i = 0; i < t.tracks().size(); ++i)
    if (t.tracks()[i].label == label) return i;
  return SIZE_MAX;
}

TEST(TimelineGraphRows, ARowPerExecPerStreamASlicePerLaunch) {
  const std::unique_ptr<Report> report = Report::open(reportFrom(kSql, "rows"));
  Timeline t = Timeline::build(*report);
  const size_t before = t.tracks().size();
  const size_t s7 = trackNamed(t, "Stream 7"), s8 = trackNamed(t, "Stream 8");
  ASSERT_LT(s7, before);
  ASSERT_LT(s8, before);
  ASSERT_EQ(t.tracks()[s7].busy, 33);
  ASSERT_EQ(t.tracks()[s8].busy, 33);
  const std::vector<size_t> ids = t.graphRows(*report);
  ASSERT_EQ(ids, (std::vector<size_t>{before, before + 1, before + 2, before + 3}));
  EXPECT_EQ(t.graphRows(*report), ids);  // kept: asked again, the same rows
  ASSERT_EQ(t.tracks().size(), before + 4);
  // Stream 7's one exec, then stream 8's by exec id.
  const TimelineTrack& a = t.tracks()[before];
  const TimelineTrack& b = t.tracks()[before + 1];
  const TimelineTrack& c = t.tracks()[before + 2];
  const TimelineTrack& d = t.tracks()[before + 3];
  EXPECT_EQ(a.label, "Graph 1 \u2192 exec 2");
  EXPECT_EQ(b.label, "Graph 1 \u2192 exec 2");
  EXPECT_EQ(c.label, "Graph 3 \u2192 exec 4");
  EXPECT_EQ(d.label, "Graph exec 9");
  EXPECT_EQ(a.graphOf, s7);
  EXPECT_EQ(b.graphOf, s8);
  EXPECT_EQ(c.graphOf, s8);
  EXPECT_EQ(d.graphOf, s8);
  for (const TimelineTrack* r : {&a, &b, &c, &d}) {
    EXPECT_TRUE(r->graphRow());
    EXPECT_TRUE(r->repeats());
    EXPECT_FALSE(r->derived());
    EXPECT_FALSE(isPpuWork(*r));
    EXPECT_EQ(r->group, t.tracks()[s7].group);
    EXPECT_EQ(r->tableRows(), 0u);
    EXPECT_EQ(r->lanes, 1);
    EXPECT_EQ(report->strings().get(r->name[0]), r->label);  // the slice is named like the row
    EXPECT_EQ(r->kind[0], TimelineKind::GraphLaunch);
  }
  // Exec 2 on stream 7: two launches.
  ASSERT_EQ(a.size(), 2u);
  EXPECT_EQ(a.start[0], 0);
  EXPECT_EQ(a.end[0], 20);
  EXPECT_EQ(a.start[1], 40);
  EXPECT_EQ(a.end[1], 50);
  ASSERT_TRUE(a.launches);
  EXPECT_EQ(a.launches->graph, 1);
  EXPECT_EQ(a.launches->exec, 2);
  EXPECT_EQ(a.launches->correlationId, (std::vector<int64_t>{10, 11}));
  EXPECT_EQ(a.launches->kernels, (std::vector<uint32_t>{1, 2}));
  EXPECT_EQ(a.launches->memcpys, (std::vector<uint32_t>{1, 0}));
  EXPECT_EQ(a.launches->memsets, (std::vector<uint32_t>{0, 0}));
  EXPECT_EQ(a.launches->busy, (std::vector<int64_t>{18, 10}));
  EXPECT_EQ(a.launches->first, (std::vector<uint32_t>{0, 3}));  // stream 7: k, memcpy, k, k, k
  EXPECT_EQ(a.busy, 28);
  EXPECT_DOUBLE_EQ(a.share, 28.0 / 33);
  // Exec 2 on stream 8: one launch, a kernel and a memset.
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b.start[0], 60);
  EXPECT_EQ(b.end[0], 75);
  EXPECT_EQ(b.launches->kernels, (std::vector<uint32_t>{1}));
  EXPECT_EQ(b.launches->memsets, (std::vector<uint32_t>{1}));
  EXPECT_EQ(b.launches->busy, (std::vector<int64_t>{13}));
  EXPECT_EQ(b.busy, 13);
  EXPECT_DOUBLE_EQ(b.share, 13.0 / 33);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c.start[0], 5);
  EXPECT_EQ(c.end[0], 15);
  EXPECT_EQ(c.launches->graph, 3);
  EXPECT_EQ(c.launches->exec, 4);
  EXPECT_EQ(c.busy, 10);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d.launches->graph, INT64_MIN);
  EXPECT_EQ(d.launches->exec, 9);
  EXPECT_EQ(d.launches->correlationId, (std::vector<int64_t>{14}));

  // Inside [8, 46): stream 7 busy [8, 10) + [12, 20) + [25, 30) + [40, 46) = 21;
  // its exec 2 row: [8, 20) -> 10, [40, 46) -> 6 = 16.
  const TimelineShares in = t.sharesIn(8, 46);
  EXPECT_EQ(in.busy[s7], 21);
  EXPECT_EQ(in.busy[before], 16);
  EXPECT_DOUBLE_EQ(in.share[before], 16.0 / 21);
  // Stream 8 inside [8, 46): [8, 15) = 7; exec 4's row the same, exec 2's and 9's none.
  EXPECT_EQ(in.busy[s8], 7);
  EXPECT_DOUBLE_EQ(in.share[before + 2], 1.0);
  EXPECT_DOUBLE_EQ(in.share[before + 1], 0.0);
  // The whole capture's shares are the build's.
  const TimelineShares all = t.sharesIn(INT64_MIN, INT64_MAX);
  EXPECT_DOUBLE_EQ(all.share[before], 28.0 / 33);
  EXPECT_EQ(all.busy[before + 3], 10);
  // The groups' busy time is as before: the rows are not the PPU's work.
  const TimelineShares none = t.sharesIn(0, 100);
  // Streams 7 and 8: [0, 20) + [25, 30) + [40, 50) + [60, 70) + [72, 75) + [80, 90) = 58.
  EXPECT_EQ(none.groupBusy[0], 58);
  EXPECT_EQ(t.groups()[0].busy, 58);
}

TEST(TimelineGraphRows, LaunchLinksToItsCallAndIsCountedOnce) {
  const std::unique_ptr<Report> report = Report::open(reportFrom(kSql, "links"));
  Timeline t = Timeline::build(*report);
  const std::vector<size_t> ids = t.graphRows(*report);
  ASSERT_EQ(ids.size(), 4u);
  const TimelineLinks links = TimelineLinks::build(*report, t);
  size_t api = SIZE_MAX;
  for (size_t i = 0; i < t.tracks().size(); ++i)
    if (!t.tracks()[i].row.empty() && t.tracks()[i].kind[0] == TimelineKind::Api) api = i;
  ASSERT_NE(api, SIZE_MAX);
  // Exec 2's launches on stream 7: calls corr 10 (event 0) and 11 (event 3).
  const uint32_t a = static_cast<uint32_t>(ids[0]);
  EXPECT_EQ(links.related(t, {a, 0}), (std::vector<TimelineEventRef>{{static_cast<uint32_t>(api), 0}}));
  EXPECT_EQ(links.related(t, {a, 1}), (std::vector<TimelineEventRef>{{static_cast<uint32_t>(api), 3}}));
  EXPECT_EQ(links.related(t, {static_cast<uint32_t>(ids[3]), 0}), (std::vector<TimelineEventRef>{{static_cast<uint32_t>(api), 5}}));
  EXPECT_TRUE(links.related(t, {a, 2}).empty());  // past its launches
  // The call lists its activities on the stream, not the graph row's launch.
  const std::vector<TimelineEventRef> launched = links.related(t, {static_cast<uint32_t>(api), 0});
  ASSERT_EQ(launched.size(), 2u);
  for (const TimelineEventRef& r : launched) EXPECT_FALSE(t.tracks()[r.track].graphRow());
  // findEvent finds the kernel on its stream, never on a graph row.
  const std::optional<TimelineEventAt> k = t.findEvent(EventTable::Kernel, 0);
  ASSERT_TRUE(k);
  EXPECT_FALSE(t.tracks()[k->track].graphRow());
  // The selection statistics count each activity once: 7 kernels, 1 memcpy, 1 memset.
  const WindowStats s = windowStats(t, report->strings(), 0, 100);
  std::map<std::string, int64_t> count;
  for (size_t r = 0; r < s.events.rowCount(); ++r) count[std::string(s.events.textAt(r, 6))] += s.events.intAt(r, 1);
  EXPECT_EQ(count, (std::map<std::string, int64_t>{{"Kernel", 7}, {"Memcpy", 1}, {"Memset", 1}, {"HGGC API", 6}}));
  ASSERT_EQ(s.devices.size(), 1u);
  EXPECT_EQ(s.devices[0].active, 58);
}

TEST(TimelineGraphRows, NoGraphWorkNoRows) {
  std::string sql = kSql;
  for (const char* table : {"HGGC_KERNEL", "HGGC_MEMCPY", "HGGC_MEMSET"}) sql += std::string("UPDATE ") + table + " SET graphId = NULL;";
  const std::unique_ptr<Report> report = Report::open(reportFrom(sql, "none"));
  Timeline t = Timeline::build(*report);
  const size_t before = t.tracks().size();
  EXPECT_TRUE(t.graphRows(*report).empty());
  EXPECT_EQ(t.tracks().size(), before);
}

TEST(TimelineGraphRows, TooManyLaunchesOrGraphActivitiesLeaveThemOutWithANote) {
  // Five launches (corr 10, 11, 12, 13, 14), eight graph activities (six kernels, a memcpy, a memset).
  for (const auto& [launches, activities, why] :
       std::vector<std::tuple<size_t, size_t, std::string>>{{4, 100, "more than 4 graph launches"}, {100, 7, "more than 7 PPU activities ran from graphs"}}) {
    const std::unique_ptr<Report> report = Report::open(reportFrom(kSql, "cap"));
    TimelineOptions bounded;
    bounded.graphMaxLaunches = launches;
    bounded.graphMaxActivities = activities;
    Timeline t = Timeline::build(*report, bounded);
    const size_t before = t.tracks().size();
    EXPECT_TRUE(t.graphRows(*report).empty());
    EXPECT_EQ(t.tracks().size(), before);
    ASSERT_FALSE(t.notes().empty());
    EXPECT_EQ(t.notes().back(), "timeline: no graph rows: " + why + "; hggc_ppu_trace lists each activity");
  }
  // At the bounds: built.
  const std::unique_ptr<Report> report = Report::open(reportFrom(kSql, "cap"));
  TimelineOptions atBounds;
  atBounds.graphMaxLaunches = 5;
  atBounds.graphMaxActivities = 8;
  Timeline t = Timeline::build(*report, atBounds);
  EXPECT_EQ(t.graphRows(*report).size(), 4u);
}

}  // namespace
}  // namespace asys
