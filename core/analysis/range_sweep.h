#pragma once
// The ranges around host calls that come one at a time, each thread's calls
// in start order: HGGC_API read a chunk at a time in rowid order, as a
// profiler writes it, so that the calls' start, end and thread are never
// held (24 bytes a call) nor sorted (4 more). The same sweep as
// forEachEnclosing (intervals.h), per thread, with the calls as they come:
// each thread keeps a cursor into its ranges by start and the ranges it has
// passed that have not ended yet.
//
// Each thread's ranges are held as one stream of small numbers in the
// sweep's (start, index) order (docs/big-reports.md, "The sweep's own
// ranges and hgtx_kern_sum's own step"): a range's index as the step from
// the one before it on its thread, and, where the sweep holds the spans
// itself (ownSpans), its start as the step from that one's start and its
// duration, each a variable-length integer (LEB128, zigzag). The threads'
// ranges interleave little and nest closely, so a range takes 1 byte in
// place of the 4 of an index by start, and about 6.5 with its span in place
// of 16 (start, duration and thread index): the association gives the
// ranges' columns back once the sweep is made, before the calls are swept,
// and takes back those it reads after (restoreSpans) once the activities
// are read.
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "core/analysis/intervals.h"
#include "core/analysis/key_groups.h"
#include "core/base/narrow_ints.h"
#include "core/base/zigzag.h"

namespace asys {

struct AssociationRanges;

class RangeSweep {
 public:
  // `ranges` (key: the thread): their spans are copied into the sweep (it
  // holds them itself; `ranges` may go once it is made).
  explicit RangeSweep(const KeyedSpans& ranges);
  // The association's ranges (their thread index, start and duration).
  // ownSpans: the sweep holds the ranges' spans itself, and `ranges` may
  // give back its start, duration and thread index once it is made (its
  // thread keys are copied too). Otherwise the spans are read where they
  // are: `ranges` must outlive the sweep, and a move of it be told
  // (rebind).
  explicit RangeSweep(const AssociationRanges& ranges, bool ownSpans = false);
  // The same ranges, moved (their columns' buffers are where they were;
  // the durations' exceptions are not). Nothing to do where the sweep
  // holds the spans.
  void rebind(const AssociationRanges& ranges);

  // Back to before the first call: a second pass over the same calls.
  void restart();
  // Gives back what the sweep holds (its streams and the threads'): it
  // visits nothing after.
  void release();

  // By range index, the range's parent (CallRanges): the last range before
  // it in the sweep's (start, index) order, on its thread, that contains it
  // (start <= its start, its end <= end), or kNoMatch. Each thread's
  // ranges are walked once in that order with a stack of nested ranges: a
  // range popped for ending before this one ends before it would contain
  // any later one but a range that also contains this one, so the last
  // containing range is never popped (4 bytes a range, and the stack).
  std::vector<uint32_t> parents() const;
  // By range index, each range's thread (its key), start and end, as the
  // sweep holds them (for a caller that sorts calls the sweep could not
  // take: forEachEnclosing).
  void spans(std::vector<int64_t>& thread, std::vector<int64_t>& start, std::vector<int64_t>& end) const;
  // Where the sweep holds the spans (ownSpans) of `ranges` (the ranges it
  // was made from, their thread keys kept), their start, duration and
  // thread index as asked, made again by slot from the streams; `narrow`:
  // the start and thread index into narrowStart and narrowThread (the
  // streams read twice: a StartTimes' blocks' smallest starts first).
  void restoreSpans(AssociationRanges& ranges, bool start, bool duration, bool threadIndex,
                    bool narrow = false) const;

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
    if (t.count == 0) return true;
    if (t.started && start < t.lastStart) return false;
    t.started = true;
    t.lastStart = start;
    while (true) {
      if (!t.peeked) {
        if (t.next.left == 0) break;
        t.peek = decode(t.next);
        t.peeked = true;
      }
      if (t.peek.start > start) break;
      t.active.emplace_back(t.peek.range, t.peek.end);
      t.peeked = false;
    }
    if (end < start) return true;
    // A range that ended before this call started ends before every later
    // call of the thread too.
    size_t kept = 0;
    for (const std::pair<uint32_t, int64_t>& a : t.active) {
      if (a.second < start) continue;
      t.active[kept++] = a;
      if (end <= a.second) emit(a.first);
    }
    t.active.resize(kept);
    return true;
  }

 private:
  struct Entry {
    uint32_t range;
    int64_t start, end;
  };
  // Where a walk of a thread's stream is: the next byte, the ranges not read
  // yet, and the last range read (the steps are from it).
  struct Cursor {
    size_t at = 0, left = 0;
    uint32_t range = 0;
    int64_t start = 0;
  };
  struct Thread {
    size_t begin = 0, count = 0;  // its stream's first byte in bytes_, its ranges
    Cursor next;                  // the first range not passed yet
    bool peeked = false;          // `peek`: the range at `next`, read ahead
    Entry peek{};
    std::vector<std::pair<uint32_t, int64_t>> active;  // (range, end)
    int64_t lastStart = 0;
    bool started = false;
  };
  uint64_t read(size_t& at) const {
    uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
      const uint8_t b = bytes_[at++];
      v |= static_cast<uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
  }
  Entry decode(Cursor& c) const {
    c.range = static_cast<uint32_t>(static_cast<int64_t>(c.range) + unzigzag(read(c.at)));
    --c.left;
    if (own_) {  // steps wrap as they were made (range_sweep.cc, step)
      c.start = static_cast<int64_t>(static_cast<uint64_t>(c.start) + static_cast<uint64_t>(unzigzag(read(c.at))));
      return {c.range, c.start,
              static_cast<int64_t>(static_cast<uint64_t>(c.start) + static_cast<uint64_t>(unzigzag(read(c.at))))};
    }
    c.start = start_[c.range];
    return {c.range, c.start, c.start + duration_->get(c.range)};
  }
  Cursor cursorOf(const Thread& t) const {
    Cursor c;
    c.at = t.begin;
    c.left = t.count;
    return c;
  }
  // The streams, from each range's thread (threadOf(i), an index of
  // `threadKeys`), start and end, each thread's ranges in `order`
  // (order(fn): fn(i) for every range, each thread's in (start, index)
  // order; threads may interleave).
  template <typename ThreadOf, typename StartOf, typename EndOf, typename Order>
  void build(size_t n, std::span<const int64_t> threadKeys, ThreadOf&& threadOf, StartOf&& startOf, EndOf&& endOf,
             Order&& order);

  bool own_ = false;
  const int64_t* start_ = nullptr;     // not own_: the ranges' starts and durations
  const NarrowInts* duration_ = nullptr;
  size_t ranges_ = 0;
  std::vector<uint8_t> bytes_;         // every thread's stream, one after another
  KeyGroups threadOf_;                 // thread -> threads_ index
  std::vector<int64_t> threadKeys_;    // by threads_ index
  std::vector<Thread> threads_;
};

}  // namespace asys
