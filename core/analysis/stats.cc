#include "core/analysis/stats.h"

#include <algorithm>
#include <cmath>

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
  std::vector<size_t> begin(groupCount + 1, 0);
  for (uint32_t g : groupOf) ++begin[g + 1];
  for (size_t g = 0; g < groupCount; ++g) begin[g + 1] += begin[g];
  std::vector<int64_t> sorted(values.size());
  std::vector<size_t> cursor(begin.begin(), begin.end() - 1);
  for (size_t i = 0; i < values.size(); ++i) sorted[cursor[groupOf[i]]++] = values[i];
  std::vector<DurationStats> out(groupCount);
  for (size_t g = 0; g < groupCount; ++g) {
    out[g] = summarize(std::span<int64_t>(sorted.data() + begin[g], begin[g + 1] - begin[g]));
  }
  return out;
}

void GroupSummaries::count(uint32_t group, int64_t value) {
  DurationStats& s = g_[group].s;
  if (s.count == 0) s.min = s.max = value;
  ++s.count;
  s.total += value;
  s.min = std::min(s.min, value);
  s.max = std::max(s.max, value);
}

void GroupSummaries::rank(uint32_t group, int64_t value) {
  Group& g = g_[group];
  const int64_t n = g.s.count;
  ++g.ranked;
  // The median: the middle value, or the mean of the two middle ones.
  if (n % 2 == 1 && g.ranked == n / 2 + 1) g.s.med = value;
  if (n % 2 == 0 && g.ranked == n / 2) g.lower = value;
  if (n % 2 == 0 && g.ranked == n / 2 + 1)
    g.s.med = static_cast<int64_t>((static_cast<__int128>(g.lower) + value) / 2);
  // populationStdDev's sum, term by term (a sum of non-negative terms wraps
  // past 128 bits whatever their order).
  if (g.overflow) {
    const long double d = value - static_cast<long double>(g.s.total) / n;
    g.spread += d * d;
    return;
  }
  const __int128 d = static_cast<__int128>(n) * value - g.s.total;
  const unsigned __int128 ad = static_cast<unsigned __int128>(d < 0 ? -d : d);
  const unsigned __int128 sq = ad * ad;
  if ((ad >> 64) == 0 && g.squares + sq >= sq) {
    g.squares += sq;
    return;
  }
  // Past 128 bits (absurd durations): on in long double, as
  // populationStdDev falls back, from the exact sum so far, (n x - T)^2 / n^2
  // being (x - mean)^2.
  g.overflow = true;
  const long double nn = static_cast<long double>(n);
  const long double mean = static_cast<long double>(g.s.total) / nn;
  g.spread = static_cast<long double>(g.squares) / (nn * nn) + (value - mean) * (value - mean);
}

std::vector<DurationStats> GroupSummaries::finish() const {
  std::vector<DurationStats> out(g_.size());
  for (size_t i = 0; i < g_.size(); ++i) {
    const Group& g = g_[i];
    DurationStats s = g.s;
    if (s.count > 0) {
      s.avg = s.total / s.count;
      const size_t n = static_cast<size_t>(s.count);
      if (n < 2) s.stddev = 0;
      else if (!g.overflow) s.stddev = static_cast<int64_t>(isqrt(g.squares / n) / n);
      else s.stddev = static_cast<int64_t>(std::sqrt(g.spread / n));
    }
    out[i] = s;
  }
  return out;
}

namespace stats_detail {

std::vector<uint32_t> sortPacked(std::vector<uint64_t>& keys, int indexBits) {
  std::sort(keys.begin(), keys.end());
  const uint64_t mask = (uint64_t{1} << indexBits) - 1;
  std::vector<uint32_t> order(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) order[i] = static_cast<uint32_t>(keys[i] & mask);
  return order;
}

std::vector<uint32_t> sortPairs(std::vector<std::pair<int64_t, uint32_t>>& keys) {
  std::sort(keys.begin(), keys.end());
  std::vector<uint32_t> order(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) order[i] = keys[i].second;
  return order;
}

}  // namespace stats_detail

}  // namespace asys

namespace asys {

double round1Near(double value) {
  const double x = value * 10.0;
  double q = std::floor(x);
  if (x - q >= 0.5 - 1e-9) q += 1;
  return q / 10.0;
}

}  // namespace asys
