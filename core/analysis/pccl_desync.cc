// The rate averages are sums of doubles: no fused multiply-add, so the
// CLI and the WebAssembly engine round them alike.
#include "core/base/fp_contract.h"
//
#include "core/analysis/pccl_desync.h"

#include <algorithm>
#include <cmath>

#include "core/analysis/intervals.h"
#include "core/analysis/stats.h"

namespace asys {

namespace {

using i128 = __int128;

// num / den (both >= 0, den > 0) in percent, one decimal, half away from zero.
double percent1Wide(i128 num, i128 den) {
  // num * 1000 must fit: fine for durations below 2^60 ns, far beyond any capture.
  const i128 limit = (static_cast<i128>(1) << 116);
  if (num >= limit || den >= limit) return std::round(static_cast<double>(num) / static_cast<double>(den) * 1000) / 10;
  const i128 scaled = num * 1000;
  i128 q = scaled / den;
  if (2 * (scaled % den) >= den) ++q;
  return static_cast<double>(q) / 10.0;
}

// A fraction in [0, 1] -> percent, one decimal, half away from zero, where a
// value within 1e-9 of a half is the half (double sums of exact quotients).
double percent1Near(double fraction) {
  const double x = fraction * 1000.0;
  double q = std::floor(x);
  if (x - q >= 0.5 - 1e-9) q += 1;
  return q / 10.0;
}

}  // namespace

std::vector<DesyncGroup> desyncGroups(std::span<const int64_t> start, std::span<const int64_t> end) {
  const size_t n = start.size();
  std::vector<Span> spans(n);
  for (size_t i = 0; i < n; ++i) spans[i] = {start[i], end[i]};
  const std::vector<uint32_t> component = overlapComponentsSorted(spans);
  uint32_t groups = 0;
  for (uint32_t c : component) groups = std::max(groups, c + 1);
  std::vector<DesyncGroup> out(groups);
  std::vector<int64_t> minEnd(groups), maxStart(groups);
  for (uint32_t i = 0; i < n; ++i) {
    DesyncGroup& g = out[component[i]];
    const int64_t d = end[i] - start[i];
    if (g.count++ == 0) {
      g.start = start[i];
      g.end = end[i];
      g.first = g.last = i;
      g.minDuration = g.maxDuration = d;
      minEnd[component[i]] = end[i];
      maxStart[component[i]] = start[i];
    } else {
      // Members come in start order: the first is the first seen.
      g.end = std::max(g.end, end[i]);
      minEnd[component[i]] = std::min(minEnd[component[i]], end[i]);
      maxStart[component[i]] = std::max(maxStart[component[i]], start[i]);
      if (start[i] > start[g.last] || (start[i] == start[g.last] && end[i] >= end[g.last])) g.last = i;
      g.minDuration = std::min(g.minDuration, d);
      g.maxDuration = std::max(g.maxDuration, d);
    }
    g.totalDuration += d;
  }
  for (uint32_t c = 0; c < groups; ++c) out[c].overlap = std::max<int64_t>(0, minEnd[c] - maxStart[c]);
  return out;
}

int compareDesyncRate(const DesyncGroup& a, const DesyncGroup& b) {
  const i128 l = static_cast<i128>(a.rateNumerator()) * b.rateDenominator();
  const i128 r = static_cast<i128>(b.rateNumerator()) * a.rateDenominator();
  return l < r ? -1 : l > r ? 1 : 0;
}

double desyncPercent(const DesyncGroup& g) { return percent1Wide(g.rateNumerator(), g.rateDenominator()); }

DesyncRateStats desyncRateStats(std::span<const DesyncGroup*> groups) {
  DesyncRateStats s;
  const size_t n = groups.size();
  if (n == 0) return s;
  std::sort(groups.begin(), groups.end(),
            [](const DesyncGroup* a, const DesyncGroup* b) { return compareDesyncRate(*a, *b) < 0; });
  s.min = desyncPercent(*groups.front());
  s.max = desyncPercent(*groups.back());
  s.p90 = desyncPercent(*groups[(9 * n + 9) / 10 - 1]);  // index ceil(0.9 n) - 1
  if (n % 2 == 1) {
    s.med = desyncPercent(*groups[n / 2]);
  } else {
    // (a/b + c/d) / 2 = (a d + c b) / (2 b d), exactly.
    const DesyncGroup& x = *groups[n / 2 - 1];
    const DesyncGroup& y = *groups[n / 2];
    const i128 num = static_cast<i128>(x.rateNumerator()) * y.rateDenominator() +
                     static_cast<i128>(y.rateNumerator()) * x.rateDenominator();
    const i128 den = 2 * static_cast<i128>(x.rateDenominator()) * y.rateDenominator();
    s.med = percent1Wide(num, den);
  }
  // Avg and StdDev: each rate the correctly rounded double of its exact
  // quotient, summed with compensation (Neumaier), in the groups' rate order
  // so the result does not depend on the input order.
  std::vector<double> rate(n);
  for (size_t i = 0; i < n; ++i)
    rate[i] = static_cast<double>(groups[i]->rateNumerator()) / static_cast<double>(groups[i]->rateDenominator());
  auto compensatedSum = [&](auto term) {
    double sum = 0, carry = 0;
    for (size_t i = 0; i < n; ++i) {
      const double t = term(rate[i]);
      const double next = sum + t;
      carry += std::fabs(sum) >= std::fabs(t) ? (sum - next) + t : (t - next) + sum;
      sum = next;
    }
    return sum + carry;
  };
  const double mean = compensatedSum([](double r) { return r; }) / static_cast<double>(n);
  const double variance = compensatedSum([&](double r) { return (r - mean) * (r - mean); }) / static_cast<double>(n);
  s.avg = percent1Near(mean);
  s.stddev = percent1Near(std::sqrt(variance));
  return s;
}

}  // namespace asys
