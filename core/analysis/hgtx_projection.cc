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
  // Activities come in start order, so each range's union is carried as one
  // open block while they pass (two words a range), never as a list of the
  // range's activities: a later activity that starts past the block's end
  // closes it. A block has a positive length; {0, 0} is none yet. An empty
  // activity covers no time (as in unionLengthSorted).
  std::vector<Span> open(n);
  for (size_t a = 0; a < act.size(); ++a) {
    const int64_t start = act.start[a], end = act.end[a];
    for (uint32_t r : as.rangesOf(a)) {
      if (p.ops[r]++ == 0) {
        p.start[r] = start;
        p.end[r] = end;
      }
      p.end[r] = std::max(p.end[r], end);
      if (end <= start) continue;
      Span& block = open[r];
      if (block.length() > 0 && start <= block.end) {
        block.end = std::max(block.end, end);
      } else {
        p.active[r] += block.length();
        block = {start, end};
      }
    }
  }
  for (size_t r = 0; r < n; ++r) p.active[r] += open[r].length();
  return p;
}

}  // namespace asys
