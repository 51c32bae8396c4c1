#include "core/analysis/stats.h"

#include <algorithm>
#include <cmath>

#include "core/analysis/grouped_values.h"
#include "core/base/group_in_place.h"

namespace asys {

namespace {

using u128 = unsigned __int128;

// Largest r with r*r <= v.
u128 isqrt(u128 v) {
  if (v == 0) return 0;
  u128 r = static_cast<u128>(std::sqrt(static_cast<long double>(v)));
  while (r * r > v) --r;
  while ((r + 1) * (r + 1) <= v) ++r;
  return r;
}

}  // namespace

int64_t populationStdDev(std::span<const int64_t> values, int64_t total) {
  const size_t n = values.size();
  if (n < 2) return 0;
  // Var * n^2 = n * sum((x - mean)^2) ... computed as sum((n*x - total)^2) / n,
  // all in integers: sd = sqrt(sum((n x - T)^2)) / n^(3/2). To stay exact we
  // use sd = floor(sqrt(S / n) / n) with S = sum((n x - T)^2), and
  // floor(sqrt(S/n)/n) == floor(isqrt(floor(S/n)) / n).
  // Each term (n x - T) fits easily; S can exceed 128 bits only for absurd
  // inputs, in which case we fall back to long double.
  u128 s = 0;
  bool overflow = false;
  const __int128 nn = static_cast<__int128>(n);
  for (int64_t x : values) {
    const __int128 d = nn * x - total;
    const u128 ad = static_cast<u128>(d < 0 ? -d : d);
    // |d| < 2^64 keeps d^2 below 2^128; a sum that wraps is smaller than
    // its last term. No 128-bit division in the loop.
    if (ad >> 64) { overflow = true; break; }
    const u128 sq = ad * ad;
    s += sq;
    if (s < sq) { overflow = true; break; }
  }
  if (!overflow) return static_cast<int64_t>(isqrt(s / n) / n);
  long double mean = static_cast<long double>(total) / n, acc = 0;
  for (int64_t x : values) acc += (x - mean) * (x - mean);
  return static_cast<int64_t>(std::sqrt(acc / n));
}

DurationStats summarize(std::span<int64_t> values) {
  DurationStats s;
  const size_t n = values.size();
  if (n == 0) return s;
  s.count = static_cast<int64_t>(n);
  s.min = s.max = values[0];
  for (int64_t v : values) {
    s.total += v;
    s.min = std::min(s.min, v);
    s.max = std::max(s.max, v);
  }
  s.avg = s.total / s.count;
  s.stddev = populationStdDev(values, s.total);
  auto mid = values.begin() + n / 2;
  std::nth_element(values.begin(), mid, values.end());
  if (n % 2 == 1) {
    s.med = *mid;
  } else {
    int64_t upper = *mid;
    int64_t lower = *std::max_element(values.begin(), mid);
    s.med = static_cast<int64_t>((static_cast<__int128>(lower) + upper) / 2);
  }
  return s;
}

double percent1(int64_t part, int64_t whole) { return scaledRound1(part, whole, 100); }

double ratio1(int64_t part, int64_t whole) { return scaledRound1(part, whole, 1); }

double scaledRound1(int64_t part, int64_t whole, int64_t scale) {
  if (whole == 0) return 0.0;
  __int128 num = static_cast<__int128>(part) * scale * 10;
  __int128 q = num / whole, r = num % whole;
  // Half away from zero: round up the magnitude when 2|r| >= |whole|.
  __int128 ar = r < 0 ? -r : r, aw = whole < 0 ? -static_cast<__int128>(whole) : whole;
  if (2 * ar >= aw) q += ((num < 0) != (whole < 0)) ? -1 : 1;
  return static_cast<double>(q) / 10.0;
}

std::vector<DurationStats> summarizeGroups(std::span<const uint32_t> groupOf,
                                           std::span<const int64_t> values, size_t groupCount) {
  GroupedValues grouped(groupCount);
  for (uint32_t g : groupOf) grouped.count(g);
  grouped.startFill(groupCount);
  for (size_t i = 0; i < values.size(); ++i) grouped.add(groupOf[i], values[i]);
  return summarizeEach(grouped);
}

std::vector<DurationStats> summarizeGroupsInPlace(std::vector<uint32_t>& groupOf, std::vector<int64_t>& values,
                                                  size_t groupCount) {
  const std::vector<size_t> begin = groupInPlace(groupOf, groupCount, values);
  std::vector<uint32_t>().swap(groupOf);
  std::vector<DurationStats> stats(groupCount);
  for (size_t g = 0; g < groupCount; ++g)
    stats[g] = summarize(std::span<int64_t>(values.data() + begin[g], begin[g + 1] - begin[g]));
  std::vector<int64_t>().swap(values);
  return stats;
}

}  // namespace asys

namespace asys {

double round1Near(double value) {
  const double x = value * 10.0;
  double q = std::floor(x);
  if (x - q >= 0.5 - 1e-9) q += 1;
  return q / 10.0;
}

}  // namespace asys
