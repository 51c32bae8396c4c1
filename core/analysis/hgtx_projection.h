#pragma once
// HGTX ranges projected onto the PPU timeline (2.3.11, 2.3.12): a range's
// projection runs from the earliest start to the latest end of its
// associated activities, and its PPU active time is the union of those
// activities' intervals (overlaps counted once).
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "core/analysis/hgtx_association.h"
#include "core/analysis/intervals.h"
#include "core/analysis/start_times.h"
#include "core/base/narrow_ints.h"
#include "core/base/zeroed_array.h"

namespace asys {

struct RangeProjections {
  // By range slot; a range with ops == 0 has no projection. `active` is
  // empty when not asked for.
  std::vector<int64_t> start, end, active;
  std::vector<uint32_t> ops;
};

// `withActive`: each range's PPU active time too (hgtx_ppu_proj_sum needs
// only the projections, whose union per name is its active time).
RangeProjections projectRanges(const PpuActivities& activities, const HgtxAssociation& association,
                               bool withActive = true);

// The projections without the active time in 12 bytes a range (a Span and
// an op count took 20), for a caller that keeps the activities' starts
// until it makes its spans (hgtx_ppu_proj_sum): a projection starts where
// its first activity does (the list is in start order), held as that
// activity, and its span's length is held narrow.
struct RangeFirsts {
  static constexpr uint32_t kNone = UINT32_MAX;  // a range with no activity: no projection
  std::vector<uint32_t> first;  // by range slot: its first activity, kNone
  NarrowInts length;            // by range slot: its latest activity end less its first start
  std::vector<uint32_t> ops;
  bool projected(size_t r) const { return first[r] != kNone; }
  // Range r's projection, its first activity's start read from `activities`.
  Span span(const PpuActivities& activities, size_t r) const {
    const int64_t start = activities.startOf(first[r]);
    return {start, start + length.get(r)};
  }
};
RangeFirsts projectFirsts(const PpuActivities& activities, const HgtxAssociation& association);

// The projections in 12 bytes a range instead of 28, for a rule that keeps the
// ranges' starts anyway (hgtx_ppu_proj_trace): the projection's start as
// its distance from the range's start and its duration, each in 4 bytes
// while below 4.3 s; its op count and its idle time (duration less PPU
// active time: 0 for 84 % of the ranges at scale 250, below 65,535 ns for
// 99.4 %) in 2 bytes while below 65,535; the others exact beside, as
// NarrowInts does. A range's four values side by side (one cache line for
// the fold's step, where projectRanges reads three columns).
class NarrowProjections {
 public:
  enum Field : uint32_t { kStartAfter = 0, kDuration = 1, kOps = 2, kIdle = 3 };
  // n ranges, none projected; their cells allocated zeroed (ZeroedArray:
  // faulted in as the fold first writes them, not all at its start).
  void assign(size_t n) {
    cells_ = ZeroedArray<Cell>(n);
    wide_.clear();
  }
  size_t size() const { return cells_.size(); }
  uint32_t ops(size_t r) const { return static_cast<uint32_t>(get(kOps, r)); }
  int64_t get(Field f, size_t r) const {
    const Cell& c = cells_[r];
    if (f < kOps) return c.v[f] != kWide ? int64_t{c.v[f]} : wideAt(f, r);
    return c.small[f - kOps] != kWideSmall ? int64_t{c.small[f - kOps]} : wideAt(f, r);
  }
  void set(Field f, size_t r, int64_t v) {
    Cell& c = cells_[r];
    if (f < kOps) {
      if (c.v[f] != kWide && v >= 0 && v < int64_t{kWide}) c.v[f] = static_cast<uint32_t>(v);
      else setWide(f, r, v);
    } else {
      if (c.small[f - kOps] != kWideSmall && v >= 0 && v < int64_t{kWideSmall}) c.small[f - kOps] = static_cast<uint16_t>(v);
      else setWide(f, r, v);
    }
  }
  // The projection's start (from range r's own start `rangeStart`), its
  // duration and PPU active time.
  int64_t start(const AssociationRanges& R, size_t r) const { return R.start[r] + get(kStartAfter, r); }
  int64_t start(const StartTimes& starts, size_t r) const { return starts[r] + get(kStartAfter, r); }
  int64_t duration(size_t r) const { return get(kDuration, r); }
  int64_t active(size_t r) const { return duration(r) - get(kIdle, r); }

 private:
  static constexpr uint32_t kWide = UINT32_MAX;       // kStartAfter, kDuration: the value is in wide_
  static constexpr uint16_t kWideSmall = UINT16_MAX;  // kOps, kIdle: the same
  static uint64_t key(Field f, size_t r) { return (static_cast<uint64_t>(r) << 2) | f; }
  // The rare values past their cells, out of line so that the fold's and
  // the sort's common steps stay small.
  int64_t wideAt(Field f, size_t r) const;
  void setWide(Field f, size_t r, int64_t v);
  struct Cell {
    uint32_t v[2] = {0, 0};      // kStartAfter, kDuration
    uint16_t small[2] = {0, 0};  // kOps, kIdle
  };
  static_assert(sizeof(Cell) == 12);
  ZeroedArray<Cell> cells_;  // a zero cell: no projection
  std::unordered_map<uint64_t, int64_t> wide_;
};
NarrowProjections projectRangesNarrow(const PpuActivities& activities, const HgtxAssociation& association);
// The same with the ranges' starts given apart (the association's given back).
NarrowProjections projectRangesNarrow(const PpuActivities& activities, const HgtxAssociation& association,
                                      const StartTimes& starts);
// The same for a caller that reads neither the activity list nor the
// association's activities (their launching calls or call values) again:
// their pages are given back as the fold passes them (giveBackPassed),
// while the projections' cells are faulted in as it writes them, so the
// list and the projections are not resident whole at once
// (hgtx_ppu_proj_trace at scale 2500: 120 MiB of list, 105 of cells).
// The list's and `launchCall`'s values are lost (their buffers stay).
NarrowProjections projectRangesNarrowGivingBack(PpuActivities& activities, HgtxAssociation& association,
                                                const StartTimes& starts);

// Gives back the activities' columns that projectRanges does not read (all
// but start and end: 17 bytes an activity), for a caller that reads no more
// of them, so that they are not held beside the projections.
void keepOnlySpans(PpuActivities& activities);

}  // namespace asys
