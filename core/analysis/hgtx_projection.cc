#include "core/analysis/hgtx_projection.h"

#include <algorithm>

#include "core/analysis/intervals.h"

namespace asys {

RangeProjections projectRanges(const PpuActivities& act, const HgtxAssociation& as) {
  const size_t n = as.ranges.size();
  RangeProjections p;
  p.start.assign(n, 0);
  p.end.assign(n, 0);
  p.active.assign(n, 0);
  p.ops.assign(n, 0);
  const ActivitiesByRange byRange = activitiesByRange(as);
  std::vector<Span> spans;  // reused for every range
  for (size_t r = 0; r < n; ++r) {
    const auto list = byRange.of(r);
    if (list.empty()) continue;
    // A range's activities come in start order: the union is one pass.
    spans.clear();
    int64_t last = act.end[list[0]];
    for (uint32_t a : list) {
      spans.push_back({act.start[a], act.end[a]});
      last = std::max(last, act.end[a]);
    }
    p.start[r] = act.start[list[0]];
    p.end[r] = last;
    p.active[r] = unionLengthSorted(spans);
    p.ops[r] = static_cast<uint32_t>(list.size());
  }
  return p;
}

}  // namespace asys
