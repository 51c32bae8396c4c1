// The interval toolkit against hand-worked cases and against brute force
// (a bitmap of covered nanoseconds, all pairs, union-find) on random inputs.
#include "core/analysis/intervals.h"

#include <gtest/gtest.h>

#include <functional>
#include <random>
#include <set>
#include <utility>

namespace asys {
namespace {

TEST(Intervals, MergeDropsEmptyAndJoinsTouching) {
  std::vector<Span> s = {{50, 60}, {0, 10}, {10, 20}, {30, 30}, {15, 25}, {40, 45}, {44, 41}};
  mergeSpans(s);
  // [0,10)+[10,20)+[15,25) touch/overlap -> [0,25); [30,30) and [44,41) are empty.
  EXPECT_EQ(s, (std::vector<Span>{{0, 25}, {40, 45}, {50, 60}}));
  EXPECT_EQ(totalLength(s), 25 + 5 + 10);
  EXPECT_EQ(gapsBetween(s), (std::vector<Span>{{25, 40}, {45, 50}}));
}

TEST(Intervals, CoveredLengthClipsToTheWindow) {
  const std::vector<Span> blocks = {{0, 25}, {40, 45}, {50, 60}};
  EXPECT_EQ(coveredLength(blocks, 20, 55), 5 + 5 + 5);  // [20,25) [40,45) [50,55)
  EXPECT_EQ(coveredLength(blocks, 25, 40), 0);           // exactly a gap
  EXPECT_EQ(coveredLength(blocks, -100, 100), 40);
  EXPECT_EQ(coveredLength(blocks, 30, 30), 0);
}

TEST(Intervals, UnionLengthSortedCountsOverlapsOnce) {
  // Two streams inside one range: [100,300) and [200,400) overlap by 100.
  const std::vector<Span> s = {{100, 300}, {200, 400}, {400, 450}, {500, 500}, {600, 610}};
  EXPECT_EQ(unionLengthSorted(s), 300 + 50 + 10);
}

TEST(Intervals, SpanGroupsMergeEachGroupsSpans) {
  const std::vector<uint32_t> g = {1, 0, 1, 1, 0};
  const std::vector<Span> s = {{5, 9}, {0, 2}, {1, 3}, {8, 12}, {2, 4}};
  const SpanGroups groups(g, s, 3);
  ASSERT_EQ(groups.size(), 3u);
  EXPECT_EQ(std::vector<Span>(groups.group(0).begin(), groups.group(0).end()), (std::vector<Span>{{0, 4}}));
  EXPECT_EQ(std::vector<Span>(groups.group(1).begin(), groups.group(1).end()),
            (std::vector<Span>{{1, 3}, {5, 12}}));
  EXPECT_TRUE(groups.group(2).empty());
}

TEST(Intervals, SpanGroupsPlaceEverySpanWhateverTheOrder) {
  // Disjoint spans (start i), so each group's blocks are its spans sorted:
  // group 0 has spans 2, 5; group 1 has 1, 4; group 2 has 0, 3, 6, 7, 9;
  // group 3 none; group 4 has 8 (the last group, its one slot filled last).
  const std::vector<uint32_t> g = {2, 1, 0, 2, 1, 0, 2, 2, 4, 2};
  std::vector<Span> s;
  for (int64_t i = 0; i < 10; ++i) s.push_back({10 * i, 10 * i + 5});
  const SpanGroups groups(g, s, 5);
  auto starts = [&](size_t k) {
    std::vector<int64_t> out;
    for (const Span& b : groups.group(k)) out.push_back(b.start);
    return out;
  };
  EXPECT_EQ(starts(0), (std::vector<int64_t>{20, 50}));
  EXPECT_EQ(starts(1), (std::vector<int64_t>{10, 40}));
  EXPECT_EQ(starts(2), (std::vector<int64_t>{0, 30, 60, 70, 90}));
  EXPECT_TRUE(groups.group(3).empty());
  EXPECT_EQ(starts(4), (std::vector<int64_t>{80}));
}

TEST(Intervals, SpanGroupStatsAreTheLengthsStatisticsAndTheUnion) {
  // group 0: [0,2) [2,4)          lengths 2 2     union 4 (touching)
  // group 1: [5,9) [1,3) [8,12)   lengths 4 2 4   union 2 + 7 = 9
  // group 2: [7,7)                length 0        union 0 (empty span)
  // group 3: nothing
  std::vector<uint32_t> g = {1, 0, 1, 2, 1, 0};
  std::vector<Span> s = {{5, 9}, {0, 2}, {1, 3}, {7, 7}, {8, 12}, {2, 4}};
  const SpanGroupStats out = summarizeSpanGroupsInPlace(g, s, 4);
  EXPECT_TRUE(g.empty());
  EXPECT_TRUE(s.empty());
  EXPECT_EQ(out.covered, (std::vector<int64_t>{4, 9, 0, 0}));
  ASSERT_EQ(out.stats.size(), 4u);
  const DurationStats& a = out.stats[0];
  EXPECT_EQ(std::vector<int64_t>({a.total, a.count, a.avg, a.med, a.min, a.max, a.stddev}),
            (std::vector<int64_t>{4, 2, 2, 2, 2, 2, 0}));
  // Mean 10/3; variance (2 * (2/3)^2 + (4/3)^2) / 3 = 8/9: standard deviation 0 (floored).
  const DurationStats& b = out.stats[1];
  EXPECT_EQ(std::vector<int64_t>({b.total, b.count, b.avg, b.med, b.min, b.max, b.stddev}),
            (std::vector<int64_t>{10, 3, 3, 4, 2, 4, 0}));
  const DurationStats& c = out.stats[2];
  EXPECT_EQ(std::vector<int64_t>({c.total, c.count, c.med, c.min, c.max}), (std::vector<int64_t>{0, 1, 0, 0, 0}));
  EXPECT_EQ(out.stats[3].count, 0);
}

TEST(Intervals, UnionByGroupSortedPerGroupInOnePass) {
  // Start order, two groups interleaved, one span left out (group none):
  //   g0: [0,10) [5,20) [30,40)   -> projection [0,40), union 20 + 10 = 30
  //   g1: [2,4) [4,6) [100,100)   -> projection [2,100), union 4 (touching join; empty adds 0)
  //   g2: nothing                 -> all zero
  const std::vector<int64_t> s = {0, 2, 4, 5, 7, 30, 100}, e = {10, 4, 6, 20, 8, 40, 100};
  const std::vector<uint32_t> g = {0, 1, 1, 0, kNoSpanGroup, 0, 1};
  const GroupUnions u = unionByGroupSorted(s, e, g, 3);
  EXPECT_EQ(u.start, (std::vector<int64_t>{0, 2, 0}));
  EXPECT_EQ(u.end, (std::vector<int64_t>{40, 100, 0}));
  EXPECT_EQ(u.active, (std::vector<int64_t>{30, 4, 0}));
  EXPECT_EQ(u.count, (std::vector<uint32_t>{3, 3, 0}));
}

TEST(Intervals, UncoveredLengthIsTheParentsIdleTime) {
  // A parent [0,100) whose children cover [10,30) and [50,60): idle 70;
  // a child reaching outside the parent counts only inside it.
  const std::vector<Span> blocks = {{10, 30}, {50, 60}};
  EXPECT_EQ(uncoveredLength({0, 100}, blocks), 70);
  EXPECT_EQ(uncoveredLength({20, 55}, blocks), 35 - 10 - 5);
  EXPECT_EQ(uncoveredLength({0, 100}, {}), 100);
  const std::vector<Span> wide = {{-5, 200}};
  EXPECT_EQ(uncoveredLength({0, 100}, wide), 0);
}

std::vector<std::pair<uint32_t, uint32_t>> enclosingPairs(const KeyedSpans& c, const KeyedSpans& q) {
  std::vector<std::pair<uint32_t, uint32_t>> out;
  forEachEnclosing(c, q, [&](uint32_t query, uint32_t container) { out.emplace_back(query, container); });
  return out;
}

TEST(Intervals, EnclosingNestedRangesOnTwoThreads) {
  // Thread 1: outer [0,100), mid [10,50), inner [20,30); thread 2: other [0,100).
  const std::vector<int64_t> ck = {1, 1, 1, 2}, cs = {0, 10, 20, 0}, ce = {100, 50, 30, 100};
  // Calls: thread 1 [20,30) (exactly inner), [25,60) (crosses mid's end), [100,100)
  // at outer's end; thread 2 [5,6).
  const std::vector<int64_t> qk = {1, 1, 1, 2}, qs = {20, 25, 100, 5}, qe = {30, 60, 100, 6};
  auto pairs = enclosingPairs({ck, cs, ce}, {qk, qs, qe});
  // Grouped by query in (key, start) order; containers in start order.
  EXPECT_EQ(pairs, (std::vector<std::pair<uint32_t, uint32_t>>{{0, 0}, {0, 1}, {0, 2}, {1, 0}, {2, 0}, {3, 3}}));
}

TEST(Intervals, InnermostEnclosingPrefersLatestStartThenShorter) {
  // outer [0,100), a [10,40), b [10,20) (same start, shorter), c [50,60)
  const std::vector<int64_t> ck = {7, 7, 7, 7}, cs = {0, 10, 10, 50}, ce = {100, 40, 20, 60};
  const std::vector<int64_t> pk = {7, 7, 7, 7, 7, 8}, pt = {15, 20, 40, 55, 100, 15};
  auto r = innermostEnclosing({ck, cs, ce}, pk, pt);
  // 15 -> b; 20 -> a (b ended, half-open); 40 -> outer; 55 -> c; 100 -> none; key 8 -> none.
  EXPECT_EQ(r, (std::vector<uint32_t>{2, 1, 0, 3, kNoContainer, kNoContainer}));
}

TEST(Intervals, OverlapComponentsAreTransitiveAndHalfOpen) {
  // [0,10) [5,20) [19,30): one chain; [30,40) only touches it; [35,36) inside
  // [30,40); [50,50) empty inside nothing; [60,70) and [65,65) empty inside it.
  const std::vector<Span> s = {{19, 30}, {0, 10}, {30, 40}, {5, 20}, {35, 36}, {50, 50}, {60, 70}, {65, 65}};
  auto c = overlapComponents(s);
  EXPECT_EQ(c, (std::vector<uint32_t>{0, 0, 1, 0, 1, 2, 3, 4}));
}

TEST(Intervals, OverlapComponentsOfSortedSpansNeedNoSort) {
  // PCCL kernels of four ranks in start order: a chain [0,10) [8,20) [19,25)
  // that only overlaps transitively; [25,30) touches it; [25,25) is empty;
  // [26,27) lies inside [25,30); a lone [40,41).
  const std::vector<Span> s = {{0, 10}, {8, 20}, {19, 25}, {25, 25}, {25, 30}, {26, 27}, {40, 41}};
  EXPECT_EQ(overlapComponentsSorted(s), (std::vector<uint32_t>{0, 0, 0, 1, 2, 2, 3}));
  EXPECT_TRUE(overlapComponentsSorted({}).empty());
}

TEST(Intervals, PairLatestOpenIsLastInFirstOutPerKey) {
  // Events in time order (order = 0..n-1 except where given):
  //  0 open k0   1 open k0   2 close k0 (ends 1, the latest)   3 close k0 (ends 0)
  //  4 close k0  (a second close: k0 was opened before)
  //  5 close k1  (never opened)   6 open k1   7 close k1 (ends 6)   8 open k2 (never closed)
  const std::vector<uint32_t> key = {0, 0, 0, 0, 0, 1, 1, 1, 2};
  const std::vector<uint8_t> open = {1, 1, 0, 0, 0, 0, 1, 0, 1};
  std::vector<uint32_t> order(key.size());
  std::iota(order.begin(), order.end(), 0u);
  const OpenClosePairs p = pairLatestOpen(order, key, open, 3);
  constexpr uint32_t N = OpenClosePairs::kNone;
  EXPECT_EQ(p.partner, (std::vector<uint32_t>{3, 2, 1, 0, N, N, 7, 6, N}));
  EXPECT_EQ(p.closedBefore, (std::vector<uint8_t>{0, 0, 0, 0, 1, 0, 0, 0, 0}));

  // The order decides, not the index: the close (0) taken after the open (1).
  const std::vector<uint32_t> k2 = {0, 0};
  const std::vector<uint8_t> o2 = {0, 1};
  const OpenClosePairs q = pairLatestOpen(std::vector<uint32_t>{1, 0}, k2, o2, 1);
  EXPECT_EQ(q.partner, (std::vector<uint32_t>{1, 0}));
}

TEST(Intervals, HeldAtIsHalfOpen) {
  EXPECT_TRUE(heldAt({10, 20}, 10));
  EXPECT_TRUE(heldAt({10, 20}, 19));
  EXPECT_FALSE(heldAt({10, 20}, 20));
  EXPECT_FALSE(heldAt({10, 20}, 9));
  EXPECT_TRUE(heldAt({10, INT64_MAX}, INT64_MAX - 1));
}

TEST(Intervals, PairLatestOpenAgainstBruteForce) {
  std::mt19937_64 rng(777);
  constexpr uint32_t N = OpenClosePairs::kNone;
  for (int round = 0; round < 500; ++round) {
    const size_t n = 1 + rng() % 40, keys = 1 + rng() % 4;
    std::vector<uint32_t> key(n), order(n);
    std::vector<uint8_t> open(n);
    for (size_t i = 0; i < n; ++i) {
      key[i] = static_cast<uint32_t>(rng() % keys);
      open[i] = rng() % 2;
    }
    std::iota(order.begin(), order.end(), 0u);
    std::shuffle(order.begin(), order.end(), rng);
    // Brute force: for each close, scan back in order for the latest open of
    // its key that no earlier close took.
    std::vector<uint32_t> partner(n, N);
    std::vector<uint8_t> before(n, 0);
    for (size_t at = 0; at < n; ++at) {
      const uint32_t c = order[at];
      if (open[c]) continue;
      for (size_t back = at; back-- > 0;) {
        const uint32_t o = order[back];
        if (open[o] && key[o] == key[c] && partner[o] == N) {
          partner[o] = c;
          partner[c] = o;
          break;
        }
      }
      if (partner[c] == N)
        for (size_t back = 0; back < at; ++back) before[c] |= open[order[back]] && key[order[back]] == key[c];
    }
    const OpenClosePairs p = pairLatestOpen(order, key, open, keys);
    ASSERT_EQ(p.partner, partner) << "round " << round;
    ASSERT_EQ(p.closedBefore, before) << "round " << round;
  }
}

TEST(Intervals, RandomAgainstBruteForce) {
  std::mt19937_64 rng(12345);
  for (int round = 0; round < 300; ++round) {
    const int n = 1 + static_cast<int>(rng() % 30);
    std::vector<Span> s(n);
    for (auto& x : s) {
      x.start = static_cast<int64_t>(rng() % 200);
      x.end = x.start + static_cast<int64_t>(rng() % 40) - 3;  // some empty or inverted
    }
    // Union: a bitmap of covered nanoseconds.
    std::vector<bool> covered(300, false);
    for (const auto& x : s)
      for (int64_t t = x.start; t < x.end; ++t) covered[t] = true;
    int64_t expected = 0;
    for (bool b : covered) expected += b;
    std::vector<Span> merged = s;
    mergeSpans(merged);
    ASSERT_EQ(totalLength(merged), expected);
    for (size_t i = 1; i < merged.size(); ++i) ASSERT_LT(merged[i - 1].end, merged[i].start);
    std::vector<Span> sorted = s;
    std::sort(sorted.begin(), sorted.end(), [](const Span& a, const Span& b) { return a.start < b.start; });
    ASSERT_EQ(unionLengthSorted(sorted), expected);
    const int64_t from = static_cast<int64_t>(rng() % 150), to = from + static_cast<int64_t>(rng() % 150);
    int64_t inWindow = 0;
    for (int64_t t = from; t < to; ++t) inWindow += covered[t];
    ASSERT_EQ(coveredLength(merged, from, to), inWindow);

    // Components: union-find over all pairs that share a nanosecond.
    std::vector<int> parent(n);
    std::iota(parent.begin(), parent.end(), 0);
    std::function<int(int)> root = [&](int x) { return parent[x] == x ? x : parent[x] = root(parent[x]); };
    for (int a = 0; a < n; ++a)
      for (int b = a + 1; b < n; ++b)
        if (std::max(s[a].start, s[b].start) < std::min(s[a].end, s[b].end)) parent[root(a)] = root(b);
    auto comp = overlapComponents(s);
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < n; ++b) ASSERT_EQ(root(a) == root(b), comp[a] == comp[b]) << "round " << round;
    // The same partition from the sweep over start-ordered spans (ties in
    // input order, not by end), components numbered by first member.
    std::vector<uint32_t> byStart(n);
    std::iota(byStart.begin(), byStart.end(), 0u);
    std::stable_sort(byStart.begin(), byStart.end(), [&](uint32_t a, uint32_t b) { return s[a].start < s[b].start; });
    std::vector<Span> ordered(n);
    for (int i = 0; i < n; ++i) ordered[i] = s[byStart[i]];
    auto sortedComp = overlapComponentsSorted(ordered);
    uint32_t seen = 0;
    for (int i = 0; i < n; ++i) {
      ASSERT_LE(sortedComp[i], seen) << "round " << round;
      if (sortedComp[i] == seen) ++seen;
      for (int j = 0; j < n; ++j)
        ASSERT_EQ(root(byStart[i]) == root(byStart[j]), sortedComp[i] == sortedComp[j]) << "round " << round;
    }

    // Per-group unions: the bitmap of each of three groups' spans.
    {
      std::vector<uint32_t> byStart(n);
      std::iota(byStart.begin(), byStart.end(), 0u);
      std::stable_sort(byStart.begin(), byStart.end(), [&](uint32_t a, uint32_t b) { return s[a].start < s[b].start; });
      std::vector<int64_t> gs, ge;
      std::vector<uint32_t> gg;
      for (uint32_t i : byStart) {
        if (s[i].end < s[i].start) continue;  // activities never end before they start
        gs.push_back(s[i].start);
        ge.push_back(s[i].end);
        gg.push_back(rng() % 4 == 3 ? kNoSpanGroup : static_cast<uint32_t>(rng() % 3));
      }
      const GroupUnions u = unionByGroupSorted(gs, ge, gg, 3);
      for (uint32_t group = 0; group < 3; ++group) {
        std::vector<bool> bits(300, false);
        int64_t lo = INT64_MAX, hi = INT64_MIN;
        uint32_t count = 0;
        for (size_t i = 0; i < gs.size(); ++i) {
          if (gg[i] != group) continue;
          ++count;
          lo = std::min(lo, gs[i]);
          hi = std::max(hi, ge[i]);
          for (int64_t t = gs[i]; t < ge[i]; ++t) bits[t] = true;
        }
        int64_t union_ = 0;
        for (bool b : bits) union_ += b;
        ASSERT_EQ(u.count[group], count) << "round " << round;
        ASSERT_EQ(u.active[group], union_) << "round " << round;
        if (count > 0) {
          ASSERT_EQ(u.start[group], lo) << "round " << round;
          ASSERT_EQ(u.end[group], hi) << "round " << round;
          // Idle inside the projection: its length minus the union.
          std::vector<Span> mine;
          for (size_t i = 0; i < gs.size(); ++i)
            if (gg[i] == group) mine.push_back({gs[i], ge[i]});
          mergeSpans(mine);
          ASSERT_EQ(uncoveredLength({lo, hi}, mine), (hi - lo) - union_) << "round " << round;
        }
      }
    }

    // Containment: all pairs, keys 0..2.
    std::vector<int64_t> ck(n), cs(n), ce(n), qk(n), qs(n), qe(n);
    for (int i = 0; i < n; ++i) {
      ck[i] = static_cast<int64_t>(rng() % 3);
      cs[i] = s[i].start;
      ce[i] = s[i].end;
      qk[i] = static_cast<int64_t>(rng() % 3);
      qs[i] = static_cast<int64_t>(rng() % 200);
      qe[i] = qs[i] + static_cast<int64_t>(rng() % 20) - 1;
    }
    std::set<std::pair<uint32_t, uint32_t>> want;
    for (int q = 0; q < n; ++q)
      for (int c = 0; c < n; ++c)
        if (qe[q] >= qs[q] && ck[c] == qk[q] && cs[c] <= qs[q] && qe[q] <= ce[c]) want.insert({q, c});
    auto got = enclosingPairs({ck, cs, ce}, {qk, qs, qe});
    using PairSet = std::set<std::pair<uint32_t, uint32_t>>;
    ASSERT_EQ(PairSet(got.begin(), got.end()), want) << "round " << round;
    ASSERT_EQ(got.size(), want.size());  // no pair twice
  }
}

}  // namespace
}  // namespace asys
