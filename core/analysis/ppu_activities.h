#pragma once
// The PPU activities of a report (kernels, memcpys, memsets) as one columnar
// list in start order: what the association, projection, gap and
// utilisation rules sweep over.
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "core/analysis/launch_index.h"
#include "core/analysis/time_window.h"
#include "core/report/report.h"
#include "core/table/table.h"

namespace asys {

enum class ActivityKind : uint8_t { Kernel, Memcpy, Memset };

// The report table an activity's row (PpuActivities::row) is an index of.
constexpr EventTable eventTableOf(ActivityKind kind) {
  return kind == ActivityKind::Kernel ? EventTable::Kernel
         : kind == ActivityKind::Memcpy ? EventTable::Memcpy
                                        : EventTable::Memset;
}

struct PpuActivities {
  std::vector<int64_t> start, end, globalPid;
  std::vector<int32_t> deviceId;
  std::vector<ActivityKind> kind;
  std::vector<uint32_t> row;  // the activity's row in its own table (Kernels, MemoryOps)
  // With `links` only: the launching call's correlation id and the graph node.
  std::vector<int64_t> correlationId, graphNodeId;
  size_t size() const { return start.size(); }
};

struct ActivitySelection {
  bool memory = true;  // memcpys and memsets as well as kernels
  bool links = false;  // load correlationId and graphNodeId
  // More HGGC_KERNEL columns (kcol bits) the caller reads by row, loaded in
  // the same scan (a second scan of a million-row table costs 0.2 s).
  uint32_t kernelColumns = 0;
  std::optional<std::vector<int64_t>> devices;  // absent = every device
  TimeWindow window;   // activities overlapping it
  // Kernels (by HGGC_KERNEL row) the caller keeps, asked last, after the
  // device and time tests (the PCCL rules keep PCCL kernels); empty = all.
  std::function<bool(uint32_t row)> keepKernel;
};

// The HGGC_KERNEL columns (kcol bits) an activity list reads, and with
// `links` as well.
inline constexpr uint32_t kActivityColumns = kcol::time | kcol::deviceId | kcol::globalPid;
inline constexpr uint32_t kActivityLinkColumns = kcol::correlationId | kcol::graphNodeId;

// Activities cut off by the end of the capture (NULL end) have no extent and
// are left out. Sorted by start; at equal starts kernels, then memcpys, then
// memsets, each in table order.
PpuActivities loadPpuActivities(Report& report, const ActivitySelection& selection);

// The same activities (graphNodeId too, left empty when none ran a graph
// node; correlationId never), each with its launching call (`calls.find`:
// its HGGC_API row or kNoMatch) in `launchCall`, for the association.
// HGGC_KERNEL is read a chunk at a time (Report::forEachKernelChunk), its
// columns never loaded whole for the list: only `selection.kernelColumns`
// stay loaded, read in the same scan.
PpuActivities loadLaunchedActivities(Report& report, const ActivitySelection& selection, const LaunchIndex& calls,
                                     std::vector<uint32_t>& launchCall);

}  // namespace asys
