#pragma once
// The union length of spans inside [a, b), by brute force (clip, sort,
// sweep): the independent answer the occupancy tests check the engine's
// checkpointed walks against.
#include <algorithm>
#include <climits>
#include <cstdint>
#include <utility>
#include <vector>

namespace asys::test {

inline int64_t bruteUnionIn(const std::vector<std::pair<int64_t, int64_t>>& spans, int64_t a, int64_t b) {
  std::vector<std::pair<int64_t, int64_t>> c;
  for (auto [s, e] : spans) {
    s = std::max(s, a);
    e = std::min(e, b);
    if (s < e) c.push_back({s, e});
  }
  std::sort(c.begin(), c.end());
  int64_t total = 0, openS = 0, openE = INT64_MIN;
  for (const auto& [s, e] : c) {
    if (openE != INT64_MIN && s <= openE) {
      openE = std::max(openE, e);
      continue;
    }
    if (openE != INT64_MIN) total += openE - openS;
    openS = s;
    openE = e;
  }
  if (openE != INT64_MIN) total += openE - openS;
  return total;
}

}  // namespace asys::test
