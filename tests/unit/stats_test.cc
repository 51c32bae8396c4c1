// The statistics primitives against values worked out by hand, including the
// seed checks of docs/output-conventions (shared/spec/output-conventions.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/analysis/stats.h"

using asys::DurationStats;

namespace {
DurationStats of(std::vector<int64_t> v) { return asys::summarize(v); }
}  // namespace

TEST(Summarize, AverageTruncatesTowardZero) {
  // Seed check: 8036961 ns over 2 prints 4018480 (4018480.5).
  EXPECT_EQ(of({4562345, 3474616}).avg, 4018480);
  // 7 / 3 = 2.33 -> 2; 8 / 3 = 2.67 -> 2.
  EXPECT_EQ(of({1, 2, 4}).avg, 2);
  EXPECT_EQ(of({2, 2, 4}).avg, 2);
}

TEST(Summarize, MedianOfEvenCountIsTruncatedMeanOfMiddlePair) {
  EXPECT_EQ(of({4562345, 3474616}).med, 4018480);  // (3474616 + 4562345) / 2 = 4018480.5
  EXPECT_EQ(of({10, 1, 4, 7}).med, 5);             // middle pair 4, 7 -> 5.5 -> 5
  EXPECT_EQ(of({9, 1, 5}).med, 5);
  EXPECT_EQ(of({42}).med, 42);
}

TEST(Summarize, PopulationStdDevTruncated) {
  // Seed check: 4562345 and 3474616 -> 543864 (a sample deviation would be 769152).
  EXPECT_EQ(of({4562345, 3474616}).stddev, 543864);
  EXPECT_EQ(of({7}).stddev, 0);
  // {2,4,4,4,5,5,7,9}: mean 5, squared deviations sum 32, /8 = 4 -> 2 exactly.
  EXPECT_EQ(of({2, 4, 4, 4, 5, 5, 7, 9}).stddev, 2);
  // {1,2}: variance 0.25 -> 0.5 -> 0. {1,4}: variance 2.25 -> 1.5 -> 1.
  EXPECT_EQ(of({1, 2}).stddev, 0);
  EXPECT_EQ(of({1, 4}).stddev, 1);
}

TEST(Summarize, MinMaxTotalCount) {
  DurationStats s = of({5, 3, 9, 1});
  EXPECT_EQ(s.total, 18);
  EXPECT_EQ(s.count, 4);
  EXPECT_EQ(s.min, 1);
  EXPECT_EQ(s.max, 9);
}

TEST(Percent, RoundsHalfAwayFromZeroExactly) {
  EXPECT_DOUBLE_EQ(asys::percent1(1, 8), 12.5);
  EXPECT_DOUBLE_EQ(asys::percent1(1, 16), 6.3);  // 6.25 -> 6.3
  EXPECT_DOUBLE_EQ(asys::percent1(1, 3), 33.3);
  EXPECT_DOUBLE_EQ(asys::percent1(2, 3), 66.7);
  EXPECT_DOUBLE_EQ(asys::percent1(0, 5), 0.0);
  EXPECT_DOUBLE_EQ(asys::percent1(5, 5), 100.0);
  // 1225 of 10000 is 12.25 %: decimal half, must go up even though 12.25 is
  // not representable in binary.
  EXPECT_DOUBLE_EQ(asys::percent1(1225, 10000), 12.3);
  EXPECT_DOUBLE_EQ(asys::percent1(-1, 16), -6.3);
  EXPECT_DOUBLE_EQ(asys::percent1(3, 0), 0.0);
}

TEST(SummarizeGroups, GroupsByIndex) {
  std::vector<uint32_t> group = {0, 1, 0, 1, 1};
  std::vector<int64_t> value = {10, 1, 30, 2, 6};
  auto s = asys::summarizeGroups(group, value, 2);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].total, 40);
  EXPECT_EQ(s[0].med, 20);
  EXPECT_EQ(s[0].stddev, 10);
  EXPECT_EQ(s[1].total, 9);
  EXPECT_EQ(s[1].avg, 3);
  EXPECT_EQ(s[1].med, 2);
  EXPECT_EQ(s[1].min, 1);
  EXPECT_EQ(s[1].max, 6);
}

// Counting selection against summarize() of each group's own values, with
// values in several groups at once (as a kernel in nested ranges): a brute
// force that holds every group's list.
TEST(GroupSummaries, EqualsSummarizeOfEachGroupsValues) {
  uint64_t seed = 12345;
  auto next = [&] { return seed = seed * 6364136223846793005ull + 1442695040888963407ull, seed >> 33; };
  for (int round = 0; round < 20; ++round) {
    const size_t n = 1 + next() % 300, groups = 1 + next() % 12;
    std::vector<int64_t> value(n);
    std::vector<std::vector<uint32_t>> groupsOf(n);
    std::vector<std::vector<int64_t>> lists(groups);
    for (size_t i = 0; i < n; ++i) {
      // Few distinct values, so ties and equal middles occur; some negative.
      value[i] = static_cast<int64_t>(next() % (round % 2 ? 7 : 100000)) - (round % 5 == 0 ? 3 : 0);
      for (uint32_t g = 0; g < groups; ++g)
        if (next() % 3 == 0) {
          groupsOf[i].push_back(g);
          lists[g].push_back(value[i]);
        }
    }
    asys::GroupSummaries s(groups);
    for (size_t i = 0; i < n; ++i)
      for (uint32_t g : groupsOf[i]) s.count(g, value[i]);
    for (uint32_t i : asys::ascendingOrder(n, [&](size_t k) { return value[k]; }))
      for (uint32_t g : groupsOf[i]) s.rank(g, value[i]);
    const std::vector<DurationStats> got = s.finish();
    for (uint32_t g = 0; g < groups; ++g) {
      const DurationStats want = asys::summarize(lists[g]);
      SCOPED_TRACE("round " + std::to_string(round) + " group " + std::to_string(g));
      EXPECT_EQ(got[g].count, want.count);
      EXPECT_EQ(got[g].total, want.total);
      EXPECT_EQ(got[g].avg, want.avg);
      EXPECT_EQ(got[g].med, want.med);
      EXPECT_EQ(got[g].min, want.min);
      EXPECT_EQ(got[g].max, want.max);
      EXPECT_EQ(got[g].stddev, want.stddev);
    }
  }
}

TEST(GroupSummaries, HandWorkedMedianAndStdDev) {
  // Group 0: 10 1 4 7 -> median (4 + 7) / 2 = 5, mean 5.5, variance 11.25,
  // sd 3.35 -> 3. Group 1: 4 7 9 -> median 7.
  asys::GroupSummaries s(2);
  const std::vector<int64_t> v{10, 1, 4, 7, 9};
  const std::vector<std::vector<uint32_t>> in{{0}, {0}, {0, 1}, {0, 1}, {1}};
  for (size_t i = 0; i < v.size(); ++i)
    for (uint32_t g : in[i]) s.count(g, v[i]);
  for (uint32_t i : asys::ascendingOrder(v.size(), [&](size_t k) { return v[k]; }))
    for (uint32_t g : in[i]) s.rank(g, v[i]);
  const auto out = s.finish();
  EXPECT_EQ(out[0].med, 5);
  EXPECT_EQ(out[0].stddev, 3);
  EXPECT_EQ(out[1].med, 7);
  EXPECT_EQ(out[1].count, 3);
}

TEST(AscendingOrder, PackedAndPairKeysAgreeWithAStableSort) {
  // A spread under 2^61 packs with 3 index bits; INT64_MIN..INT64_MAX needs pairs.
  for (const std::vector<int64_t>& v : {std::vector<int64_t>{5, -2, 5, 0, -2, 9, 1},
                                        std::vector<int64_t>{INT64_MAX, 3, INT64_MIN, 3, 0, INT64_MIN, 7}}) {
    std::vector<uint32_t> want(v.size());
    for (size_t i = 0; i < v.size(); ++i) want[i] = static_cast<uint32_t>(i);
    std::stable_sort(want.begin(), want.end(), [&](uint32_t a, uint32_t b) { return v[a] < v[b]; });
    EXPECT_EQ(asys::ascendingOrder(v.size(), [&](size_t k) { return v[k]; }), want);
  }
}
