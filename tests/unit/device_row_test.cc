// The PPU's device row (core/timeline/device_row.cc) on a hand-built
// report, every value worked out by hand: its sources, its window (kernels
// on lane 0, memory operations on lane 1, merged), a memcpy's memory kinds,
// a click's event on its own stream, and its shares over the whole capture
// and inside a range.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <cmath>
#include <string>

#include "core/timeline/timeline.h"
#include "tests/unit/sql_query.h"
#include "tests/unit/device_row_report.h"

namespace asys {
namespace {

std::string reportFrom(const std::string& sql, const std::string& name) {
  return test::reportFromSql("devrow", sql, name);
}

const char* const kSql = test::kDeviceRowReportSql;  // tests/unit/device_row_report.h

TEST(TimelineDeviceRow, KernelsOverMemoryOperationsOfEveryStream) {
  const std::unique_ptr<Report> report = Report::open(reportFrom(kSql, "rows"));
  Timeline t = Timeline::build(*report);
  // The build is unchanged: [All Streams], its streams, the other PPU's stream.
  std::vector<std::string> labels;
  for (const TimelineTrack& tr : t.tracks()) labels.push_back(tr.label);
  ASSERT_EQ(labels, (std::vector<std::string>{"[All Streams]", "Stream 7", "Stream 8", "Stream 4"}));
  const std::vector<size_t> ids = t.deviceRows(*report);
  ASSERT_EQ(ids, (std::vector<size_t>{4, 5}));
  EXPECT_EQ(t.deviceRows(*report), ids);  // kept: asked again, the same rows
  ASSERT_EQ(t.tracks().size(), 6u);
  const TimelineTrack& d0 = t.tracks()[4];
  const TimelineTrack& d1 = t.tracks()[5];
  EXPECT_TRUE(d0.deviceRow);
  EXPECT_EQ(d0.label, "Device");
  EXPECT_EQ(d0.group, t.tracks()[1].group);
  EXPECT_EQ(d0.device, 0);
  EXPECT_EQ(d0.sources, (std::vector<uint32_t>{1, 2}));  // the streams, not [All Streams]
  EXPECT_EQ(d1.sources, (std::vector<uint32_t>{3}));
  EXPECT_EQ(d0.size(), 0u);  // no events of its own
  EXPECT_EQ(d0.lanes, 2);
  EXPECT_FALSE(isPpuWork(d0));
  // Shares: its busy time is the PPU's (65), kernels 35 of it, memory 30.
  EXPECT_EQ(d0.busy, 65);
  EXPECT_DOUBLE_EQ(d0.share, 1.0);
  EXPECT_DOUBLE_EQ(d0.kernelShare, 35.0 / 65);
  EXPECT_DOUBLE_EQ(d0.memoryShare, 30.0 / 65);
  EXPECT_DOUBLE_EQ(d1.kernelShare, 1.0);
  EXPECT_DOUBLE_EQ(d1.memoryShare, 0.0);
  // The streams' shares and the groups are what they were.
  EXPECT_EQ(t.groups()[0].busy, 65);

  // Inside [25, 75): busy 35, kernels 10, memory 25; rows that are no device row have no halves.
  const TimelineShares in = t.sharesIn(25, 75);
  EXPECT_EQ(in.busy[4], 35);
  EXPECT_DOUBLE_EQ(in.share[4], 1.0);
  EXPECT_DOUBLE_EQ(in.kernelShare[4], 10.0 / 35);
  EXPECT_DOUBLE_EQ(in.memoryShare[4], 25.0 / 35);
  EXPECT_TRUE(std::isnan(in.kernelShare[1]));
  EXPECT_EQ(in.groupBusy[0], 35);

  // The window at 1 ns a pixel: lane 0 the two kernels overlapping, one
  // slice [0, 35) named by the longer (stream 7's, event 0); lane 1 the two
  // memcpys overlapping, one slice [40, 60) named by the longer (stream 8's
  // DtoH, event 2 + 1 = 3: stream 7's two events come first), Device ->
  // Pinned; the memset apart [70, 80) (event 2 + 2 = 4), no memory kinds.
  const TimelineSlices w = t.window(4, 0, 80, 80);
  ASSERT_EQ(w.size(), 3u);
  EXPECT_EQ(w.lane, (std::vector<uint16_t>{0, 1, 1}));
  EXPECT_EQ(w.start, (std::vector<int64_t>{0, 40, 70}));
  EXPECT_EQ(w.end, (std::vector<int64_t>{35, 60, 80}));
  EXPECT_EQ(w.count, (std::vector<uint32_t>{2, 2, 1}));
  EXPECT_EQ(w.event, (std::vector<uint32_t>{0, 3, 4}));
  EXPECT_EQ(w.kind, (std::vector<TimelineKind>{TimelineKind::Kernel, TimelineKind::Memcpy, TimelineKind::Memset}));
  EXPECT_EQ(w.memKind, (std::vector<uint8_t>{0, kMemDevice << 4 | kMemPinned, 0}));
  EXPECT_EQ(std::string(report->strings().get(w.name[1])), "Memcpy DtoH (pinned)");
  // A click selects the event on its own stream.
  const auto e = t.sourceEvent(4, 3);
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->track, 2u);
  EXPECT_EQ(e->event, 1u);
  EXPECT_EQ(t.tracks()[2].start[1], 45);
  // Zoomed in on [40, 50) at 100 pixels: the HtoD copy alone is Pageable -> Device, the DtoH still overlapping it.
  const TimelineSlices z = t.window(4, 40, 46, 100);
  ASSERT_EQ(z.size(), 1u);
  EXPECT_EQ(z.memKind[0], kMemDevice << 4 | kMemPinned);  // [45, 60) is the longer
  const TimelineSlices h = t.window(4, 40, 44, 100);
  ASSERT_EQ(h.size(), 1u);
  EXPECT_EQ(h.memKind[0], kMemPageable << 4 | kMemDevice);
  EXPECT_EQ(h.event[0], 1u);
  // Every other row's window carries no memory kinds.
  EXPECT_TRUE(t.window(1, 0, 80, 80).memKind.empty());
  // Empty windows.
  EXPECT_EQ(t.window(4, 80, 80, 10).size(), 0u);
  EXPECT_EQ(t.window(4, 0, 80, 0).size(), 0u);
}

TEST(TimelineDeviceRow, AReportWithoutPpuWorkHasNone) {
  const std::string sql = R"SQL(
CREATE TABLE META_DATA (name TEXT PRIMARY KEY, value TEXT);
INSERT INTO META_DATA VALUES ('format', 'asysrep'), ('formatVersion', '1'), ('captureStart', '0'), ('captureEnd', '100');
CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO StringIds VALUES (1, 'read');
)SQL";
  const std::unique_ptr<Report> report = Report::open(reportFrom(sql, "none"));
  Timeline t = Timeline::build(*report);
  const size_t before = t.tracks().size();
  EXPECT_TRUE(t.deviceRows(*report).empty());
  EXPECT_EQ(t.tracks().size(), before);
}

TEST(TimelineDeviceRow, MemoryKindLabels) {
  EXPECT_EQ(memKindClassOf("Pageable"), kMemPageable);
  EXPECT_EQ(memKindClassOf("Pinned"), kMemPinned);
  EXPECT_EQ(memKindClassOf("Device"), kMemDevice);
  EXPECT_EQ(memKindClassOf("Managed"), kMemManaged);
  EXPECT_EQ(memKindClassOf("Array"), kMemOther);
  EXPECT_EQ(memKindClassOf(""), kMemUnknown);
}

}  // namespace
}  // namespace asys
