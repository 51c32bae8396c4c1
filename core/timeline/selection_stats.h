#pragma once
// A timeline selection's statistics (docs/timeline.md, "Selection
// statistics"): for a time window [from, to), per PPU its active time (the
// union of its work clipped to the window: kernels, PCCL kernels, memcpys,
// memsets), its idle time (the rest of the window), and the time kernels and
// memory operations cover (each a union, clipped); and the events of the
// timeline's rows overlapping the window grouped by (kind, name): count,
// total and average duration (whole events, as --filter-time counts them),
// shortest, longest, and the time they cover inside the window.
// One sweep over the tracks' events in the window, in start order; no
// memory per event (a group per distinct kind and name).
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/string_pool.h"
#include "core/table/table.h"
#include "core/timeline/timeline.h"

namespace asys {

// The grouped table's columns: Total Time, Count, Avg, Min, Max, In
// Selection (ns), Kind, Name.
std::vector<ColumnSpec> windowStatsColumns();

struct DeviceWindowStats {
  int64_t device = 0;
  std::string name;  // its timeline group: "PPU 0 (PPU-ZW810E)"
  // Union lengths inside the window, ns: all its work, its kernels (PCCL
  // kernels too), its memory operations (memcpys and memsets).
  int64_t active = 0, kernel = 0, memory = 0;
};

struct WindowStats {
  int64_t from = 0, to = 0;
  int64_t length() const { return to - from; }
  // Every PPU with work anywhere in the capture, by device id (a PPU idle in
  // the window is listed, 0 % active).
  std::vector<DeviceWindowStats> devices;
  // One row per (kind, name) of the events overlapping the window, by Total
  // Time descending, then kind and name (windowStatsColumns()).
  Table events{windowStatsColumns()};
};

// The kinds of events the table groups, as its Kind column spells them
// (the bridge contract lists them: core/rules/bridge_schema.h): "Kernel"
// (PCCL kernels too), "Memcpy", "Memset", "HGGC API" (failed calls too),
// "HGTX range", "OSRT", "PCCL stage". The HGTX projection is not counted:
// its ranges are the HGTX ranges' own, projected (they would count each
// range twice); counters are samples, not events.
inline constexpr std::array<std::string_view, 7> kSelectionKindNames = {
    "Kernel", "Memcpy", "Memset", "HGGC API", "HGTX range", "OSRT", "PCCL stage"};

// The statistics of [from, to) over `timeline` (names from `strings`, the
// report's pool its tracks index). Throws Error when from >= to.
WindowStats windowStats(const Timeline& timeline, const StringPool& strings, int64_t from, int64_t to);

}  // namespace asys
