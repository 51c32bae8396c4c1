#include "core/analysis/hgtx_stacks.h"

#include <algorithm>
#include <charconv>
#include <numeric>
#include <tuple>

namespace asys {

namespace {

// The closed push/pop ranges, in event order.
std::vector<uint32_t> closedRanges(const HgtxEvents& h) {
  std::vector<uint32_t> ranges;
  for (size_t i = 0; i < h.size(); ++i)
    if (h.eventType[i] == kHgtxPushPop && h.end[i] != kNoValue) ranges.push_back(static_cast<uint32_t>(i));
  return ranges;
}

// The one stack computation both forms share: `on(k, parent, level)` for
// each range (k, parent: positions in `ranges`; parent kNoParent at the
// root). One sort by (thread, start, longer first, row), then one sweep per
// thread.
template <typename On>
void sweepStacks(const HgtxEvents& h, const std::vector<uint32_t>& ranges, On on) {
  std::vector<uint32_t> order(ranges.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const uint32_t x = ranges[a], y = ranges[b];
    return std::make_tuple(h.globalTid[x], h.start[x], -h.end[x], x) < std::make_tuple(h.globalTid[y], h.start[y], -h.end[y], y);
  });
  std::vector<uint32_t> stack;  // positions
  int64_t thread = 0;
  for (uint32_t k : order) {
    const uint32_t r = ranges[k];
    if (stack.empty() || h.globalTid[r] != thread) {
      stack.clear();
      thread = h.globalTid[r];
    }
    // The top encloses r when top.start <= r.start (sort order) and
    // r.end <= top.end, and r starts before top ends.
    while (!stack.empty() && (h.end[ranges[stack.back()]] <= h.start[r] || h.end[ranges[stack.back()]] < h.end[r]))
      stack.pop_back();
    on(k, stack.empty() ? kNoParent : stack.back(), static_cast<int32_t>(stack.size()));
    stack.push_back(k);
  }
}

}  // namespace

HgtxStacks buildHgtxStacks(const HgtxEvents& h) {
  HgtxStacks s;
  s.ranges = closedRanges(h);
  s.parent.assign(h.size(), kNoParent);
  s.level.assign(h.size(), -1);
  s.numChild.assign(h.size(), 0);
  s.durChild.assign(h.size(), 0);
  sweepStacks(h, s.ranges, [&](uint32_t k, uint32_t parent, int32_t level) {
    const uint32_t r = s.ranges[k];
    if (parent != kNoParent) {
      const uint32_t p = s.ranges[parent];
      s.parent[r] = p;
      s.numChild[p] += 1;
      s.durChild[p] += h.end[r] - h.start[r];
    }
    s.level[r] = level;
  });
  return s;
}

HgtxLevels buildHgtxLevels(const HgtxEvents& h) {
  HgtxLevels out;
  out.ranges = closedRanges(h);
  out.level.resize(out.ranges.size());
  sweepStacks(h, out.ranges, [&](uint32_t k, uint32_t, int32_t level) { out.level[k] = level; });
  return out;
}

void appendRangeStack(const HgtxEvents& h, const HgtxStacks& s, uint32_t event, std::string& out) {
  thread_local std::vector<uint32_t> chain;  // reused: no allocation per row
  chain.clear();
  for (uint32_t r = event; r != kNoParent; r = s.parent[r]) chain.push_back(r);
  for (size_t depth = chain.size(); depth-- > 0;) {
    char buf[24];
    buf[0] = ':';
    auto [end, ec] = std::to_chars(buf + 1, buf + sizeof buf, hgtxRangeId(h, chain[depth]));
    out.append(buf, end);
  }
}

}  // namespace asys
