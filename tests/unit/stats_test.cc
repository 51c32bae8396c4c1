// The statistics primitives against values worked out by hand, including the
// seed checks of docs/output-conventions (shared/spec/output-conventions.md).
#include <gtest/gtest.h>

#include <vector>

#include "core/analysis/grouped_values.h"
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

// GroupedValues: the same memberships counted, then filled in another order;
// each group's statistics worked out by hand.
TEST(GroupedValues, TwoPassesGroupTheValues) {
  const std::vector<std::pair<uint32_t, int64_t>> memberships = {{2, 30}, {0, 5}, {2, 10}, {0, 1}, {2, 20}, {0, 9}};
  asys::GroupedValues grouped;
  for (const auto& [g, v] : memberships) grouped.count(g);
  grouped.startFill(4);  // group 1 has no value; group 3 was never seen
  for (auto it = memberships.rbegin(); it != memberships.rend(); ++it) grouped.add(it->first, it->second);
  const std::vector<DurationStats> s = asys::summarizeEach(grouped);
  ASSERT_EQ(s.size(), 4u);
  EXPECT_EQ(s[0].count, 3);
  EXPECT_EQ(s[0].total, 15);
  EXPECT_EQ(s[0].med, 5);
  EXPECT_EQ(s[0].min, 1);
  EXPECT_EQ(s[0].max, 9);
  EXPECT_EQ(s[1].count, 0);
  EXPECT_EQ(s[2].count, 3);
  EXPECT_EQ(s[2].total, 60);
  EXPECT_EQ(s[2].med, 20);
  EXPECT_EQ(s[2].stddev, 8);  // population variance 200/3 = 66.7, sqrt 8.16
  EXPECT_EQ(s[3].count, 0);
}
