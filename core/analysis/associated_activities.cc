#include "core/analysis/associated_activities.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "core/analysis/hgtx_ranges.h"
#include "core/analysis/key_join.h"
#include "core/analysis/launch_index.h"
#include "core/base/freed_heap.h"
#include "core/base/stage_timer.h"
#include "core/report/report.h"

namespace asys {

namespace {

// A durationsOnly list read from loaded columns (loadPpuActivities) holds
// every activity's process: only those without a launching call stay
// (PpuActivities::processOf), as in a list made as HGGC_KERNEL is scanned.
void keepUnlaunchedProcesses(PpuActivities& a, const std::vector<uint32_t>& launchCall) {
  if (a.globalPid.empty()) return;
  for (size_t i = 0; i < a.globalPid.size(); ++i)
    if (launchCall[i] == kNoMatch) a.unlaunchedPid.emplace_back(static_cast<uint32_t>(i), a.globalPid[i]);
  std::vector<int64_t>().swap(a.globalPid);
}

// Gives back what the ranges hold besides their spans, for a caller that
// took what it reads of them in RangeSelection::chosen (sweepOnly).
void keepOnlyRangeSpans(AssociationRanges& r) {
  std::vector<uint32_t>().swap(r.event);
  std::vector<uint32_t>().swap(r.name);
  std::vector<uint8_t>().swap(r.startEnd);
  std::vector<std::pair<uint32_t, int64_t>>().swap(r.otherRangeIds);
}

// The association's last step, whichever way the activities were read.
AssociatedActivities finishAssociation(Report& report, AssociatedActivities out, std::vector<uint32_t> launchCall,
                                       size_t callRows, AssociationRanges chosen, const RangeSelection& ranges,
                                       const ActivitySelection& sel, CallRangeCounts* counts,
                                       uint32_t keptKernels, uint32_t keptCalls) {
  // Graph nodes matter only with graph mapping (the list has none when no
  // activity ran one).
  if (!ranges.graphMapping) std::vector<GraphNodeRun>().swap(out.activities.graphNodes);
  // A plan for other columns (planKernelColumns) has the scan load the
  // kernels' columns whole: those no one keeps go.
  report.releaseKernelColumns((kActivityColumns | kActivityLinkColumns) & ~keptKernels);
  const bool fullForm = !sel.durationsOnly && !sel.startsOnly;
  // What the association reads of the list is its length and graph nodes:
  // the columns no one reads after go before the calls' ranges are placed.
  if (fullForm && !sel.processes) std::vector<int64_t>().swap(out.activities.globalPid);
  if (fullForm && sel.endsAsDurations && !out.activities.end.empty()) {
    PpuActivities& a = out.activities;
    a.duration.reserve(a.end.size());
    for (size_t i = 0; i < a.end.size(); ++i) a.duration.push_back(a.end[i] - a.start[i]);
    std::vector<int64_t>().swap(a.end);
  }
  if (sel.spansOnlyForm()) {
    std::vector<int32_t>().swap(out.activities.deviceId);
    std::vector<ActivityKind>().swap(out.activities.kind);
    std::vector<uint32_t>().swap(out.activities.row);
  }
  // A startsOnly list's starts served its sort (its caller reads each
  // kernel's cells from the file by row): they go before the ranges' spans
  // come back from the sweep (associateHgtx), 8 bytes a kernel loaded, about
  // 4 made as HGGC_KERNEL was scanned (narrowStart).
  if (sel.startsOnly) {
    std::vector<int64_t>().swap(out.activities.start);
    out.activities.narrowStart = StartTimes();
    // The sort's freed memory (the starts, the launch index's last
    // buffers) sits in glibc's heap below the list's order: given back
    // before the ranges' spans come back beside the sweep's streams
    // (hgtx_kern_trace at scale 2500: pairs 562.7 -> about 551 MiB).
    giveBackFreedHeap();
  }
  // With the calls' values held by activity an activity's launching call
  // is not read after the association: the activities without one are
  // counted first (below: those a graph node associates are not counted).
  size_t noCall = 0;
  if (ranges.callValuesByActivity) noCall = static_cast<size_t>(std::count(launchCall.begin(), launchCall.end(), kNoMatch));
  StageTimer timer("association: pairs");
  out.association = associateHgtx(report, out.activities, std::move(launchCall), callRows, std::move(chosen),
                                  ranges.graphMapping, counts, ranges.callValuesByActivity);
  // Calls out of start order are swept loaded (hgtx_association.cc): their columns go.
  report.releaseHggcApiColumns(acol::links & ~keptCalls);
  // The graph nodes served the association; no rule reads them after it.
  std::vector<GraphNodeRun>().swap(out.activities.graphNodes);
  // The pairs' heap given back too before the projections are made beside
  // the association (their columns are mmapped apart).
  if (sel.spansOnlyForm()) giveBackFreedHeap();
  if (sel.durationsOnly) keepUnlaunchedProcesses(out.activities, out.association.launchCall);
  out.memoryToo = sel.memory;
  if (out.association.callValuesByActivity) {
    // An activity with a list of its own (a graph node's ranges: never
    // empty) keeps its launching call; any other without a call has no range.
    out.unlaunched = noCall;
    for (const uint32_t a : out.association.graphActivities) out.unlaunched -= out.association.launchCall[a] == kNoMatch;
    return out;
  }
  for (size_t a = 0; a < out.activities.size(); ++a)
    if (out.association.launchCall[a] == kNoMatch && out.association.rangesOf(a).empty()) ++out.unlaunched;
  return out;
}

}  // namespace

AssociatedActivities associateActivities(Report& report, ActivitySelection activities, RangeSelection ranges) {
  // What the association reads only for itself is read a chunk at a time
  // and not kept: HGGC_API's thread and correlation id (folded into an
  // index of the calls), the kernels' time, place and link columns (into
  // the activity list, in the same scan as the columns the caller reads),
  // and later HGGC_API's start, end and thread (swept as read). So a rule's
  // peak is the association plus its own work, not those tables as well.
  // Columns loaded before this call, or planned for later rules, are used
  // where they are (and stay).
  const uint32_t keptKernels =
      report.loadedKernelColumns() | report.plannedKernelColumns() | activities.kernelColumns;
  const uint32_t keptCalls = report.loadedHggcApiColumns();
  AssociatedActivities out;
  // The ranges first, so that HGTX_EVENTS (scanned, or loaded whole by a
  // rule that reads them) is never held beside the activities unless the
  // rule keeps it.
  AssociationRanges chosen;
  {
    StageTimer timer("association: ranges");
    chosen = chooseRanges(report, ranges);
    if (ranges.chosen) ranges.chosen(chosen);
    if (ranges.sweepOnly) keepOnlyRangeSpans(chosen);
    if (ranges.eventsInChosenOnly) std::vector<uint32_t>().swap(chosen.event);
    if (ranges.noStyles) std::vector<uint8_t>().swap(chosen.startEnd);
    if (ranges.releaseEvents) report.releaseHgtx();
  }
  std::vector<uint32_t> launchCall;
  size_t callRows = 0;
  std::optional<CallRangeCounts> counts;
  {
    StageTimer timer("association: PPU activities and launching calls");
    // One scan of HGGC_API indexes the calls by correlation id and counts
    // the ranges around each (the association keeps those of the calls that
    // launched an activity, once the activities say which).
    if ((report.loadedHggcApiColumns() & (acol::globalTid | acol::correlationId)) ==
            (acol::globalTid | acol::correlationId) &&
        (report.loadedKernelColumns() & (kActivityColumns | kActivityLinkColumns)) ==
            (kActivityColumns | kActivityLinkColumns)) {
      // Where both tables' link columns are loaded already (an earlier rule
      // of the same run, or columns planned for later ones) they are joined
      // where they are: an index of the calls beside them would only add to
      // the peak.
      activities.links = true;
      out.activities = loadPpuActivities(report, activities);
      const ApiCalls& api = report.hggcApi(acol::globalTid | acol::correlationId);
      launchCall = launchingCalls(out.activities.globalPid, out.activities.correlationId, api);
      callRows = api.size();
      std::vector<int64_t>().swap(out.activities.correlationId);
      return finishAssociation(report, std::move(out), std::move(launchCall), callRows, std::move(chosen), ranges,
                               activities, nullptr,
                               keptKernels, keptCalls);
    }
    const size_t expectedCalls = static_cast<size_t>(report.rowEstimate("HGGC_API"));
    LaunchIndex calls(expectedCalls);
    // Counted here only when HGGC_API is scanned: where the calls' columns
    // are loaded already they are swept where they are, and no count a
    // call is held beside them.
    constexpr uint32_t kSwept = acol::globalTid | acol::start | acol::end;
    if ((report.loadedHggcApiColumns() & kSwept) != kSwept) {
      // The sweep holds the ranges' spans itself (RangeSweep's ownSpans:
      // about 7 bytes a range) and the ranges' start, duration and thread
      // index (16 bytes) go now, before the calls and the activities are
      // read. Those the caller reads after the association come back from
      // the sweep once the activities are read (CallRangeCounts::
      // restoreSpans); those it does not (sweepOnly; startAfterSweep,
      // durationAfterSweep, threadAfterSweep false) never do.
      counts.emplace(chosen, expectedCalls, /*ownSpans=*/true);
      const size_t n = chosen.size();
      std::vector<int64_t>().swap(chosen.start);
      chosen.duration = NarrowInts();
      std::vector<uint32_t>().swap(chosen.threadIndex);
      const bool threadAfter = ranges.threadAfterSweep && !ranges.sweepOnly;
      if (!threadAfter) std::vector<int64_t>().swap(chosen.threads);
      chosen.given = n;
      counts->restoreAfter(ranges.startAfterSweep && !ranges.sweepOnly,
                           ranges.durationAfterSweep && !ranges.sweepOnly, threadAfter,
                           ranges.narrowSpansAfterSweep);
    }
    callRows = report.forEachHggcApiChunk(
        acol::globalTid | acol::correlationId | acol::start | acol::end, [&](const ApiCalls& rows, size_t first) {
          for (size_t i = 0; i < rows.size(); ++i) {
            calls.add(static_cast<uint32_t>(first + i), rows.globalTid[i], rows.correlationId[i]);
            if (counts) counts->count(rows.globalTid[i], rows.start[i], rows.end[i]);
          }
        });
    calls.finish();
    profileNote("association: launch index of " + std::to_string(callRows) + " calls, " + std::to_string(calls.cells()) +
                (calls.dense() ? " cells (" + std::to_string(calls.exactBlocks()) + " blocks of 64 exact)"
                               : " entries (16 bytes)") +
                ", " + std::to_string(calls.bytes()) + " bytes");
    if (counts) counts->scanned(&report, ranges.graphMapping);
    // HGGC_API's scan leaves its chunks' and the growing index's buffers
    // freed in glibc's heap (about 40 MiB at scale 2500, resident): a
    // startsOnly list (hgtx_kern_trace, whose peak is the kernel scan next)
    // has them given back first (scan 566 -> about 548 MiB). The other
    // forms' peaks are elsewhere; not measured with it.
    if (activities.startsOnly) giveBackFreedHeap();
    out.activities = loadLaunchedActivities(report, activities, std::move(calls), launchCall);
  }
  return finishAssociation(report, std::move(out), std::move(launchCall), callRows, std::move(chosen), ranges,
                           activities, counts ? &*counts : nullptr, keptKernels, keptCalls);
}

std::string unlaunchedWarning(size_t unlaunched, bool memoryToo) {
  if (unlaunched == 0) return {};
  const bool one = unlaunched == 1;
  const std::string what = memoryToo ? (one ? "PPU activity has" : "PPU activities have")
                                     : (one ? "kernel has" : "kernels have");
  return std::to_string(unlaunched) + " " + what + " no launching HGGC API call in " + (one ? "its" : "their") +
         " process (no HGGC_API row with " + (one ? "its" : "their") +
         " correlation id), so no HGTX range is associated with " + (one ? "it" : "them");
}

}  // namespace asys
