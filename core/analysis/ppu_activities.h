#pragma once
// The PPU activities of a report (kernels, memcpys, memsets) as one columnar
// list in start order: what the association, projection, gap and
// utilisation rules sweep over.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "core/analysis/launch_index.h"
#include "core/analysis/start_times.h"
#include "core/analysis/time_window.h"
#include "core/base/narrow_ints.h"
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

// An activity that ran a graph node (ActivitySelection::links): few
// kernels do (2.4 % in the generator's reports), so they are listed apart,
// not as a column of every activity (8 bytes a kernel).
struct GraphNodeRun {
  uint32_t activity;
  int64_t globalPid, node;  // its process, for the node's (pid, graphNodeId)
};

struct PpuActivities {
  std::vector<int64_t> start, end, globalPid;
  std::vector<int32_t> deviceId;
  std::vector<ActivityKind> kind;
  std::vector<uint32_t> row;  // the activity's row in its own table (Kernels, MemoryOps)
  // With `links` only: the launching call's correlation id (loadPpuActivities),
  // and the activities that ran a graph node, in activity order.
  std::vector<int64_t> correlationId;
  std::vector<GraphNodeRun> graphNodes;
  // With ActivitySelection::durationsOnly, in place of start, end, device,
  // kind and process: end - start (4 bytes while below 4.3 s), and the
  // process of the activities with no launching call only (in activity
  // order: the association's list holds no process column, processOf
  // finds it). startsOnly: start only, end, device and kind empty. With
  // ActivitySelection::kernelTag, in place of the row: the tag.
  NarrowInts duration;
  std::vector<std::pair<uint32_t, int64_t>> unlaunchedPid;
  std::vector<uint32_t> tag;
  // With ActivitySelection::packPlaces, in place of deviceId and kind (5
  // bytes an activity): one byte, the kind in its low 2 bits and the
  // device's index in placeDevices above them (up to 64 devices; a list
  // that meets more is made with the two columns instead). Read both
  // forms through deviceOf and kindOf.
  std::vector<uint8_t> place;
  std::vector<int32_t> placeDevices;
  int32_t deviceOf(size_t a) const { return place.empty() ? deviceId[a] : placeDevices[place[a] >> 2]; }
  ActivityKind kindOf(size_t a) const { return place.empty() ? kind[a] : static_cast<ActivityKind>(place[a] & 3); }
  // Every form of the list keeps the start or the duration; a caller that
  // gives back what it no longer reads keeps at least one of them
  // (keepOnlySpans: start and end), or its rows (a startsOnly list once
  // associated: its starts served its sort). The longest is the list's
  // length.
  size_t size() const {
    return std::max({globalPid.size(), start.size(), narrowStart.size(), duration.size(), row.size()});
  }
  // A spansOnly or startsOnly list made as HGGC_KERNEL is scanned holds its starts here,
  // in about 4 bytes each (StartTimes), not in `start`: read both forms
  // through startOf.
  StartTimes narrowStart;
  int64_t startOf(size_t a) const { return start.empty() ? narrowStart[a] : start[a]; }
  // An activity's end: from `end`, or, in a list whose ends were turned
  // into durations (ActivitySelection::endsAsDurations: start and duration
  // held, no end), its start plus its duration.
  int64_t endOf(size_t a) const { return end.empty() ? startOf(a) + duration.get(a) : end[a]; }
  // An activity's process: from globalPid, or, in a durationsOnly list,
  // for an activity without launching call (kNoValue for any other).
  int64_t processOf(size_t a) const {
    if (!globalPid.empty()) return globalPid[a];
    const auto it = std::lower_bound(unlaunchedPid.begin(), unlaunchedPid.end(), a,
                                     [](const std::pair<uint32_t, int64_t>& x, size_t k) { return x.first < k; });
    return it != unlaunchedPid.end() && it->first == a ? it->second : kNoValue;
  }
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
  // For a keepKernel or kernelTag that reads kernel columns it does not
  // keep (the PCCL rules classify kernels by name, hgtx_kern_sum tags them
  // with their name): HGGC_KERNEL columns (kcol bits) read with each chunk
  // the activity list is made from, and the chunk, given before its kernels
  // are asked about (the table whole, as one chunk, when it is loaded
  // already, and in loadPpuActivities).
  uint32_t chunkColumns = 0;
  std::function<void(const Kernels& chunk, size_t first)> onKernelChunk;
  // For a rule that folds each activity's duration into groups of its own
  // and reads nothing else of it by position (hgtx_kern_sum): the list
  // keeps each activity's duration (4 bytes) and links, not its start, end,
  // device, kind or process (29 bytes an activity; the process only of an
  // activity without launching call, PpuActivities::processOf), and stays
  // in table order, not sorted by start (the sort's keys and order are 20
  // bytes an activity).
  bool durationsOnly = false;
  // For a rule that reads an activity's own cells from its table by row
  // (hgtx_kern_trace): the list keeps each activity's start while it is
  // sorted by it (associateActivities gives it back before the ranges'
  // spans come back; made as HGGC_KERNEL is scanned, in about 4 bytes,
  // narrowStart, as a spansOnly list's, and given back by the sort once it
  // has the order when it had to sort), not its end, device or kind (13
  // bytes an activity); without
  // `processes`, only the processes of the activities with no launching
  // call (PpuActivities::processOf, as durationsOnly keeps them), not the
  // column (8 bytes an activity).
  bool startsOnly = false;
  // Whether the list keeps each activity's process (globalPid, 8 bytes an
  // activity). The association follows the links with the process and
  // needs no column of it; a rule that reads no activity's process after
  // (the operator rules but ppu_op_trace, the projections, pccl_op_sum)
  // sets it false, and the list comes back without the column
  // (PpuActivities::processOf then answers kNoValue). The durationsOnly
  // form keeps what it keeps, whatever it says; startsOnly: above.
  bool processes = true;
  // For a rule that reads only each activity's start and end after the
  // association (the projections: keepOnlySpans), through startOf and
  // endOf: the list is made as HGGC_KERNEL is scanned
  // (loadLaunchedActivities) without device and row, its starts in about 4
  // bytes (PpuActivities::narrowStart; 12 bytes an activity through the
  // kernel scan, the association's peak for the projections, and 4 through
  // the projections); its kind, which orders the sort's ties, goes once
  // it is in start order, before the association places the calls' ranges
  // (so do device and row in a list read from loaded columns). Not for the
  // durationsOnly and startsOnly forms.
  bool spansOnly = false;
  // For a rule that reads an activity's end only through
  // PpuActivities::endOf: once the list is in start order, its ends are
  // turned into durations (`duration`, NarrowInts: 4 bytes while below
  // 4.3 s, the others exact beside) and the end column (8 bytes an
  // activity) goes. The full form only (not durationsOnly, startsOnly).
  bool endsAsDurations = false;
  // With durationsOnly: a kernel's tag, made from its chunk of HGGC_KERNEL
  // as the table is scanned (from `chunkColumns`, read with the chunk, not
  // kept), kept in PpuActivities::tag in place of its row; so a rule that
  // groups kernels by name holds no name column (12 bytes a kernel).
  // Kernels only (`memory` false).
  std::function<uint32_t(const Kernels& chunk, size_t i)> kernelTag;
  // For a caller that reads no memory operation's row once the list is
  // made (the operator summaries, the projections): HGGC_MEMCPY and
  // HGGC_MEMSET, when not loaded before the list, are read for it with its
  // columns only (kActivityOpColumns, Report::readMemoryOps), not held by
  // the report, and given back once it is read, before its sort.
  // loadLaunchedActivities only.
  bool releaseMemoryOps = false;
  // The full form's device and kind in one byte an activity
  // (PpuActivities::place), for a caller that reads them through deviceOf
  // and kindOf (the operator summaries). loadLaunchedActivities only.
  bool packPlaces = false;

  // Whether the list is made in the spansOnly form (durationsOnly and
  // startsOnly, when set, win over spansOnly).
  bool spansOnlyForm() const { return spansOnly && !durationsOnly && !startsOnly; }

  // Whether the selection keeps an activity: one with an end (an activity
  // cut off by the end of the capture has no extent), on a chosen device,
  // overlapping the window; a kernel's keepKernel asked last.
  bool keeps(ActivityKind kind, uint32_t row, int64_t start, int64_t end, int32_t device) const;
};

// The HGGC_KERNEL columns (kcol bits) an activity list reads, and with
// `links` as well.
inline constexpr uint32_t kActivityColumns = kcol::time | kcol::deviceId | kcol::globalPid;
inline constexpr uint32_t kActivityLinkColumns = kcol::correlationId | kcol::graphNodeId;
// The memory operations' columns (ocol bits) loadLaunchedActivities reads.
inline constexpr uint32_t kActivityOpColumns = ocol::start | ocol::end | ocol::deviceId | ocol::globalPid |
                                               ocol::correlationId | ocol::graphNodeId;

// The activities a selection can keep at most (HGGC_KERNEL's rows as the
// report says them, and the memory operations), when nothing narrows them;
// 0 when something does: room to reserve, so that a list never grows by
// copying.
size_t expectedActivities(Report& report, const ActivitySelection& selection);

// Every activity the selection keeps, in table order (HGGC_KERNEL a chunk of
// rows at a time, its columns never loaded whole for this, then memcpys,
// then memsets), not sorted: for a rule that folds activities as they come
// and keeps no list of them (the gap and utilisation rules).
// fn(kind, row, table, i): row i of `table` (a kernel chunk, or HGGC_MEMCPY
// or HGGC_MEMSET) is the activity, `row` its row in its own table; the
// kernel chunks hold kActivityColumns (kActivityLinkColumns too with
// `links`) and `chunkColumns` (kcol bits: read with each chunk, not kept).
template <typename Fn>
void forEachPpuActivity(Report& report, const ActivitySelection& sel, Fn&& fn, uint32_t chunkColumns = 0) {
  report.forEachKernelChunk(
      kActivityColumns | (sel.links ? kActivityLinkColumns : 0u) | chunkColumns,
      [&](const Kernels& k, size_t first) {
        for (size_t i = 0; i < k.size(); ++i) {
          const auto row = static_cast<uint32_t>(first + i);
          if (sel.keeps(ActivityKind::Kernel, row, k.start[i], k.end[i], k.deviceId[i]))
            fn(ActivityKind::Kernel, row, k, i);
        }
      },
      sel.kernelColumns);
  if (!sel.memory) return;
  for (const auto& [kind, ops] : {std::pair{ActivityKind::Memcpy, &report.memcpys()},
                                  std::pair{ActivityKind::Memset, &report.memsets()}}) {
    for (size_t i = 0; i < ops->size(); ++i) {
      const auto row = static_cast<uint32_t>(i);
      if (sel.keeps(kind, row, ops->start[i], ops->end[i], ops->deviceId[i])) fn(kind, row, *ops, i);
    }
  }
}

// Activities cut off by the end of the capture (NULL end) have no extent and
// are left out. Sorted by start; at equal starts kernels, then memcpys, then
// memsets, each in table order.
PpuActivities loadPpuActivities(Report& report, const ActivitySelection& selection);

// The same activities (their graph nodes too; correlationId never), each with its launching call (`calls.find`:
// its HGGC_API row or kNoMatch) in `launchCall`, for the association.
// HGGC_KERNEL is read a chunk at a time (Report::forEachKernelChunk), its
// columns never loaded whole for the list: only `selection.kernelColumns`
// stay loaded, read in the same scan. A durationsOnly list is left in table
// order (loadPpuActivities' is in start order either way).
PpuActivities loadLaunchedActivities(Report& report, const ActivitySelection& selection, const LaunchIndex& calls,
                                     std::vector<uint32_t>& launchCall);
// The same, giving the index back once every activity has its call, before
// the list is sorted into start order (the sort is the association's peak,
// and the index is 4 bytes a correlation id: 7.5 MB at scale 250).
PpuActivities loadLaunchedActivities(Report& report, const ActivitySelection& selection, LaunchIndex&& calls,
                                     std::vector<uint32_t>& launchCall);

}  // namespace asys
