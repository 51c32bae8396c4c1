#pragma once
// The options and the association step the four HGTX <-> PPU rules share
// (hgtx_kern_sum, hgtx_kern_trace, hgtx_ppu_proj_sum, hgtx_ppu_proj_trace),
// worded as their sections of the rule documentation word them.
#include <functional>
#include <string_view>

#include "core/analysis/associated_activities.h"
#include "core/rules/rule.h"

namespace asys {

OptionSpec standaloneOption();
OptionSpec graphMappingOption();   // no-graph-mapping
OptionSpec rangeIncludeOption();
OptionSpec rangeExcludeOption();
OptionSpec rangeModeOption();      // range-mode=active|full

// HGTX_EVENTS and HGGC_KERNEL (the kernel rules) or any PPU activity table
// (the projection rules).
std::vector<DataNeed> associationNeeds(bool memoryToo);

// Adds the warnings of an association to a rule's result (unlaunched
// activities), so the user knows why they are in no range.
void addAssociationWarnings(Table& t, const AssociatedActivities& a);

// What a rule narrows the association to beyond its options.
struct AssociationFilters {
  std::function<bool(uint32_t row)> keepKernel;    // ActivitySelection::keepKernel
  std::function<bool(uint32_t event)> keepRange;   // RangeSelection::keepRange
  // RangeSelection::keepNamedRange: the same told what the range is called,
  // for a rule that holds no HGTX event (pccl_op_sum).
  std::function<bool(uint32_t event, const RangeNaming& naming)> keepNamedRange;
  std::function<bool(uint32_t ownName)> keepOwnName;  // RangeSelection::keepOwnName
  // ActivitySelection::chunkColumns and onKernelChunk: what keepKernel or
  // kernelTag reads of the kernels, a chunk at a time (pccl_op_sum and
  // hgtx_kern_sum: their names).
  uint32_t kernelChunkColumns = 0;
  std::function<void(const Kernels& chunk, size_t first)> onKernelChunk;
  // Take activities from the whole capture, not only the statistics time
  // range: for a rule that numbers them over the capture and applies the
  // time range itself (pccl_op_sum pairs the k-th operators of each device).
  bool wholeCapture = false;
  bool releaseEvents = false;  // RangeSelection::releaseEvents
  bool rangeIds = false;       // RangeSelection::rangeIds
  // RangeSelection::chosen and sweepOnly: what the rule reads of each
  // chosen range, taken by slot before the ranges keep only their spans.
  std::function<void(const AssociationRanges&)> rangesChosen;
  bool sweepOnly = false;
  bool eventsInChosenOnly = false;  // RangeSelection::eventsInChosenOnly
  bool startAfterSweep = true;      // RangeSelection::startAfterSweep
  bool threadAfterSweep = true;     // RangeSelection::threadAfterSweep
  bool narrowSpansAfterSweep = false;  // RangeSelection::narrowSpansAfterSweep
  bool callValuesByActivity = false;  // RangeSelection::callValuesByActivity
  // RangeSelection::alsoScan and afterScan: a fold of HGTX_EVENTS in the
  // association's one scan of it.
  std::function<void(size_t firstEvent, const HgtxEvents& chunk)> alsoScan;
  std::function<void()> afterScan;
  // ActivitySelection::durationsOnly and kernelTag (its columns in
  // kernelChunkColumns): a lean activity list for a rule that folds
  // durations by groups of its own.
  bool durationsOnly = false;
  bool startsOnly = false;  // ActivitySelection::startsOnly
  bool processes = true;    // ActivitySelection::processes
  bool spansOnly = false;   // ActivitySelection::spansOnly
  bool endsAsDurations = false;  // ActivitySelection::endsAsDurations
  std::function<uint32_t(const Kernels& chunk, size_t i)> kernelTag;
};

// The rule's activities (kernels, plus memcpys and memsets when
// `memoryToo`; on the `device=` devices; overlapping the statistics time
// range) associated with the ranges its options select (no-graph-mapping,
// range-include, range-exclude): associateActivities over the options' values.
// `kernelColumns`: the HGGC_KERNEL columns (kcol bits) the rule reads too.
AssociatedActivities associateForRule(RuleContext& ctx, bool memoryToo, uint32_t kernelColumns = 0,
                                      AssociationFilters filters = {});

// The ranges a rule's options select: no-graph-mapping, range-include,
// range-exclude (the regexes compiled; keepRange unset).
RangeSelection rangeSelection(const RuleOptions& options);

inline std::string_view styleName(bool startEnd) { return startEnd ? "StartEnd" : "PushPop"; }

}  // namespace asys
