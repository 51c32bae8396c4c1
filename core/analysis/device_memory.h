#pragma once
// Device memory allocations paired with their releases and grouped by the
// allocation's call stack: what device_memory_usage_summary and
// device_memory_usage_detail share (docs/rules.md has every decision).
//
// Pairing: per process and PPU, in (start, eventId) order, a release ends the
// latest unreleased allocation of the same address (intervals.h
// pairLatestOpen). Events of no PPU (deviceId NULL or negative, e.g. the host
// memory of a Kineto trace) and of another memoryOperationType take no part.
#include <cstdint>
#include <string>
#include <vector>

#include "core/analysis/callstack_groups.h"
#include "core/analysis/time_window.h"
#include "core/report/report.h"

namespace asys {

// The PID of an event: from globalPid, else from globalTid; -1 when neither.
inline int64_t memoryEventPid(const MemoryUsageEvents& m, uint32_t row) {
  const int64_t g = m.globalPid[row] != kNoValue ? m.globalPid[row] : m.globalTid[row];
  return g == kNoValue ? -1 : pidOf(g);
}

struct DeviceMemoryEvents {
  static constexpr uint32_t kNone = 0xFFFFFFFFu;
  // Rows of report.memoryUsage() that are allocations or releases on a PPU,
  // in (start, eventId, row) order.
  std::vector<uint32_t> order;
  // Per row of the table: an allocation's release, a release's allocation;
  // kNone when unpaired.
  std::vector<uint32_t> partner;
  // Per row: a release without an allocation whose address this process and
  // device had allocated before (a second release).
  std::vector<uint8_t> secondRelease;
  std::vector<uint32_t> otherOperations;  // rows on a PPU that are neither allocation nor release
};

// Loads the columns pairing and grouping read (mcol::pairing); a rule that
// shows more loads them itself.
DeviceMemoryEvents pairDeviceMemory(Report& report);

// Whether an allocation made in the window is still held at its end: not
// released inside the window (released at or after its end, or never).
bool unreleasedAtEnd(const MemoryUsageEvents& m, const DeviceMemoryEvents& events, uint32_t allocation,
                     const TimeWindow& window);

// Group List texts of allocations by their call chains: the matching groups'
// names in group order joined by '/', only the first with `firstOnly`, and
// "others" when none matches (or the allocation has no call chain).
class GroupLists {
 public:
  // Matches every distinct call chain of `allocations` (rows of
  // report.memoryUsage()) once.
  GroupLists(Report& report, const CallstackGroups& groups, bool firstOnly, const std::vector<uint32_t>& allocations);
  // The Group List of an allocation row given to the constructor: a dense id
  // (0.. in order of first appearance) and its text.
  uint32_t of(uint32_t row) const;
  const std::string& text(uint32_t id) const { return texts_[id]; }
  size_t size() const { return texts_.size(); }

 private:
  const std::vector<int64_t>& chainOfRow_;
  KeyGroups chains_;               // callchainId -> dense chain index
  std::vector<uint32_t> listOfChain_;  // dense chain index -> Group List id
  uint32_t noChainList_ = 0;       // the "others" list of rows without a chain
  std::vector<std::string> texts_;
};

}  // namespace asys
