#pragma once
// HGTX range <-> PPU activity association, the rule documentation's
// "HGTX range持续时间范围内，相同线程的HGGC API触发的HGGC kernel" made precise
// (docs/rules.md, "HGTX association"):
// - a range is associated with an activity when the HGGC API call that
//   launched it (same correlationId, same process) ran on the range's thread
//   inside the range: range.start <= api.start && api.end <= range.end;
// - with graph mapping, also with the activities of every graph node created
//   inside the range on its thread, following originalGraphNodeId from the
//   activity's graphNodeId through the chain of instantiated / cloned nodes;
// - nested ranges are each associated; push/pop and start/end ranges take
//   part, except a start/end range that ended on another thread; a range
//   never closed ends at the last HGTX timestamp.
// The operator, PCCL-operator and projection rules all build on this.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "core/analysis/association_ranges.h"
#include "core/analysis/call_ranges.h"
#include "core/analysis/key_join.h"
#include "core/analysis/ppu_activities.h"
#include "core/analysis/range_sweep.h"
#include "core/base/grouped_lists.h"
#include "core/report/report.h"

namespace asys {

// Lists of range slots by a dense index (a call, an activity).
using RangeLists = GroupedLists<uint32_t>;

// An activity's ranges are those around its launching call, so they are
// held once per call, not once per activity: a kernel refers to its call's
// ranges, held as the call's innermost range in a tree of the ranges
// (CallRanges). Only an activity that a graph node also associates (with graph
// mapping) has a list of its own, the two merged.
struct HgtxAssociation {
  AssociationRanges ranges;
  std::vector<uint32_t> launchCall;  // by activity: its HGGC_API row, or kNoMatch
  size_t callRows = 0;               // HGGC_API's rows (its columns are given back after)
  CallRanges callRanges;             // by HGGC_API row: the ranges around the call, in slot order
  // The activities with a list of their own (few: those that ran a graph
  // node created inside a range), ascending: list i of graphRanges is
  // graphActivities[i]'s; graphBits marks them, a bit an activity, so that
  // the others are told apart without a search (4 bytes an activity held
  // this as a list index for every activity). graphVia: per entry, 1 when
  // the range is associated through a graph node only (a range found both
  // ways is direct).
  std::vector<uint32_t> graphActivities;
  std::vector<uint64_t> graphBits;
  RangeLists graphRanges;
  std::vector<uint8_t> graphVia;

  // Activity `activity` (above every one added before, of `activities`)
  // has the list graphRanges is given next.
  void addGraphList(size_t activities, uint32_t activity) {
    if (graphBits.empty()) graphBits.assign((activities + 63) / 64, 0);
    graphBits[activity >> 6] |= uint64_t{1} << (activity & 63);
    graphActivities.push_back(activity);
  }
  // The activity's list in graphRanges, or kNoMatch.
  uint32_t graphListOf(size_t activity) const {
    if (graphBits.empty() || !((graphBits[activity >> 6] >> (activity & 63)) & 1)) return kNoMatch;
    return static_cast<uint32_t>(std::lower_bound(graphActivities.begin(), graphActivities.end(), activity) -
                                 graphActivities.begin());
  }

  // An activity's ranges in slot (start) order (a list by value: hold it,
  // not a span of it).
  RangeList rangesOf(size_t activity) const {
    if (const uint32_t list = graphListOf(activity); list != kNoMatch) return RangeList(graphRanges.of(list));
    const uint32_t call = launchCall[activity];
    if (callValuesByActivity) return callRanges.ofValue(call);
    return call == kNoMatch ? RangeList{} : callRanges.of(call);
  }
  // launchCall holds, for each activity without a graph list, what
  // callRanges held for its launching call (CallRanges::valueOf: its
  // innermost range, a list, or kNoMatch) in place of the call, and the
  // calls' values are given back (4 bytes a call: more calls than launched
  // activities). rangesOf reads the same ranges; an activity with a graph
  // list keeps its launching call (a graph launch is told by it). For the
  // readers that hold no call after the association: the operator set, the
  // projections.
  bool callValuesByActivity = false;
  void holdCallValuesByActivity() {
    if (callValuesByActivity) return;
    for (size_t a = 0; a < launchCall.size(); ++a) {
      const uint32_t call = launchCall[a];
      if (call != kNoMatch && graphListOf(a) == kNoMatch) launchCall[a] = callRanges.valueOf(call);
    }
    callRanges.dropCalls();
    callValuesByActivity = true;
  }
  // Whether the j-th of rangesOf(activity) is associated through a graph node only.
  // (j past them: false, so that a caller need not count them first.)
  bool viaGraph(size_t activity, size_t j) const {
    const uint32_t list = graphListOf(activity);
    return list != kNoMatch && j < graphRanges.of(list).size() && graphVia[graphRanges.begin(list) + j] != 0;
  }
};

class GraphNodeRanges;

// The ranges around each HGGC_API call found while HGGC_API is read for
// something else (associateActivities' scan of the calls' links, before the
// activities are known), so that the association's ranges take no more
// scan of the table. Calls must come in table order; each thread's in start
// order, else `ordered` turns false and the association sorts the calls
// instead (the ranges' spans read from the sweep). Unless the sweep holds
// the spans (ownSpans), `ranges` (the chosen ranges' columns) must stay
// where they are (a moved vector keeps its buffer; the sweep is told of a
// move of the ranges, RangeSweep::rebind).
//
// Where few calls have a range around them (pccl_op_sum: its operator
// ranges hold only the PCCL calls) the ranges of those calls are kept as
// they are found (`few`: each such call's row and its ranges, 8 bytes a call
// and 4 a range). Once those lists would hold more than a quarter of what a
// call's innermost range would (4 bytes a call; 65,536 words at least), they
// are turned into the ranges as a tree (CallRanges: each call's innermost
// range, a parent by range) and every later call is put there as it comes:
// the lists never hold more than what replaces them (a rule whose ranges
// hold most calls, the operator rules and hgtx_kern_sum, turns early). The
// calls' innermost ranges are reserved at the start all the same (their
// pages untouched while the lists are kept), so that the heap is laid out
// as when every call was put in the tree (reserved at the turn, a count by
// call there raised ppu_op_sum's peak by 2.9 to 14.7 MB at scale 1000).
class CallRangeCounts {
 public:
  // `ranges`: KeyedSpans (RangeSweep: the sweep holds their spans).
  CallRangeCounts(const KeyedSpans& ranges, size_t expectedCalls) : sweep(ranges) { tree_.reserve(expectedCalls); }
  // The association's ranges; ownSpans: the sweep holds their spans itself
  // (RangeSweep), and the caller may give back their start, duration and
  // thread index once this is made.
  CallRangeCounts(const AssociationRanges& ranges, size_t expectedCalls, bool ownSpans = false)
      : sweep(ranges, ownSpans) {
    tree_.reserve(expectedCalls);
  }
  ~CallRangeCounts();
  // The next call in table order (its row is the number of calls before).
  void count(int64_t globalTid, int64_t start, int64_t end) {
    const size_t row = calls_++;
    if (!ordered) return;  // the association sorts the calls: nothing here is read
    if (end == kNoValue) end = start;  // cut off by the capture's end
    if (keepingFew_) {
      const size_t before = fewRanges_.size();
      ordered = sweep.visit(globalTid, start, end, [&](uint32_t r) { fewRanges_.append(r); });
      if (fewRanges_.size() == before) return;
      fewRows_.push_back(static_cast<uint32_t>(row));
      fewRanges_.endGroup();
      const size_t words = 2 * fewRows_.size() + fewRanges_.size();
      if (words > kFewWordsAtLeast && words > calls_ / 4) intoTree();
      return;
    }
    found_.clear();
    ordered = sweep.visit(globalTid, start, end, [&](uint32_t r) { found_.push_back(r); });
    tree_.push(found_);
  }
  size_t calls() const { return calls_; }
  // Whether the calls' ranges were kept as found (not put in the tree yet).
  bool keptFew() const { return keepingFew_; }
  // By HGGC_API row (of calls()), the ranges around each call; with
  // keptFew() only of the calls for which `launches(row)` is true (the
  // others are empty: read no further). What was held here is given back.
  template <typename Launches>
  CallRanges takeRanges(Launches&& launches) {
    if (swept_ || !keepingFew_) return std::move(tree_);
    tree_ = CallRanges(sweep.parents());  // its reserved pages given back untouched
    tree_.sparse(calls_);
    for (size_t k = 0; k < fewRows_.size(); ++k)
      if (launches(fewRows_[k])) tree_.setSparse(fewRows_[k], fewRanges_.of(k));
    std::vector<uint32_t>().swap(fewRows_);
    fewRanges_ = RangeLists();
    return std::move(tree_);
  }
  // HGGC_API's scan is over. With the calls in order and in the tree (not
  // kept few), the sweep is too: the graph nodes' ranges are found (with
  // graph mapping: they are swept the same way) and the sweep given back
  // (swept()), so that the ranges' spans need not stay for it while the
  // activities are read (RangeSelection::startAfterSweep).
  // `report`: read for its graph nodes (none without graph mapping: may be null then).
  void scanned(Report* report, bool graphMapping);
  bool swept() const { return swept_; }
  // The sweep holds the ranges' spans (ownSpans) and the caller gave the
  // ranges' columns back: those it reads after the association (start,
  // duration, thread index) come back from the sweep when the association
  // has the ranges again (restoreSpans), after the activities are read, so
  // that they are not held through HGGC_API's and HGGC_KERNEL's scans
  // (about 7 bytes a range in the sweep's streams in place of 16).
  // narrow: the start and thread index come back narrow
  // (RangeSelection::narrowSpansAfterSweep).
  void restoreAfter(bool start, bool duration, bool threadIndex, bool narrow = false) {
    restore_ = {start, duration, threadIndex, narrow};
    restorePending_ = start || duration || threadIndex;
  }
  // That (with restoreAfter), and the sweep given back once it has no more
  // to do.
  void restoreSpans(AssociationRanges& ranges);
  // With swept() and graph mapping: the graph nodes' ranges.
  const GraphNodeRanges* graphNodes() const { return graph_.get(); }

  RangeSweep sweep;
  bool ordered = true;

 private:
  static constexpr size_t kFewWordsAtLeast = 65536;
  // From kept lists to the tree (the lists grew past their bound).
  void intoTree();

  size_t calls_ = 0;
  bool keepingFew_ = true;
  std::vector<uint32_t> fewRows_;   // the calls with a range around them, ascending
  RangeLists fewRanges_;            // list k: fewRows_[k]'s ranges
  CallRanges tree_;                 // by HGGC_API row, once turned
  std::vector<uint32_t> found_;     // the ranges around the call at hand
  bool swept_ = false;
  struct Restore {
    bool start = false, duration = false, threadIndex = false, narrow = false;
  } restore_;
  bool restorePending_ = false;
  std::shared_ptr<const GraphNodeRanges> graph_;  // shared: its type is complete in the .cc only
};

// `activities` must be loaded with links (correlationId, graphNodeId).
HgtxAssociation associateHgtx(Report& report, const PpuActivities& activities, const RangeSelection& selection);
// The same with the ranges chosen already (chooseRanges) and each
// activity's launching call found (its HGGC_API row or kNoMatch, of the
// table's `callRows` rows), so that `activities` need only graphNodes
// (empty: no activity ran a graph node). HGGC_API's start, end and thread
// are read a chunk at a time, not loaded.
// `counts`: the calls' ranges counted already (as ordered), or nullptr.
// `valuesByActivity`: the association comes back with its calls' values
// held by activity (HgtxAssociation::holdCallValuesByActivity), and the
// ranges' spans that come back from `counts`' sweep (restoreSpans) come
// back after that, not before the calls' ranges are taken: so the calls'
// values (4 bytes a call) are not held beside the spans made again and
// the sweep's streams (RangeSelection::callValuesByActivity).
HgtxAssociation associateHgtx(Report& report, const PpuActivities& activities, std::vector<uint32_t> launchCall,
                              size_t callRows, AssociationRanges ranges, bool graphMapping,
                              CallRangeCounts* counts = nullptr, bool valuesByActivity = false);

// The same pairs grouped by range slot: each range's activities, in
// activity (start) order.
using ActivitiesByRange = GroupedLists<uint32_t>;
ActivitiesByRange activitiesByRange(const HgtxAssociation& a);

}  // namespace asys
