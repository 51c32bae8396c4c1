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

// The one stack computation every form shares: `on(k, parent, level)` for
// each of n ranges (k, parent: their positions, in event order; parent
// kNoParent at the root), their thread, start and end given by position.
// One sort by (thread, start, longer first, position), then one sweep per
// thread.
template <typename Thread, typename Start, typename End, typename On>
void sweepStacks(size_t n, Thread thread, Start start, End end, On on) {
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return std::make_tuple(thread(a), start(a), -end(a), a) < std::make_tuple(thread(b), start(b), -end(b), b);
  });
  std::vector<uint32_t> stack;  // positions
  int64_t current = 0;
  for (uint32_t k : order) {
    if (stack.empty() || thread(k) != current) {
      stack.clear();
      current = thread(k);
    }
    // The top encloses k when top.start <= k.start (sort order) and
    // k.end <= top.end, and k starts before top ends.
    while (!stack.empty() && (end(stack.back()) <= start(k) || end(stack.back()) < end(k))) stack.pop_back();
    on(k, stack.empty() ? kNoParent : stack.back(), static_cast<int32_t>(stack.size()));
    stack.push_back(k);
  }
}

// The same over closed ranges of the loaded events (`ranges`: event indices).
template <typename On>
void sweepStacks(const HgtxEvents& h, const std::vector<uint32_t>& ranges, On on) {
  sweepStacks(
      ranges.size(), [&](uint32_t k) { return h.globalTid[ranges[k]]; }, [&](uint32_t k) { return h.start[ranges[k]]; },
      [&](uint32_t k) { return h.end[ranges[k]]; }, on);
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

HgtxStackCounts scanHgtxStackCounts(Report& report) {
  HgtxStackCounts out;
  std::vector<int64_t> thread, start, end;
  report.scanHgtx([&](size_t first, const HgtxEvents& h) {
    for (size_t i = 0; i < h.size(); ++i) {
      if (h.eventType[i] != kHgtxPushPop || h.end[i] == kNoValue) continue;
      out.event.push_back(static_cast<uint32_t>(first + i));
      thread.push_back(h.globalTid[i]);
      start.push_back(h.start[i]);
      end.push_back(h.end[i]);
    }
  });
  out.level.resize(out.event.size());
  out.numChild.assign(out.event.size(), 0);
  sweepStacks(
      out.event.size(), [&](uint32_t k) { return thread[k]; }, [&](uint32_t k) { return start[k]; },
      [&](uint32_t k) { return end[k]; },
      [&](uint32_t k, uint32_t parent, int32_t level) {
        out.level[k] = level;
        if (parent != kNoParent) ++out.numChild[parent];
      });
  return out;
}

size_t HgtxStackCounts::find(uint32_t e) const {
  auto it = std::lower_bound(event.begin(), event.end(), e);
  return it != event.end() && *it == e ? static_cast<size_t>(it - event.begin()) : kNotOnStack;
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
