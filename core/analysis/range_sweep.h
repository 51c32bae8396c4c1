#pragma once
// The ranges around host calls that come one at a time, each thread's calls
// in start order: HGGC_API read a chunk at a time in rowid order, as a
// profiler writes it, so that the calls' start, end and thread are never
// held (24 bytes a call) nor sorted (4 more). The same sweep as
// forEachEnclosing (intervals.h), per thread, with the calls as they come:
// each thread keeps a cursor into its ranges by start and the ranges it has
// passed that have not ended yet.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/analysis/intervals.h"
#include "core/analysis/key_groups.h"
#include "core/base/narrow_ints.h"

namespace asys {

struct AssociationRanges;

class RangeSweep {
 public:
  // `ranges` (key: the thread) must outlive the sweep; their thread and
  // end are copied (4 bytes each a range).
  explicit RangeSweep(const KeyedSpans& ranges);
  // The association's ranges, read where they are (their thread index,
  // start and duration): they must outlive the sweep, and a move of them
  // be told (rebind).
  explicit RangeSweep(const AssociationRanges& ranges);
  // The same ranges, moved (their columns' buffers are where they were;
  // the durations' exceptions are not).
  void rebind(const AssociationRanges& ranges);

  // Back to before the first call: a second pass over the same calls.
  void restart();
  // Gives back what the sweep holds (its index by start, 4 bytes a range,
  // and the threads'): it visits nothing after.
  void release();

  // By range index, the range's parent (CallRanges): the last range before
  // it in the sweep's (start, index) order, on its thread, that contains it
  // (start <= its start, its end <= end), or kNoMatch. Each thread's
  // ranges are walked once in that order with a stack of nested ranges: a
  // range popped for ending before this one ends before it would contain
  // any later one but a range that also contains this one, so the last
  // containing range is never popped (4 bytes a range, and the stack).
  std::vector<uint32_t> parents() const;

  // Calls emit(range) for every range of thread `key` with range.start <=
  // start && end <= range.end, in (start, index) order of the ranges, as
  // forEachEnclosing emits them (a call with end < start has none).
  // Returns false, having emitted nothing, when the call starts before an
  // earlier call of its thread: the calls are not in start order, and the
  // caller must sort them instead (forEachEnclosing).
  template <typename Emit>
  bool visit(int64_t key, int64_t start, int64_t end, Emit&& emit) {
    const uint32_t g = threadOf_.find(static_cast<uint64_t>(key));
    if (g == KeyGroups::kNoGroup) return true;  // no range on the thread
    Thread& t = threads_[g];
    if (t.begin == t.end) return true;
    if (t.started && start < t.lastStart) return false;
    t.started = true;
    t.lastStart = start;
    while (t.next < t.end && start_[byStart_[t.next]] <= start) t.active.push_back(byStart_[t.next++]);
    if (end < start) return true;
    // A range that ended before this call started ends before every later
    // call of the thread too.
    size_t kept = 0;
    for (const uint32_t r : t.active) {
      const int64_t rangeEnd = endOf(r);
      if (rangeEnd < start) continue;
      t.active[kept++] = r;
      if (end <= rangeEnd) emit(r);
    }
    t.active.resize(kept);
    return true;
  }

 private:
  struct Thread {
    size_t begin = 0, end = 0;  // its ranges in byStart_
    size_t next = 0;            // the first not passed yet
    std::vector<uint32_t> active;
    int64_t lastStart = 0;
    bool started = false;
  };
  int64_t endOf(uint32_t r) const { return start_[r] + duration_->get(r); }
  // byStart_ and threads_ from each range's thread index (of `threads`).
  void build(std::span<const uint32_t> threadIndex, std::span<const int64_t> threadKeys);

  const int64_t* start_ = nullptr;
  const NarrowInts* duration_ = nullptr;
  NarrowInts ownDuration_;           // KeyedSpans: end - start
  std::vector<uint32_t> byStart_;    // range indices by (thread, start, index)
  KeyGroups threadOf_;               // thread -> threads_ index
  std::vector<Thread> threads_;
};

}  // namespace asys
