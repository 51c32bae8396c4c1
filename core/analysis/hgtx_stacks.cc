#include "core/analysis/hgtx_stacks.h"

#include <algorithm>
#include <charconv>
#include <tuple>

namespace asys {

HgtxStacks buildHgtxStacks(const HgtxEvents& h) {
  HgtxStacks s;
  for (size_t i = 0; i < h.size(); ++i)
    if (h.eventType[i] == kHgtxPushPop && h.end[i] != kNoValue) s.ranges.push_back(static_cast<uint32_t>(i));
  s.parent.assign(h.size(), kNoParent);
  s.level.assign(h.size(), -1);
  s.numChild.assign(h.size(), 0);
  s.durChild.assign(h.size(), 0);
  // One sort by (thread, start, longer first, row), then one sweep per thread.
  std::vector<uint32_t> order = s.ranges;
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return std::make_tuple(h.globalTid[a], h.start[a], -h.end[a], a) <
           std::make_tuple(h.globalTid[b], h.start[b], -h.end[b], b);
  });
  std::vector<uint32_t> stack;
  int64_t thread = 0;
  for (uint32_t r : order) {
    if (stack.empty() || h.globalTid[r] != thread) {
      stack.clear();
      thread = h.globalTid[r];
    }
    // The top encloses r when top.start <= r.start (sort order) and
    // r.end <= top.end, and r starts before top ends.
    while (!stack.empty() && (h.end[stack.back()] <= h.start[r] || h.end[stack.back()] < h.end[r])) stack.pop_back();
    if (!stack.empty()) {
      uint32_t p = stack.back();
      s.parent[r] = p;
      s.numChild[p] += 1;
      s.durChild[p] += h.end[r] - h.start[r];
    }
    s.level[r] = static_cast<int32_t>(stack.size());
    stack.push_back(r);
  }
  return s;
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
