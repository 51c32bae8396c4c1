// RangeSweep (the ranges around calls that come as a table is read, each
// thread's in start order) on a hand-worked case, and against all pairs
// (brute force) on random ranges and calls.
#include "core/analysis/range_sweep.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <tuple>

#include "core/analysis/hgtx_association.h"

namespace asys {
namespace {

std::vector<uint32_t> around(RangeSweep& sweep, int64_t key, int64_t start, int64_t end, bool* ordered = nullptr) {
  std::vector<uint32_t> out;
  const bool ok = sweep.visit(key, start, end, [&](uint32_t r) { out.push_back(r); });
  if (ordered) *ordered = ok;
  return out;
}

TEST(RangeSweep, NestedRangesOnTwoThreadsAsCallsCome) {
  // Thread 1: A=0 [0,100], B=1 [10,50], C=2 [20,30]; thread 2: D=3 [0,1000],
  // listed out of start order (E=4 [5,8] on thread 1 comes last).
  const std::vector<int64_t> key = {1, 1, 1, 2, 1}, start = {0, 10, 20, 0, 5}, end = {100, 50, 30, 1000, 8};
  const KeyedSpans ranges{key, start, end};
  RangeSweep sweep(ranges);
  bool ordered = false;
  // [6,7] on thread 1: inside A and E (B starts at 10).
  EXPECT_EQ(around(sweep, 1, 6, 7, &ordered), (std::vector<uint32_t>{0, 4}));
  EXPECT_TRUE(ordered);
  // [15,25]: A and B; C starts at 20, after the call; E has ended.
  EXPECT_EQ(around(sweep, 1, 15, 25), (std::vector<uint32_t>{0, 1}));
  // Thread 2's call between thread 1's: D only.
  EXPECT_EQ(around(sweep, 2, 5, 6), (std::vector<uint32_t>{3}));
  // [21,30]: A, B and C (an end equal to the range's is inside).
  EXPECT_EQ(around(sweep, 1, 21, 30), (std::vector<uint32_t>{0, 1, 2}));
  // [40,60]: only A (B ends at 50, inside the call).
  EXPECT_EQ(around(sweep, 1, 40, 60), (std::vector<uint32_t>{0}));
  // An end before the start contains nothing; a thread without ranges has none.
  EXPECT_TRUE(around(sweep, 1, 45, 44).empty());
  EXPECT_TRUE(around(sweep, 3, 0, 1, &ordered).empty());
  EXPECT_TRUE(ordered);
  // A call of thread 1 that starts before its previous one: out of order.
  EXPECT_TRUE(around(sweep, 1, 30, 31, &ordered).empty());
  EXPECT_FALSE(ordered);
  // restart(): the same calls again give the same answers.
  sweep.restart();
  EXPECT_EQ(around(sweep, 1, 21, 30, &ordered), (std::vector<uint32_t>{0, 1, 2}));
  EXPECT_TRUE(ordered);
}

TEST(RangeSweep, RandomAgainstAllPairs) {
  std::mt19937_64 rng(7);
  for (int round = 0; round < 300; ++round) {
    std::vector<int64_t> key, start, end;
    const size_t n = rng() % 40;
    for (size_t i = 0; i < n; ++i) {
      key.push_back(static_cast<int64_t>(rng() % 3));
      start.push_back(static_cast<int64_t>(rng() % 100));
      end.push_back(start.back() + static_cast<int64_t>(rng() % 60) - 5);  // a few end before they start
    }
    const KeyedSpans ranges{key, start, end};
    RangeSweep sweep(ranges);
    // Calls by thread in start order, the threads interleaved.
    std::vector<int64_t> next(4, 0);
    for (int c = 0; c < 60; ++c) {
      const int64_t k = static_cast<int64_t>(rng() % 4);
      const int64_t s = next[k] += static_cast<int64_t>(rng() % 6);
      const int64_t e = s + static_cast<int64_t>(rng() % 30) - 3;
      std::vector<std::pair<int64_t, uint32_t>> want;  // (start, index): the sweep's order
      if (e >= s)
        for (uint32_t r = 0; r < n; ++r)
          if (key[r] == k && start[r] <= s && e <= end[r]) want.push_back({start[r], r});
      std::sort(want.begin(), want.end());
      std::vector<uint32_t> expected;
      for (const auto& w : want) expected.push_back(w.second);
      bool ordered = false;
      ASSERT_EQ(around(sweep, k, s, e, &ordered), expected) << "round " << round << " call " << c;
      ASSERT_TRUE(ordered);
    }
  }
}

// The association's ranges read where they are: a thread index into a
// table (which may hold a thread without ranges), ends as durations (one
// past 4.3 s and one negative kept exact beside the 4-byte ones), and the
// ranges moved after the sweep was made (rebind).
TEST(RangeSweep, AssociationRangesWithLongDurationsAndAMove) {
  AssociationRanges R;
  R.threads = {70, 80, 90};  // thread 90 has no range
  // Slots in start order: 0 [0, 10 s] on 80, 1 [5, 50] on 70, 2 [20, 15] on 80
  // (ends before it starts), 3 [30, 40] on 80.
  const int64_t tenSeconds = 10'000'000'000;
  R.threadIndex = {1, 0, 1, 1};
  R.start = {0, 5, 20, 30};
  for (const int64_t d : {tenSeconds, int64_t{45}, int64_t{-5}, int64_t{10}}) R.duration.push_back(d);
  EXPECT_EQ(R.end(0), tenSeconds);
  EXPECT_EQ(R.end(2), 15);
  EXPECT_EQ(R.thread(3), 80);
  RangeSweep sweep(R);
  EXPECT_EQ(around(sweep, 80, 31, 39), (std::vector<uint32_t>{0, 3}));
  EXPECT_EQ(around(sweep, 70, 31, 39), (std::vector<uint32_t>{1}));
  EXPECT_TRUE(around(sweep, 90, 31, 39).empty());
  EXPECT_EQ(around(sweep, 80, 41, 5'000'000'000), (std::vector<uint32_t>{0}));
  // Moved: the columns' buffers stay, the durations' exceptions move.
  AssociationRanges moved = std::move(R);
  sweep.rebind(moved);
  sweep.restart();
  EXPECT_EQ(around(sweep, 80, 31, 39), (std::vector<uint32_t>{0, 3}));
  EXPECT_EQ(around(sweep, 80, 41, tenSeconds), (std::vector<uint32_t>{0}));
  EXPECT_TRUE(around(sweep, 80, 42, tenSeconds + 1).empty());
}

// The association's ranges in slot (start) order, swept with the spans read
// where they are and with the sweep holding them itself (ownSpans: the
// ranges' columns given back once it is made): the same ranges around every
// call, the same parents, and spans() gives back each range's thread, start
// and end; starts and ends far apart (steps past 2^32, an end before its
// start, ranges that start together) and a thread without ranges.
TEST(RangeSweep, OwnSpansAgainstSpansReadWhereTheyAre) {
  std::mt19937_64 rng(31);
  for (int round = 0; round < 200; ++round) {
    const size_t n = rng() % 50;
    std::vector<int64_t> start(n), duration(n);
    std::vector<uint32_t> threadIndex(n);
    int64_t at = -static_cast<int64_t>(rng() % 1000);
    for (size_t i = 0; i < n; ++i) {
      at += rng() % 4 == 0 ? 0 : rng() % 7 == 0 ? int64_t{6'000'000'000} : static_cast<int64_t>(rng() % 20);
      start[i] = at;
      duration[i] = rng() % 9 == 0 ? int64_t{9'000'000'000} : static_cast<int64_t>(rng() % 60) - 5;
      threadIndex[i] = static_cast<uint32_t>(rng() % 3);
    }
    AssociationRanges R;
    R.threads = {70, 80, 90, 100};  // 100 has no range
    R.threadIndex = threadIndex;
    R.start = start;
    for (const int64_t d : duration) R.duration.push_back(d);
    RangeSweep read(R);
    AssociationRanges given = R;
    RangeSweep own(given, /*ownSpans=*/true);
    given = AssociationRanges{};  // the columns given back
    EXPECT_EQ(own.parents(), read.parents()) << "round " << round;
    std::vector<int64_t> thread, s, e;
    own.spans(thread, s, e);
    ASSERT_EQ(thread.size(), n);
    for (size_t i = 0; i < n; ++i) {
      EXPECT_EQ(thread[i], R.thread(i));
      EXPECT_EQ(s[i], R.start[i]);
      EXPECT_EQ(e[i], R.end(i));
    }
    // The columns made again from the streams, as asked.
    AssociationRanges back;
    back.threads = R.threads;
    own.restoreSpans(back, true, true, true);
    EXPECT_EQ(back.start, R.start);
    EXPECT_EQ(back.threadIndex, R.threadIndex);
    for (size_t i = 0; i < n; ++i) EXPECT_EQ(back.end(i), R.end(i)) << "round " << round << " range " << i;
    AssociationRanges some;
    own.restoreSpans(some, false, true, false);
    EXPECT_TRUE(some.start.empty());
    EXPECT_TRUE(some.threadIndex.empty());
    ASSERT_EQ(some.duration.size(), n);
    for (size_t i = 0; i < n; ++i) EXPECT_EQ(some.duration.get(i), R.duration.get(i));
    std::vector<int64_t> next(4, start.empty() ? 0 : start.front());
    for (int c = 0; c < 60; ++c) {
      const int64_t k = 70 + 10 * static_cast<int64_t>(rng() % 4);
      const int64_t cs = next[static_cast<size_t>((k - 70) / 10)] += static_cast<int64_t>(rng() % 400'000'000);
      const int64_t ce = cs + static_cast<int64_t>(rng() % 30) - 3;
      bool okRead = false, okOwn = false;
      ASSERT_EQ(around(own, k, cs, ce, &okOwn), around(read, k, cs, ce, &okRead)) << "round " << round;
      ASSERT_TRUE(okRead && okOwn);
    }
  }
}

// What GraphNodeRanges relies on: after a pass over other calls, restart()
// and a visit of any queries in (key, start, index) order give the pairs
// forEachEnclosing gives, in its order (by query, each query's ranges in
// the same order).
TEST(RangeSweep, RestartedSweepOfSortedQueriesIsForEachEnclosing) {
  std::mt19937_64 rng(23);
  for (int round = 0; round < 300; ++round) {
    std::vector<int64_t> key, start, end, qKey, qStart, qEnd;
    const size_t n = rng() % 40, queries = rng() % 30;
    for (size_t i = 0; i < n; ++i) {
      key.push_back(static_cast<int64_t>(rng() % 3));
      start.push_back(static_cast<int64_t>(rng() % 100));
      end.push_back(start.back() + static_cast<int64_t>(rng() % 60) - 5);
    }
    for (size_t q = 0; q < queries; ++q) {  // any order, a few on a thread without ranges
      qKey.push_back(static_cast<int64_t>(rng() % 4));
      qStart.push_back(static_cast<int64_t>(rng() % 110));
      qEnd.push_back(qStart.back() + static_cast<int64_t>(rng() % 30) - 3);
    }
    const KeyedSpans ranges{key, start, end}, calls{qKey, qStart, qEnd};
    std::vector<std::pair<uint32_t, uint32_t>> want, got;
    forEachEnclosing(ranges, calls, [&](uint32_t q, uint32_t r) { want.emplace_back(q, r); });
    RangeSweep sweep(ranges);
    for (int64_t t = 0; t < 100; t += 7) sweep.visit(t % 3, t, t + 5, [](uint32_t) {});  // an earlier pass
    sweep.restart();
    std::vector<uint32_t> order(queries);
    std::iota(order.begin(), order.end(), 0u);
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      return std::tie(qKey[a], qStart[a], a) < std::tie(qKey[b], qStart[b], b);
    });
    for (const uint32_t q : order)
      ASSERT_TRUE(sweep.visit(qKey[q], qStart[q], qEnd[q], [&](uint32_t r) { got.emplace_back(q, r); }));
    ASSERT_EQ(got, want) << "round " << round;
  }
}

// CallRangeCounts: the ranges around calls as they come, kept as lists
// while few calls have one (launchedLists, no second scan), else counted by
// call; both against all pairs, and a call cut off by the capture's end
// (end = kNoValue) ending where it starts.
struct RandomCalls {
  std::vector<int64_t> key, start, end;  // the ranges
  std::vector<int64_t> callKey, callStart, callEnd;
  // The ranges around call c, in the sweep's (start, index) order.
  std::vector<uint32_t> around(size_t c) const {
    const int64_t e = callEnd[c] == kNoValue ? callStart[c] : callEnd[c];
    std::vector<std::pair<int64_t, uint32_t>> want;
    if (e >= callStart[c])
      for (uint32_t r = 0; r < key.size(); ++r)
        if (key[r] == callKey[c] && start[r] <= callStart[c] && e <= end[r]) want.push_back({start[r], r});
    std::sort(want.begin(), want.end());
    std::vector<uint32_t> out;
    for (const auto& w : want) out.push_back(w.second);
    return out;
  }
};

// `ranges` ranges over [0, span), calls on 4 threads in start order.
RandomCalls randomCalls(std::mt19937_64& rng, size_t ranges, size_t calls, int64_t span) {
  RandomCalls t;
  for (size_t i = 0; i < ranges; ++i) {
    t.key.push_back(static_cast<int64_t>(rng() % 3));
    t.start.push_back(static_cast<int64_t>(rng() % static_cast<uint64_t>(span)));
    t.end.push_back(t.start.back() + static_cast<int64_t>(rng() % 60) - 5);
  }
  std::vector<int64_t> next(4, 0);
  for (size_t c = 0; c < calls; ++c) {
    const int64_t k = static_cast<int64_t>(rng() % 4);
    const int64_t s = next[k] += static_cast<int64_t>(rng() % 6);
    t.callKey.push_back(k);
    t.callStart.push_back(s);
    t.callEnd.push_back(rng() % 10 == 0 ? kNoValue : s + static_cast<int64_t>(rng() % 30) - 3);
  }
  return t;
}

TEST(CallRangeCounts, FewCallsWithRangesKeptAsListsAgainstAllPairs) {
  std::mt19937_64 rng(11);
  for (int round = 0; round < 200; ++round) {
    const RandomCalls t = randomCalls(rng, rng() % 30, 200, 400);
    const KeyedSpans ranges{t.key, t.start, t.end};
    CallRangeCounts counts(ranges, 1000);
    for (size_t c = 0; c < t.callKey.size(); ++c) counts.count(t.callKey[c], t.callStart[c], t.callEnd[c]);
    ASSERT_TRUE(counts.ordered);
    ASSERT_TRUE(counts.keptFew());  // a few hundred calls stay under the lists' least bound
    ASSERT_EQ(counts.calls(), t.callKey.size());
    std::vector<uint8_t> launches(t.callKey.size());
    for (auto& l : launches) l = rng() % 3 != 0 ? 1 : 0;
    const CallRanges lists = counts.takeRanges([&](size_t row) { return launches[row] != 0; });
    ASSERT_EQ(lists.calls(), t.callKey.size());
    for (size_t c = 0; c < t.callKey.size(); ++c) {
      const RangeList got = lists.of(c);
      const std::vector<uint32_t> want = launches[c] ? t.around(c) : std::vector<uint32_t>{};
      ASSERT_EQ(std::vector<uint32_t>(got.begin(), got.end()), want) << "round " << round << " call " << c;
    }
  }
}

TEST(CallRangeCounts, ManyCallsWithRangesTurnIntoATree) {
  std::mt19937_64 rng(5);
  // Long ranges over the calls' whole time: nearly every call has some, so
  // the lists pass their bound (65,536 words, and a quarter of the calls)
  // and become a tree (each call's innermost range).
  RandomCalls t = randomCalls(rng, 0, 40000, 1);
  for (int64_t k = 0; k < 4; ++k) {
    t.key.push_back(k);
    t.start.push_back(0);
    t.end.push_back(INT64_MAX / 2);
  }
  const KeyedSpans ranges{t.key, t.start, t.end};
  CallRangeCounts counts(ranges, 0);
  for (size_t c = 0; c < t.callKey.size(); ++c) counts.count(t.callKey[c], t.callStart[c], t.callEnd[c]);
  ASSERT_TRUE(counts.ordered);
  EXPECT_FALSE(counts.keptFew());
  const CallRanges tree = counts.takeRanges([](size_t) { return true; });
  ASSERT_EQ(tree.calls(), t.callKey.size());
  EXPECT_EQ(tree.listedCalls(), 0u);  // one range a thread: every call's is a chain
  for (size_t c = 0; c < t.callKey.size(); ++c) {
    const RangeList got = tree.of(c);
    ASSERT_EQ(std::vector<uint32_t>(got.begin(), got.end()), t.around(c)) << "call " << c;
  }
}

// The calls' ranges as a tree (CallRanges: each call's innermost range and
// a parent by range) against all pairs, on ranges made as a profiler's
// push/pop stacks make them, with the edges the tree must get right: many
// times equal (a call starting exactly where a range ends, ranges starting
// where others end, zero-length ranges and calls), ranges never closed
// ending together at the last timestamp, calls cut off by the capture's
// end (kNoValue: they end where they start), and start/end ranges that
// overlap without nesting (their calls keep lists of their own). The ranges
// are numbered as the association numbers its slots: by (start, longer
// first). Both ways to the tree: kept as lists then turned (few calls) and
// put in the tree as found (many), and a chain deeper than a list held inline.
RandomCalls nestedCalls(std::mt19937_64& rng, size_t calls, int depthLimit, bool startEnd) {
  struct Span {
    int64_t key, start, end;
  };
  std::vector<Span> spans;
  const int64_t last = 400;
  for (int64_t k = 0; k < 3; ++k) {
    std::vector<size_t> open;
    int64_t now = 0;
    while (now < last) {
      now += static_cast<int64_t>(rng() % 3);  // ties are common
      if (!open.empty() && (rng() % 2 == 0 || static_cast<int>(open.size()) >= depthLimit)) {
        spans[open.back()].end = std::min(now, last);
        open.pop_back();
      } else {
        open.push_back(spans.size());
        spans.push_back({k, std::min(now, last), last});  // never closed: ends at the last timestamp
      }
    }
    if (startEnd)
      for (int i = 0; i < 6; ++i) {
        const int64_t s = static_cast<int64_t>(rng() % last);
        spans.push_back({k, s, s + static_cast<int64_t>(rng() % 80)});
      }
  }
  std::stable_sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) {
    return a.start != b.start ? a.start < b.start : a.end - a.start > b.end - b.start;
  });
  RandomCalls t;
  for (const Span& s : spans) {
    t.key.push_back(s.key);
    t.start.push_back(s.start);
    t.end.push_back(s.end);
  }
  std::vector<int64_t> next(4, 0);
  for (size_t c = 0; c < calls; ++c) {
    const int64_t k = static_cast<int64_t>(rng() % 4);
    // Over the ranges' time, [0, 400] and a little past, however many calls.
    const int64_t s = next[k] += calls > 1000 ? (rng() % 40 == 0 ? 1 : 0) : static_cast<int64_t>(rng() % 5);
    t.callKey.push_back(k);
    const uint64_t kind = rng() % 10;
    t.callEnd.push_back(kind == 0 ? kNoValue : kind < 4 ? s : s + static_cast<int64_t>(rng() % 6) - 1);
    t.callStart.push_back(s);
  }
  return t;
}

TEST(CallRanges, TreeOfNestedRangesAgainstAllPairs) {
  std::mt19937_64 rng(23);
  size_t chained = 0, listed = 0;
  for (int round = 0; round < 40; ++round) {
    const bool startEnd = round % 3 == 2;
    const bool many = round % 2 == 0;  // past the lists' bound: the tree as the calls come
    const int depth = round % 5 == 4 ? 40 : 6;
    const RandomCalls t = nestedCalls(rng, many ? 70000 : 600, depth, startEnd);
    const KeyedSpans ranges{t.key, t.start, t.end};
    CallRangeCounts counts(ranges, t.callKey.size());
    for (size_t c = 0; c < t.callKey.size(); ++c) counts.count(t.callKey[c], t.callStart[c], t.callEnd[c]);
    ASSERT_TRUE(counts.ordered);
    ASSERT_EQ(counts.keptFew(), !many) << "round " << round;
    counts.scanned(nullptr, false);  // the sweep given back and the tree kept, as the association does
    const CallRanges tree = counts.takeRanges([](size_t) { return true; });
    ASSERT_EQ(tree.calls(), t.callKey.size());
    size_t nonEmpty = 0;
    for (size_t c = 0; c < t.callKey.size(); ++c) {
      const std::vector<uint32_t> want = t.around(c);
      const RangeList got = tree.of(c);
      ASSERT_EQ(std::vector<uint32_t>(got.begin(), got.end()), want) << "round " << round << " call " << c;
      ASSERT_EQ(got.size(), want.size());
      if (!want.empty()) ASSERT_EQ(got.back(), want.back());
      nonEmpty += !want.empty();
    }
    listed += tree.listedCalls();
    chained += nonEmpty - tree.listedCalls();
  }
  // Both ways are taken (the times here tie far more than a profiler's,
  // so many calls sit where one range ends and another starts: listed).
  EXPECT_GT(listed, 0u);
  EXPECT_GT(chained, 0u);
}

TEST(CallRanges, EdgesByHand) {
  // Thread 1: A=0 [0,10] (B's parent), B=1 [5,10], C=2 [10,20] (starts where A and B end), D=3 [10,10]
  // (zero length, inside C), E=4 [30,30] alone.
  const std::vector<int64_t> key = {1, 1, 1, 1, 1}, start = {0, 5, 10, 10, 30}, end = {10, 10, 20, 10, 30};
  const KeyedSpans ranges{key, start, end};
  RangeSweep sweep(ranges);
  EXPECT_EQ(sweep.parents(), (std::vector<uint32_t>{kNoMatch, 0, kNoMatch, 2, kNoMatch}));
  CallRanges tree(sweep.parents());
  auto put = [&](int64_t s, int64_t e) {
    std::vector<uint32_t> found;
    EXPECT_TRUE(sweep.visit(1, s, e, [&](uint32_t r) { found.push_back(r); }));
    tree.push(found);
    return found;
  };
  EXPECT_EQ(put(6, 9), (std::vector<uint32_t>{0, 1}));           // a chain: B, then A
  EXPECT_EQ(put(10, 10), (std::vector<uint32_t>{0, 1, 2, 3}));   // at A's and B's end and C's start: listed
  EXPECT_EQ(put(10, 12), (std::vector<uint32_t>{2}));
  EXPECT_EQ(put(30, 30), (std::vector<uint32_t>{4}));            // a zero-length call in a zero-length range
  EXPECT_EQ(put(31, 30), (std::vector<uint32_t>{}));             // ends before it starts: none
  EXPECT_EQ(tree.listedCalls(), 1u);
  const std::vector<std::vector<uint32_t>> want = {{0, 1}, {0, 1, 2, 3}, {2}, {4}, {}};
  for (size_t c = 0; c < want.size(); ++c) {
    const RangeList got = tree.of(c);
    EXPECT_EQ(std::vector<uint32_t>(got.begin(), got.end()), want[c]) << c;
  }
}

TEST(HgtxAssociation, CallValuesByActivityReadTheSameRanges) {
  // EdgesByHand's ranges: A=0 (B's parent), B=1, C=2 (D's parent), D=3, E=4.
  HgtxAssociation as;
  as.callRanges = CallRanges({kNoMatch, 0, kNoMatch, 2, kNoMatch});
  for (const std::vector<uint32_t>& r : std::vector<std::vector<uint32_t>>{{0, 1}, {0, 1, 2, 3}, {2}, {}, {4}})
    as.callRanges.push(r);
  // Activities: a0 by call 1 (a list), a1 by call 0 (a chain), a2 with no
  // call, a3 by call 3 (no range), a4 by call 4 and a graph list of its own
  // (range 2), a5 by call 2.
  as.launchCall = {1, 0, kNoMatch, 3, 4, 2};
  as.addGraphList(6, 4);
  as.graphRanges.append(2);
  as.graphRanges.endGroup();
  as.graphVia = {1};
  const std::vector<std::vector<uint32_t>> want = {{0, 1, 2, 3}, {0, 1}, {}, {}, {2}, {2}};
  auto all = [&] {
    std::vector<std::vector<uint32_t>> got;
    for (size_t a = 0; a < want.size(); ++a) {
      const RangeList r = as.rangesOf(a);  // by value: held, not a temporary's span
      got.emplace_back(r.begin(), r.end());
    }
    return got;
  };
  EXPECT_EQ(all(), want);
  as.holdCallValuesByActivity();
  EXPECT_EQ(all(), want);
  EXPECT_EQ(as.launchCall[4], 4u);  // a graph list's activity keeps its launching call
  EXPECT_EQ(as.launchCall[1], 1u);  // a chain: its innermost range, B
  EXPECT_TRUE(as.viaGraph(4, 0));
}

TEST(CallRangeCounts, ACallOutOfStartOrderStopsTheCount) {
  const std::vector<int64_t> key = {1}, start = {0}, end = {100};
  const KeyedSpans ranges{key, start, end};
  CallRangeCounts counts(ranges, 10);
  counts.count(1, 10, 20);
  counts.count(1, 5, 6);  // before the previous call of its thread
  counts.count(1, 30, 40);
  EXPECT_FALSE(counts.ordered);
  EXPECT_EQ(counts.calls(), 3u);  // every call is numbered all the same
}

}  // namespace
}  // namespace asys
