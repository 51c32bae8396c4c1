#pragma once
// A sort-merge equi-join for the table links of a report (an activity to
// the API call with its correlation id, a graph node to its creation): one
// sort of the build side and a binary search per probe, instead of a hash
// map of millions of nodes.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

namespace asys {

constexpr uint32_t kNoMatch = 0xFFFFFFFFu;

// For each probe row p (0..probeCount-1), the build row with buildKey(b) ==
// probeKey(p) that comes first in build order, or kNoMatch. A probe whose
// `skip(p)` is true matches nothing. Keys are any totally ordered value
// (a std::pair of ids, say).
template <typename BuildKey, typename ProbeKey, typename Skip>
std::vector<uint32_t> joinFirst(size_t buildCount, BuildKey buildKey, size_t probeCount, ProbeKey probeKey,
                                Skip skip) {
  std::vector<uint32_t> byKey(buildCount);
  std::iota(byKey.begin(), byKey.end(), 0u);
  // Stable: with a duplicated key, the first row in build order wins.
  std::stable_sort(byKey.begin(), byKey.end(), [&](uint32_t a, uint32_t b) { return buildKey(a) < buildKey(b); });
  std::vector<uint32_t> result(probeCount, kNoMatch);
  for (size_t p = 0; p < probeCount; ++p) {
    if (skip(p)) continue;
    const auto key = probeKey(p);
    auto it = std::lower_bound(byKey.begin(), byKey.end(), key,
                               [&](uint32_t b, const auto& v) { return buildKey(b) < v; });
    if (it != byKey.end() && buildKey(*it) == key) result[p] = *it;
  }
  return result;
}

}  // namespace asys
