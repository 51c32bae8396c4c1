#include "core/analysis/range_sweep.h"

#include <algorithm>

#include "core/analysis/association_ranges.h"
#include "core/analysis/key_join.h"

namespace asys {

RangeSweep::RangeSweep(const KeyedSpans& ranges) : start_(ranges.start.data()), duration_(&ownDuration_) {
  const size_t n = ranges.size();
  KeyGroups keys;
  std::vector<uint32_t> threadIndex(n);
  for (size_t i = 0; i < n; ++i) threadIndex[i] = keys.indexOf(static_cast<uint64_t>(ranges.key[i]));
  std::vector<int64_t> threadKeys(keys.size());
  for (size_t g = 0; g < keys.size(); ++g) threadKeys[g] = static_cast<int64_t>(keys.key(static_cast<uint32_t>(g)));
  ownDuration_.reserve(n);
  for (size_t i = 0; i < n; ++i) ownDuration_.push_back(ranges.end[i] - ranges.start[i]);
  build(threadIndex, threadKeys);
}

RangeSweep::RangeSweep(const AssociationRanges& ranges) {
  rebind(ranges);
  build(ranges.threadIndex, ranges.threads);
}

void RangeSweep::rebind(const AssociationRanges& ranges) {
  start_ = ranges.start.data();
  duration_ = &ranges.duration;
}

void RangeSweep::build(std::span<const uint32_t> threadIndex, std::span<const int64_t> threadKeys) {
  // A counting sort by thread keeps each thread's ranges in index order:
  // the association's slots are in start order already; others are sorted
  // by (start, index) within their thread.
  const size_t threads = threadKeys.size();
  std::vector<size_t> next(threads + 1, 0);
  for (const uint32_t g : threadIndex) ++next[g + 1];
  for (size_t g = 0; g < threads; ++g) next[g + 1] += next[g];
  threads_.resize(threads);
  for (size_t g = 0; g < threads; ++g) {
    threadOf_.indexOf(static_cast<uint64_t>(threadKeys[g]));
    threads_[g].begin = threads_[g].next = next[g];
    threads_[g].end = next[g + 1];
  }
  byStart_.resize(threadIndex.size());
  for (size_t i = 0; i < threadIndex.size(); ++i) byStart_[next[threadIndex[i]]++] = static_cast<uint32_t>(i);
  for (const Thread& t : threads_) {
    const auto first = byStart_.begin() + static_cast<std::ptrdiff_t>(t.begin);
    const auto last = byStart_.begin() + static_cast<std::ptrdiff_t>(t.end);
    auto byStart = [&](uint32_t a, uint32_t b) { return start_[a] != start_[b] ? start_[a] < start_[b] : a < b; };
    if (!std::is_sorted(first, last, byStart)) std::sort(first, last, byStart);
  }
}

std::vector<uint32_t> RangeSweep::parents() const {
  std::vector<uint32_t> parent(byStart_.size(), kNoMatch);
  std::vector<uint32_t> open;
  for (const Thread& t : threads_) {
    open.clear();
    for (size_t i = t.begin; i < t.end; ++i) {
      const uint32_t r = byStart_[i];
      const int64_t end = endOf(r);
      while (!open.empty() && endOf(open.back()) < end) open.pop_back();
      if (!open.empty()) parent[r] = open.back();
      open.push_back(r);
    }
  }
  return parent;
}

void RangeSweep::release() {
  std::vector<uint32_t>().swap(byStart_);
  std::vector<Thread>().swap(threads_);
  threadOf_ = KeyGroups();
  start_ = nullptr;
  duration_ = nullptr;
}

void RangeSweep::restart() {
  for (Thread& t : threads_) {
    t.next = t.begin;
    t.active.clear();
    t.started = false;
  }
}

}  // namespace asys
