// A timeline selection's statistics (core/timeline/selection_stats.h) on a
// hand-built report, every value worked out by hand below.
#include "core/timeline/selection_stats.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/base/error.h"
#include "tests/unit/sql_query.h"

namespace asys {
namespace {

// P1 pid 100 (globalPid 1677721600), thread T2 tid 102 (1677721702).
// PPU 0: stream 7 k_a [0, 30), stream 8 k_a [25, 35) (overlapping), stream 7
//        a memcpy HtoD to device memory [40, 60), stream 8 k_c without an end
//        at 45 (an instant).
// PPU 1: stream 9 k_b [100, 150), stream 10 k_b [120, 130) (overlapping),
//        stream 9 a memset [140, 170).
// Host, T2: HGGC API hgLaunchKernel [0, 10) (launches the first k_a), OSRT
//        read [10, 20), HGTX push/pop range "step" [0, 45) around the call
//        (so PPU 0 also has an HGTX projection row, which is not counted).
const std::string kSql = R"SQL(
CREATE TABLE META_DATA (name TEXT PRIMARY KEY, value TEXT);
INSERT INTO META_DATA VALUES ('format', 'asysrep'), ('formatVersion', '1'), ('captureStart', '0'), ('captureEnd', '200');
CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO StringIds VALUES (1, 'read'), (6, 'k_a(int)'), (7, 'k_a'), (8, 'k_b(float)'), (9, 'k_b'),
  (10, 'hgLaunchKernel'), (11, 'k_c()'), (12, 'k_c');
CREATE TABLE PROCESSES (globalPid INTEGER PRIMARY KEY, pid INTEGER, name TEXT);
INSERT INTO PROCESSES VALUES (1677721600, 100, 'app');
CREATE TABLE HGGC_KERNEL (start INTEGER, end INTEGER, deviceId INTEGER, contextId INTEGER,
  streamId INTEGER, correlationId INTEGER, globalPid INTEGER, demangledName INTEGER,
  shortName INTEGER, mangledName INTEGER, gridX INTEGER, gridY INTEGER, gridZ INTEGER,
  blockX INTEGER, blockY INTEGER, blockZ INTEGER, registersPerThread INTEGER,
  staticSharedMemory INTEGER, dynamicSharedMemory INTEGER, graphNodeId INTEGER, graphId INTEGER);
INSERT INTO HGGC_KERNEL VALUES
  (  0,   30, 0, 1,  7, 1, 1677721600,  6,  7,  7, 1, 1, 1, 32, 1, 1, 32, 0, 0, NULL, NULL),
  ( 25,   35, 0, 1,  8, 2, 1677721600,  6,  7,  7, 1, 1, 1, 32, 1, 1, 32, 0, 0, NULL, NULL),
  ( 45, NULL, 0, 1,  8, 3, 1677721600, 11, 12, 12, 1, 1, 1, 32, 1, 1, 32, 0, 0, NULL, NULL),
  (100,  150, 1, 1,  9, 4, 1677721600,  8,  9,  9, 1, 1, 1, 32, 1, 1, 32, 0, 0, NULL, NULL),
  (120,  130, 1, 1, 10, 5, 1677721600,  8,  9,  9, 1, 1, 1, 32, 1, 1, 32, 0, 0, NULL, NULL);
CREATE TABLE ENUM_HGGC_MEMCPY_OPER (id INTEGER PRIMARY KEY, name TEXT, label TEXT);
INSERT INTO ENUM_HGGC_MEMCPY_OPER VALUES (1, 'HGGC_MEMCPY_HTOD', 'Host-to-Device');
CREATE TABLE ENUM_HGGC_MEM_KIND (id INTEGER PRIMARY KEY, name TEXT, label TEXT);
INSERT INTO ENUM_HGGC_MEM_KIND VALUES (2, 'HGGC_MEM_DEVICE', 'Device');
CREATE TABLE HGGC_MEMCPY (start INTEGER, end INTEGER, deviceId INTEGER, contextId INTEGER,
  streamId INTEGER, correlationId INTEGER, globalPid INTEGER, bytes INTEGER,
  copyKind INTEGER, srcKind INTEGER, dstKind INTEGER, srcDeviceId INTEGER,
  dstDeviceId INTEGER, graphNodeId INTEGER, graphId INTEGER);
INSERT INTO HGGC_MEMCPY VALUES (40, 60, 0, 1, 7, 6, 1677721600, 1024, 1, 0, 2, NULL, 0, NULL, NULL);
CREATE TABLE HGGC_MEMSET (start INTEGER, end INTEGER, deviceId INTEGER, contextId INTEGER,
  streamId INTEGER, correlationId INTEGER, globalPid INTEGER, value INTEGER, bytes INTEGER,
  memKind INTEGER, graphNodeId INTEGER, graphId INTEGER);
INSERT INTO HGGC_MEMSET VALUES (140, 170, 1, 1, 9, 7, 1677721600, 0, 64, 2, NULL, NULL);
CREATE TABLE HGGC_API (start INTEGER, end INTEGER, eventClass INTEGER, globalTid INTEGER,
  correlationId INTEGER, nameId INTEGER, returnValue INTEGER, callchainId INTEGER);
INSERT INTO HGGC_API VALUES (0, 10, 1, 1677721702, 1, 10, 0, NULL);
CREATE TABLE OSRT_API (start INTEGER, end INTEGER, eventClass INTEGER, globalTid INTEGER,
  nameId INTEGER, returnValue INTEGER, nestingLevel INTEGER, callchainId INTEGER);
INSERT INTO OSRT_API VALUES (10, 20, 27, 1677721702, 1, 0, 0, NULL);
CREATE TABLE HGTX_EVENTS (start INTEGER, end INTEGER, eventType INTEGER, rangeId INTEGER,
  category INTEGER, color INTEGER, text TEXT, globalTid INTEGER, endGlobalTid INTEGER,
  textId INTEGER, domainId INTEGER, argsId INTEGER);
INSERT INTO HGTX_EVENTS VALUES (0, 45, 59, NULL, NULL, NULL, 'step', 1677721702, NULL, NULL, 0, NULL);
)SQL";

std::string reportPath() {
  static const std::string path = test::reportFromSql("selection", kSql, "fixture");
  return path;
}

struct Row {
  int64_t total, count, avg, min, max, inside;
  std::string kind, name;
  bool operator==(const Row&) const = default;
};

std::ostream& operator<<(std::ostream& o, const Row& r) {
  return o << "{" << r.total << ", " << r.count << ", " << r.avg << ", " << r.min << ", " << r.max << ", " << r.inside
           << ", " << r.kind << ", " << r.name << "}";
}

std::vector<Row> rowsOf(const Table& t) {
  std::vector<Row> out;
  for (size_t r = 0; r < t.rowCount(); ++r)
    out.push_back({t.intAt(r, 0), t.intAt(r, 1), t.intAt(r, 2), t.intAt(r, 3), t.intAt(r, 4), t.intAt(r, 5),
                   std::string(t.textAt(r, 6)), std::string(t.textAt(r, 7))});
  return out;
}

class SelectionStats : public ::testing::Test {
 protected:
  void SetUp() override {
    report_ = Report::open(reportPath());
    timeline_ = std::make_unique<Timeline>(Timeline::build(*report_));
  }
  WindowStats at(int64_t from, int64_t to) { return windowStats(*timeline_, report_->strings(), from, to); }
  std::unique_ptr<Report> report_;
  std::unique_ptr<Timeline> timeline_;
};

TEST_F(SelectionStats, OverlappingKernelsAndAMemcpyCrossingTheEnd) {
  // [20, 50), 30 ns. PPU 0: kernels [20, 30) u [25, 35) = [20, 35): 15 (50.0 %);
  // the memcpy [40, 50): 10 (33.3 %); active [20, 35) u [40, 50): 25 (83.3 %),
  // idle 5. PPU 1: nothing. The k_c instant at 45 counts once, 0 ns; the
  // OSRT call [10, 20) ends where the window starts: not in it; the HGTX
  // range [0, 45) is, whole (45 ns, 25 of them inside).
  const WindowStats s = at(20, 50);
  EXPECT_EQ(s.length(), 30);
  ASSERT_EQ(s.devices.size(), 2u);
  EXPECT_EQ(s.devices[0].device, 0);
  EXPECT_EQ(s.devices[0].name, "PPU 0");
  EXPECT_EQ(s.devices[0].active, 25);
  EXPECT_EQ(s.devices[0].kernel, 15);
  EXPECT_EQ(s.devices[0].memory, 10);
  EXPECT_EQ(s.devices[1].device, 1);
  EXPECT_EQ(s.devices[1].active, 0);
  EXPECT_EQ(s.devices[1].kernel, 0);
  EXPECT_EQ(s.devices[1].memory, 0);
  const std::vector<Row> expected = {
      {45, 1, 45, 45, 45, 25, "HGTX range", "step"},
      {40, 2, 20, 10, 30, 20, "Kernel", "k_a(int)"},
      {20, 1, 20, 20, 20, 10, "Memcpy", "Memcpy HtoD (device)"},
      {0, 1, 0, 0, 0, 0, "Kernel", "k_c()"},
  };
  EXPECT_EQ(rowsOf(s.events), expected);
}

TEST_F(SelectionStats, AKernelCrossingTheStartAndAMemsetTheEnd) {
  // [120, 160): PPU 1 kernels [120, 150) u [120, 130) = 30, the memset
  // [140, 160): 20, active [120, 160) = the window: idle 0.
  const WindowStats s = at(120, 160);
  ASSERT_EQ(s.devices.size(), 2u);
  EXPECT_EQ(s.devices[0].active, 0);
  EXPECT_EQ(s.devices[1].active, 40);
  EXPECT_EQ(s.devices[1].kernel, 30);
  EXPECT_EQ(s.devices[1].memory, 20);
  const std::vector<Row> expected = {
      {60, 2, 30, 10, 50, 40, "Kernel", "k_b(float)"},
      {30, 1, 30, 30, 30, 20, "Memset", "Memset"},
  };
  EXPECT_EQ(rowsOf(s.events), expected);
}

TEST_F(SelectionStats, TheWholeCaptureCountsEveryRowOnceAndNoProjection) {
  // [0, 200): PPU 0 active [0, 35) u [40, 60) = 55, kernels 35, memory 20;
  // PPU 1 active [100, 170) = 70, kernels 50, memory 30. Every event once:
  // the HGTX range once (its projection onto PPU 0 is not counted).
  const WindowStats s = at(0, 200);
  ASSERT_EQ(s.devices.size(), 2u);
  EXPECT_EQ(s.devices[0].active, 55);
  EXPECT_EQ(s.devices[0].kernel, 35);
  EXPECT_EQ(s.devices[0].memory, 20);
  EXPECT_EQ(s.devices[1].active, 70);
  EXPECT_EQ(s.devices[1].kernel, 50);
  EXPECT_EQ(s.devices[1].memory, 30);
  bool projected = false;
  for (const TimelineTrack& t : timeline_->tracks()) projected |= t.size() > 0 && t.kind[0] == TimelineKind::Projection;
  EXPECT_TRUE(projected) << "the fixture should have an HGTX projection row";
  const std::vector<Row> expected = {
      {60, 2, 30, 10, 50, 60, "Kernel", "k_b(float)"},
      {45, 1, 45, 45, 45, 45, "HGTX range", "step"},
      {40, 2, 20, 10, 30, 40, "Kernel", "k_a(int)"},
      {30, 1, 30, 30, 30, 30, "Memset", "Memset"},
      {20, 1, 20, 20, 20, 20, "Memcpy", "Memcpy HtoD (device)"},
      {10, 1, 10, 10, 10, 10, "HGGC API", "hgLaunchKernel"},
      {10, 1, 10, 10, 10, 10, "OSRT", "read"},
      {0, 1, 0, 0, 0, 0, "Kernel", "k_c()"},
  };
  EXPECT_EQ(rowsOf(s.events), expected);
}

TEST_F(SelectionStats, AWindowWithoutEventsAndAnEmptyWindow) {
  const WindowStats s = at(1000, 2000);
  ASSERT_EQ(s.devices.size(), 2u);
  for (const DeviceWindowStats& d : s.devices) {
    EXPECT_EQ(d.active, 0);
    EXPECT_EQ(d.kernel, 0);
    EXPECT_EQ(d.memory, 0);
  }
  EXPECT_EQ(s.events.rowCount(), 0u);
  EXPECT_EQ(s.events.columns().size(), 8u);
  EXPECT_THROW(at(50, 50), Error);
  EXPECT_THROW(at(60, 50), Error);
}

}  // namespace
}  // namespace asys
