#pragma once
// PCCL communications and how far out of step their kernels ran (sections
// 2.3.18 and 2.3.19 of the rule documentation): kernels whose executions
// overlap in time, transitively and half-open, over all devices and
// processes, form one communication (intervals.h: overlapComponentsSorted).
//   Duration = first start to last end;
//   Overlap  = the time every kernel of the group runs: min end - max start,
//              0 if negative (a group chained only by transitive overlap);
//   Desync Rate = (Duration - Overlap) / Duration, kept as an exact
//              fraction. A lone kernel is a group of one: Overlap = Duration,
//              rate 0; a group of zero length has rate 0 too.
#include <cstdint>
#include <span>
#include <vector>

namespace asys {

struct DesyncGroup {
  int64_t start = 0, end = 0;  // first start, last end
  int64_t overlap = 0;
  uint32_t first = 0;  // the member that started first (the lowest index on a tie)
  uint32_t last = 0;   // the member that started last; a tie goes to the later end, then the higher index
  uint32_t count = 0;
  int64_t minDuration = 0, maxDuration = 0, totalDuration = 0;  // of the members
  int64_t duration() const { return end - start; }
  // The rate as a fraction: (Duration - Overlap) / Duration, 0 / 1 when empty.
  int64_t rateNumerator() const { return end > start ? duration() - overlap : 0; }
  int64_t rateDenominator() const { return end > start ? duration() : 1; }
};

// Groups intervals given in start order (ties in any order); members are
// indices into `start` / `end`. Groups come in the order of their first
// member.
std::vector<DesyncGroup> desyncGroups(std::span<const int64_t> start, std::span<const int64_t> end);

// Exact order of two groups' rates: <0, 0, >0.
int compareDesyncRate(const DesyncGroup& a, const DesyncGroup& b);

// A rate in percent with one decimal, rounded half away from zero, exactly.
double desyncPercent(const DesyncGroup& g);

// The statistics of pccl_desync_summary over some groups' rates, in percent
// with one decimal: P90 (nearest rank: the ceil(0.9 n)-th smallest), Min,
// Max and Med exact (an even count's median is the exact mean of the middle
// two); Avg and StdDev (population) from the exact rates in double precision,
// rounded half away from zero, a value within 1e-9 of a half counting as the
// half (so 12.25 % prints 12.3 as the exact value would).
struct DesyncRateStats {
  double p90 = 0, avg = 0, med = 0, min = 0, max = 0, stddev = 0;
};
// `groups` is reordered (by rate).
DesyncRateStats desyncRateStats(std::span<const DesyncGroup*> groups);

}  // namespace asys
