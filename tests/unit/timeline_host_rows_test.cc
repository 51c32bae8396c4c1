// The host rows of issue 23 (core/timeline/host_rows.h) on a hand-built
// report, every value worked out by hand: HGTX start/end ranges per process
// on lanes (one ended on another thread, one never ended), library API rows
// per thread (ranges moved off the HGTX row), memory allocation failures per
// process (drawn again, not counted again), their busy shares over the
// capture and recomputed for a window.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "core/table/result_queries.h"
#include "core/timeline/host_rows.h"
#include "core/timeline/selection_stats.h"
#include "core/timeline/timeline.h"
#include "core/timeline/track_events.h"
#include "tests/unit/sql_query.h"

namespace asys {
namespace {

// P1 pid 100 (globalPid 1677721600): T1 tid 101 (1677721701), T2 tid 102 (1677721702).
//
// HGTX_EVENTS (row: what):
//   0 push/pop T1 "step" [0, 100), level 0
//   1 push/pop T1 ACBLAS:GemmEx [10, 20), level 1        -> T1's ACBLAS row, lane 0
//   2 push/pop T1 AllReduce, p:0, ... [30, 50), level 1   -> T1's PCCL row, lane 0
//   3 push/pop T1 D_MoE,... [60, 90), level 1             (a framework's: stays on HGTX)
//   4 push/pop T1 MoE:M_72_... [65, 80), level 2          -> T1's MoE row, lane 0
//   5 start/end "pin" [5, 70) started on T2, ended on T1
//   6 start/end "sync" [40, 60) on T1 (endGlobalTid NULL: the same thread)
//   7 start/end "ckpt" [95, NULL) on T1: never ended, an instant
// The process's start/end row: pin lane 0, sync lane 1 (pin still runs),
// ckpt lane 0 (pin ended at 70): 2 lanes.
// HGGC_API (row: what):
//   0 T2 hgMalloc [0, 10) -> 0
//   1 T1 hgMalloc [20, 25) -> 2          a failure
//   2 T2 hgLaunchKernel [30, 35) -> 1    failed, not an allocation
//   3 T2 hgMallocHost [40, 42) -> 2      a failure
// The failures row: [20, 25) (T1, 2), [40, 42) (T2, 2).
// Busy: the process's work is its threads' rows: HGTX [0, 100) covers every
// call: 100. Start/end [5, 70) u [40, 60) = 65 -> 65 %; failures 5 + 2 = 7
// -> 7 %; ACBLAS 10 %, PCCL 20 %, MoE 15 %; the HGTX row [0, 100) 100 %.
// In [50, 100): the process 50 (HGTX [50, 100)); start/end [50, 70) 20 ->
// 40 %; failures none -> 0 %.
const std::string kSql = R"SQL(
CREATE TABLE META_DATA (name TEXT PRIMARY KEY, value TEXT);
INSERT INTO META_DATA VALUES ('format', 'asysrep'), ('formatVersion', '1'), ('captureStart', '0'), ('captureEnd', '200');
CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO StringIds VALUES (1, 'hgMalloc'), (2, 'hgLaunchKernel'), (3, 'hgMallocHost');
CREATE TABLE PROCESSES (globalPid INTEGER PRIMARY KEY, pid INTEGER, name TEXT);
INSERT INTO PROCESSES VALUES (1677721600, 100, 'app');
CREATE TABLE HGGC_API (start INTEGER, end INTEGER, eventClass INTEGER, globalTid INTEGER,
  correlationId INTEGER, nameId INTEGER, returnValue INTEGER, callchainId INTEGER);
INSERT INTO HGGC_API VALUES (0, 10, 1, 1677721702, 1, 1, 0, NULL), (20, 25, 1, 1677721701, 2, 1, 2, NULL),
  (30, 35, 1, 1677721702, 3, 2, 1, NULL), (40, 42, 1, 1677721702, 4, 3, 2, NULL);
CREATE TABLE HGTX_EVENTS (start INTEGER, end INTEGER, eventType INTEGER, rangeId INTEGER,
  category INTEGER, color INTEGER, text TEXT, globalTid INTEGER, endGlobalTid INTEGER,
  textId INTEGER, domainId INTEGER, argsId INTEGER);
INSERT INTO HGTX_EVENTS VALUES
  (0, 100, 59, NULL, NULL, NULL, 'step', 1677721701, NULL, NULL, 0, NULL),
  (10, 20, 59, NULL, NULL, NULL, 'ACBLAS:GemmEx,t,n,2048,72,6144,6144,6144,2048,1,0,1,DEFAULT,BF16,ACBLAS_GEMM_DEFAULT_TENSOR_OP,32F,EPILOGUE_DEFAULT', 1677721701, NULL, NULL, 0, NULL),
  (30, 50, 59, NULL, NULL, NULL, 'AllReduce, p:0, c:442368, d:9, r:0, w:4, h:c70515c91cef61c7, t:1, b:0x119e800000/0x119e8d8000', 1677721701, NULL, NULL, 0, NULL),
  (60, 90, 59, NULL, NULL, NULL, 'D_MoE,M_8_E_128_H_2048_In_768_topk_8', 1677721701, NULL, NULL, 0, NULL),
  (65, 80, 59, NULL, NULL, NULL, 'MoE:M_72_E8_H6144_In8192_topk2', 1677721701, NULL, NULL, 0, NULL),
  (5, 70, 60, 1, NULL, NULL, 'pin', 1677721702, 1677721701, NULL, 0, NULL),
  (40, 60, 60, 2, NULL, NULL, 'sync', 1677721701, NULL, NULL, 0, NULL),
  (95, NULL, 60, 3, NULL, NULL, 'ckpt', 1677721701, NULL, NULL, 0, NULL);
)SQL";

constexpr int64_t kT1 = 1677721701, kT2 = 1677721702;

std::string reportPath() {
  static const std::string path = test::reportFromSql("host_rows", kSql, "fixture");
  return path;
}

class HostRows : public ::testing::Test {
 protected:
  void SetUp() override {
    report_ = Report::open(reportPath());
    timeline_ = std::make_unique<Timeline>(Timeline::build(*report_));
  }
  size_t idOf(const std::string& label) {
    const auto& tracks = timeline_->tracks();
    for (size_t i = 0; i < tracks.size(); ++i)
      if (tracks[i].label == label) return i;
    ADD_FAILURE() << "no track " << label;
    return 0;
  }
  const TimelineTrack& track(const std::string& label) { return timeline_->tracks()[idOf(label)]; }
  std::string name(const TimelineTrack& t, size_t i) { return std::string(report_->strings().get(t.name[i])); }
  std::unique_ptr<Report> report_;
  std::unique_ptr<Timeline> timeline_;
};

TEST_F(HostRows, OrderAndLabels) {
  // The process's own rows first (keyed by thread id 0), then each thread's
  // API calls, HGTX row and its libraries' rows in the libraries' order.
  std::vector<std::string> labels;
  for (const TimelineTrack& t : timeline_->tracks()) {
    EXPECT_EQ(t.group, "Process 100 (app)");
    labels.push_back(t.label);
  }
  EXPECT_EQ(labels, (std::vector<std::string>{"HGTX start/end", "Memory allocation failures", "Thread 101 HGGC API",
                                              "Thread 101 HGTX", "Thread 101 ACBLAS", "Thread 101 MoE",
                                              "Thread 101 PCCL", "Thread 102 HGGC API"}));
  EXPECT_EQ(track("HGTX start/end").hostRow, HostRow::StartEnd);
  EXPECT_EQ(track("Memory allocation failures").hostRow, HostRow::AllocationFailures);
  EXPECT_EQ(track("Thread 101 ACBLAS").hostRow, HostRow::Library);
  EXPECT_EQ(track("Thread 101 HGTX").hostRow, HostRow::None);
}

TEST_F(HostRows, StartEndRangesOnLanesWithTheirThreads) {
  const TimelineTrack& t = track("HGTX start/end");
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t.lanes, 2);
  const int64_t start[] = {5, 40, 95}, end[] = {70, 60, 95}, lane[] = {0, 1, 0}, row[] = {5, 6, 7};
  const char* names[] = {"pin", "sync", "ckpt"};
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(t.start[i], start[i]) << i;
    EXPECT_EQ(t.end[i], end[i]) << i;
    EXPECT_EQ(t.lane[i], lane[i]) << i;
    EXPECT_EQ(t.row[i], row[i]) << i;
    EXPECT_EQ(t.kind[i], TimelineKind::HgtxStartEnd) << i;
    EXPECT_EQ(name(t, i), names[i]) << i;
  }
  ASSERT_TRUE(t.notes);
  EXPECT_EQ(t.notes->thread, (std::vector<int64_t>{kT2, kT1, kT1}));
  EXPECT_EQ(t.notes->endThread, (std::vector<int64_t>{kT1, kT1, kNoValue}));
  // hgtx_pushpop_trace never lists them; a rule row naming one finds it here.
  const auto at = timeline_->findEvent(EventTable::Hgtx, 5);
  ASSERT_TRUE(at);
  EXPECT_EQ(at->track, idOf("HGTX start/end"));
  EXPECT_EQ(at->event, 0u);
}

TEST_F(HostRows, LibraryRangesMoveOffTheHgtxRow) {
  const TimelineTrack& hgtx = track("Thread 101 HGTX");
  ASSERT_EQ(hgtx.size(), 2u);  // step and the framework's D_MoE
  EXPECT_EQ(name(hgtx, 0), "step");
  EXPECT_EQ(name(hgtx, 1), "D_MoE,M_8_E_128_H_2048_In_768_topk_8");
  EXPECT_EQ(hgtx.lane[1], 1);
  EXPECT_EQ(hgtx.lanes, 2);
  struct Expect {
    const char* label;
    int64_t start, end;
    uint32_t row;
  };
  for (const Expect& e : {Expect{"Thread 101 ACBLAS", 10, 20, 1}, Expect{"Thread 101 PCCL", 30, 50, 2},
                          Expect{"Thread 101 MoE", 65, 80, 4}}) {
    const TimelineTrack& t = track(e.label);
    ASSERT_EQ(t.size(), 1u) << e.label;
    EXPECT_EQ(t.start[0], e.start) << e.label;
    EXPECT_EQ(t.end[0], e.end) << e.label;
    EXPECT_EQ(t.lane[0], 0) << e.label;  // counted from the row's outermost range
    EXPECT_EQ(t.lanes, 1) << e.label;
    EXPECT_EQ(t.row[0], e.row) << e.label;
    EXPECT_EQ(t.kind[0], TimelineKind::Hgtx) << e.label;
    const auto at = timeline_->findEvent(EventTable::Hgtx, e.row);
    ASSERT_TRUE(at) << e.label;
    EXPECT_EQ(at->track, idOf(e.label));
  }
}

TEST_F(HostRows, AllocationFailuresDrawnAgainNotCountedAgain) {
  const TimelineTrack& t = track("Memory allocation failures");
  ASSERT_EQ(t.size(), 2u);
  EXPECT_TRUE(t.repeats());
  EXPECT_EQ(t.start[0], 20);
  EXPECT_EQ(t.end[0], 25);
  EXPECT_TRUE(t.row.empty());  // a row's event is one event: the call on its thread's row
  EXPECT_EQ(t.tableRow(0), 1u);
  EXPECT_EQ(name(t, 0), "hgMalloc");
  EXPECT_EQ(t.start[1], 40);
  EXPECT_EQ(t.end[1], 42);
  EXPECT_EQ(t.tableRow(1), 3u);
  EXPECT_EQ(name(t, 1), "hgMallocHost");
  EXPECT_EQ(t.kind[0], TimelineKind::AllocFailure);
  ASSERT_TRUE(t.notes);
  EXPECT_EQ(t.notes->thread, (std::vector<int64_t>{kT1, kT2}));
  EXPECT_EQ(t.notes->value, (std::vector<int64_t>{2, 2}));
  // A rule row naming the call finds it on its thread's API row.
  const auto at = timeline_->findEvent(EventTable::Api, 1);
  ASSERT_TRUE(at);
  EXPECT_EQ(at->track, idOf("Thread 101 HGGC API"));
  // The selection statistics count each call once: hgMalloc twice (rows 0
  // and 1), hgMallocHost once.
  const WindowStats s = windowStats(*timeline_, report_->strings(), 0, 100);
  int64_t malloc = -1, host = -1;
  for (size_t r = 0; r < s.events.rowCount(); ++r) {
    if (s.events.textAt(r, 7) == "hgMalloc") malloc = s.events.intAt(r, 1);
    if (s.events.textAt(r, 7) == "hgMallocHost") host = s.events.intAt(r, 1);
  }
  EXPECT_EQ(malloc, 2);
  EXPECT_EQ(host, 1);
}

TEST_F(HostRows, EventsViewsOfTheHostRows) {
  // The failures: the calls' columns, read by their HGGC_API rows.
  const TrackEvents f = trackEvents(*report_, *timeline_, idOf("Memory allocation failures"), TimeWindow{});
  EXPECT_EQ(f.kind, TrackEventsKind::Api);
  const std::vector<uint32_t> both{0, 1};
  const Table calls = rowsOf(f.table, both);
  ASSERT_EQ(calls.rowCount(), 2u);
  EXPECT_EQ(calls.textAt(0, 0), "hgMalloc");
  EXPECT_EQ(calls.intAt(0, 1), 20);
  EXPECT_EQ(calls.intAt(0, 2), 5);
  EXPECT_EQ(calls.intAt(0, 3), 2);  // CorrId
  EXPECT_EQ(calls.intAt(0, 4), 2);  // Return Value
  EXPECT_EQ(calls.textAt(1, 0), "hgMallocHost");
  EXPECT_EQ(calls.intAt(1, 3), 4);
  EXPECT_EQ(calls.intAt(1, 4), 2);
  // The start/end ranges: an unended one is an instant (Duration 0), its
  // lane its Level column.
  const TrackEvents r = trackEvents(*report_, *timeline_, idOf("HGTX start/end"), TimeWindow{});
  EXPECT_EQ(r.kind, TrackEventsKind::Hgtx);
  const std::vector<uint32_t> three{0, 1, 2};
  const Table ranges = rowsOf(r.table, three);
  ASSERT_EQ(ranges.rowCount(), 3u);
  EXPECT_EQ(ranges.textAt(2, 0), "ckpt");
  EXPECT_EQ(ranges.intAt(2, 2), 0);
  EXPECT_EQ(ranges.intAt(1, 3), 1);
}

TEST_F(HostRows, BusySharesOverTheCaptureAndAWindow) {
  const auto& groups = timeline_->groups();
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0].busy, 100);
  EXPECT_DOUBLE_EQ(groups[0].share, 1.0);
  EXPECT_EQ(track("HGTX start/end").busy, 65);
  EXPECT_DOUBLE_EQ(track("HGTX start/end").share, 0.65);
  EXPECT_EQ(track("Memory allocation failures").busy, 7);
  EXPECT_DOUBLE_EQ(track("Memory allocation failures").share, 0.07);
  EXPECT_DOUBLE_EQ(track("Thread 101 ACBLAS").share, 0.10);
  EXPECT_DOUBLE_EQ(track("Thread 101 PCCL").share, 0.20);
  EXPECT_DOUBLE_EQ(track("Thread 101 MoE").share, 0.15);
  EXPECT_DOUBLE_EQ(track("Thread 101 HGTX").share, 1.0);
  const TimelineShares in = timeline_->sharesIn(50, 100);
  EXPECT_EQ(in.groupBusy[0], 50);
  EXPECT_DOUBLE_EQ(in.share[idOf("HGTX start/end")], 0.4);
  EXPECT_DOUBLE_EQ(in.share[idOf("Memory allocation failures")], 0.0);
  EXPECT_DOUBLE_EQ(in.share[idOf("Thread 101 MoE")], 0.3);
}

TEST(HostRowNames, LibrariesAndAllocationCalls) {
  using timeline_detail::isAllocationCall;
  using timeline_detail::libraryOf;
  EXPECT_EQ(libraryOf("DeepGemm:GroupedNoPad,data_type:bf16,groups:128,m:64,n:768,k:2048,gpu:0"), "DeepGemm");
  EXPECT_EQ(libraryOf("MoE:M_876_E_128_H_4096_In_384_topk_8_topkids[136,0,25]_unique_102"), "MoE");
  EXPECT_EQ(libraryOf("D_MoE,M_8_E_128_H_2048_In_768_topk_8"), "");
  EXPECT_EQ(libraryOf("ACBLAS:something else"), "");  // not the annotation's format
  EXPECT_EQ(libraryOf("aten::mm, op_id = 1529997"), "");
  EXPECT_EQ(libraryOf("pcclAllReduce"), "");
  EXPECT_TRUE(isAllocationCall("hgMalloc"));
  EXPECT_TRUE(isAllocationCall("cudaMalloc_v3020"));
  EXPECT_TRUE(isAllocationCall("hgMallocManaged"));
  EXPECT_TRUE(isAllocationCall("cuMemAlloc_v2"));
  EXPECT_FALSE(isAllocationCall("hgFree"));
  EXPECT_FALSE(isAllocationCall("hgLaunchKernel"));
}

}  // namespace
}  // namespace asys
