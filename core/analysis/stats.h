#pragma once
// Statistics as the rule documentation prints them: integer nanoseconds (or
// bytes) truncated toward zero, population standard deviation, percentages
// with one decimal rounded half away from zero.
#include <algorithm>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace asys {

struct DurationStats {
  int64_t total = 0, count = 0, avg = 0, med = 0, min = 0, max = 0, stddev = 0;
};

// Summarises `values` (reordered in place: median by selection, no full sort).
DurationStats summarize(std::span<int64_t> values);

// floor(sqrt(population variance)), exact in 128-bit integers.
int64_t populationStdDev(std::span<const int64_t> values, int64_t total);

// part / whole as a percentage rounded half away from zero to one decimal,
// computed in integers so 12.25 % never becomes 12.2 through binary rounding.
double percent1(int64_t part, int64_t whole);
// part / whole to one decimal, rounded the same way (averages of counts).
double ratio1(int64_t part, int64_t whole);
// scale * part / whole to one decimal: the two above.
double scaledRound1(int64_t part, int64_t whole, int64_t scale);

// A non-negative value computed in floating point, to one decimal, half away
// from zero, a value within 1e-9 of a half counting as the half (so a
// quotient that is a half exactly, give or take the last bit, rounds up).
double round1Near(double value);

// Summaries of values grouped by a dense group index: one counting-sort pass
// places each group's values together, then each group is summarised.
std::vector<DurationStats> summarizeGroups(std::span<const uint32_t> groupOf,
                                           std::span<const int64_t> values, size_t groupCount);

// The same summaries without a list of each group's values, for values
// that belong to several groups at once (a kernel in every range around
// it): a first pass counts, a second takes the values in ascending order
// and picks each group's median when its running count reaches the middle
// (counting selection). Equal to summarize() on each group's values.
class GroupSummaries {
 public:
  explicit GroupSummaries(size_t groups) : g_(groups) {}
  size_t size() const { return g_.size(); }
  // Pass 1, values in any order.
  void count(uint32_t group, int64_t value);
  // Pass 2, every value of pass 1 again, in ascending order of value.
  void rank(uint32_t group, int64_t value);
  std::vector<DurationStats> finish() const;

 private:
  struct Group {
    DurationStats s;
    int64_t ranked = 0, lower = 0;
    unsigned __int128 squares = 0;  // sum of (n x - total)^2, as populationStdDev
    long double spread = 0;         // its fallback past 128 bits
    bool overflow = false;
  };
  std::vector<Group> g_;
};

// Indices 0..n-1 in ascending order of value(i), ties by index: what
// GroupSummaries::rank is fed in. Values and indices share one 64-bit key
// when their range allows (8 bytes a value while sorting), else pairs.
template <typename Value>
std::vector<uint32_t> ascendingOrder(size_t n, Value&& value);

namespace stats_detail {
std::vector<uint32_t> sortPacked(std::vector<uint64_t>& keys, int indexBits);
std::vector<uint32_t> sortPairs(std::vector<std::pair<int64_t, uint32_t>>& keys);
}  // namespace stats_detail

template <typename Value>
std::vector<uint32_t> ascendingOrder(size_t n, Value&& value) {
  if (n == 0) return {};
  int64_t lo = value(0), hi = lo;
  for (size_t i = 1; i < n; ++i) {
    const int64_t v = value(i);
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  int indexBits = 1;
  while ((size_t{1} << indexBits) < n) ++indexBits;
  const uint64_t spread = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);
  if (indexBits < 64 && spread < (uint64_t{1} << (64 - indexBits))) {
    std::vector<uint64_t> keys(n);
    for (size_t i = 0; i < n; ++i)
      keys[i] = ((static_cast<uint64_t>(value(i)) - static_cast<uint64_t>(lo)) << indexBits) | i;
    return stats_detail::sortPacked(keys, indexBits);
  }
  std::vector<std::pair<int64_t, uint32_t>> keys(n);
  for (size_t i = 0; i < n; ++i) keys[i] = {value(i), static_cast<uint32_t>(i)};
  return stats_detail::sortPairs(keys);
}

}  // namespace asys
