// The manual's graph rows ("per stream: ... graphs (graph -> graph exec)"):
// under each stream that ran graph work, one row per graph exec launched on
// it, a slice per launch (docs/timeline.md, "Graph rows"). An activity
// (HGGC_KERNEL, HGGC_MEMCPY, HGGC_MEMSET) with a graphId ran from that graph
// exec; its correlation id names the launching call (hgGraphLaunch); the
// exec's nodes (HGGC_GRAPH_NODE_EVENTS, made by hgGraphInstantiate) carry
// originalGraphNodeId, a node of the graph it was instantiated from.
//
// Built on ask after the timeline, as the device rows are: appended after
// every track (ids stay). A row's events are its launches (the span of the
// activities of one (exec, correlation id) on the stream), drawn as repeats
// of the stream's work: not its PPU's work, not counted again by the
// selection statistics, the links or findEvent. Memory kept: the launches;
// until they are made, 8 bytes per graph activity (its table row and
// launch: GraphLaunches, collected by the build's scan of the activity
// tables), released after.
#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "core/base/error.h"
#include "core/timeline/busy.h"
#include "core/timeline/timeline.h"

namespace asys {
namespace {

int activityTable(TimelineKind k) {
  switch (k) {
    case TimelineKind::Kernel:
    case TimelineKind::PcclKernel: return GraphLaunches::kKernels;
    case TimelineKind::Memcpy: return GraphLaunches::kMemcpys;
    case TimelineKind::Memset: return GraphLaunches::kMemsets;
    default: return -1;
  }
}

// A launch on one stream while the stream's events are read (start order).
struct OpenLaunch {
  uint32_t key;                 // index into the launch keys
  uint32_t first;               // its first event on the stream
  int64_t start, end;
  uint32_t counts[3] = {0, 0, 0};
  RunningUnion busy;
};

}  // namespace

std::vector<size_t> Timeline::graphRows(Report& report) {
  if (graphRows_) return *graphRows_;
  graphRows_.emplace();
  // The graph work as the build collected it, given back when the rows are made.
  const GraphLaunches work = graphLaunches_ ? std::move(*graphLaunches_) : GraphLaunches(0, 0);
  graphLaunches_.reset();
  if (!work.refused().empty()) {
    notes_.push_back("timeline: no graph rows: " + work.refused() + "; hggc_ppu_trace lists each activity");
    return *graphRows_;
  }
  if (work.empty()) return *graphRows_;
  const std::vector<GraphLaunches::Key>& keys = work.keys();

  // The graph each exec was instantiated from: an exec's node names, by
  // originalGraphNodeId, a node of that graph (per process: node ids are).
  std::map<std::pair<int64_t, int64_t>, int64_t> graphOfExec;  // (pid, exec) -> graph
  if (report.hasData("HGGC_GRAPH_NODE_EVENTS")) {
    const GraphNodeEvents& g = report.graphNodes();
    std::map<std::pair<int64_t, int64_t>, int64_t> graphOfNode;  // (pid, node) -> its graph
    for (size_t i = 0; i < g.size(); ++i) graphOfNode.emplace(std::make_pair(pidOf(g.globalTid[i]), g.graphNodeId[i]), g.graphId[i]);
    for (size_t i = 0; i < g.size(); ++i) {
      const int64_t original = g.originalGraphNodeId[i];
      if (original == kNoValue) continue;
      const auto it = graphOfNode.find({pidOf(g.globalTid[i]), original});
      if (it != graphOfNode.end() && it->second != g.graphId[i])
        graphOfExec.emplace(std::make_pair(pidOf(g.globalTid[i]), g.graphId[i]), it->second);
    }
  }

  // Per stream (a stream's track or the PCCL kernels row), one pass over its
  // events in start order: each graph activity's launch, its span, counts
  // and busy time; then a row per exec of its launches.
  const size_t built = tracks_.size();
  std::vector<TimelineTrack> made;  // appended once every stream is read (tracks_ stays put meanwhile)
  for (size_t s = 0; s < built; ++s) {
    const TimelineTrack& stream = tracks_[s];
    if (!isPpuWork(stream) || stream.merged() || stream.derived() || stream.row.size() != stream.size()) continue;
    std::vector<OpenLaunch> launches;
    std::unordered_map<uint32_t, uint32_t> slotOf;  // launch key -> index into launches
    for (size_t i = 0; i < stream.size(); ++i) {
      const int a = activityTable(stream.kind[i]);
      if (a < 0) continue;
      const std::vector<GraphLaunches::Activity>& ran = work.of(static_cast<GraphLaunches::Table>(a));
      if (ran.empty()) continue;
      const uint32_t row = stream.row[i];
      const auto it = std::lower_bound(ran.begin(), ran.end(), GraphLaunches::Activity{row, 0});
      if (it == ran.end() || it->row != row) continue;
      const int64_t b = stream.start[i], e = stream.end[i];
      auto [slot, added] = slotOf.emplace(it->launch, static_cast<uint32_t>(launches.size()));
      if (added) launches.push_back({it->launch, static_cast<uint32_t>(i), b, e});
      OpenLaunch& l = launches[slot->second];
      l.end = std::max(l.end, e);
      ++l.counts[a];
      l.busy.add(b, e);
    }
    if (launches.empty()) continue;
    // A row per exec (of a process), in exec order; its launches in start
    // order (the stream's order of their first activities).
    std::map<std::pair<int64_t, int64_t>, std::vector<uint32_t>> byExec;  // (exec, pid) -> launches
    for (uint32_t k = 0; k < launches.size(); ++k) {
      const GraphLaunches::Key& key = keys[launches[k].key];
      byExec[{std::get<1>(key), std::get<0>(key)}].push_back(k);
    }
    for (const auto& [exec, mine] : byExec) {
      const auto graph = graphOfExec.find({exec.second, exec.first});
      const int64_t graphId = graph == graphOfExec.end() ? INT64_MIN : graph->second;
      std::string label = graphId == INT64_MIN ? "Graph exec " + std::to_string(exec.first)
                                               : "Graph " + std::to_string(graphId) + " \u2192 exec " + std::to_string(exec.first);
      auto notes = std::make_shared<GraphLaunchNotes>();
      notes->graph = graphId;
      notes->exec = exec.first;
      const uint32_t name = report.strings().intern(label);
      TimelineEventVectors v;
      for (uint32_t k : mine) {
        const OpenLaunch& l = launches[k];
        v.start.push_back(l.start);
        v.end.push_back(l.end);
        v.name.push_back(name);
        v.kind.push_back(TimelineKind::GraphLaunch);
        notes->first.push_back(l.first);
        notes->correlationId.push_back(std::get<2>(keys[l.key]));
        notes->kernels.push_back(l.counts[0]);
        notes->memcpys.push_back(l.counts[1]);
        notes->memsets.push_back(l.counts[2]);
        notes->busy.push_back(l.busy.length());
      }
      TimelineTrack row;
      row.group = stream.group;
      row.context = "";
      row.label = std::move(label);
      row.device = stream.device;
      row.graphOf = static_cast<uint32_t>(s);
      row.lanes = assignLanes(v.start, v.end, v.lane);
      row.setEvents(std::move(v));
      buildLevels(row);
      row.launches = std::move(notes);
      made.push_back(std::move(row));
    }
  }
  for (TimelineTrack& row : made) {
    graphRows_->push_back(tracks_.size());
    tracks_.push_back(std::move(row));
  }
  // Their shares over the whole capture: busy time over the stream's.
  for (size_t id : *graphRows_) {
    TimelineTrack& t = tracks_[id];
    t.busy = graphBusyIn(t, INT64_MIN, INT64_MAX);
    const int64_t of = tracks_[t.graphOf].busy;
    t.share = of > 0 ? static_cast<double>(t.busy) / of : std::nan("");
    t.contextBusy = 0;
    t.contextShare = std::nan("");
  }
  return *graphRows_;
}

// The stream's busy time inside the row's launches' spans, clipped to
// [from, to): a stream runs its work in order, so inside a launch's span it
// runs that launch's nodes (each launch's own busy time, GraphLaunchNotes,
// counts its activities only). Launches of one row do not overlap on their
// stream; were they to, their common time would count twice.
int64_t Timeline::graphBusyIn(const TimelineTrack& row, int64_t from, int64_t to) const {
  if (!row.graphRow() || from >= to) return 0;
  const TimelineTrack& stream = tracks_[row.graphOf];
  int64_t total = 0;
  for (size_t k = firstReaching(row, from); k < row.size() && row.start[k] < to; ++k) {
    const int64_t a = std::max(row.start[k], from), b = std::min(row.end[k], to);
    if (a >= b) continue;
    RunningUnion u;
    for (size_t i = firstReaching(stream, a); i < stream.size() && stream.start[i] < b; ++i) {
      const int64_t s = std::max(stream.start[i], a), e = std::min(stream.end[i], b);
      if (s < e) u.add(s, e);
    }
    total += u.length();
  }
  return total;
}

}  // namespace asys
