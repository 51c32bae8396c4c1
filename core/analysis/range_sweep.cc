#include "core/analysis/range_sweep.h"

#include <algorithm>
#include <string>

#include "core/analysis/association_ranges.h"
#include "core/analysis/key_join.h"
#include "core/base/stage_timer.h"

namespace asys {

namespace {

size_t bytesOf(uint64_t v) {
  size_t b = 1;
  for (; v >= 0x80; v >>= 7) ++b;
  return b;
}

// The step from `from` to `to`, wrapping (no signed overflow), zigzagged.
uint64_t step(int64_t from, int64_t to) {
  return zigzag(static_cast<int64_t>(static_cast<uint64_t>(to) - static_cast<uint64_t>(from)));
}

}  // namespace

template <typename ThreadOf, typename StartOf, typename EndOf, typename Order>
void RangeSweep::build(size_t n, std::span<const int64_t> threadKeys, ThreadOf&& threadOf, StartOf&& startOf,
                       EndOf&& endOf, Order&& order) {
  ranges_ = n;
  const size_t threads = threadKeys.size();
  threadKeys_.assign(threadKeys.begin(), threadKeys.end());
  threads_.resize(threads);
  for (size_t g = 0; g < threads; ++g) threadOf_.indexOf(static_cast<uint64_t>(threadKeys[g]));
  // Two passes over the ranges in order: each thread's stream's length,
  // then the streams written where they go (no stream grows by copying).
  struct Last {
    uint32_t range = 0;
    int64_t start = 0;
    size_t at = 0, count = 0;
  };
  std::vector<Last> last(threads);
  auto pass = [&](auto&& put) {
    order([&](uint32_t i) {
      Last& l = last[threadOf(i)];
      put(l, step(l.range, i));
      l.range = i;
      if (own_) {
        const int64_t s = startOf(i);
        put(l, step(l.start, s));
        put(l, step(s, endOf(i)));
        l.start = s;
      }
      ++l.count;
    });
  };
  pass([](Last& l, uint64_t v) { l.at += bytesOf(v); });
  size_t total = 0;
  for (size_t g = 0; g < threads; ++g) {
    threads_[g].begin = total;
    threads_[g].count = last[g].count;
    total += last[g].at;
    last[g] = Last{};
    last[g].at = threads_[g].begin;
  }
  bytes_.resize(total);
  pass([&](Last& l, uint64_t v) {
    for (; v >= 0x80; v >>= 7) bytes_[l.at++] = static_cast<uint8_t>(v | 0x80);
    bytes_[l.at++] = static_cast<uint8_t>(v);
  });
  if (n >= 65536)
    profileNote("sweep: " + std::to_string(n) + " ranges on " + std::to_string(threads) + " threads in " +
                std::to_string(total) + " bytes" + (own_ ? " with their spans" : ""));
  restart();
}

namespace {

// fn(i) for every range, each thread's in (start, index) order: in index
// order where that is it already (the association's slots are in start
// order), else through an order by (thread, start, index), made here (4
// bytes a range while the sweep is made).
template <typename ThreadOf, typename StartOf>
auto orderOf(size_t n, size_t threads, ThreadOf&& threadOf, StartOf&& startOf) {
  std::vector<int64_t> lastStart(threads);
  std::vector<uint8_t> seen(threads, 0);
  bool inOrder = true;
  for (size_t i = 0; i < n && inOrder; ++i) {
    const uint32_t g = threadOf(i);
    inOrder = !seen[g] || lastStart[g] <= startOf(i);
    seen[g] = 1;
    lastStart[g] = startOf(i);
  }
  std::vector<uint32_t> byStart;
  if (!inOrder) {
    std::vector<size_t> next(threads + 1, 0);
    for (size_t i = 0; i < n; ++i) ++next[threadOf(i) + 1];
    for (size_t g = 0; g < threads; ++g) next[g + 1] += next[g];
    const std::vector<size_t> begin(next.begin(), next.end());
    byStart.resize(n);
    for (size_t i = 0; i < n; ++i) byStart[next[threadOf(i)]++] = static_cast<uint32_t>(i);
    for (size_t g = 0; g < threads; ++g)
      std::sort(byStart.begin() + static_cast<std::ptrdiff_t>(begin[g]),
                byStart.begin() + static_cast<std::ptrdiff_t>(begin[g + 1]), [&](uint32_t a, uint32_t b) {
                  return startOf(a) != startOf(b) ? startOf(a) < startOf(b) : a < b;
                });
  }
  return [n, byStart = std::move(byStart)](auto&& fn) {
    if (byStart.empty()) {
      for (size_t i = 0; i < n; ++i) fn(static_cast<uint32_t>(i));
    } else {
      for (const uint32_t i : byStart) fn(i);
    }
  };
}

}  // namespace

RangeSweep::RangeSweep(const KeyedSpans& ranges) : own_(true) {
  const size_t n = ranges.size();
  KeyGroups keys;
  std::vector<uint32_t> threadIndex(n);
  for (size_t i = 0; i < n; ++i) threadIndex[i] = keys.indexOf(static_cast<uint64_t>(ranges.key[i]));
  std::vector<int64_t> threadKeys(keys.size());
  for (size_t g = 0; g < keys.size(); ++g) threadKeys[g] = static_cast<int64_t>(keys.key(static_cast<uint32_t>(g)));
  auto threadOf = [&](size_t i) { return threadIndex[i]; };
  auto startOf = [&](size_t i) { return ranges.start[i]; };
  build(n, threadKeys, threadOf, startOf, [&](size_t i) { return ranges.end[i]; },
        orderOf(n, threadKeys.size(), threadOf, startOf));
}

RangeSweep::RangeSweep(const AssociationRanges& ranges, bool ownSpans) : own_(ownSpans) {
  rebind(ranges);
  const size_t n = ranges.threadIndex.size();
  auto threadOf = [&](size_t i) { return ranges.threadIndex[i]; };
  auto startOf = [&](size_t i) { return ranges.start[i]; };
  build(n, ranges.threads, threadOf, startOf, [&](size_t i) { return ranges.end(i); },
        orderOf(n, ranges.threads.size(), threadOf, startOf));
}

void RangeSweep::rebind(const AssociationRanges& ranges) {
  if (own_) return;
  start_ = ranges.start.data();
  duration_ = &ranges.duration;
}

std::vector<uint32_t> RangeSweep::parents() const {
  std::vector<uint32_t> parent(ranges_, kNoMatch);
  std::vector<std::pair<uint32_t, int64_t>> open;  // (range, end)
  for (const Thread& t : threads_) {
    open.clear();
    for (Cursor c = cursorOf(t); c.left > 0;) {
      const Entry e = decode(c);
      while (!open.empty() && open.back().second < e.end) open.pop_back();
      if (!open.empty()) parent[e.range] = open.back().first;
      open.emplace_back(e.range, e.end);
    }
  }
  return parent;
}

void RangeSweep::spans(std::vector<int64_t>& thread, std::vector<int64_t>& start, std::vector<int64_t>& end) const {
  thread.assign(ranges_, 0);
  start.assign(ranges_, 0);
  end.assign(ranges_, 0);
  for (size_t g = 0; g < threads_.size(); ++g) {
    for (Cursor c = cursorOf(threads_[g]); c.left > 0;) {
      const Entry e = decode(c);
      thread[e.range] = threadKeys_[g];
      start[e.range] = e.start;
      end[e.range] = e.end;
    }
  }
}

void RangeSweep::restoreSpans(AssociationRanges& ranges, bool start, bool duration, bool threadIndex,
                              bool narrow) const {
  // Every range is in one thread's stream: each slot is put once a walk.
  auto forEachRange = [&](auto&& fn) {
    for (size_t g = 0; g < threads_.size(); ++g)
      for (Cursor c = cursorOf(threads_[g]); c.left > 0;) fn(g, decode(c));
  };
  bool wideStart = start;
  if (narrow) {
    if (start)
      ranges.narrowStart.assignTwice(ranges_, [&](auto&& put) {
        forEachRange([&](size_t, const Entry& e) { put(e.range, e.start); });
      });
    wideStart = false;
    if (threadIndex) {
      ranges.narrowThread = SmallIds();
      // At the width of the largest index first (slot 0's value, put again
      // below), so that the column is not widened, copied, while filled.
      if (!threads_.empty()) ranges.narrowThread.push_back(static_cast<uint32_t>(threads_.size() - 1));
      ranges.narrowThread.resize(ranges_);
    }
  } else {
    if (start) ranges.start.assign(ranges_, 0);
    if (threadIndex) ranges.threadIndex.assign(ranges_, 0);
  }
  if (duration) ranges.duration.assign(ranges_, 0);
  if (!wideStart && !duration && !threadIndex) return;
  forEachRange([&](size_t g, const Entry& e) {
    if (wideStart) ranges.start[e.range] = e.start;
    if (duration)
      ranges.duration.set(e.range, static_cast<int64_t>(static_cast<uint64_t>(e.end) - static_cast<uint64_t>(e.start)));
    if (threadIndex) {
      if (narrow) {
        ranges.narrowThread.set(e.range, static_cast<uint32_t>(g));
      } else {
        ranges.threadIndex[e.range] = static_cast<uint32_t>(g);
      }
    }
  });
}

void RangeSweep::release() {
  std::vector<uint8_t>().swap(bytes_);
  std::vector<Thread>().swap(threads_);
  std::vector<int64_t>().swap(threadKeys_);
  threadOf_ = KeyGroups();
  start_ = nullptr;
  duration_ = nullptr;
}

void RangeSweep::restart() {
  for (Thread& t : threads_) {
    t.next = cursorOf(t);
    t.peeked = false;
    t.active.clear();
    t.started = false;
  }
}

}  // namespace asys
