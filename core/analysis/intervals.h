#pragma once
// The interval toolkit: every rule that asks "which of these cover, contain
// or overlap" (HGTX association and projection, PPU gaps and utilisation,
// PCCL desync groups, memory held over time) uses these sweeps, so each is
// written and tested once. Intervals are half-open, [start, end), integer ns.
// Everything is sort-then-sweep: no pairwise comparisons, no per-item
// allocation.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <span>
#include <vector>

#include "core/analysis/stats.h"
#include "core/base/grouped_lists.h"

namespace asys {

struct Span {
  int64_t start = 0, end = 0;
  int64_t length() const { return end - start; }
  bool operator==(const Span&) const = default;
};

// ---------------------------------------------------------------------------
// Unions

// Sorts `spans` by start and merges overlapping or touching spans into
// disjoint blocks, in place, in start order. Empty spans (end <= start) cover
// no time and are dropped.
void mergeSpans(std::vector<Span>& spans);
// The same over a span of a larger buffer; returns how many blocks it kept
// at the front of `spans`.
size_t mergeSpansInPlace(std::span<Span> spans);

// Sum of the lengths of disjoint blocks.
int64_t totalLength(std::span<const Span> blocks);

// The union length of spans already sorted by start (any overlap allowed):
// one pass, nothing written.
int64_t unionLengthSorted(std::span<const Span> spansByStart);

// Time that disjoint sorted blocks cover inside [from, to).
int64_t coveredLength(std::span<const Span> blocks, int64_t from, int64_t to);

// The gaps between consecutive disjoint sorted blocks (none before the first
// block or after the last).
std::vector<Span> gapsBetween(std::span<const Span> blocks);

// Each group's busy blocks: spans by a dense group index, each group's
// merged (mergeSpans) and contiguous. Grouped in place, in the spans' own
// buffer: each misplaced span is swapped to the next free slot of its group
// (an American flag sort: the slots written are the groups' cursors, a few
// sequential streams, not a random walk), so a (group, span) list costs its
// 20 bytes an entry and nothing more, where a copy into lists of their own
// held 36. The order within a group is not kept: the merge sorts it.
class SpanGroups {
 public:
  SpanGroups(std::vector<uint32_t> groupOf, std::vector<Span> spans, size_t groupCount);
  size_t size() const { return count_.size(); }
  std::span<const Span> group(size_t g) const { return {spans_.data() + begin_[g], count_[g]}; }

 private:
  std::vector<Span> spans_;
  std::vector<size_t> begin_;  // by group: where its blocks start
  std::vector<size_t> count_;  // by group: its blocks
};

// Each group's spans' lengths summarised and the length of their union, for
// spans whose lengths are their group's values (hgtx_ppu_proj_sum: a
// projection's length is its value): the values are read from the spans,
// never held beside them. The spans are grouped in place as SpanGroups and
// summarizeGroupsInPlace group them (so a group's values come in the same
// order); `groupOf` and `spans` are given back emptied.
struct SpanGroupStats {
  std::vector<DurationStats> stats;  // by group
  std::vector<int64_t> covered;      // by group: the length of its spans' union
};
SpanGroupStats summarizeSpanGroupsInPlace(std::vector<uint32_t>& groupOf, std::vector<Span>& spans,
                                          size_t groupCount);

// Per group, over spans sorted by start (any overlap, spans of all groups
// interleaved): the earliest start, the latest end, the union length and the
// number of spans, in one pass with no sort and no per-group container (a
// group's open block is carried until a later span of it starts after its
// end). groupOf[i] == kNoSpanGroup leaves span i out. What an operator's
// projection and PPU active time are, for many operators at once.
constexpr uint32_t kNoSpanGroup = 0xFFFFFFFFu;
struct GroupUnions {
  std::vector<int64_t> start, end, active;  // start/end of a group without spans: 0
  std::vector<uint32_t> count;
};
GroupUnions unionByGroupSorted(std::span<const int64_t> startsSorted, std::span<const int64_t> ends,
                               std::span<const uint32_t> groupOf, size_t groupCount);
// The same with span i's end given by endOf(i) (an activity list whose ends
// are held as durations: PpuActivities::endOf).
template <typename EndOf>
GroupUnions unionByGroupSortedBy(std::span<const int64_t> starts, EndOf&& endOf, std::span<const uint32_t> groupOf,
                                 size_t groupCount) {
  GroupUnions u;
  u.start.assign(groupCount, 0);
  u.end.assign(groupCount, 0);
  u.active.assign(groupCount, 0);
  u.count.assign(groupCount, 0);
  std::vector<int64_t> blockStart(groupCount, 0);  // the group's open block: [blockStart, end[g])
  for (size_t i = 0; i < starts.size(); ++i) {
    const uint32_t g = groupOf[i];
    if (g == kNoSpanGroup) continue;
    const int64_t s = starts[i], e = std::max<int64_t>(endOf(i), starts[i]);
    if (u.count[g]++ == 0) {
      u.start[g] = blockStart[g] = s;
      u.end[g] = e;
    } else if (s > u.end[g]) {  // a gap: the open block is complete
      u.active[g] += u.end[g] - blockStart[g];
      blockStart[g] = s;
      u.end[g] = e;
    } else {
      u.end[g] = std::max(u.end[g], e);
    }
  }
  for (size_t g = 0; g < groupCount; ++g)
    if (u.count[g] > 0) u.active[g] += u.end[g] - blockStart[g];
  return u;
}

// The time of `parent` that none of `blocks` covers (disjoint, sorted: the
// merged spans of its children): an operator's Idle time, the part of its
// PPU projection no child operator runs in. Blocks outside the parent count
// only where they overlap it.
inline int64_t uncoveredLength(Span parent, std::span<const Span> blocks) {
  return parent.length() - coveredLength(blocks, parent.start, parent.end);
}

// ---------------------------------------------------------------------------
// Containment, per key (a thread, a process): the intervals of one key only
// contain the points or intervals of the same key.

struct KeyedSpans {
  std::span<const int64_t> key, start, end;
  size_t size() const { return key.size(); }
};

// Calls emit(query, container) for every query interval and every container
// of the same key with container.start <= query.start && query.end <=
// container.end. A query with end < start contains nothing and is skipped.
// Pairs come grouped by query, in (key, start) order of the queries.
// Cost: sorting both sides, plus the pairs, plus the containers that end
// inside a query (rare: a range that ends during a call).
template <typename Emit>
void forEachEnclosing(const KeyedSpans& containers, const KeyedSpans& queries, Emit&& emit);

// For each point (key, time), the container of the same key with
// start <= time < end that started last (the shorter one on a tie: the
// innermost of nested ranges); kNoContainer when none.
constexpr uint32_t kNoContainer = 0xFFFFFFFFu;
std::vector<uint32_t> innermostEnclosing(const KeyedSpans& containers, std::span<const int64_t> pointKey,
                                         std::span<const int64_t> pointTime);

// ---------------------------------------------------------------------------
// Overlap components

// Groups spans whose intervals overlap, transitively (connected components
// of the overlap graph): touching spans ([a, b) and [b, c)) do not overlap,
// and an empty span overlaps nothing. Returns a component id per span,
// numbered 0.. in order of each component's earliest start.
std::vector<uint32_t> overlapComponents(std::span<const Span> spans);
// The same for spans already sorted by start (ties in any order), without
// the sort: what a rule over start-ordered activities uses. Components are
// numbered in the order of their first span.
std::vector<uint32_t> overlapComponentsSorted(std::span<const Span> spansByStart);

// ---------------------------------------------------------------------------
// Held spans from open and close events (an allocation and its release: the
// memory is held from one to the other).

// Pairs open and close events of dense keys (an address in one process and
// device), taken in `order` (time order): each close ends the latest open of
// its key that no earlier close ended (last in, first out). One pass, one
// slot per key.
struct OpenClosePairs {
  static constexpr uint32_t kNone = 0xFFFFFFFFu;
  // Per event: an open's close, a close's open; kNone when unpaired.
  std::vector<uint32_t> partner;
  // Per event: a close without an open whose key was opened before (every
  // open of it already closed: a second close), rather than never.
  std::vector<uint8_t> closedBefore;
};
// `key[i]` < keyCount; `open[i]` true for an open, false for a close.
OpenClosePairs pairLatestOpen(std::span<const uint32_t> order, std::span<const uint32_t> key,
                              std::span<const uint8_t> open, size_t keyCount);

// Whether a span [start, end) still holds at `t` (start <= t < end). An
// allocation made in [from, to) and not released inside that range is the
// one held at to - 1: released at `to` or later, or never (end = INT64_MAX).
inline bool heldAt(const Span& s, int64_t t) { return s.start <= t && t < s.end; }

// ---------------------------------------------------------------------------

namespace intervals_detail {
// Indices 0..n-1 sorted by (key, start), ties by index (deterministic).
std::vector<uint32_t> byKeyThenStart(const KeyedSpans& s);
}  // namespace intervals_detail

template <typename Emit>
void forEachEnclosing(const KeyedSpans& containers, const KeyedSpans& queries, Emit&& emit) {
  const std::vector<uint32_t> cs = intervals_detail::byKeyThenStart(containers);
  const std::vector<uint32_t> qs = intervals_detail::byKeyThenStart(queries);
  std::vector<uint32_t> active;  // containers of the key that started, not yet passed
  size_t c = 0;
  bool first = true;
  int64_t key = 0;
  for (uint32_t q : qs) {
    const int64_t qs_ = queries.start[q], qe = queries.end[q];
    if (first || queries.key[q] != key) {
      first = false;
      key = queries.key[q];
      active.clear();
      while (c < cs.size() && containers.key[cs[c]] < key) ++c;
    }
    while (c < cs.size() && containers.key[cs[c]] == key && containers.start[cs[c]] <= qs_) active.push_back(cs[c++]);
    if (qe < qs_) continue;
    // Queries come in start order: a container that ended before this one
    // started cannot contain any later query either.
    size_t kept = 0;
    for (uint32_t a : active) {
      if (containers.end[a] < qs_) continue;
      active[kept++] = a;
      if (qe <= containers.end[a]) emit(q, a);
    }
    active.resize(kept);
  }
}

}  // namespace asys
