#include "core/analysis/hgtx_stacks.h"

#include <algorithm>
#include <numeric>
#include <tuple>

#include "core/analysis/hgtx_ranges.h"
#include "core/base/error.h"
#include "core/base/permute.h"

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

void HgtxStackCounter::add(size_t first, const HgtxEvents& h) {
  for (size_t i = 0; i < h.size(); ++i) {
    if (h.eventType[i] != kHgtxPushPop || h.end[i] == kNoValue) continue;
    const auto e = static_cast<uint32_t>(first + i);
    if (parents_ && !h.rangeId.empty() && h.rangeId[i] != kNoValue && h.rangeId[i] != int64_t{e} + 1)
      out_.otherIds.emplace_back(static_cast<uint32_t>(out_.event.size()), h.rangeId[i]);
    out_.event.push_back(e);
    thread_.push_back(h.globalTid[i]);
    start_.push_back(h.start[i]);
    end_.push_back(h.end[i]);
  }
}

HgtxStackCounts HgtxStackCounter::finish() {
  HgtxStackCounts out = std::move(out_);
  out_ = {};
  out.level.resize(out.event.size());
  out.numChild.assign(out.event.size(), 0);
  if (parents_) out.parent.assign(out.event.size(), kNoParent);
  sweepStacks(
      out.event.size(), [&](uint32_t k) { return thread_[k]; }, [&](uint32_t k) { return start_[k]; },
      [&](uint32_t k) { return end_[k]; },
      [&](uint32_t k, uint32_t parent, int32_t level) {
        out.level[k] = level;
        if (parent == kNoParent) return;
        ++out.numChild[parent];
        if (parents_) out.parent[k] = parent;
      });
  std::vector<int64_t>().swap(thread_);
  std::vector<int64_t>().swap(start_);
  std::vector<int64_t>().swap(end_);
  // Grown a range at a time while the scan came: up to twice its size
  // (16.8 M slots for 9.2 M ranges at scale 2500), held through the rule
  // that keeps the parents (hgtx_ppu_proj_trace's view). Not for the level
  // counts, which hgtx_ppu_proj_sum gives back before the activities are
  // read: a copy there moved its later columns in the heap (+4.7 MB peak
  // at scale 250).
  if (parents_) {
    out.event.shrink_to_fit();
    out.otherIds.shrink_to_fit();
  }
  return out;
}

HgtxStackCounts scanHgtxStackCounts(Report& report) {
  HgtxStackCounter counter;
  report.scanHgtx([&](size_t first, const HgtxEvents& h) { counter.add(first, h); });
  return counter.finish();
}

void UnclosedRanges::add(size_t first, const HgtxEvents& h) {
  for (size_t i = 0; i < h.size(); ++i)
    if (h.eventType[i] == kHgtxPushPop && h.end[i] == kNoValue) events.push_back(static_cast<uint32_t>(first + i));
}

namespace {

template <typename ThreadOf, typename StartOf>
SlotStacks sweepSlots(const AssociationRanges& R, ThreadOf threadOf, StartOf startOf, size_t threadCount,
                      const std::vector<uint32_t>& unclosed, bool levels, bool parents) {
  const size_t n = R.size();
  SlotStacks s;
  if (levels) {
    s.levelPlusOne.reserve(n);
    s.levelPlusOne.resize(n);
  }
  if (parents) s.parent.assign(n, SlotStacks::kOffStack);
  s.children.reserve(n);
  s.children.resize(n);
  // One stack of slots a thread. In slot order a thread's ranges come by
  // start, then longer first, then event: the order sweepStacks gives the
  // closed push/pop ranges of a thread (by thread, start, end descending,
  // event), so the same test pops the same ranges.
  std::vector<std::vector<uint32_t>> stacks(threadCount);
  auto endOf = [&](uint32_t r) { return startOf(r) + R.duration.get(r); };
  for (uint32_t r = 0; r < n; ++r) {
    if (R.startEnd[r] != 0) continue;
    if (!unclosed.empty() && std::binary_search(unclosed.begin(), unclosed.end(), R.event[r])) continue;
    std::vector<uint32_t>& stack = stacks[threadOf(r)];
    const int64_t start = startOf(r), end = start + R.duration.get(r);
    // The top encloses r when it ends after r starts and not before r ends.
    while (!stack.empty() && (endOf(stack.back()) <= start || endOf(stack.back()) < end)) stack.pop_back();
    if (levels) s.levelPlusOne.set(r, static_cast<uint32_t>(stack.size()) + 1);
    if (!stack.empty()) {
      const uint32_t p = stack.back();
      s.children.set(p, s.children.get(p) + 1);
      if (parents) s.parent[r] = p;
    } else if (parents) {
      s.parent[r] = kNoParent;
    }
    stack.push_back(r);
  }
  return s;
}

}  // namespace

SlotStacks slotStacks(const AssociationRanges& R, const std::vector<uint32_t>& unclosed, bool levels, bool parents) {
  return sweepSlots(
      R, [&](uint32_t r) { return R.threadIndex[r]; }, [&](uint32_t r) { return R.start[r]; }, R.threads.size(),
      unclosed, levels, parents);
}

SlotStacks slotStacks(const AssociationRanges& R, const SmallIds& threadOf, size_t threadCount,
                      const StartTimes& starts, const std::vector<uint32_t>& unclosed, bool levels, bool parents) {
  return sweepSlots(
      R, [&](uint32_t r) { return threadOf.get(r); }, [&](uint32_t r) { return starts[r]; }, threadCount, unclosed,
      levels, parents);
}

int32_t SlotStacks::level(size_t r) const {
  if (parent.empty()) return static_cast<int32_t>(levelPlusOne.get(r)) - 1;
  if (parent[r] == kOffStack) return -1;
  int32_t depth = 0;
  for (uint32_t p = parent[r]; p != kNoParent; p = parent[p]) ++depth;
  return depth;
}

size_t HgtxStackCounts::find(uint32_t e) const {
  auto it = std::lower_bound(event.begin(), event.end(), e);
  return it != event.end() && *it == e ? static_cast<size_t>(it - event.begin()) : kNotOnStack;
}

int32_t HgtxStackCounts::levelOf(size_t k) const {
  if (!level.empty()) return level[k];
  int32_t depth = 0;
  for (uint32_t r = parent[k]; r != kNoParent; r = parent[r]) ++depth;
  return depth;
}

int64_t HgtxStackCounts::rangeId(size_t k) const {
  const auto it = std::lower_bound(otherIds.begin(), otherIds.end(), k,
                                   [](const std::pair<uint32_t, int64_t>& x, size_t at) { return x.first < at; });
  return it != otherIds.end() && it->first == k ? it->second : int64_t{event[k]} + 1;
}

void HgtxStackCounts::appendStack(size_t k, std::string& out) const {
  appendRangeStackOf(
      static_cast<uint32_t>(k), [&](uint32_t r) { return parent[r]; }, [&](uint32_t r) { return rangeId(r); }, out);
}

void appendRangeStack(const HgtxEvents& h, const HgtxStacks& s, uint32_t event, std::string& out) {
  appendRangeStackOf(
      event, [&](uint32_t r) { return s.parent[r]; }, [&](uint32_t r) { return hgtxRangeId(h, r); }, out);
}

int32_t PushPopRanges::level(size_t k) const {
  int32_t depth = 0;
  for (uint32_t r = parent(k); r != kNoParent; r = parent(r)) ++depth;
  return depth;
}

int64_t PushPopRanges::globalTid(size_t k) const {
  uint32_t r = static_cast<uint32_t>(k);
  while ((link[r] & kRoot) == 0) r = link[r];
  return threads[link[r] & ~kRoot];
}

void PushPopRanges::appendStack(size_t k, std::string& out) const {
  appendRangeStackOf(
      static_cast<uint32_t>(k), [&](uint32_t r) { return parent(r); }, [&](uint32_t r) { return rangeId(r); }, out);
}

uint32_t PushPopRangeBuilder::domainOf(int64_t globalTid, int64_t domainId) {
  const auto [it, added] =
      domains_.try_emplace({pidOf(globalTid), domainId}, static_cast<uint32_t>(domainName_.size()));
  if (added) domainName_.push_back(kNoString);
  return it->second;
}

void PushPopRangeBuilder::add(size_t first, const HgtxEvents& h) {
  const bool ids = !h.rangeId.empty();  // a scan without them: every one NULL
  for (size_t i = 0; i < h.size(); ++i) {
    const int32_t type = h.eventType[i];
    if (type == kHgtxDomainCreate && h.domainId[i] != kNoValue) {
      domainName_[domainOf(h.globalTid[i], h.domainId[i])] = h.nameId[i];  // the last creation wins
      continue;
    }
    if (type != kHgtxPushPop || h.end[i] == kNoValue) continue;
    const uint32_t k = static_cast<uint32_t>(r_.size());
    if (k == PushPopRanges::kRoot)  // positions and roots share a link's 32 bits
      throw Error("HGTX_EVENTS: more than " + std::to_string(PushPopRanges::kRoot) +
                  " push/pop ranges, past what the range stacks can hold");
    const uint32_t e = static_cast<uint32_t>(first + i);
    if (lastThread_ == UINT32_MAX || h.globalTid[i] != lastTid_) {
      lastTid_ = h.globalTid[i];
      lastThread_ = threads_.indexOf(static_cast<uint64_t>(lastTid_));
    }
    r_.start.push_back(h.start[i]);
    end_.push_back(h.end[i]);
    r_.link.push_back(lastThread_);  // the thread, until the stacks are swept
    r_.event.push_back(e);
    r_.name.push_back(h.nameId[i]);
    if (h.domainId[i] != kNoValue) inDomain_.emplace_back(k, domainOf(h.globalTid[i], h.domainId[i]));
    const int64_t id = ids && h.rangeId[i] != kNoValue ? h.rangeId[i] : int64_t{e} + 1;
    if (idsAreEvents_ && id != int64_t{e} + 1) {
      // The first range whose ID is not its position: the IDs are kept from now.
      idsAreEvents_ = false;
      r_.rangeIds.reserve(r_.event.capacity());
      for (uint32_t before : r_.event) r_.rangeIds.push_back(int64_t{before} + 1);
      r_.rangeIds.back() = id;
    } else if (!idsAreEvents_) {
      r_.rangeIds.push_back(id);
    }
  }
}

PushPopRanges PushPopRangeBuilder::finish() {
  PushPopRanges r = std::move(r_);
  r_ = {};
  std::vector<int64_t> end = std::move(end_);
  const size_t n = r.size();
  // The names of ranges in a domain, now that every domain's name is known.
  {
    QualifiedNames qualified(strings_);
    for (auto [k, d] : inDomain_) r.name[k] = qualified.of(domainName_[d], r.name[k]);
    std::vector<std::pair<uint32_t, uint32_t>>().swap(inDomain_);
  }
  r.threads.resize(threads_.size());
  for (uint32_t t = 0; t < threads_.size(); ++t) r.threads[t] = static_cast<int64_t>(threads_.key(t));
  threads_ = {};

  // The row order: start, duration, globalTid, event (nsys's ties). A
  // profiler writes a range when it is popped, so the table is in end order
  // and the ranges are sorted (4 bytes a range; the columns are put in
  // order in place). `link` holds each range's thread until the sweep.
  auto before = [&](uint32_t a, uint32_t b) {
    if (r.start[a] != r.start[b]) return r.start[a] < r.start[b];
    const int64_t da = end[a] - r.start[a], db = end[b] - r.start[b];
    if (da != db) return da < db;
    const int64_t ta = r.threads[r.link[a]], tb = r.threads[r.link[b]];
    if (ta != tb) return ta < tb;
    return r.event[a] < r.event[b];
  };
  bool sorted = true;
  for (size_t k = 1; k < n && sorted; ++k) sorted = !before(static_cast<uint32_t>(k), static_cast<uint32_t>(k - 1));
  if (!sorted) {
    std::vector<uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    std::sort(order.begin(), order.end(), before);
    permuteInPlace(order, r.start, end, r.link, r.event, r.name, r.rangeIds);
  }
  // Durations in 4 bytes where they fit.
  r.duration.assign(n, 0);
  for (size_t k = 0; k < n; ++k) r.duration.set(k, end[k] - r.start[k]);
  std::vector<int64_t>().swap(end);

  // The stacks, in that order: a thread's ranges come by start, and of
  // those that start together the longer first (it encloses the others),
  // then by event, as buildHgtxStacks orders them; one stack a thread. A
  // range's link is its thread until it is swept, then its parent's
  // position, or its thread marked as a root's.
  r.numChild.assign(n, 0);
  r.durChild.assign(n, 0);
  std::vector<std::vector<uint32_t>> stacks(r.threads.size());
  std::vector<uint32_t> together;
  for (size_t a = 0; a < n;) {
    size_t b = a + 1;
    while (b < n && r.start[b] == r.start[a]) ++b;
    together.resize(b - a);
    std::iota(together.begin(), together.end(), static_cast<uint32_t>(a));
    // Same thread, start and duration: event order is position order.
    std::sort(together.begin(), together.end(), [&](uint32_t x, uint32_t y) {
      const int64_t dx = r.duration.get(x), dy = r.duration.get(y);
      return dx != dy ? dx > dy : x < y;
    });
    for (uint32_t k : together) {
      const uint32_t thread = r.link[k];
      std::vector<uint32_t>& stack = stacks[thread];
      const int64_t end = r.end(k);
      // The top encloses k when it ends after k starts and not before k ends.
      while (!stack.empty() && (r.end(stack.back()) <= r.start[k] || r.end(stack.back()) < end)) stack.pop_back();
      if (!stack.empty()) {
        const uint32_t p = stack.back();
        r.link[k] = p;
        ++r.numChild[p];
        r.durChild.add(p, end - r.start[k]);
      } else {
        r.link[k] = PushPopRanges::kRoot | thread;
      }
      stack.push_back(k);
    }
    a = b;
  }
  return r;
}

}  // namespace asys
