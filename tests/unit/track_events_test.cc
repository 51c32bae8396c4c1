// The Events view (core/timeline/track_events.h) on a hand-built report:
// one stream with two kernels, an overlapping kernel, a memcpy and a
// memset; one thread's API calls (one failing) and push/pop ranges. Every
// expected value is worked out by hand from the rows written below.
#include "core/timeline/track_events.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/table/result_queries.h"
#include "core/table/sort.h"
#include "core/table/writers.h"
#include "core/writer/report_writer.h"
#include "tests/unit/temp_report.h"

namespace asys {
namespace {

constexpr int64_t kPid = 100;
constexpr int64_t kGpid = kPid << 24;
constexpr int64_t kTid = (kPid << 24) | 101;

std::string fixture() {
  static const std::string path = test::writeTempReport("track_events", [](ReportWriter& w) {
    w.metaData("captureStart", "500");
    w.process(kGpid, kPid, "a.out");
    const uint32_t launch = w.intern("hggcLaunchKernel"), copy = w.intern("hggcMemcpyAsync"),
                   sync = w.intern("hggcStreamSynchronize");
    const uint32_t gemm = w.intern("gemm_kernel"), relu = w.intern("relu_kernel");
    // HGGC_API: start, end, eventClass, globalTid, correlationId, nameId, returnValue.
    w.api({1000, 1100, 0, kTid, 5, launch, 0});
    w.api({1200, 1300, 0, kTid, 6, copy, 0});
    w.api({1400, 1500, 0, kTid, 7, sync, 3});  // fails: drawn red
    // HGGC_KERNEL: start, end, device, context, stream, correlationId, globalPid, three names,
    // grid x y z, block x y z, registers, static and dynamic shared memory. Written out of start order.
    w.kernel({3500, 3600, 0, 1, 7, 10, kGpid, relu, relu, relu, 2, 1, 1, 32, 1, 1, 24, 0, 0});
    w.kernel({2000, 3000, 0, 1, 7, 5, kGpid, gemm, gemm, gemm, 4, 2, 1, 128, 1, 1, 32, 1024, 0});
    w.kernel({2500, 2700, 0, 1, 7, 9, kGpid, relu, relu, relu, 8, 1, 1, 64, 1, 1, 16, 0, 256});
    w.memcpyKind(1, "HGGC_MEMCPY_KIND_HTOD", "Host-to-Device");
    w.memKind(0, "HGGC_MEM_KIND_PAGEABLE", "Pageable");
    w.memKind(2, "HGGC_MEM_KIND_DEVICE", "Device");
    // HGGC_MEMCPY: start, end, device, context, stream, correlationId, globalPid, bytes, copyKind, srcKind, dstKind.
    w.memcpy({4000, 4500, 0, 1, 7, 6, kGpid, 4096, 1, 0, 2});
    // HGGC_MEMSET: ..., globalPid, value, bytes, memKind.
    w.memset({4600, 4700, 0, 1, 7, 8, kGpid, 0, 1000, 2});
    // Push/pop ranges: "step" around "fwd".
    w.hgtx({.start = 900, .end = 1600, .eventType = kHgtxPushPop, .text = "step", .globalTid = kTid});
    w.hgtx({.start = 950, .end = 1150, .eventType = kHgtxPushPop, .text = "fwd", .globalTid = kTid});
  });
  return path;
}

size_t trackLabelled(const Timeline& t, const std::string& label) {
  for (size_t i = 0; i < t.tracks().size(); ++i)
    if (t.tracks()[i].label.find(label) != std::string::npos) return i;
  ADD_FAILURE() << "no track labelled " << label;
  return 0;
}

// Every row of a table as the CLI's CSV writer writes it, each line without
// its Row# field and its closing comma and "-" unquoted, for short expectations.
std::vector<std::string> csvLines(const Table& t) {
  std::ostringstream out;
  writeTable(t, OutputFormat::Csv, out);
  std::vector<std::string> lines;
  std::istringstream in(out.str());
  for (std::string line; std::getline(in, line);) {
    EXPECT_EQ(line.back(), ',');
    line = line.substr(line.find(',') + 1);
    line.pop_back();
    for (size_t at; (at = line.find("\"-\"")) != std::string::npos;) line.replace(at, 3, "-");
    lines.push_back(line);
  }
  return lines;
}

class TrackEventsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    report = Report::open(fixture());
    timeline = Timeline::build(*report);
  }
  TrackEvents of(const std::string& label, TimeWindow window = {}) {
    return trackEvents(*report, timeline, trackLabelled(timeline, label), window);
  }
  std::unique_ptr<Report> report;
  Timeline timeline;
};

TEST_F(TrackEventsTest, AStreamListsItsWorkInStartOrderWithTheKernelAndMemoryColumns) {
  const TrackEvents e = of("Stream 7");
  EXPECT_EQ(e.kind, TrackEventsKind::PpuWork);
  EXPECT_TRUE(e.table.isView());
  ASSERT_EQ(e.table.rowCount(), 5u);
  // Throughput = bytes * (1e9 / duration): 4096 * 2,000,000 and 1000 * 10,000,000.
  EXPECT_EQ(csvLines(e.table),
            (std::vector<std::string>{
                "Name,Start (ns),Duration (ns),CorrId,GrdX,GrdY,GrdZ,BlkX,BlkY,BlkZ,Reg/Trd,StcSMem (bytes),"
                "DymSMem (bytes),Bytes (bytes),Throughput (B/s),SrcMemKd,DstMemKd",
                "\"gemm_kernel\",2000,1000,5,4,2,1,128,1,1,32,1024,0,-,-,-,-",
                "\"relu_kernel\",2500,200,9,8,1,1,64,1,1,16,0,256,-,-,-,-",
                "\"relu_kernel\",3500,100,10,2,1,1,32,1,1,24,0,0,-,-,-,-",
                "\"Memcpy HtoD (device)\",4000,500,6,-,-,-,-,-,-,-,-,-,4096,8192000000,\"Pageable\",\"Device\"",
                "\"Memset\",4600,100,8,-,-,-,-,-,-,-,-,-,1000,10000000000,\"Device\",-",
            }));
}

TEST_F(TrackEventsTest, SortsByAnyColumnStableWithMissingCellsLast) {
  const TrackEvents e = of("Stream 7");
  // Durations 1000, 200, 100, 500, 100: descending, the two 100s in row order.
  EXPECT_EQ(sortedRowOrder(e.table, 2, true), (std::vector<uint32_t>{0, 3, 1, 2, 4}));
  // GrdX 4, 8, 2, then the memory operations' "-" last.
  EXPECT_EQ(sortedRowOrder(e.table, 4, false), (std::vector<uint32_t>{2, 0, 1, 3, 4}));
  // Bytes: only the memory operations have one.
  EXPECT_EQ(sortedRowOrder(e.table, 13, true), (std::vector<uint32_t>{3, 4, 0, 1, 2}));
  // Names by bytes: "Memcpy ..." < "Memset" < "gemm_kernel" < "relu_kernel".
  EXPECT_EQ(sortedRowOrder(e.table, 0, false), (std::vector<uint32_t>{3, 4, 0, 1, 2}));
}

TEST_F(TrackEventsTest, SearchesTheCellsAsShownTimesFromTheZero) {
  const TrackEvents e = of("Stream 7");
  EXPECT_EQ(*searchRows(e.table, "RELU"), (std::vector<uint8_t>{0, 1, 1, 0, 0}));
  EXPECT_EQ(*searchRows(e.table, "htod"), (std::vector<uint8_t>{0, 0, 0, 1, 0}));
  // Starts are shown from the capture start (500): the relu at 3500 reads 3 000, the memcpy at 4000 reads 3 500.
  const ShownTimes times{500, {1}};
  EXPECT_EQ(*searchRows(e.table, "3 000", {}, times), (std::vector<uint8_t>{0, 0, 1, 0, 0}));
  EXPECT_EQ(*searchRows(e.table, "3500", {}, times), (std::vector<uint8_t>{0, 0, 0, 1, 0}));
  // A part of the rows: [3, 5).
  EXPECT_EQ(*searchRows(e.table, "device", {3, 2}), (std::vector<uint8_t>{1, 1}));
}

TEST_F(TrackEventsTest, APageHoldsTheRowsAskedForInTheirOrder) {
  const TrackEvents e = of("Stream 7");
  const std::vector<uint32_t> rows{4, 0, 2};
  const Table page = rowsOf(e.table, rows);
  ASSERT_EQ(page.rowCount(), 3u);
  EXPECT_EQ(page.textAt(0, 0), "Memset");
  EXPECT_EQ(page.intAt(0, 1), 4600);
  EXPECT_TRUE(page.isMissing(0, 4));
  EXPECT_EQ(page.textAt(1, 0), "gemm_kernel");
  EXPECT_EQ(page.intAt(1, 4), 4);   // GrdX
  EXPECT_EQ(page.intAt(1, 11), 1024);  // StcSMem
  EXPECT_EQ(page.textAt(2, 0), "relu_kernel");
  EXPECT_EQ(page.intAt(2, 1), 3500);
  EXPECT_EQ(page.intAt(2, 3), 10);  // CorrId
  // Row r is event r of the track (every event listed).
  EXPECT_EQ(e.rows->eventOf(3), 3u);
  EXPECT_EQ(e.rows->rowOf(4), std::optional<size_t>(4));
  EXPECT_THROW(rowsOf(e.table, std::vector<uint32_t>{5}), Error);
}

TEST_F(TrackEventsTest, TheStatisticsRangeKeepsTheEventsOverlappingIt) {
  // [3000, 4100): the gemm ends at 3000 (half-open: out), relu@2500 ends before;
  // relu@3500 and the memcpy (4000-4500) overlap, the memset starts after.
  const TrackEvents e = of("Stream 7", TimeWindow{3000, 4100});
  ASSERT_EQ(e.table.rowCount(), 2u);
  EXPECT_EQ(csvLines(e.table)[1], "\"relu_kernel\",3500,100,10,2,1,1,32,1,1,24,0,0,-,-,-,-");
  EXPECT_EQ(e.rows->eventOf(0), 2u);
  EXPECT_EQ(e.rows->eventOf(1), 3u);
  EXPECT_EQ(e.rows->rowOf(3), std::optional<size_t>(1));
  EXPECT_EQ(e.rows->rowOf(0), std::nullopt);
  EXPECT_EQ(sortedRowOrder(e.table, 2, false), (std::vector<uint32_t>{0, 1}));
}

TEST_F(TrackEventsTest, AThreadsCallsHaveTheirCorrelationIdsAndReturnValues) {
  const TrackEvents e = of("HGGC API");
  EXPECT_EQ(e.kind, TrackEventsKind::Api);
  EXPECT_EQ(csvLines(e.table), (std::vector<std::string>{
                                   "Name,Start (ns),Duration (ns),CorrId,Return Value",
                                   "\"hggcLaunchKernel\",1000,100,5,0",
                                   "\"hggcMemcpyAsync\",1200,100,6,0",
                                   "\"hggcStreamSynchronize\",1400,100,7,3",
                               }));
  EXPECT_EQ(sortedRowOrder(e.table, 4, true), (std::vector<uint32_t>{2, 0, 1}));
}

TEST_F(TrackEventsTest, RangesHaveTheirNestingLevel) {
  const TrackEvents e = of(" HGTX");  // the thread's ranges, not "HGTX projection"
  EXPECT_EQ(e.kind, TrackEventsKind::Hgtx);
  EXPECT_EQ(csvLines(e.table), (std::vector<std::string>{
                                   "Name,Start (ns),Duration (ns),Level",
                                   "\"step\",900,700,0",
                                   "\"fwd\",950,200,1",
                               }));
}

TEST_F(TrackEventsTest, ACounterOrAMissingRowIsAnError) {
  EXPECT_THROW(trackEvents(*report, timeline, timeline.tracks().size(), {}), Error);
  for (size_t i = 0; i < timeline.tracks().size(); ++i)
    if (timeline.tracks()[i].counter) EXPECT_THROW(trackEvents(*report, timeline, i, {}), Error);
}

}  // namespace
}  // namespace asys
