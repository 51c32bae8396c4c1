// Report::scanHgtx (HGTX_EVENTS in chunks, never held whole) against the
// table loaded whole by hgtx(), on a generated report of several chunks;
// a bad row found by either names the same row; and the stack counts and
// the push/pop range list of a scan against the stacks of the loaded events.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <filesystem>
#include <string>
#include <tuple>

#include "core/analysis/association_ranges.h"
#include "core/analysis/hgtx_ranges.h"
#include "core/analysis/hgtx_stacks.h"
#include "core/base/error.h"
#include "core/gen/generator.h"
#include "core/report/report.h"
#include "core/rules/rule.h"
#include "core/table/table.h"
#include "sql_query.h"
#include "tests/unit/temp_report.h"

namespace {

class HgtxScan : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    path_ = asys::test::freshTempPath("hgtx_scan");
    asys::GenOptions o;
    o.seed = 5;
    o.scale = 25;  // about 90,000 HGTX events: two chunks and a part
    asys::generateReport(o, path_);
  }
  static void TearDownTestSuite() { std::remove(path_.c_str()); }
  static std::string path_;
};
std::string HgtxScan::path_;

TEST_F(HgtxScan, ChunksHoldTheLoadedEventsInOrder) {
  auto scanned = asys::Report::open(path_);
  std::vector<size_t> firsts;
  asys::HgtxEvents all;
  scanned->scanHgtx([&](size_t first, const asys::HgtxEvents& c) {
    firsts.push_back(first);
    EXPECT_EQ(first, all.size());
    EXPECT_TRUE(c.rangeId.empty());
    all.start.insert(all.start.end(), c.start.begin(), c.start.end());
    all.end.insert(all.end.end(), c.end.begin(), c.end.end());
    all.globalTid.insert(all.globalTid.end(), c.globalTid.begin(), c.globalTid.end());
    all.endGlobalTid.insert(all.endGlobalTid.end(), c.endGlobalTid.begin(), c.endGlobalTid.end());
    all.domainId.insert(all.domainId.end(), c.domainId.begin(), c.domainId.end());
    all.eventType.insert(all.eventType.end(), c.eventType.begin(), c.eventType.end());
    all.nameId.insert(all.nameId.end(), c.nameId.begin(), c.nameId.end());
  });
  EXPECT_FALSE(scanned->hgtxLoaded());
  ASSERT_GE(firsts.size(), 2u);
  EXPECT_EQ(firsts[1], 65536u);
  auto loaded = asys::Report::open(path_);
  const asys::HgtxEvents& h = loaded->hgtx();
  ASSERT_EQ(all.size(), h.size());
  EXPECT_EQ(all.start, h.start);
  EXPECT_EQ(all.end, h.end);
  EXPECT_EQ(all.globalTid, h.globalTid);
  EXPECT_EQ(all.endGlobalTid, h.endGlobalTid);
  EXPECT_EQ(all.domainId, h.domainId);
  EXPECT_EQ(all.eventType, h.eventType);
  // Name ids are the pool's, which the two reports fill alike: compare texts.
  for (size_t i = 0; i < h.size(); i += 997)
    EXPECT_EQ(scanned->strings().get(all.nameId[i]), loaded->strings().get(h.nameId[i])) << "event " << i;
  // Loaded events are the one chunk.
  size_t chunks = 0;
  loaded->scanHgtx([&](size_t first, const asys::HgtxEvents& c) {
    ++chunks;
    EXPECT_EQ(first, 0u);
    EXPECT_EQ(&c, &h);
  });
  EXPECT_EQ(chunks, 1u);
}

// The inline texts into a pool of the caller's (ids tagged, read through
// the report's pool while it is the overlay), not the report's; read back
// by event after (Report::hgtxTexts) as the loaded table names them.
TEST_F(HgtxScan, InlineTextsGoToTheCallersPoolAndAreReadBackByEvent) {
  auto scanned = asys::Report::open(path_);
  asys::StringPool& strings = scanned->strings();
  const size_t before = strings.size();
  asys::StringPool texts;
  strings.setOverlay(&texts);
  std::vector<uint32_t> names;
  std::vector<std::string> seen;
  scanned->scanHgtx(
      asys::hcol::ranges,
      [&](size_t, const asys::HgtxEvents& c) {
        for (uint32_t id : c.nameId) {
          names.push_back(id);
          seen.emplace_back(strings.get(id));
        }
      },
      &texts);
  strings.setOverlay(nullptr);
  EXPECT_EQ(strings.size(), before);  // no inline text in the report's strings
  EXPECT_GT(texts.size(), 1000u);
  auto loaded = asys::Report::open(path_);
  const asys::HgtxEvents& h = loaded->hgtx();
  ASSERT_EQ(names.size(), h.size());
  std::vector<uint32_t> asked;
  size_t tagged = 0;
  for (uint32_t e = 0; e < h.size(); ++e) {
    EXPECT_EQ(seen[e], loaded->strings().get(h.nameId[e])) << "event " << e;
    if (asys::StringPool::tagged(names[e])) {
      ++tagged;
      if (e % 7 == 0 || e + 1 == h.size()) asked.push_back(e);
    }
  }
  EXPECT_GT(tagged, 0u);
  // Asked out of order, one repeated: each gets its own text.
  std::reverse(asked.begin(), asked.end());
  asked.push_back(asked.front());
  const std::vector<uint32_t> ids = scanned->hgtxTexts(asked);
  ASSERT_EQ(ids.size(), asked.size());
  for (size_t k = 0; k < asked.size(); ++k) {
    EXPECT_FALSE(asys::StringPool::tagged(ids[k]));
    EXPECT_EQ(strings.get(ids[k]), loaded->strings().get(h.nameId[asked[k]])) << "event " << asked[k];
  }
  // With the overlay gone, a tagged id reads as nothing.
  EXPECT_EQ(strings.get(names[asked[0]]), "");
}

TEST_F(HgtxScan, ABadRowInALaterChunkIsNamedAsByTheWholeLoad) {
  const std::string bad =
      asys::test::editedCopy(path_, path_ + ".bad",
                             "UPDATE HGTX_EVENTS SET end = start - 1 WHERE rowid = (SELECT rowid FROM HGTX_EVENTS "
                             "WHERE end IS NOT NULL ORDER BY rowid LIMIT 1 OFFSET 70000)");
  std::string whole, chunked;
  try {
    asys::Report::open(bad)->hgtx();
  } catch (const asys::Error& e) {
    whole = e.what();
  }
  try {
    asys::Report::open(bad)->scanHgtx([](size_t, const asys::HgtxEvents&) {});
  } catch (const asys::Error& e) {
    chunked = e.what();
  }
  std::remove(bad.c_str());
  EXPECT_NE(whole.find("is before start"), std::string::npos) << whole;
  EXPECT_EQ(chunked, whole);
}

TEST_F(HgtxScan, StackCountsAreTheLoadedStacks) {
  auto report = asys::Report::open(path_);
  const asys::HgtxStackCounts counts = asys::scanHgtxStackCounts(*report);
  EXPECT_FALSE(report->hgtxLoaded());
  const asys::HgtxStacks stacks = asys::buildHgtxStacks(report->hgtx());
  ASSERT_EQ(counts.event, stacks.ranges);
  size_t nested = 0;
  for (size_t k = 0; k < counts.event.size(); ++k) {
    const uint32_t e = counts.event[k];
    EXPECT_EQ(counts.find(e), k);
    EXPECT_EQ(counts.level[k], stacks.level[e]);
    EXPECT_EQ(static_cast<int64_t>(counts.numChild[k]), stacks.numChild[e]);
    nested += counts.level[k] > 0;
  }
  EXPECT_GT(nested, 0u);  // the report has nested ranges: the levels are tested
  EXPECT_EQ(counts.find(0xFFFFFFF0u), asys::HgtxStackCounts::kNotOnStack);
}

TEST_F(HgtxScan, StackParentsAndIdsAreTheLoadedStacks) {
  // HgtxStackCounter with parents (hgtx_ppu_proj_trace's stacks, folded
  // from a scan) against the loaded events' stacks and their range IDs.
  auto report = asys::Report::open(path_);
  asys::HgtxStackCounter counter(/*parents=*/true);
  report->scanHgtx(asys::hcol::ranges | asys::hcol::rangeId,
                   [&](size_t first, const asys::HgtxEvents& c) { counter.add(first, c); });
  const asys::HgtxStackCounts counts = counter.finish();
  EXPECT_FALSE(report->hgtxLoaded());
  const asys::HgtxEvents& h = report->hgtx();
  const asys::HgtxStacks stacks = asys::buildHgtxStacks(h);
  ASSERT_EQ(counts.event, stacks.ranges);
  ASSERT_EQ(counts.parent.size(), counts.event.size());
  std::string scanned, loaded;
  size_t nested = 0;
  for (size_t k = 0; k < counts.event.size(); ++k) {
    const uint32_t e = counts.event[k];
    ASSERT_EQ(counts.parent[k] == asys::kNoParent ? asys::kNoParent : counts.event[counts.parent[k]],
              stacks.parent[e]);
    ASSERT_EQ(counts.rangeId(k), asys::hgtxRangeId(h, e));
    scanned.clear();
    loaded.clear();
    counts.appendStack(k, scanned);
    asys::appendRangeStack(h, stacks, e, loaded);
    ASSERT_EQ(scanned, loaded) << "event " << e;
    nested += counts.parent[k] != asys::kNoParent;
  }
  EXPECT_GT(nested, 0u);
}

TEST(HgtxStackCounter, ParentsAndRangeIdsByHand) {
  // Thread 1: e0 [0,100) id 10 holds e1 [10,50) (no id: 2), which holds
  // e2 [20,30) id 7; e3 is a start/end range (on no stack); e4 [60,90) (no
  // id: 5) is e0's second child. Thread 2: e5 [0,10) (no id: 6), a root.
  // Given in two chunks, as a scan gives them (e3 starts the second).
  constexpr int64_t kNull = asys::kNoValue;
  auto chunk = [](std::vector<int64_t> start, std::vector<int64_t> end, std::vector<int32_t> type,
                  std::vector<int64_t> tid, std::vector<int64_t> id) {
    asys::HgtxEvents c;
    c.start = std::move(start);
    c.end = std::move(end);
    c.eventType = std::move(type);
    c.globalTid = std::move(tid);
    c.rangeId = std::move(id);
    return c;
  };
  const int32_t pp = asys::kHgtxPushPop, se = asys::kHgtxStartEnd;
  asys::HgtxStackCounter counter(/*parents=*/true);
  counter.add(0, chunk({0, 10, 20}, {100, 50, 30}, {pp, pp, pp}, {1, 1, 1}, {10, kNull, 7}));
  counter.add(3, chunk({5, 60, 0}, {60, 90, 10}, {se, pp, pp}, {1, 1, 2}, {kNull, kNull, kNull}));
  const asys::HgtxStackCounts s = counter.finish();
  ASSERT_EQ(s.event, (std::vector<uint32_t>{0, 1, 2, 4, 5}));
  EXPECT_EQ(s.parent, (std::vector<uint32_t>{asys::kNoParent, 0, 1, 0, asys::kNoParent}));
  EXPECT_EQ(s.level, (std::vector<int32_t>{0, 1, 2, 1, 0}));
  EXPECT_EQ(s.numChild, (std::vector<uint32_t>{2, 1, 0, 0, 0}));
  EXPECT_EQ(s.rangeId(0), 10);
  EXPECT_EQ(s.rangeId(1), 2);
  EXPECT_EQ(s.rangeId(2), 7);
  EXPECT_EQ(s.rangeId(3), 5);
  EXPECT_EQ(s.rangeId(4), 6);
  std::string text;
  s.appendStack(2, text);
  EXPECT_EQ(text, ":10:2:7");
  text.clear();
  s.appendStack(3, text);
  EXPECT_EQ(text, ":10:5");
  text.clear();
  s.appendStack(4, text);
  EXPECT_EQ(text, ":6");
  // Without parents, none are kept.
  asys::HgtxStackCounter plain;
  plain.add(0, chunk({0, 10}, {100, 50}, {pp, pp}, {1, 1}, {10, kNull}));
  const asys::HgtxStackCounts p = plain.finish();
  EXPECT_TRUE(p.parent.empty());
  EXPECT_TRUE(p.otherIds.empty());
  EXPECT_EQ(p.numChild, (std::vector<uint32_t>{1, 0}));
}

TEST_F(HgtxScan, SlotStacksAreTheLoadedStacks) {
  // The stacks swept by slot from the chosen ranges (hgtx_ppu_proj_sum's
  // and hgtx_ppu_proj_trace's without a range filter) against the loaded
  // events' stacks: levels, parents, children and range stacks.
  auto report = asys::Report::open(path_);
  asys::UnclosedRanges unclosed;
  asys::SlotStacks withLevels, withParents, apart;
  asys::RangeSelection sel;
  sel.rangeIds = true;
  sel.alsoScan = [&](size_t first, const asys::HgtxEvents& c) { unclosed.add(first, c); };
  sel.chosen = [&](const asys::AssociationRanges& R) {
    withLevels = asys::slotStacks(R, unclosed.events, /*levels=*/true, /*parents=*/false);
    withParents = asys::slotStacks(R, unclosed.events, /*levels=*/false, /*parents=*/true);
    // Threads and starts given apart (hgtx_ppu_proj_trace's, once the association gave them back).
    asys::SmallIds threadOf;
    threadOf.resize(R.size());
    for (size_t r = 0; r < R.size(); ++r) threadOf.set(r, R.threadIndex[r]);
    asys::StartTimes starts;
    starts.assign(R.start);
    asys::AssociationRanges without = R;
    std::vector<uint32_t>().swap(without.threadIndex);
    std::vector<int64_t>().swap(without.start);
    apart = asys::slotStacks(without, threadOf, R.threads.size(), starts, unclosed.events, /*levels=*/false,
                             /*parents=*/true);
  };
  asys::AssociationRanges R = asys::chooseRanges(*report, sel);
  sel.chosen(R);  // chooseRanges leaves `chosen` to associateActivities
  const asys::HgtxEvents& h = report->hgtx();
  const asys::HgtxStacks stacks = asys::buildHgtxStacks(h);
  ASSERT_EQ(withParents.parent.size(), R.size());
  EXPECT_EQ(apart.parent, withParents.parent);
  std::string bySlot, loaded;
  size_t onStack = 0, nested = 0;
  for (uint32_t r = 0; r < R.size(); ++r) {
    const uint32_t e = R.event[r];
    ASSERT_EQ(withLevels.level(r), stacks.level[e]) << "event " << e;
    ASSERT_EQ(withParents.level(r), stacks.level[e]) << "event " << e;
    ASSERT_EQ(withParents.onStack(r), stacks.onStack(e));
    ASSERT_EQ(withLevels.onStack(r), stacks.onStack(e));
    if (!stacks.onStack(e)) continue;
    ++onStack;
    ASSERT_EQ(static_cast<int64_t>(withLevels.children.get(r)), stacks.numChild[e]);
    ASSERT_EQ(static_cast<int64_t>(withParents.children.get(r)), stacks.numChild[e]);
    const uint32_t p = withParents.parent[r];
    ASSERT_EQ(p == asys::kNoParent ? asys::kNoParent : R.event[p], stacks.parent[e]);
    nested += p != asys::kNoParent;
    bySlot.clear();
    loaded.clear();
    asys::appendRangeStackOf(
        r, [&](uint32_t x) { return withParents.parent[x]; }, [&](uint32_t x) { return R.rangeId(R.event[x]); },
        bySlot);
    asys::appendRangeStack(h, stacks, e, loaded);
    ASSERT_EQ(bySlot, loaded) << "event " << e;
  }
  EXPECT_EQ(onStack, stacks.ranges.size());  // every closed push/pop range is chosen
  EXPECT_GT(nested, 0u);
}

TEST(StartTimes, EveryTimeAsGivenNearAndFarApart) {
  // Sorted times a few ns apart, a jump past 4.3 s inside a block, negative
  // times, the int64 extremes, and an unsorted block: each read back as given.
  std::vector<int64_t> times;
  for (int64_t i = 0; i < 100; ++i) times.push_back(1'000 + i * 7);
  times.push_back(10'000'000'000);
  for (int64_t i = 0; i < 70; ++i) times.push_back(10'000'000'000 + i);
  times.push_back(INT64_MIN);
  times.push_back(INT64_MAX);
  times.push_back(-5);
  for (int64_t i = 0; i < 64; ++i) times.push_back((i * 37) % 64 - 20);
  asys::StartTimes s;
  s.assign(times);
  ASSERT_EQ(s.size(), times.size());
  for (size_t i = 0; i < times.size(); ++i) ASSERT_EQ(s[i], times[i]) << "time " << i;
  s.assign({});
  EXPECT_EQ(s.size(), 0u);
}

TEST(StartTimes, MadeFromTimesGivenInAnyOrder) {
  // The times put by index in a scattered order, twice (the ranges' starts
  // from the sweep's streams, a thread at a time): near and far apart, a
  // jump past 4.3 s inside a block, the int64 extremes, a short last block;
  // each read back as given. Then made again over it from fewer: the
  // earlier times are gone.
  std::vector<int64_t> times;
  for (int64_t i = 0; i < 150; ++i) times.push_back(2'000'000 + i * 11);
  times[70] = 8'000'000'000;
  times[71] = INT64_MIN;
  times[72] = INT64_MAX;
  times[140] = -3;
  asys::StartTimes s;
  const size_t n = times.size();
  int passes = 0;
  s.assignTwice(n, [&](auto&& put) {
    ++passes;
    for (size_t k = 0; k < n; ++k) {
      const size_t i = (k * 37) % n;  // 37 is prime to 150: every index once
      put(i, times[i]);
    }
  });
  EXPECT_EQ(passes, 2);
  ASSERT_EQ(s.size(), n);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(s[i], times[i]) << "time " << i;
  const std::vector<int64_t> again = {9, -4, 6};
  s.assignTwice(again.size(), [&](auto&& put) {
    for (size_t i = again.size(); i-- > 0;) put(i, again[i]);
  });
  ASSERT_EQ(s.size(), 3u);
  for (size_t i = 0; i < again.size(); ++i) EXPECT_EQ(s[i], again[i]);
}

TEST(StartTimes, MadeABlockAtATimeAsGiven) {
  // The same kinds of times appended a block at a time (an activity list
  // read as HGGC_KERNEL is scanned): full blocks and a short last one, a
  // jump past 4.3 s inside a block, the int64 extremes; each read back as
  // given. Then assigned again over it: the earlier times are gone.
  std::vector<int64_t> times;
  for (int64_t i = 0; i < 130; ++i) times.push_back(5'000'000'000 - i * 3);
  times.push_back(9'000'000'000'000);
  times.push_back(INT64_MIN);
  times.push_back(INT64_MAX);
  for (int64_t i = 0; i < 40; ++i) times.push_back(i % 2 == 0 ? i : 7'000'000'000 + i);
  asys::StartTimes s;
  s.reserve(times.size());
  for (size_t from = 0; from < times.size(); from += asys::StartTimes::kBlock)
    s.appendBlock(times.data() + from, std::min(asys::StartTimes::kBlock, times.size() - from));
  ASSERT_EQ(s.size(), times.size());
  for (size_t i = 0; i < times.size(); ++i) ASSERT_EQ(s[i], times[i]) << "time " << i;
  const std::vector<int64_t> again = {3, 1, 2};
  s.assign(again);
  ASSERT_EQ(s.size(), 3u);
  for (size_t i = 0; i < again.size(); ++i) EXPECT_EQ(s[i], again[i]);
}

TEST(SlotStacks, TiesUnclosedAndStartEndRangesAsTheCounter) {
  // Thread 1: e0 [0,100) holds e1 [0,100) (same span: the earlier event
  // encloses), which holds e2 [10,50) and e4 [50,50) (empty, at e2's end: not
  // in e2); e3 [20,120) is never closed (on no stack, and no parent: it
  // would not fit in e0); e5 is a start/end range [0,200) (on no stack);
  // e6 [10,50) on thread 2 is a root; e7 [60,100) on thread 1 is e1's.
  // Slots in (start, longer first, event) order, as chooseRanges numbers them.
  constexpr int64_t kNull = asys::kNoValue;
  struct Event {
    int64_t start, end;
    int32_t type;
    int64_t tid;
  };
  const int32_t pp = asys::kHgtxPushPop, se = asys::kHgtxStartEnd;
  const std::vector<Event> events = {{0, 100, pp, 1},   {0, 100, pp, 1},  {10, 50, pp, 1}, {20, kNull, pp, 1},
                                     {50, 50, pp, 1},   {0, 200, se, 1},  {10, 50, pp, 2}, {60, 100, pp, 1}};
  const int64_t last = 120;  // the last HGTX timestamp: e3's end as chosen
  asys::HgtxEvents chunk;
  for (const Event& e : events) {
    chunk.start.push_back(e.start);
    chunk.end.push_back(e.end);
    chunk.eventType.push_back(e.type);
    chunk.globalTid.push_back(e.tid);
  }
  asys::HgtxStackCounter counter(/*parents=*/true);
  counter.add(0, chunk);
  const asys::HgtxStackCounts c = counter.finish();
  asys::UnclosedRanges unclosed;
  unclosed.add(0, chunk);
  EXPECT_EQ(unclosed.events, (std::vector<uint32_t>{3}));

  asys::AssociationRanges R;
  std::vector<uint32_t> order(events.size());
  for (uint32_t e = 0; e < events.size(); ++e) order[e] = e;
  auto endOf = [&](uint32_t e) { return events[e].end == kNull ? last : events[e].end; };
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return std::make_tuple(events[a].start, -endOf(a), a) < std::make_tuple(events[b].start, -endOf(b), b);
  });
  R.threads = {1, 2};
  for (uint32_t e : order) {
    R.event.push_back(e);
    R.threadIndex.push_back(events[e].tid == 1 ? 0 : 1);
    R.start.push_back(events[e].start);
    R.duration.push_back(endOf(e) - events[e].start);
    R.name.push_back(0);
    R.startEnd.push_back(events[e].type == se ? 1 : 0);
  }
  const asys::SlotStacks s = asys::slotStacks(R, unclosed.events, /*levels=*/true, /*parents=*/true);
  std::vector<int32_t> levelByEvent(events.size(), -2);
  std::vector<uint32_t> parentByEvent(events.size(), 7777), childrenByEvent(events.size(), 7777);
  for (uint32_t r = 0; r < R.size(); ++r) {
    const uint32_t e = R.event[r];
    ASSERT_EQ(s.level(r), static_cast<int32_t>(s.levelPlusOne.get(r)) - 1);
    levelByEvent[e] = s.level(r);
    if (!s.onStack(r)) continue;
    parentByEvent[e] = s.parent[r] == asys::kNoParent ? asys::kNoParent : R.event[s.parent[r]];
    childrenByEvent[e] = s.children.get(r);
  }
  const uint32_t none = asys::kNoParent;
  EXPECT_EQ(levelByEvent, (std::vector<int32_t>{0, 1, 2, -1, 2, -1, 0, 2}));
  EXPECT_EQ(parentByEvent, (std::vector<uint32_t>{none, 0, 1, 7777, 1, 7777, none, 1}));
  EXPECT_EQ(childrenByEvent, (std::vector<uint32_t>{1, 3, 0, 7777, 0, 7777, 0, 0}));
  // And the counter folded from the same events agrees.
  ASSERT_EQ(c.event, (std::vector<uint32_t>{0, 1, 2, 4, 6, 7}));
  for (size_t k = 0; k < c.event.size(); ++k) {
    EXPECT_EQ(c.level[k], levelByEvent[c.event[k]]);
    EXPECT_EQ(c.parent[k] == none ? none : c.event[c.parent[k]], parentByEvent[c.event[k]]);
    EXPECT_EQ(c.numChild[k], childrenByEvent[c.event[k]]);
  }
}

TEST_F(HgtxScan, PushPopRangesAreTheLoadedStacksInStartOrder) {
  auto report = asys::Report::open(path_);
  asys::PushPopRangeBuilder builder(report->strings());
  report->scanHgtx(asys::hcol::ranges | asys::hcol::rangeId,
                   [&](size_t first, const asys::HgtxEvents& c) { builder.add(first, c); });
  const asys::PushPopRanges r = builder.finish();
  EXPECT_FALSE(report->hgtxLoaded());
  // The loaded events' stacks (buildHgtxStacks, one sort by thread) and names.
  const asys::HgtxEvents& h = report->hgtx();
  const asys::HgtxStacks stacks = asys::buildHgtxStacks(h);
  asys::RangeNamer namer(*report);
  ASSERT_EQ(r.size(), stacks.ranges.size());
  std::vector<uint32_t> events(r.event);
  std::sort(events.begin(), events.end());
  EXPECT_EQ(events, stacks.ranges);
  size_t nested = 0;
  for (size_t k = 0; k < r.size(); ++k) {
    const uint32_t e = r.event[k];
    ASSERT_EQ(r.start[k], h.start[e]);
    ASSERT_EQ(r.end(k), h.end[e]);
    ASSERT_EQ(r.globalTid(k), h.globalTid[e]);
    ASSERT_EQ(r.name[k], namer.nameId(e));
    ASSERT_EQ(r.rangeId(k), asys::hgtxRangeId(h, e));
    ASSERT_EQ(r.level(k), stacks.level[e]) << "event " << e;
    ASSERT_EQ(r.parent(k) == asys::kNoParent ? asys::kNoParent : r.event[r.parent(k)], stacks.parent[e]);
    ASSERT_EQ(static_cast<int64_t>(r.numChild[k]), stacks.numChild[e]);
    ASSERT_EQ(r.durChild.get(k), stacks.durChild[e]);
    if (k > 0) {  // start, then duration ascending
      ASSERT_LE(r.start[k - 1], r.start[k]);
      if (r.start[k - 1] == r.start[k]) ASSERT_LE(r.end(k - 1), r.end(k));
    }
    nested += r.level(k) > 0;
  }
  EXPECT_GT(nested, 0u);
}

TEST_F(HgtxScan, PushPopTraceRowsLinkTheirEvents) {
  // Each row of the trace names its HGTX_EVENTS row (the viewer's link to
  // the timeline's slice): that row's start and end are the row's.
  auto report = asys::Report::open(path_);
  const asys::RuleSpec* rule = asys::findRule("hgtx_pushpop_trace");
  ASSERT_NE(rule, nullptr);
  const asys::Table view = asys::runRule(*rule, *report, asys::parseRuleOptions(*rule, {}));
  ASSERT_TRUE(view.isView());
  ASSERT_EQ(view.eventNames(), std::vector<std::string>{"HGTX Range"});
  const asys::HgtxEvents& h = report->hgtx();
  size_t rows = 0;
  asys::forEachChunk(view, [&](const asys::Table& chunk, size_t) {
    for (size_t i = 0; i < chunk.rowCount(); ++i, ++rows) {
      ASSERT_EQ(chunk.eventTables(0)[i], asys::EventTable::Hgtx);
      const uint32_t e = chunk.eventIndexes(0)[i];
      ASSERT_LT(e, h.size());
      ASSERT_EQ(chunk.intAt(i, 0), h.start[e]) << "row " << rows;
      ASSERT_EQ(chunk.intAt(i, 1), h.end[e]) << "row " << rows;
      ASSERT_EQ(h.eventType[e], asys::kHgtxPushPop);
    }
  });
  EXPECT_GT(rows, 1000u);
}

}  // namespace
