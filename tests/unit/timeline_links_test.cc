// TimelineLinks on a hand-built report: an API call with correlation id 5
// launches two kernels (streams 7 and 8), another a memcpy, another a
// memset, one launches nothing, and a second process reuses correlation id
// 5 for its own call and kernel, which must not join the first process's.
#include "core/timeline/correlation.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <optional>

#include "core/gen/generator.h"
#include "core/writer/report_writer.h"
#include "tests/unit/temp_report.h"

namespace asys {
namespace {

constexpr int64_t kPidA = 100, kPidB = 200;
constexpr int64_t gpid(int64_t pid) { return pid << 24; }
constexpr int64_t gtid(int64_t pid, int64_t tid) { return (pid << 24) | tid; }

std::string fixture() {
  static const std::string path = test::writeTempReport("links", [](ReportWriter& w) {
    w.metaData("captureStart", "0");
    w.process(gpid(kPidA), kPidA, "a.out");
    w.process(gpid(kPidB), kPidB, "b.out");
    const uint32_t launch = w.intern("hggcLaunchKernel"), copy = w.intern("hggcMemcpyAsync"),
                   set = w.intern("hggcMemsetAsync"), sync = w.intern("hggcStreamSynchronize");
    const uint32_t gemm = w.intern("gemm_kernel"), relu = w.intern("relu_kernel"), other = w.intern("other_kernel");
    // HGGC_API: start, end, eventClass, globalTid, correlationId, nameId, returnValue.
    w.api({1000, 1100, 0, gtid(kPidA, 101), 5, launch, 0});
    w.api({1200, 1300, 0, gtid(kPidA, 101), 6, copy, 0});
    w.api({1400, 1500, 0, gtid(kPidA, 101), 7, sync, 0});  // launches nothing
    w.api({1600, 1650, 0, gtid(kPidA, 102), 8, set, 0});
    w.api({1050, 1150, 0, gtid(kPidB, 201), 5, launch, 0});  // the other process's id 5
    auto kernel = [&](int64_t start, int64_t end, int32_t stream, int64_t corr, int64_t pid, uint32_t name) {
      w.kernel({start, end, 0, 1, stream, corr, gpid(pid), name, name, name, 1, 1, 1, 32, 1, 1, 16, 0, 0});
    };
    kernel(2100, 2300, 8, 5, kPidA, relu);   // launched by the first call, on stream 8
    kernel(2000, 3000, 7, 5, kPidA, gemm);   // and on stream 7, earlier
    kernel(3500, 3600, 7, 5, kPidB, other);  // process B's id 5
    kernel(3700, 3800, 7, 99, kPidA, other); // no call has id 99
    w.memcpyKind(1, "HGGC_MEMCPY_KIND_HTOD", "Host-to-Device");
    w.memKind(0, "HGGC_MEM_KIND_PAGEABLE", "Pageable");
    w.memKind(2, "HGGC_MEM_KIND_DEVICE", "Device");
    w.memcpy({4000, 4500, 0, 1, 7, 6, gpid(kPidA), 4096, 1, 0, 2});
    w.memset({4600, 4700, 0, 1, 7, 8, gpid(kPidA), 0, 4096, 2});
  });
  return path;
}

// The one event of the timeline that starts at `start` on a track whose
// label contains `label` (a thread or a stream).
TimelineEventRef at(const Timeline& t, const std::string& label, int64_t start) {
  std::optional<TimelineEventRef> found;
  for (uint32_t tr = 0; tr < t.tracks().size(); ++tr) {
    const TimelineTrack& track = t.tracks()[tr];
    if (track.label.find(label) == std::string::npos) continue;
    for (uint32_t i = 0; i < track.size(); ++i) {
      if (track.start[i] != start) continue;
      EXPECT_FALSE(found) << "two events at " << start << " on " << label;
      found = TimelineEventRef{tr, i};
    }
  }
  EXPECT_TRUE(found) << "no event at " << start << " on " << label;
  return found.value_or(TimelineEventRef{});
}

// An event as "label@start", for readable comparisons.
std::vector<std::string> describe(const Timeline& t, const std::vector<TimelineEventRef>& events) {
  std::vector<std::string> out;
  for (const TimelineEventRef& e : events) {
    const TimelineTrack& track = t.tracks()[e.track];
    out.push_back(track.group + " / " + track.label + " @" + std::to_string(track.start[e.event]));
  }
  return out;
}

class TimelineLinksTest : public ::testing::Test {
 protected:
  void SetUp() override {
    report = Report::open(fixture());
    timeline = Timeline::build(*report);
    links = TimelineLinks::build(*report, timeline);
  }
  std::vector<std::string> relatedOf(const std::string& label, int64_t start) {
    return describe(timeline, links.related(timeline, at(timeline, label, start)));
  }
  std::unique_ptr<Report> report;
  Timeline timeline;
  TimelineLinks links;
};

TEST_F(TimelineLinksTest, ACallListsTheActivitiesOfItsIdInItsProcessOnly) {
  // Both kernels of process A's id 5, in start order; not process B's.
  EXPECT_EQ(relatedOf("Thread 101 ", 1000),
            (std::vector<std::string>{"PPU 0 / Stream 7 @2000", "PPU 0 / Stream 8 @2100"}));
  EXPECT_EQ(relatedOf("Thread 201 ", 1050), (std::vector<std::string>{"PPU 0 / Stream 7 @3500"}));
  EXPECT_EQ(relatedOf("Thread 101 ", 1200), (std::vector<std::string>{"PPU 0 / Stream 7 @4000"}));
  EXPECT_EQ(relatedOf("Thread 102 ", 1600), (std::vector<std::string>{"PPU 0 / Stream 7 @4600"}));
  EXPECT_EQ(relatedOf("Thread 101 ", 1400), std::vector<std::string>{});  // a synchronisation launches nothing
}

TEST_F(TimelineLinksTest, AnActivityListsItsLaunchingCall) {
  const std::string callA = "Process 100 (a.out) / Thread 101 HGGC API @1000";
  EXPECT_EQ(relatedOf("Stream 7", 2000), std::vector<std::string>{callA});
  EXPECT_EQ(relatedOf("Stream 8", 2100), std::vector<std::string>{callA});
  EXPECT_EQ(relatedOf("Stream 7", 3500), std::vector<std::string>{"Process 200 (b.out) / Thread 201 HGGC API @1050"});
  EXPECT_EQ(relatedOf("Stream 7", 4000), std::vector<std::string>{"Process 100 (a.out) / Thread 101 HGGC API @1200"});
  EXPECT_EQ(relatedOf("Stream 7", 4600), std::vector<std::string>{"Process 100 (a.out) / Thread 102 HGGC API @1600"});
  EXPECT_EQ(relatedOf("Stream 7", 3700), std::vector<std::string>{});  // no call has its id
}

TEST_F(TimelineLinksTest, OutOfRangeEventsHaveNoLinks) {
  EXPECT_TRUE(links.related(timeline, {static_cast<uint32_t>(timeline.tracks().size()), 0}).empty());
  EXPECT_TRUE(links.related(timeline, {0, 1000000}).empty());
}

// A rule row's event reference (a report table and its row) names one
// timeline event, found by identity, never by time.
TEST_F(TimelineLinksTest, FindEventByItsTableRow) {
  auto where = [&](EventTable table, uint32_t row) -> std::string {
    const std::optional<TimelineEventAt> e = timeline.findEvent(table, row);
    return e ? describe(timeline, {{static_cast<uint32_t>(e->track), e->event}})[0] : "none";
  };
  // HGGC_KERNEL rows in insertion order: relu (2100, stream 8), gemm (2000, stream 7), 3500, 3700.
  EXPECT_EQ(where(EventTable::Kernel, 0), "PPU 0 / Stream 8 @2100");
  EXPECT_EQ(where(EventTable::Kernel, 1), "PPU 0 / Stream 7 @2000");
  EXPECT_EQ(where(EventTable::Kernel, 3), "PPU 0 / Stream 7 @3700");
  // HGGC_API row 4 is process B's call at 1050, row 0 process A's at 1000; one memcpy, one memset.
  EXPECT_EQ(where(EventTable::Api, 4), "Process 200 (b.out) / Thread 201 HGGC API @1050");
  EXPECT_EQ(where(EventTable::Api, 0), "Process 100 (a.out) / Thread 101 HGGC API @1000");
  EXPECT_EQ(where(EventTable::Memcpy, 0), "PPU 0 / Stream 7 @4000");
  EXPECT_EQ(where(EventTable::Memset, 0), "PPU 0 / Stream 7 @4600");
  // A row past its table, a report without HGTX ranges, no table.
  EXPECT_EQ(where(EventTable::Kernel, 4), "none");
  EXPECT_EQ(where(EventTable::Memcpy, 1), "none");
  EXPECT_EQ(where(EventTable::Hgtx, 0), "none");
  EXPECT_EQ(where(EventTable::None, 0), "none");
}

// On the generated demo report, against a join written here with a std::map:
// each activity's call is the first HGGC_API row of its (process,
// correlation id); each event's table row is the row it was drawn from.
TEST(TimelineLinks, DemoReportAgreesWithAMapJoin) {
  GenOptions o;
  o.seed = 7;
  o.scale = 1;
  const std::string path = test::freshTempPath("links_demo");
  generateReport(o, path);
  auto report = Report::open(path);
  const Timeline t = Timeline::build(*report);
  const TimelineLinks links = TimelineLinks::build(*report, t);
  const ApiCalls& api = report->hggcApi();
  const Kernels& k = report->kernels();
  const MemoryOps& mc = report->memcpys();
  const MemoryOps& ms = report->memsets();
  std::map<std::pair<int64_t, int64_t>, uint32_t> firstCall;
  for (size_t c = 0; c < api.size(); ++c)
    if (api.correlationId[c] != kNoValue) firstCall.emplace(std::make_pair(pidOf(api.globalTid[c]), api.correlationId[c]), c);
  std::map<uint32_t, TimelineEventRef> callAt;  // API row -> its place
  for (uint32_t tr = 0; tr < t.tracks().size(); ++tr)
    for (uint32_t i = 0; i < t.tracks()[tr].size(); ++i)
      if (t.tracks()[tr].kind[i] == TimelineKind::Api || t.tracks()[tr].kind[i] == TimelineKind::ApiError)
        callAt[t.tracks()[tr].row[i]] = {tr, i};
  std::map<uint32_t, size_t> launched;  // API row -> activities that name it
  size_t linkedActivities = 0, hgtxRanges = 0;
  const HgtxEvents& hgtx = report->hgtx();
  for (uint32_t tr = 0; tr < t.tracks().size(); ++tr) {
    const TimelineTrack& track = t.tracks()[tr];
    for (uint32_t i = 0; i < track.size(); ++i) {
      const uint32_t row = track.row.empty() ? kNoTimelineRow : track.row[i];
      int64_t pid = 0, corr = kNoValue, start = 0;
      switch (track.kind[i]) {
        case TimelineKind::Kernel:
        case TimelineKind::PcclKernel: pid = k.globalPid[row], corr = k.correlationId[row], start = k.start[row]; break;
        case TimelineKind::Memcpy: pid = mc.globalPid[row], corr = mc.correlationId[row], start = mc.start[row]; break;
        case TimelineKind::Memset: pid = ms.globalPid[row], corr = ms.correlationId[row], start = ms.start[row]; break;
        case TimelineKind::Api:
        case TimelineKind::ApiError: ASSERT_EQ(api.start[row], track.start[i]); continue;
        case TimelineKind::Hgtx:
          // A push/pop range keeps its HGTX_EVENTS row too (hgtx_pushpop_trace's event reference).
          ASSERT_EQ(hgtx.start[row], track.start[i]);
          ASSERT_EQ(hgtx.end[row], track.end[i]);
          ++hgtxRanges;
          continue;
        default: EXPECT_TRUE(links.related(t, {tr, i}).empty()); continue;
      }
      ASSERT_EQ(start, track.start[i]) << "the event's row is the row it was drawn from";
      const auto call = firstCall.find({pidOf(pid), corr});
      const std::vector<TimelineEventRef> got = links.related(t, {tr, i});
      if (corr == kNoValue || call == firstCall.end()) {
        EXPECT_TRUE(got.empty());
        continue;
      }
      ASSERT_EQ(got.size(), 1u);
      EXPECT_EQ(got[0], callAt.at(call->second));
      ++launched[call->second];
      ++linkedActivities;
    }
  }
  EXPECT_GT(linkedActivities, 1000u);
  EXPECT_GT(hgtxRanges, 100u);
  // An event with a table row (every 37th: a lookup walks the tracks) is the one findEvent names for that row.
  for (uint32_t tr = 0; tr < t.tracks().size(); ++tr)
    for (uint32_t i = 0; i < t.tracks()[tr].row.size(); i += 37) {
      const std::optional<TimelineEventAt> e = t.findEvent(eventTableOf(t.tracks()[tr].kind[i]), t.tracks()[tr].row[i]);
      ASSERT_TRUE(e && e->track == tr && e->event == i) << "track " << tr << " event " << i;
    }
  // The reverse: each call lists exactly the activities that name it, in start order.
  for (const auto& [row, at] : callAt) {
    const std::vector<TimelineEventRef> got = links.related(t, at);
    EXPECT_EQ(got.size(), launched.count(row) ? launched[row] : 0u) << "API row " << row;
    for (size_t j = 1; j < got.size(); ++j)
      EXPECT_LE(t.tracks()[got[j - 1].track].start[got[j - 1].event], t.tracks()[got[j].track].start[got[j].event]);
  }
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace asys
