// Kernels grouped by HGTX range (Timeline::kernelRangeGroups) on the
// association fixture (tests/golden/fixtures/hgtx_ppu.sql, whose comments
// give every range, call and kernel), every row worked out by hand, then
// each kernel's row against hgtx_kern_trace's pairs on the same fixture.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/rules/rule.h"
#include "core/timeline/timeline.h"
#include "tests/unit/sql_query.h"

namespace asys {
namespace {

std::unique_ptr<Report> fixture() {
  std::ifstream in(std::string(ASYS_GOLDEN_DIR) + "/fixtures/hgtx_ppu.sql");
  std::stringstream sql;
  sql << in.rdbuf();
  return Report::open(test::reportFromSql("tl_range_groups", sql.str(), "hgtx_ppu"));
}

size_t trackOf(const Timeline& t, const std::string& group, const std::string& label) {
  for (size_t i = 0; i < t.tracks().size(); ++i)
    if (t.tracks()[i].group.rfind(group, 0) == 0 && t.tracks()[i].label == label && !t.tracks()[i].derived()) return i;
  ADD_FAILURE() << "no track " << group << " / " << label;
  return 0;
}

std::vector<int64_t> starts(const TimelineTrack& t) {
  std::vector<int64_t> out;
  for (size_t i = 0; i < t.size(); ++i) out.push_back(t.start[i]);
  return out;
}
std::vector<uint32_t> rows(const TimelineTrack& t) {
  std::vector<uint32_t> out;
  for (size_t i = 0; i < t.size(); ++i) out.push_back(t.row[i]);
  return out;
}

// PPU 0 stream 7's kernels and their ranges (the fixture's comments):
// k1 [2500, 3500) launched by a1 inside outer > mid > inner: inner.
// k3 [11000, 11400) and k4 [11400, 11600), launched by a8 inside Lib:step,
// ran graph nodes 60 and 61, created (as 50 and 51) inside capture and
// outer: capture, the innermost range their node was made in, not the
// launch's Lib:step. k5 [13000, 13500) and k6 [13500, 13700): the same
// nodes launched by a9 outside every range: capture. k11 [6200, 6300)
// (a12 on T2 outside its ranges) and k10 [14000, 14100) (no launching
// call): no range. The stream's busy time 1000 + 400 + 200 + 500 + 200 +
// 100 + 100 = 2500; capture 1300 (0.52), inner 1000 (0.4), no range 200
// (0.08), the busiest first.
TEST(TimelineKernelRangeGroups, AStreamsKernelsByInnermostRange) {
  const std::unique_ptr<Report> report = fixture();
  Timeline t = Timeline::build(*report);
  EXPECT_FALSE(t.rangeGroupsRefused());
  EXPECT_EQ(t.ppuActivities(), 13u);
  const size_t s7 = trackOf(t, "PPU 0", "Stream 7");
  EXPECT_EQ(t.tracks()[s7].busy, 2500);
  const size_t before = t.tracks().size();
  const std::vector<size_t> ids = t.kernelRangeGroups(*report, {s7});
  ASSERT_EQ(ids, (std::vector<size_t>{before, before + 1, before + 2}));
  EXPECT_EQ(t.kernelRangeGroups(*report, {s7}), ids);  // kept: asked again, the same rows
  const TimelineTrack& capture = t.tracks()[ids[0]];
  const TimelineTrack& inner = t.tracks()[ids[1]];
  const TimelineTrack& none = t.tracks()[ids[2]];
  EXPECT_EQ(capture.label, "capture");
  EXPECT_EQ(inner.label, "inner");
  EXPECT_EQ(none.label, "(no HGTX range)");
  EXPECT_FALSE(capture.outsideRanges);
  EXPECT_TRUE(none.outsideRanges);
  for (size_t id : ids) {
    EXPECT_EQ(t.tracks()[id].parent, s7);
    EXPECT_EQ(t.tracks()[id].grouping, TimelineTrack::Grouping::HgtxRange);
    EXPECT_EQ(t.tracks()[id].group, t.tracks()[s7].group);
    EXPECT_FALSE(isPpuWork(t.tracks()[id]));
  }
  EXPECT_EQ(starts(capture), (std::vector<int64_t>{11000, 11400, 13000, 13500}));
  EXPECT_EQ(rows(capture), (std::vector<uint32_t>{2, 3, 4, 5}));  // HGGC_KERNEL rows of k3..k6
  EXPECT_EQ(std::string(report->strings().get(capture.name[0])), "graph_a(int)");  // drawn with their own names
  EXPECT_EQ(starts(inner), (std::vector<int64_t>{2500}));
  EXPECT_EQ(starts(none), (std::vector<int64_t>{6200, 14000}));
  EXPECT_EQ(rows(none), (std::vector<uint32_t>{10, 9}));
  EXPECT_EQ(capture.busy, 1300);
  EXPECT_EQ(inner.busy, 1000);
  EXPECT_EQ(none.busy, 200);
  EXPECT_NEAR(capture.share, 0.52, 1e-12);
  EXPECT_NEAR(inner.share, 0.4, 1e-12);
  EXPECT_NEAR(none.share, 0.08, 1e-12);
  // Inside [3000, 13100): the stream k1 500 + k11 100 + k3 400 + k4 200 +
  // k5 100 = 1300; capture 700, inner 500, no range 100.
  const TimelineShares in = t.sharesIn(3000, 13100);
  EXPECT_EQ(in.busy[s7], 1300);
  EXPECT_EQ(in.busy[ids[0]], 700);
  EXPECT_EQ(in.busy[ids[1]], 500);
  EXPECT_EQ(in.busy[ids[2]], 100);
  EXPECT_NEAR(in.share[ids[0]], 700.0 / 1300, 1e-12);
  EXPECT_NEAR(in.share[ids[2]], 100.0 / 1300, 1e-12);
  // Not the PPU's work: the PPU's busy time stays its streams'.
  const TimelineShares all = t.sharesIn(INT64_MIN, INT64_MAX);
  EXPECT_EQ(all.busy[s7], 2500);
  // The links and a rule row's event find the stream's event, not a copy.
  const auto at = t.findEvent(EventTable::Kernel, 2);
  ASSERT_TRUE(at);
  EXPECT_EQ(at->track, s7);

  // The other PPUs' kernels, asked together (one association a PPU):
  // stream 8's k2 (a2 inside inner) 1200 of 1200; PPU 1's k7 (a10 on T2
  // inside other [1000, 5000), se_range [1200, 4000) and the nested other
  // [1300, 2000)): other; PPU 2's PCCL kernel k8 (a13 on T3 inside PCCL's
  // step): PCCL:step, and its stream's k9 (a14 inside tail, ending at the
  // last HGTX timestamp): tail.
  const size_t s8 = trackOf(t, "PPU 0", "Stream 8");
  const size_t s13 = trackOf(t, "PPU 1", "Stream 13");
  const size_t pccl = trackOf(t, "PPU 2", "PCCL kernels");
  const size_t s20 = trackOf(t, "PPU 2", "Stream 20");
  const std::vector<size_t> more = t.kernelRangeGroups(*report, {s8, s13, pccl, s20, s7});
  ASSERT_EQ(more.size(), 7u);  // one row each, then stream 7's three again
  auto one = [&](size_t id, const char* label, size_t parent, int64_t busy, double share) {
    const TimelineTrack& r = t.tracks()[id];
    EXPECT_EQ(r.label, label);
    EXPECT_EQ(r.parent, parent);
    EXPECT_EQ(r.busy, busy);
    EXPECT_NEAR(r.share, share, 1e-12);
  };
  one(more[0], "inner", s8, 1200, 1.0);
  one(more[1], "other", s13, 1000, 1000.0 / 1100);  // stream 13 also holds the memset s1 [4200, 4300)
  one(more[2], "PCCL:step", pccl, 500, 1.0);
  one(more[3], "tail", s20, 500, 1.0);
  EXPECT_EQ(std::vector<size_t>(more.begin() + 4, more.end()), ids);
  // A track without kernels (stream 9: a memcpy) has none; no such track.
  EXPECT_TRUE(t.kernelRangeGroups(*report, {trackOf(t, "PPU 0", "Stream 9")}).empty());
  EXPECT_THROW(t.kernelRangeGroups(*report, {9999}), Error);
  // The rows by base name are apart from these.
  const std::vector<size_t> byName = t.kernelGroups(*report, s7);
  for (size_t id : byName) EXPECT_EQ(t.tracks()[id].grouping, TimelineTrack::Grouping::BaseName);
}

// Past `maxRows` range names a stream keeps the busiest names' rows and one
// row of the rest, last: stream 7 with maxRows 1 keeps capture (1300), the
// no-range row (200, never merged), and inner's kernel k1 (1000) is the
// other row "(1 other HGTX ranges)", last although busier than the no-range
// row.
TEST(TimelineKernelRangeGroups, TheLessBusyNamesPastMaxRowsAreOneRow) {
  const std::unique_ptr<Report> report = fixture();
  Timeline t = Timeline::build(*report);
  const size_t s7 = trackOf(t, "PPU 0", "Stream 7");
  const std::vector<size_t> ids = t.kernelRangeGroups(*report, {s7}, 2'000'000, 1);
  ASSERT_EQ(ids.size(), 3u);
  std::vector<std::string> labels;
  for (size_t id : ids) labels.push_back(t.tracks()[id].label);
  EXPECT_EQ(labels, (std::vector<std::string>{"capture", "(no HGTX range)", "(1 other HGTX ranges)"}));
  const TimelineTrack& other = t.tracks()[ids[2]];
  EXPECT_EQ(other.otherRanges, 1u);
  EXPECT_EQ(t.tracks()[ids[0]].otherRanges, 0u);
  EXPECT_FALSE(other.outsideRanges);
  EXPECT_EQ(starts(other), (std::vector<int64_t>{2500}));
  EXPECT_EQ(rows(other), (std::vector<uint32_t>{0}));
  EXPECT_EQ(other.busy, 1000);
  EXPECT_NEAR(other.share, 0.4, 1e-12);
  EXPECT_EQ(other.parent, s7);
}

// Each kernel's row against hgtx_kern_trace (one row per associated range
// and kernel, a kernel's ranges by range start; a pair through a graph node
// only has API Start "-"): the last of its pairs through a graph node only,
// else its last pair; a kernel it does not list is in no range.
TEST(TimelineKernelRangeGroups, AsHgtxKernTraceAssociatesThem) {
  const std::unique_ptr<Report> report = fixture();
  const RuleSpec* rule = findRule("hgtx_kern_trace");
  ASSERT_NE(rule, nullptr);
  Table trace = runRule(*rule, *report, parseRuleOptions(*rule, {}));
  trace.materialize();
  std::map<int64_t, std::string> expected, viaGraph;  // Kernel Exec ID (HGGC_KERNEL row + 1) -> range
  for (size_t r = 0; r < trace.rowCount(); ++r) {
    ASSERT_EQ(trace.columns()[8].name, "Kernel Exec ID");
    ASSERT_EQ(trace.columns()[11].name, "API Start");
    const int64_t kernel = trace.intAt(r, 8);
    expected[kernel] = std::string(trace.textAt(r, 0));
    if (trace.isMissing(r, 11)) viaGraph[kernel] = std::string(trace.textAt(r, 0));
  }
  for (const auto& [k, name] : viaGraph) expected[k] = name;
  Timeline t = Timeline::build(*report);
  std::vector<size_t> streams;
  for (size_t i = 0; i < t.tracks().size(); ++i)
    if (isPpuWork(t.tracks()[i])) streams.push_back(i);
  std::map<int64_t, std::string> got;
  for (size_t id : t.kernelRangeGroups(*report, streams)) {
    const TimelineTrack& r = t.tracks()[id];
    for (size_t i = 0; i < r.size(); ++i)
      if (!r.outsideRanges) got[int64_t{r.row[i]} + 1] = r.label;  // Kernel Exec ID: the row + 1
  }
  EXPECT_EQ(got, expected);
  EXPECT_EQ(got.size(), 9u);  // k10 and k11 are in no range
}

// Above the projection's bound (13 PPU activities, 12 allowed) the rows are
// refused in one line, as the projection is left out.
TEST(TimelineKernelRangeGroups, RefusedAboveTheProjectionsBound) {
  const std::unique_ptr<Report> report = fixture();
  Timeline t = Timeline::build(*report, TimelineOptions{.projectionMaxActivities = 12});
  EXPECT_TRUE(t.rangeGroupsRefused());
  EXPECT_EQ(t.associationMax(), 12u);
  try {
    t.kernelRangeGroups(*report, {0});
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "timeline: no kernel rows by HGTX range: 13 PPU activities are more than the 12 whose association "
                 "fits in memory beside the timeline; hgtx_kern_trace lists each kernel's ranges");
  }
}

}  // namespace
}  // namespace asys
