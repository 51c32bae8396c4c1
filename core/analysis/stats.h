#pragma once
// Statistics as the rule documentation prints them: integer nanoseconds (or
// bytes) truncated toward zero, population standard deviation, percentages
// with one decimal rounded half away from zero.
#include <cstddef>
#include <cstdint>
#include <span>
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

// The same for a caller that owns the memberships and needs them no more:
// the values are grouped in place (swapped into their group's place, no
// copy), so the memory is theirs and one index each, not twice the values;
// `groupOf` and `values` are given back emptied.
std::vector<DurationStats> summarizeGroupsInPlace(std::vector<uint32_t>& groupOf, std::vector<int64_t>& values,
                                                  size_t groupCount);

}  // namespace asys
