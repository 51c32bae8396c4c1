#include "core/analysis/intervals.h"

#include <queue>

#include "core/analysis/key_groups.h"
#include "core/base/group_in_place.h"
#include <tuple>

namespace asys {

size_t mergeSpansInPlace(std::span<Span> spans) {
  std::sort(spans.begin(), spans.end(),
            [](const Span& a, const Span& b) { return a.start != b.start ? a.start < b.start : a.end < b.end; });
  size_t kept = 0;
  for (const Span& s : spans) {
    if (s.end <= s.start) continue;
    if (kept > 0 && s.start <= spans[kept - 1].end) {
      spans[kept - 1].end = std::max(spans[kept - 1].end, s.end);
    } else {
      spans[kept++] = s;
    }
  }
  return kept;
}

void mergeSpans(std::vector<Span>& spans) { spans.resize(mergeSpansInPlace(spans)); }

int64_t totalLength(std::span<const Span> blocks) {
  int64_t sum = 0;
  for (const Span& b : blocks) sum += b.length();
  return sum;
}

int64_t unionLengthSorted(std::span<const Span> spans) {
  int64_t sum = 0;
  bool open = false;
  Span block;
  for (const Span& s : spans) {
    if (s.end <= s.start) continue;
    if (open && s.start <= block.end) {
      block.end = std::max(block.end, s.end);
      continue;
    }
    if (open) sum += block.length();
    block = s;
    open = true;
  }
  return open ? sum + block.length() : sum;
}

int64_t coveredLength(std::span<const Span> blocks, int64_t from, int64_t to) {
  if (to <= from) return 0;
  // The first block that ends after `from`.
  auto it = std::upper_bound(blocks.begin(), blocks.end(), from,
                             [](int64_t t, const Span& b) { return t < b.end; });
  int64_t sum = 0;
  for (; it != blocks.end() && it->start < to; ++it) sum += std::min(it->end, to) - std::max(it->start, from);
  return sum;
}

std::vector<Span> gapsBetween(std::span<const Span> blocks) {
  std::vector<Span> gaps;
  for (size_t i = 1; i < blocks.size(); ++i) gaps.push_back({blocks[i - 1].end, blocks[i].start});
  return gaps;
}

SpanGroups::SpanGroups(std::vector<uint32_t> groupOf, std::vector<Span> spans, size_t groupCount)
    : spans_(std::move(spans)), begin_(groupInPlace(groupOf, groupCount, spans_)), count_(groupCount, 0) {
  for (size_t g = 0; g < groupCount; ++g)
    count_[g] = mergeSpansInPlace(std::span<Span>(spans_).subspan(begin_[g], begin_[g + 1] - begin_[g]));
}

SpanGroupStats summarizeSpanGroupsInPlace(std::vector<uint32_t>& groupOf, std::vector<Span>& spans,
                                          size_t groupCount) {
  const std::vector<size_t> begin = groupInPlace(groupOf, groupCount, spans);
  std::vector<uint32_t>().swap(groupOf);
  SpanGroupStats out;
  out.stats.resize(groupCount);
  out.covered.resize(groupCount);
  std::vector<int64_t> lengths;  // one group's, reused
  for (size_t g = 0; g < groupCount; ++g) {
    const std::span<Span> own = std::span<Span>(spans).subspan(begin[g], begin[g + 1] - begin[g]);
    lengths.clear();
    for (const Span& s : own) lengths.push_back(s.length());
    out.stats[g] = summarize(lengths);
    out.covered[g] = totalLength(own.first(mergeSpansInPlace(own)));
  }
  std::vector<Span>().swap(spans);
  return out;
}

GroupUnions unionByGroupSorted(std::span<const int64_t> starts, std::span<const int64_t> ends,
                               std::span<const uint32_t> groupOf, size_t groupCount) {
  return unionByGroupSortedBy(starts, [ends](size_t i) { return ends[i]; }, groupOf, groupCount);
}

OpenClosePairs pairLatestOpen(std::span<const uint32_t> order, std::span<const uint32_t> key,
                              std::span<const uint8_t> open, size_t keyCount) {
  OpenClosePairs p;
  p.partner.assign(key.size(), OpenClosePairs::kNone);
  p.closedBefore.assign(key.size(), 0);
  // Per key the latest unclosed open; the opens beneath it are linked
  // through `below` (a stack per key without a container per key).
  std::vector<uint32_t> top(keyCount, OpenClosePairs::kNone);
  std::vector<uint8_t> opened(keyCount, 0);
  std::vector<uint32_t> below(key.size(), OpenClosePairs::kNone);
  for (uint32_t e : order) {
    const uint32_t k = key[e];
    if (open[e]) {
      below[e] = top[k];
      top[k] = e;
      opened[k] = 1;
    } else if (top[k] != OpenClosePairs::kNone) {
      const uint32_t o = top[k];
      p.partner[o] = e;
      p.partner[e] = o;
      top[k] = below[o];
    } else {
      p.closedBefore[e] = opened[k];
    }
  }
  return p;
}

namespace intervals_detail {
std::vector<uint32_t> byKeyThenStart(const KeyedSpans& s) {
  const size_t n = s.size();
  // Report tables are mostly written in time order per key (a thread's calls
  // and ranges): then a stable counting sort by key gives (key, start, index)
  // order in linear time. Runs of one key are looked up once.
  KeyGroups groups;
  std::vector<uint32_t> group(n);
  std::vector<int64_t> lastStart;  // by group
  bool byStart = true;  // within every key, in index order
  for (size_t i = 0; i < n; ++i) {
    const uint32_t g = i > 0 && s.key[i] == s.key[i - 1] ? group[i - 1] : groups.indexOf(static_cast<uint64_t>(s.key[i]));
    group[i] = g;
    if (g == lastStart.size()) lastStart.push_back(s.start[i]);
    byStart = byStart && lastStart[g] <= s.start[i];
    lastStart[g] = s.start[i];
  }
  if (byStart && n > 0) {
    std::vector<uint32_t> byKey(groups.size());
    std::iota(byKey.begin(), byKey.end(), 0u);
    std::sort(byKey.begin(), byKey.end(), [&](uint32_t a, uint32_t b) {
      return static_cast<int64_t>(groups.key(a)) < static_cast<int64_t>(groups.key(b));
    });
    std::vector<size_t> next(groups.size() + 1, 0);
    std::vector<uint32_t> rank(groups.size());
    for (uint32_t r = 0; r < byKey.size(); ++r) rank[byKey[r]] = r;
    for (uint32_t g : group) ++next[rank[g] + 1];
    for (size_t r = 0; r < groups.size(); ++r) next[r + 1] += next[r];
    std::vector<uint32_t> order(n);
    for (size_t i = 0; i < n; ++i) order[next[rank[group[i]]]++] = static_cast<uint32_t>(i);
    return order;
  }
  std::vector<uint32_t> order(s.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return std::tie(s.key[a], s.start[a], a) < std::tie(s.key[b], s.start[b], b);
  });
  return order;
}
}  // namespace intervals_detail

std::vector<uint32_t> innermostEnclosing(const KeyedSpans& containers, std::span<const int64_t> pointKey,
                                         std::span<const int64_t> pointTime) {
  std::vector<uint32_t> result(pointKey.size(), kNoContainer);
  if (containers.size() == 0) return result;
  const std::vector<uint32_t> cs = intervals_detail::byKeyThenStart(containers);
  const KeyedSpans points{pointKey, pointTime, pointTime};
  const std::vector<uint32_t> ps = intervals_detail::byKeyThenStart(points);
  // The started, unfinished containers of the key: the innermost on top
  // (latest start, then earliest end, then the later row).
  auto outer = [&](uint32_t a, uint32_t b) {
    if (containers.start[a] != containers.start[b]) return containers.start[a] < containers.start[b];
    if (containers.end[a] != containers.end[b]) return containers.end[a] > containers.end[b];
    return a < b;
  };
  std::priority_queue<uint32_t, std::vector<uint32_t>, decltype(outer)> active(outer);
  size_t c = 0;
  bool first = true;
  int64_t key = 0;
  for (uint32_t p : ps) {
    if (first || pointKey[p] != key) {
      first = false;
      key = pointKey[p];
      while (!active.empty()) active.pop();
      while (c < cs.size() && containers.key[cs[c]] < key) ++c;
    }
    while (c < cs.size() && containers.key[cs[c]] == key && containers.start[cs[c]] <= pointTime[p]) {
      active.push(cs[c++]);
    }
    // Points come in time order, so a container that ended is ended for good.
    while (!active.empty() && containers.end[active.top()] <= pointTime[p]) active.pop();
    if (!active.empty()) result[p] = active.top();
  }
  return result;
}

namespace {

// The sweep both overlapComponents share: `order` visits the spans by
// nondecreasing start.
template <typename Order>
std::vector<uint32_t> componentsInOrder(std::span<const Span> spans, const Order& order) {
  std::vector<uint32_t> component(spans.size(), 0);
  uint32_t next = 0, current = 0;
  bool open = false;
  int64_t reach = 0;  // the latest end of the open component
  for (uint32_t i : order) {
    const Span& s = spans[i];
    if (s.end <= s.start) {  // empty: a component of its own, the open one goes on
      component[i] = next++;
      continue;
    }
    // Half-open: a span starting exactly at the reach only touches.
    if (!open || s.start >= reach) {
      component[i] = current = next++;
      open = true;
      reach = s.end;
      continue;
    }
    component[i] = current;
    reach = std::max(reach, s.end);
  }
  return component;
}

// 0, 1, ..., n-1 without storing them.
struct Iota {
  uint32_t n;
  struct It {
    uint32_t i;
    uint32_t operator*() const { return i; }
    It& operator++() { ++i; return *this; }
    bool operator!=(const It& o) const { return i != o.i; }
  };
  It begin() const { return {0}; }
  It end() const { return {n}; }
};

}  // namespace

std::vector<uint32_t> overlapComponents(std::span<const Span> spans) {
  std::vector<uint32_t> order(spans.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return std::tie(spans[a].start, spans[a].end, a) < std::tie(spans[b].start, spans[b].end, b);
  });
  return componentsInOrder(spans, order);
}

std::vector<uint32_t> overlapComponentsSorted(std::span<const Span> spansByStart) {
  return componentsInOrder(spansByStart, Iota{static_cast<uint32_t>(spansByStart.size())});
}

}  // namespace asys
