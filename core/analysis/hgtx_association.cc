#include "core/analysis/hgtx_association.h"

#include <algorithm>
#include <numeric>
#include <optional>
#include <tuple>
#include <unordered_map>

#include "core/analysis/hgtx_ranges.h"
#include "core/analysis/intervals.h"
#include "core/analysis/key_join.h"
#include "core/analysis/range_sweep.h"
#include "core/base/freed_heap.h"
#include "core/base/stage_timer.h"

namespace asys {

namespace {

// Containment pairs (query, range slot) as lists by group: groupOf(query)
// is the query's list, or kNoMatch to leave its pairs out. Two sweeps, one
// counting and one placing, so the pairs are held once and grouped (4 bytes
// a pair), never as a (query, range) list to regroup (12). A list holds one
// query's ranges in their start (slot) order.
template <typename GroupOf>
RangeLists enclosingRanges(const KeyedSpans& ranges, const KeyedSpans& queries, size_t groups, GroupOf groupOf) {
  return RangeLists::fromPasses(groups, [&](auto&& emit) {
    forEachEnclosing(ranges, queries, [&](uint32_t q, uint32_t r) {
      if (const uint32_t g = groupOf(q); g != kNoMatch) emit(g, r);
    });
  });
}

// Which HGGC_API rows launched an activity (`launchCall`), one byte a call.
std::vector<uint8_t> launchingRows(size_t callRows, std::span<const uint32_t> launchCall) {
  std::vector<uint8_t> launches(callRows, 0);
  for (uint32_t c : launchCall)
    if (c != kNoMatch) launches[c] = 1;
  return launches;
}

// A launching call's span as the sweep takes it: a call cut off by the
// capture's end ends where it starts.
inline int64_t callEnd(int64_t start, int64_t end) { return end == kNoValue ? start : end; }

// By HGGC_API row, the ranges around each call that launched an activity
// (`launchCall`); the other calls' are empty. With `counts` (every call's
// ranges, found in an earlier scan): taken from there, no scan at all.
// Without: HGGC_API is read a chunk at a time and each thread's ranges are
// swept as its calls come (`sweepOf()`), so the calls' start, end and
// thread are never held (24 bytes a call) nor sorted; one scan, each call
// put in the tree as found (CallRanges needs no count first). nullopt when
// some thread's calls are not in start order in the table: then the calls
// are sorted.
template <typename SweepOf>
std::optional<CallRanges> rangesAroundCallsAsRead(Report& report, SweepOf&& sweepOf, size_t calls,
                                                  std::span<const uint32_t> launchCall, CallRangeCounts* counts) {
  if (counts) {
    if (!counts->ordered || counts->calls() != calls) return std::nullopt;
    if (!counts->keptFew()) return counts->takeRanges([](size_t) { return true; });
    const std::vector<uint8_t> launches = launchingRows(calls, launchCall);
    return counts->takeRanges([&](size_t row) { return launches[row] != 0; });
  }
  const std::vector<uint8_t> launches = launchingRows(calls, launchCall);
  RangeSweep& sweep = sweepOf();
  sweep.restart();
  CallRanges out(sweep.parents(), calls);
  std::vector<uint32_t> found;
  bool ordered = true;
  report.forEachHggcApiChunk(acol::start | acol::end | acol::globalTid, [&](const ApiCalls& rows, size_t first) {
    for (size_t i = 0; i < rows.size() && ordered; ++i) {
      const size_t c = first + i;
      if (c >= launches.size() || !launches[c]) continue;
      const int64_t start = rows.start[i];
      found.clear();
      ordered = sweep.visit(rows.globalTid[i], start, callEnd(start, rows.end[i]),
                            [&](uint32_t r) { found.push_back(r); });
      out.set(c, found);
    }
  });
  if (!ordered) return std::nullopt;
  return out;
}

// The same with the calls' columns loaded and sorted: for a table whose
// calls are not in start order per thread. When most calls launch one and
// every call has an end, the calls' own columns are the sweep's keys;
// otherwise the launching calls' spans are copied, each with its row.
RangeLists rangesAroundCallsSorted(const KeyedSpans& rangeSpans, const ApiCalls& api,
                                   const std::vector<uint8_t>& launches) {
  const size_t used = static_cast<size_t>(std::count(launches.begin(), launches.end(), 1));
  const bool ended = std::find(api.end.begin(), api.end.end(), kNoValue) == api.end.end();
  if (ended && used * 2 >= api.size()) {
    return enclosingRanges(rangeSpans, {api.globalTid, api.start, api.end}, api.size(),
                           [&](uint32_t c) { return launches[c] ? c : kNoMatch; });
  }
  std::vector<int64_t> tid(used), start(used), end(used);
  std::vector<uint32_t> row(used);
  for (size_t c = 0, i = 0; c < api.size(); ++c) {
    if (!launches[c]) continue;
    tid[i] = api.globalTid[c];
    start[i] = api.start[c];
    end[i] = callEnd(api.start[c], api.end[c]);
    row[i] = static_cast<uint32_t>(c);
    ++i;
  }
  return enclosingRanges(rangeSpans, {tid, start, end}, api.size(), [&](uint32_t i) { return row[i]; });
}

}  // namespace

// For each graph node an activity ran (by (pid, graphNodeId)), the ranges
// around the creation of every node of its chain: the node itself, the node
// it was instantiated or cloned from, and so on to the captured node. The
// nodes (a few hundred) are put in (thread, start) order and swept through
// the association's RangeSweep, whose ranges are in that order already, so
// nothing is allocated per range (forEachEnclosing sorted them twice, 8
// bytes a range each time).
class GraphNodeRanges {
 public:
  GraphNodeRanges(Report& report, RangeSweep& sweep) : g_(report.graphNodes()) {
    const size_t n = g_.size();
    end_.resize(n);
    for (size_t i = 0; i < n; ++i) end_[i] = g_.end[i] == kNoValue ? g_.start[i] : g_.end[i];
    {
      std::vector<uint32_t> byStart(n);
      std::iota(byStart.begin(), byStart.end(), 0u);
      std::sort(byStart.begin(), byStart.end(), [&](uint32_t a, uint32_t b) {
        return std::tie(g_.globalTid[a], g_.start[a], a) < std::tie(g_.globalTid[b], g_.start[b], b);
      });
      created_ = RangeLists::fromPasses(n, [&](auto&& emit) {
        sweep.restart();
        for (const uint32_t node : byStart) sweep.visit(g_.globalTid[node], g_.start[node], end_[node], [&](uint32_t r) { emit(node, r); });
      });
    }
    byNode_.resize(n);
    std::iota(byNode_.begin(), byNode_.end(), 0u);
    std::sort(byNode_.begin(), byNode_.end(), [&](uint32_t a, uint32_t b) { return nodeKey(a) < nodeKey(b); });
  }

  // Appends the ranges of the chain that starts at (pid, node).
  void append(int64_t pid, int64_t node, std::vector<uint32_t>& out) const {
    for (int step = 0; node != kNoValue && step < kMaxChain; ++step) {
      auto [lo, hi] = std::equal_range(byNode_.begin(), byNode_.end(), std::make_tuple(pid, node, 0u), Less{this});
      if (lo == hi) return;
      for (auto it = lo; it != hi; ++it)
        for (uint32_t r : created_.of(*it)) out.push_back(r);
      const int64_t next = g_.originalGraphNodeId[*lo];
      if (next == node) return;
      node = next;
    }
  }

 private:
  static constexpr int kMaxChain = 64;  // a cycle in a broken file ends here
  std::tuple<int64_t, int64_t, uint32_t> nodeKey(uint32_t e) const {
    return {pidOf(g_.globalTid[e]), g_.graphNodeId[e], e};
  }
  struct Less {  // by (pid, node) only, so equal_range finds every creation
    const GraphNodeRanges* self;
    bool operator()(uint32_t e, const std::tuple<int64_t, int64_t, uint32_t>& k) const {
      auto a = self->nodeKey(e);
      return std::tie(std::get<0>(a), std::get<1>(a)) < std::tie(std::get<0>(k), std::get<1>(k));
    }
    bool operator()(const std::tuple<int64_t, int64_t, uint32_t>& k, uint32_t e) const {
      auto a = self->nodeKey(e);
      return std::tie(std::get<0>(k), std::get<1>(k)) < std::tie(std::get<0>(a), std::get<1>(a));
    }
  };
  const GraphNodeEvents& g_;
  std::vector<int64_t> end_;
  RangeLists created_;
  std::vector<uint32_t> byNode_;
};


CallRangeCounts::~CallRangeCounts() = default;

void CallRangeCounts::scanned(Report* report, bool graphMapping) {
  if (!ordered || swept_) return;  // the association sorts the calls: it sweeps again
  // Kept few (pccl_op_sum: few ranges too), the lists wait for takeRanges
  // and the sweep stays: made sparse here, before the activities are read,
  // they raised pccl_op_sum's peak at scale 250 by 2.4 MB (45,756 -> 48,176
  // KiB; glibc's heap laid out otherwise), for ranges that hold little.
  if (keepingFew_) return;
  if (graphMapping) graph_ = std::make_shared<const GraphNodeRanges>(*report, sweep);
  if (!restorePending_) sweep.release();  // else once the spans are back (restoreSpans)
  swept_ = true;
}

void CallRangeCounts::restoreSpans(AssociationRanges& ranges) {
  if (!restorePending_) return;
  sweep.restoreSpans(ranges, restore_.start, restore_.duration, restore_.threadIndex, restore_.narrow);
  restorePending_ = false;
  if (swept_) sweep.release();
}

void CallRangeCounts::intoTree() {
  tree_.setParents(sweep.parents());
  tree_.resize(calls_);
  for (size_t k = 0; k < fewRows_.size(); ++k) tree_.set(fewRows_[k], fewRanges_.of(k));
  std::vector<uint32_t>().swap(fewRows_);
  fewRanges_ = RangeLists();
  keepingFew_ = false;
}

namespace {

// The activities that ran a graph node created inside a range: each with a
// list of its own, its call's ranges and its nodes' merged.
template <typename SweepOf>
void addGraphLists(Report& report, const PpuActivities& act, HgtxAssociation& out, CallRangeCounts* counts,
                   SweepOf&& sweep) {
  std::optional<GraphNodeRanges> ownGraph;
  const GraphNodeRanges& graph =
      counts && counts->graphNodes() ? *counts->graphNodes() : ownGraph.emplace(report, sweep());
  std::vector<uint32_t> viaGraph;
  for (const GraphNodeRun& run : act.graphNodes) {
    const size_t a = run.activity;
    viaGraph.clear();
    graph.append(pidOf(run.globalPid), run.node, viaGraph);
    if (viaGraph.empty()) continue;
    std::sort(viaGraph.begin(), viaGraph.end());
    viaGraph.erase(std::unique(viaGraph.begin(), viaGraph.end()), viaGraph.end());
    const RangeList directList = out.launchCall[a] == kNoMatch ? RangeList{} : out.callRanges.of(out.launchCall[a]);
    const std::span<const uint32_t> direct = directList.span();
    // Merge the two slot-ordered lists; a range found both ways is direct.
    size_t i = 0, j = 0;
    while (i < direct.size() || j < viaGraph.size()) {
      if (j == viaGraph.size() || (i < direct.size() && direct[i] <= viaGraph[j])) {
        if (j < viaGraph.size() && viaGraph[j] == direct[i]) ++j;
        out.graphRanges.append(direct[i++]);
        out.graphVia.push_back(0);
      } else {
        out.graphRanges.append(viaGraph[j++]);
        out.graphVia.push_back(1);
      }
    }
    out.addGraphList(act.size(), static_cast<uint32_t>(a));
    out.graphRanges.endGroup();
  }
}

}  // namespace

HgtxAssociation associateHgtx(Report& report, const PpuActivities& act, const RangeSelection& sel) {
  AssociationRanges ranges = chooseRanges(report, sel);
  if (sel.releaseEvents) report.releaseHgtx();
  const ApiCalls& api = report.hggcApi(acol::links);
  return associateHgtx(report, act, launchingCalls(act.globalPid, act.correlationId, api), api.size(),
                       std::move(ranges), sel.graphMapping);
}

HgtxAssociation associateHgtx(Report& report, const PpuActivities& act, std::vector<uint32_t> launchCall,
                              size_t callRows, AssociationRanges ranges, bool graphMapping, CallRangeCounts* counts,
                              bool valuesByActivity) {
  HgtxAssociation out;
  out.ranges = std::move(ranges);
  // The spans the caller reads after the association, given to the sweep
  // while the calls and the activities were read, come back first; with
  // valuesByActivity last (below), once the calls' values are given back.
  if (counts && !valuesByActivity) counts->restoreSpans(out.ranges);
  const AssociationRanges& R = out.ranges;
  if (counts && !counts->swept()) counts->sweep.rebind(R);  // moved here since the count was made

  // Activity -> launching call -> the ranges around the call.
  out.launchCall = std::move(launchCall);
  out.callRows = callRows;
  // The sweep of the calls' ranges, kept for the graph nodes' (made here
  // when none was given and the calls need one, or the graph nodes do).
  std::optional<RangeSweep> own;
  auto sweep = [&]() -> RangeSweep& {
    if (counts) return counts->sweep;
    if (!own) own.emplace(R);
    return *own;
  };
  {
    std::optional<CallRanges> asRead = rangesAroundCallsAsRead(report, sweep, callRows, out.launchCall, counts);
    if (asRead) {
      out.callRanges = std::move(*asRead);
    } else {
      profileNote("association: HGGC_API's calls not in start order per thread: loaded and sorted");
      // The ranges' thread, start and end as forEachEnclosing reads them
      // (24 bytes a range, on this path only), from the sweep: the ranges
      // may have given theirs back to it (RangeSweep's ownSpans).
      std::vector<int64_t> thread, start, end;
      sweep().spans(thread, start, end);
      const RangeLists lists =
          rangesAroundCallsSorted({thread, start, end}, report.hggcApi(acol::globalTid | acol::start | acol::end),
                                  launchingRows(callRows, out.launchCall));
      // The same (start, index) order as the sweep's: the lists as a tree.
      out.callRanges = CallRanges(sweep().parents(), callRows);
      for (size_t c = 0; c < callRows; ++c)
        if (const std::span<const uint32_t> l = lists.of(c); !l.empty()) out.callRanges.set(c, l);
    }
    profileNote("association: " + std::to_string(out.callRanges.listedCalls()) + " calls' ranges listed (" +
                std::to_string(out.callRanges.listedRanges()) + " ranges), the others by their innermost range");
  }

  if (graphMapping && !act.graphNodes.empty()) addGraphLists(report, act, out, counts, sweep);
  if (valuesByActivity) {
    // hgtx_ppu_proj_trace at scale 2500: the calls' values are 41 MiB, the
    // spans made again 80 and the sweep's streams 57, all beside the
    // activity list (its pairs step, 570 MiB, was its second peak).
    out.holdCallValuesByActivity();
    // The free heap left by the list's sort and the calls' ranges given
    // back before the spans are made again beside the sweep.
    giveBackFreedHeap();
    if (counts) counts->restoreSpans(out.ranges);
  }
  return out;
}


ActivitiesByRange activitiesByRange(const HgtxAssociation& a) {
  const size_t ranges = a.ranges.size();
  const size_t activities = a.launchCall.size();
  return ActivitiesByRange::fromPasses(ranges, [&](auto&& emit) {
    for (size_t act = 0; act < activities; ++act)
      for (const uint32_t r : a.rangesOf(act)) emit(r, static_cast<uint32_t>(act));
  });
}

}  // namespace asys
