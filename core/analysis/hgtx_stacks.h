#pragma once
// The push/pop range stacks of every thread: each closed push/pop range's
// level, enclosing range and direct children, as hgtx_pushpop_trace and
// hgtx_ppu_proj_trace print them: one sort by thread and one sweep
// (sweepStacks) for the loaded events, and for a scan's range list
// (PushPopRanges) one sweep in start order with a stack a thread, which
// takes a thread's ranges in the same order (the unit tests check the two
// against each other).
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/analysis/association_ranges.h"
#include "core/analysis/key_groups.h"
#include "core/analysis/start_times.h"
#include "core/base/narrow_ints.h"
#include "core/base/small_ids.h"
#include "core/report/report.h"

namespace asys {

constexpr uint32_t kNoParent = 0xFFFFFFFFu;

struct HgtxStacks {
  std::vector<uint32_t> ranges;  // event indices of the closed push/pop ranges
  // By HGTX event index (other events keep the defaults):
  std::vector<uint32_t> parent;  // the enclosing range's event index, or kNoParent
  std::vector<int32_t> level;    // from 0; -1 for events not on a stack
  std::vector<int64_t> numChild, durChild;  // direct children only

  bool onStack(size_t event) const { return level[event] >= 0; }
};

HgtxStacks buildHgtxStacks(const HgtxEvents& h);

// Only the closed ranges and their levels, the same as buildHgtxStacks
// gives them (one computation): 8 bytes a range instead of the 24 an event
// the whole stacks take, for the timeline's HGTX lanes.
struct HgtxLevels {
  std::vector<uint32_t> ranges;  // event indices of the closed push/pop ranges
  std::vector<int32_t> level;    // by position in `ranges`
};
HgtxLevels buildHgtxLevels(const HgtxEvents& h);

// Only each closed push/pop range's level and number of direct children,
// the same as buildHgtxStacks gives them, from one scan of HGTX_EVENTS
// (Report::scanHgtx), the events never held whole: 12 bytes a range, where
// the events and the whole stacks take 84 an event.
struct HgtxStackCounts {
  static constexpr size_t kNotOnStack = SIZE_MAX;
  std::vector<uint32_t> event;     // the ranges' event indices, ascending
  std::vector<int32_t> level;      // by position in `event`
  std::vector<uint32_t> numChild;  // by position in `event`
  // With HgtxStackCounter(/*parents=*/true) only, empty otherwise: each
  // range's enclosing range (its position, or kNoParent), and (position,
  // HGTX Range ID) of the ranges whose ID is not their row's position
  // (hgtxRangeId), ascending: few or none in the reports profilers write.
  std::vector<uint32_t> parent;
  std::vector<std::pair<uint32_t, int64_t>> otherIds;
  // Range k's level: level[k], or with parents kept and `level` given back
  // (hgtx_ppu_proj_trace: 4 bytes a range), its depth among its parents.
  int32_t levelOf(size_t k) const;
  // The position of an event among the ranges, or kNotOnStack.
  size_t find(uint32_t event) const;
  // Range k's HGTX Range ID (parents kept).
  int64_t rangeId(size_t k) const;
  // ":root:...:id", the range IDs from the root down to range k (parents kept).
  void appendStack(size_t k, std::string& out) const;
};
HgtxStackCounts scanHgtxStackCounts(Report& report);

// The same folded from chunks of HGTX_EVENTS someone else scans (the
// association's scan: RangeSelection::alsoScan), so the table is read once:
// add() each chunk in order, then finish(). While the chunks come it holds
// each closed push/pop range's event, thread, start and end (28 bytes a
// range), given back by finish().
class HgtxStackCounter {
 public:
  // `parents`: keep each range's parent and the Range IDs that are not
  // their row's position too (HgtxStackCounts::parent, otherIds; 4 bytes a
  // range more, for hgtx_ppu_proj_trace's ParentId and RangeStack), read
  // from the chunks' rangeId (hcol::rangeId; none read: every ID its row's
  // position).
  explicit HgtxStackCounter(bool parents = false) : parents_(parents) {}
  void add(size_t firstEvent, const HgtxEvents& chunk);
  HgtxStackCounts finish();

 private:
  bool parents_;
  HgtxStackCounts out_;
  std::vector<int64_t> thread_, start_, end_;
};

// The push/pop stacks of an association's chosen ranges, by range slot,
// for a caller whose chosen ranges are every push/pop range of the report
// (no range-include or range-exclude: hgtx_ppu_proj_sum and
// hgtx_ppu_proj_trace by default): each closed push/pop range's level,
// enclosing range and number of direct children, the same as
// HgtxStackCounter finds them, swept from the chosen ranges themselves
// (their thread, start and duration) once they are chosen, so that the
// association's scan of HGTX_EVENTS folds nothing beside them (the counter
// holds 28 bytes a range while the scan runs, grown by doubling). Slot
// order is (start, longer first, event): each thread's ranges come in
// sweepStacks' order, one stack a thread.
struct SlotStacks {
  // parent[] of a range on no stack (a start/end range, or one never closed).
  static constexpr uint32_t kOffStack = 0xFFFFFFFEu;
  // By slot, each asked for or empty: level + 1 (0: on no stack), in a
  // byte while below 255 (SmallIds); the enclosing range's slot, kNoParent
  // at a thread's outermost range, or kOffStack; the direct children.
  SmallIds levelPlusOne;
  std::vector<uint32_t> parent;
  SmallIds children;

  // Range r's level (parents kept: its depth among them), or -1 when it is on no stack.
  int32_t level(size_t r) const;
  bool onStack(size_t r) const { return parent.empty() ? levelPlusOne.get(r) != 0 : parent[r] != kOffStack; }
};
// `R`: the chosen ranges with their events, threads, starts, durations and
// styles (as RangeSelection::chosen is given them); `unclosed`: the events
// of the push/pop ranges never closed (HGTX_EVENTS.end NULL), ascending,
// which are on no stack (UnclosedRanges folds them from the scan).
SlotStacks slotStacks(const AssociationRanges& R, const std::vector<uint32_t>& unclosed, bool levels, bool parents);
// The same with each range's thread and start given apart (`threadOf`:
// its index among `threadCount`; `starts` by slot), for a caller that took
// them before the association gave them back (hgtx_ppu_proj_trace sweeps
// its stacks once the association is over, so that they are not held
// through it).
SlotStacks slotStacks(const AssociationRanges& R, const SmallIds& threadOf, size_t threadCount,
                      const StartTimes& starts, const std::vector<uint32_t>& unclosed, bool levels, bool parents);

// The events of the push/pop ranges never closed, from the chunks of the
// association's scan (RangeSelection::alsoScan): few or none.
struct UnclosedRanges {
  std::vector<uint32_t> events;
  void add(size_t firstEvent, const HgtxEvents& chunk);
};

// RangeId: HGTX_EVENTS.rangeId, or the row's 1-based position when NULL.
inline int64_t hgtxRangeId(const HgtxEvents& h, size_t event) {
  return h.rangeId[event] != kNoValue ? h.rangeId[event] : static_cast<int64_t>(event) + 1;
}

// ":root:...:id", the range IDs of the stack from the root down to `event`.
void appendRangeStack(const HgtxEvents& h, const HgtxStacks& s, uint32_t event, std::string& out);

// The same for any range list: `parent(r)` the enclosing range or
// kNoParent, `id(r)` a range's ID.
template <typename Parent, typename Id>
void appendRangeStackOf(uint32_t range, Parent parent, Id id, std::string& out) {
  thread_local std::vector<uint32_t> chain;  // reused: no allocation per row
  chain.clear();
  for (uint32_t r = range; r != kNoParent; r = parent(r)) chain.push_back(r);
  for (size_t depth = chain.size(); depth-- > 0;) {
    char buf[24];
    buf[0] = ':';
    auto [end, ec] = std::to_chars(buf + 1, buf + sizeof buf, id(chain[depth]));
    out.append(buf, end);
  }
}

// The closed push/pop ranges with their place in their thread's stack, as
// buildHgtxStacks places them, folded from a scan of HGTX_EVENTS (chunks as
// Report::scanHgtx gives them, with rangeId: hcol::ranges | hcol::rangeId)
// and never the table whole: 32 bytes a range (40 when some rangeId is not
// its row's position), where the events and the whole stacks take 88 an
// event. In hgtx_pushpop_trace's row order: start, then duration, then
// globalTid, then event, all ascending.
struct PushPopRanges {
  // A thread's outermost range links to its thread: kRoot | thread index.
  static constexpr uint32_t kRoot = 0x80000000u;
  std::vector<int64_t> start;
  NarrowInts duration;             // end - start
  std::vector<uint32_t> link;      // the enclosing range's position, or kRoot | thread
  std::vector<uint32_t> event;     // HGTX_EVENTS index
  std::vector<uint32_t> name;      // domain-qualified name id ("domain:name")
  std::vector<uint32_t> numChild;  // direct children only
  NarrowInts durChild;             // their summed durations
  // HGTX_EVENTS.rangeId by position; empty when every range's is NULL or
  // its row's 1-based position (hgtxRangeId), as in the reports asys writes.
  std::vector<int64_t> rangeIds;
  std::vector<int64_t> threads;  // globalTid by thread index

  size_t size() const { return start.size(); }
  int64_t end(size_t k) const { return start[k] + duration.get(k); }
  uint32_t parent(size_t k) const { return (link[k] & kRoot) != 0 ? kNoParent : link[k]; }
  // A range's thread is its outermost range's (parents walked).
  int64_t globalTid(size_t k) const;
  int64_t rangeId(size_t k) const { return rangeIds.empty() ? int64_t{event[k]} + 1 : rangeIds[k]; }
  // From 0 at a thread's outermost range (parents walked: a stack's depth).
  int32_t level(size_t k) const;
  // ":root:...:id", the range IDs from the root down to range k.
  void appendStack(size_t k, std::string& out) const;
};

class PushPopRangeBuilder {
 public:
  // `strings`: the pool the chunks' name ids are in (qualified names are
  // interned in it).
  explicit PushPopRangeBuilder(StringPool& strings) : strings_(strings) {}
  // Each chunk in order; then finish(), once.
  void add(size_t firstEvent, const HgtxEvents& chunk);
  PushPopRanges finish();

 private:
  StringPool& strings_;
  PushPopRanges r_;
  std::vector<int64_t> end_;  // by range, while they come (end - start after)
  bool idsAreEvents_ = true;  // r_.rangeIds not needed so far
  uint32_t lastThread_ = UINT32_MAX;
  int64_t lastTid_ = 0;
  KeyGroups threads_;
  // The ranges in a domain (few: a domain's name may come in a later row,
  // so their names are qualified once every row is in): position, domain.
  std::vector<std::pair<uint32_t, uint32_t>> inDomain_;
  std::map<std::pair<int64_t, int64_t>, uint32_t> domains_;  // (pid, domainId) -> index
  std::vector<uint32_t> domainName_;  // by domain index: its name id (the last creation's), or kNoString
  uint32_t domainOf(int64_t globalTid, int64_t domainId);
};

}  // namespace asys
