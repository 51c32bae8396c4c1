#pragma once
// The push/pop range stacks of every thread: each closed push/pop range's
// level, enclosing range and direct children, as hgtx_pushpop_trace and
// hgtx_ppu_proj_trace print them (one computation, so both agree).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

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
  // The position of an event among the ranges, or kNotOnStack.
  size_t find(uint32_t event) const;
};
HgtxStackCounts scanHgtxStackCounts(Report& report);

// RangeId: HGTX_EVENTS.rangeId, or the row's 1-based position when NULL.
inline int64_t hgtxRangeId(const HgtxEvents& h, size_t event) {
  return h.rangeId[event] != kNoValue ? h.rangeId[event] : static_cast<int64_t>(event) + 1;
}

// ":root:...:id", the range IDs of the stack from the root down to `event`.
void appendRangeStack(const HgtxEvents& h, const HgtxStacks& s, uint32_t event, std::string& out);

}  // namespace asys
