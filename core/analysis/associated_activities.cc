#include "core/analysis/associated_activities.h"

#include <algorithm>
#include <utility>

#include "core/analysis/hgtx_ranges.h"
#include "core/analysis/key_join.h"
#include "core/base/stage_timer.h"
#include "core/report/report.h"

namespace asys {

AssociatedActivities associateActivities(Report& report, ActivitySelection activities, RangeSelection ranges) {
  activities.links = true;
  // What the association loads only for itself: the kernels' time, place and
  // link columns (the activity list holds its own copies) and HGGC_API's
  // links (the launching calls are found once). They are given back as soon
  // as they are read, so a rule's peak is the association plus its own work,
  // not those tables as well. Columns loaded before this call, asked for by
  // the caller or planned for later rules stay.
  const uint32_t keptKernels =
      report.loadedKernelColumns() | report.plannedKernelColumns() | activities.kernelColumns;
  const uint32_t keptCalls = report.loadedHggcApiColumns();
  AssociatedActivities out;
  {
    StageTimer timer("association: PPU activities");
    out.activities = loadPpuActivities(report, activities);
  }
  // Each activity's launching call now, while its table's columns are at
  // hand; then the kernels' columns go, before HGTX_EVENTS comes.
  std::vector<uint32_t> launchCall;
  {
    StageTimer timer("association: launching calls");
    launchCall = launchingCalls(out.activities.globalPid, out.activities.correlationId,
                                report.hggcApi(acol::globalTid | acol::correlationId));
  }
  std::vector<int64_t>().swap(out.activities.correlationId);
  // Graph nodes matter only with graph mapping, and only if some activity ran one.
  std::vector<int64_t>& nodes = out.activities.graphNodeId;
  if (!ranges.graphMapping || std::all_of(nodes.begin(), nodes.end(), [](int64_t n) { return n == kNoValue; }))
    std::vector<int64_t>().swap(nodes);
  report.releaseKernelColumns((kActivityColumns | kActivityLinkColumns) & ~keptKernels);
  report.releaseHggcApiColumns(acol::correlationId & ~keptCalls);
  StageTimer timer("association: ranges and pairs");
  out.association = associateHgtx(report, out.activities, std::move(launchCall), ranges);
  report.releaseHggcApiColumns(acol::links & ~keptCalls);
  // The graph nodes served the association; no rule reads them after it.
  std::vector<int64_t>().swap(out.activities.graphNodeId);
  out.memoryToo = activities.memory;
  for (size_t a = 0; a < out.activities.size(); ++a)
    if (out.association.launchCall[a] == kNoMatch && out.association.rangesOf(a).empty()) ++out.unlaunched;
  return out;
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
