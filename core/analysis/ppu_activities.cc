#include "core/analysis/ppu_activities.h"

#include <algorithm>
#include <numeric>
#include <tuple>

#include "core/analysis/key_join.h"
#include "core/base/freed_heap.h"
#include "core/base/permute.h"
#include "core/base/stage_timer.h"
#include "core/base/window_sort.h"

namespace asys {

namespace {
bool inDevices(const std::optional<std::vector<int64_t>>& devices, int32_t id) {
  return !devices || std::find(devices->begin(), devices->end(), id) != devices->end();
}

// The columns one activity table contributes, so all three fill alike.
struct Source {
  const std::vector<int64_t>* start = nullptr;
  const std::vector<int64_t>* end = nullptr;
  const std::vector<int64_t>* globalPid = nullptr;
  const std::vector<int32_t>* deviceId = nullptr;
  const std::vector<int64_t>* correlationId = nullptr;
  const std::vector<int64_t>* graphNodeId = nullptr;
};

template <typename Table>
Source sourceOf(const Table& t) {
  return {&t.start, &t.end, &t.globalPid, &t.deviceId, &t.correlationId, &t.graphNodeId};
}

}  // namespace

bool ActivitySelection::keeps(ActivityKind kind, uint32_t row, int64_t start, int64_t end, int32_t device) const {
  if (end == kNoValue || !inDevices(devices, device) || !window.overlaps(start, end)) return false;
  return kind != ActivityKind::Kernel || !keepKernel || keepKernel(row);
}

namespace {
// expectedActivities with the memory operations given (null without `memory`).
size_t expectedActivities(Report& report, const ActivitySelection& sel, const MemoryOps* memcpys,
                          const MemoryOps* memsets) {
  if (sel.keepKernel || sel.devices || !sel.window.isAll()) return 0;
  return static_cast<size_t>(report.rowEstimate("HGGC_KERNEL")) +
         (memcpys ? memcpys->size() + memsets->size() : 0);
}
}  // namespace

size_t expectedActivities(Report& report, const ActivitySelection& sel) {
  return sel.memory ? expectedActivities(report, sel, &report.memcpys(), &report.memsets())
                    : expectedActivities(report, sel, nullptr, nullptr);
}

PpuActivities loadPpuActivities(Report& report, const ActivitySelection& sel) {
  uint32_t columns = kActivityColumns | sel.kernelColumns;
  if (sel.links) columns |= kActivityLinkColumns;
  const Kernels& kernels = report.kernels(columns | sel.chunkColumns);
  if (sel.onKernelChunk) sel.onKernelChunk(kernels, 0);
  // By ActivityKind: kernels, memcpys, memsets (none without `memory`).
  std::vector<Source> sources = {sourceOf(kernels)};
  if (sel.memory) {
    sources.push_back(sourceOf(report.memcpys()));
    sources.push_back(sourceOf(report.memsets()));
  }

  // Pick the rows first, then fill the columns in start order.
  struct Pick {
    int64_t start;
    ActivityKind kind;
    uint32_t row;
  };
  std::vector<Pick> picks;
  // Room for every row, so the picks never grow by copying, unless a kernel
  // filter keeps few of them (the PCCL rules).
  if (!sel.keepKernel) {
    size_t rows = 0;
    for (const Source& src : sources) rows += src.start->size();
    picks.reserve(rows);
  }
  for (size_t kind = 0; kind < sources.size(); ++kind) {
    const Source& src = sources[kind];
    for (size_t i = 0; i < src.start->size(); ++i) {
      const int64_t start = (*src.start)[i];
      if (!sel.keeps(static_cast<ActivityKind>(kind), static_cast<uint32_t>(i), start, (*src.end)[i],
                     (*src.deviceId)[i]))
        continue;
      picks.push_back({start, static_cast<ActivityKind>(kind), static_cast<uint32_t>(i)});
    }
  }
  // Mostly sorted already (tables are written in time order per stream).
  std::sort(picks.begin(), picks.end(), [](const Pick& a, const Pick& b) {
    return std::tie(a.start, a.kind, a.row) < std::tie(b.start, b.kind, b.row);
  });

  PpuActivities a;
  const size_t n = picks.size();
  for (auto* v : {&a.start, &a.end, &a.globalPid}) v->resize(n);
  a.deviceId.resize(n);
  a.kind.resize(n);
  a.row.resize(n);
  if (sel.links) a.correlationId.resize(n);
  for (size_t i = 0; i < n; ++i) {
    const Pick& p = picks[i];
    const Source& src = sources[static_cast<size_t>(p.kind)];
    a.kind[i] = p.kind;
    a.row[i] = p.row;
    a.start[i] = (*src.start)[p.row];
    a.end[i] = (*src.end)[p.row];
    a.globalPid[i] = (*src.globalPid)[p.row];
    a.deviceId[i] = (*src.deviceId)[p.row];
    if (sel.links) {
      a.correlationId[i] = (*src.correlationId)[p.row];
      if (const int64_t node = (*src.graphNodeId)[p.row]; node != kNoValue)
        a.graphNodes.push_back({static_cast<uint32_t>(i), a.globalPid[i], node});
    }
  }
  // The lean forms, from the whole list (here in start order, which a
  // durationsOnly list may be in). A durationsOnly list keeps its process
  // column here: its launching calls are found after (the association
  // keeps the processes of the activities without one, keepUnlaunchedProcesses).
  if (sel.durationsOnly) {
    a.duration.reserve(n);
    for (size_t i = 0; i < n; ++i) a.duration.push_back(a.end[i] - a.start[i]);
    std::vector<int64_t>().swap(a.start);
    std::vector<int64_t>().swap(a.end);
    std::vector<int32_t>().swap(a.deviceId);
    std::vector<ActivityKind>().swap(a.kind);
  }
  if (sel.startsOnly) {
    std::vector<int64_t>().swap(a.end);
    std::vector<int32_t>().swap(a.deviceId);
    std::vector<ActivityKind>().swap(a.kind);
  }
  if (sel.kernelTag) {
    a.tag.resize(n);
    for (size_t i = 0; i < n; ++i)
      a.tag[i] = picks[i].kind == ActivityKind::Kernel ? sel.kernelTag(kernels, picks[i].row) : kNoString;
    std::vector<uint32_t>().swap(a.row);
  }
  return a;
}

namespace {

// The activity list made in table order (kernels, memcpys, memsets, each
// by row: the (kind, row) order of the sort's ties), an activity at a time.
class ActivityListBuilder {
 public:
  ActivityListBuilder(const ActivitySelection& sel, const LaunchIndex& calls, PpuActivities& a,
                      std::vector<uint32_t>& launchCall)
      : sel_(sel), calls_(calls), a_(a), launchCall_(launchCall) {}

  void reserve(size_t n) {
    if (sel_.durationsOnly) {
      a_.duration.reserve(n);
    } else if (sel_.startsOnly) {
      if (sel_.processes) a_.globalPid.reserve(n);
      a_.narrowStart.reserve(n);
    } else {
      if (sel_.processes) a_.globalPid.reserve(n);
      if (spansOnly_) {
        a_.narrowStart.reserve(n);
      } else {
        a_.start.reserve(n);
      }
      if (sel_.endsAsDurations) {
        a_.duration.reserve(n);
      } else {
        a_.end.reserve(n);
      }
      if (spansOnly_) {
        a_.kind.reserve(n);
      } else if (packing_) {
        a_.place.reserve(n);
      } else {
        a_.deviceId.reserve(n);
        a_.kind.reserve(n);
      }
    }
    if (sel_.kernelTag) {
      a_.tag.reserve(n);
    } else if (!spansOnly_ && !implicitRows_) {
      a_.row.reserve(n);
    }
    reserved_ = n;
    launchCall_.reserve(n);
  }

  // One row of a table, kept when the selection keeps it (a kernel's
  // keepKernel asked last, as loadPpuActivities asks it). tagOf(): the
  // kernel's tag (ActivitySelection::kernelTag), asked only when kept.
  template <typename TagOf>
  void take(ActivityKind kind, uint32_t row, int64_t start, int64_t end, int64_t globalPid, int32_t device,
            int64_t correlationId, int64_t graphNodeId, TagOf&& tagOf) {
    if (!sel_.keeps(kind, row, start, end, device)) return;
    const auto at = static_cast<uint32_t>(launchCall_.size());  // this activity's index
    const uint32_t call = calls_.find(globalPid, correlationId);
    if (sel_.durationsOnly) {
      a_.duration.push_back(end - start);
      if (call == kNoMatch) a_.unlaunchedPid.emplace_back(at, globalPid);
    } else if (sel_.startsOnly) {
      if (sel_.processes) a_.globalPid.push_back(globalPid);
      else if (call == kNoMatch) a_.unlaunchedPid.emplace_back(at, globalPid);
      addNarrowStart(start);  // its sort's keys only: 4 bytes through the kernel scan
    } else {
      if (sel_.processes) a_.globalPid.push_back(globalPid);
      if (spansOnly_) {
        addNarrowStart(start);
      } else {
        a_.start.push_back(start);
      }
      if (sel_.endsAsDurations) {
        a_.duration.push_back(end - start);
      } else {
        a_.end.push_back(end);
      }
      if (spansOnly_) {
        a_.kind.push_back(kind);  // the sort's ties only
      } else {
        if (packing_) pack(device, kind);
        if (!packing_) {  // pack() may have turned the list to the two columns: this activity goes there too
          a_.deviceId.push_back(device);
          a_.kind.push_back(kind);
        }
      }
    }
    if (sel_.kernelTag) {
      a_.tag.push_back(tagOf());
    } else if (implicitRows_ && row == at) {
      // Still the list's position: not held (startsOnly, every row kept so far).
    } else if (!spansOnly_) {
      if (implicitRows_) materializeRows();
      a_.row.push_back(row);
    }
    launchCall_.push_back(call);
    if (graphNodeId != kNoValue) a_.graphNodes.push_back({at, globalPid, graphNodeId});
  }

  // Every activity is taken: a spansOnly or startsOnly list's last block
  // of starts goes into it.
  void finishRead() {
    if (pendingStarts_ == 0) return;
    a_.narrowStart.appendBlock(pending_, pendingStarts_);
    pendingStarts_ = 0;
  }

  // Device and kind in one byte (ActivitySelection::packPlaces), while the
  // devices are at most 64: past them, the list turns to the two columns.
  void pack(int32_t device, ActivityKind kind) {
    if (lastDevice_ >= a_.placeDevices.size() || a_.placeDevices[lastDevice_] != device) {
      const auto it = std::find(a_.placeDevices.begin(), a_.placeDevices.end(), device);
      if (it == a_.placeDevices.end() && a_.placeDevices.size() == kMaxPlaceDevices) {
        unpack();
        return;
      }
      lastDevice_ = static_cast<size_t>(it - a_.placeDevices.begin());
      if (it == a_.placeDevices.end()) a_.placeDevices.push_back(device);
    }
    a_.place.push_back(static_cast<uint8_t>(lastDevice_ << 2 | static_cast<uint8_t>(kind)));
  }
  void unpack() {
    const size_t n = a_.place.size();
    a_.deviceId.reserve(a_.place.capacity());
    a_.kind.reserve(a_.place.capacity());
    for (size_t i = 0; i < n; ++i) {
      a_.deviceId.push_back(a_.deviceOf(i));
      a_.kind.push_back(a_.kindOf(i));
    }
    std::vector<uint8_t>().swap(a_.place);
    std::vector<int32_t>().swap(a_.placeDevices);
    packing_ = false;
  }

  // The list is made with the memory operations among the kernels; its
  // kind and row columns order its ties (it has both: its full form).
  void tiesByKindAndRow() { tiesByKindAndRow_ = true; }
  bool interleaved() const { return tiesByKindAndRow_; }

  // Into start order (ties in table order), the columns in place;
  // HGGC_KERNEL is mostly in start order per stream, not overall. A
  // durationsOnly list (no start) stays in table order. The order (4 bytes
  // an activity) is all the sort adds: its keys are read through it, not
  // copied beside it as (start, position) pairs (16 bytes an activity), and
  // the columns follow its cycles (permuteInPlace), none copied. The list
  // was the association's peak with those (2026-12-06, assoc7).
  void sortByStart() {
    if (a_.start.empty() && a_.narrowStart.size() > 0) {
      const StartTimes& narrow = a_.narrowStart;
      sortBy([&narrow](uint32_t i) { return narrow[i]; }, narrow.size());
    } else {
      const int64_t* start = a_.start.data();
      sortBy([start](uint32_t i) { return start[i]; }, a_.start.size());
    }
    fitColumns();
  }

 private:
  // sortByStart with the n starts read through startAt (the start column,
  // or a spansOnly list's narrow starts, which are made again in the new
  // order: a block's base is its smallest start, so they are not moved in
  // place; 4 bytes an activity beside the order while the rest are moved).
  template <typename StartAt>
  void sortBy(StartAt startAt, size_t n) {
    // Sorted already when each activity's key is at least its predecessor's:
    // its start, and at equal starts (made interleaved) its kind and row.
    // Each table's activities are taken in row order, so of one kind the
    // list's order is row order: a tie is ordered by kind, then position
    // (the list may hold tags in place of rows: ActivitySelection::kernelTag).
    bool sorted = true;
    struct RowsAtEnd {  // rows still implicit: their position, if sorted already
      ActivityListBuilder& b;
      ~RowsAtEnd() {
        if (b.implicitRows_) b.materializeRows();
      }
    } rowsAtEnd{*this};
    for (size_t i = 1; i < n && sorted; ++i) {
      const int64_t before = startAt(static_cast<uint32_t>(i - 1)), at = startAt(static_cast<uint32_t>(i));
      sorted = before < at || (before == at && (!tiesByKindAndRow_ || a_.kindOf(i - 1) <= a_.kindOf(i)));
    }
    if (sorted) return;
    if (spansOnly_ && a_.start.empty() && a_.unlaunchedPid.empty() && sortInWindows(n)) return;
    std::vector<uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    if (tiesByKindAndRow_) {
      // Made interleaved: ties as in table order (kernels, memcpys,
      // memsets, each by row), where the list's own order is not that.
      const PpuActivities& a = a_;
      std::sort(order.begin(), order.end(), [startAt, &a](uint32_t x, uint32_t y) {
        const int64_t sx = startAt(x), sy = startAt(y);
        if (sx != sy) return sx < sy;
        const ActivityKind kx = a.kindOf(x), ky = a.kindOf(y);
        return kx != ky ? kx < ky : x < y;
      });
    } else {
      std::sort(order.begin(), order.end(), [startAt](uint32_t x, uint32_t y) {
        const int64_t sx = startAt(x), sy = startAt(y);
        return sx != sy ? sx < sy : x < y;
      });
    }
    renumberGraphNodes(order);
    renumberUnlaunched(order);
    if (sel_.startsOnly && a_.start.empty()) {
      // A startsOnly list's starts serve its sort only (its caller reads
      // them no more: associateActivities gives them back): they go once
      // the order is found, not made again in it (4 bytes an activity
      // beside the order while the columns are moved).
      a_.narrowStart = StartTimes();
    } else if (a_.start.empty() && a_.narrowStart.size() > 0) {
      StartTimes moved;
      moved.reserve(n);
      int64_t block[StartTimes::kBlock];
      for (size_t from = 0; from < n; from += StartTimes::kBlock) {
        const size_t count = std::min(StartTimes::kBlock, n - from);
        for (size_t k = 0; k < count; ++k) block[k] = startAt(order[from + k]);
        moved.appendBlock(block, count);
      }
      a_.narrowStart = std::move(moved);
    }
    if (implicitRows_) {
      // Rows still implicit are the positions: in their new order they are
      // the order itself, so it is kept (not used up) and becomes the row
      // column (not a copy of it beside it). A startsOnly list has no duration.
      permuteInPlaceKeepingOrder(order, a_.start, a_.end, a_.globalPid, a_.deviceId, a_.kind, a_.place, a_.tag,
                                 launchCall_);
      a_.row = std::move(order);
      implicitRows_ = false;
      return;
    }
    a_.duration.permuteInPlace(order, [&](std::vector<uint32_t>& o, std::vector<uint32_t>& duration) {
      permuteInPlace(o, a_.start, a_.end, duration, a_.globalPid, a_.deviceId, a_.kind, a_.place, a_.row, a_.tag,
                     launchCall_);
    });
  }

  // The rows held from here on (a row kept out of place: a window, a device).
  void materializeRows() {
    a_.row.reserve(std::max(reserved_, launchCall_.size()));
    for (size_t i = a_.row.size(); i < launchCall_.size(); ++i) a_.row.push_back(static_cast<uint32_t>(i));
    implicitRows_ = false;
  }

  // A spansOnly list (the projections') into start order a window at a
  // time (sortNearlySorted), its columns moved a window at a time: no
  // order of the whole list and no second copy of its starts (8 bytes an
  // activity beside the list: the sort was hgtx_ppu_proj_trace's peak).
  // False where an activity is farther than half a window from its place
  // in start order: the list is then still the same activities, ties in
  // the same relative order, and sortBy's whole sort follows.
  bool sortInWindows(size_t n) {
    using Key = std::pair<int64_t, uint8_t>;  // start, and at equal starts (made interleaved) the kind
    constexpr size_t kWindow = size_t{1} << 16;
    static_assert(kWindow % (2 * StartTimes::kBlock) == 0, "a window's halves are whole blocks of starts");
    StartTimes& starts = a_.narrowStart;
    const bool byKind = tiesByKindAndRow_;
    std::vector<int64_t> moved(std::min(kWindow, n));
    std::vector<uint32_t> where;
    const bool sorted = sortNearlySorted<Key>(
        n, kWindow,
        [&](size_t i) { return Key{starts[i], byKind ? static_cast<uint8_t>(a_.kindOf(i)) : uint8_t{0}}; },
        [&](size_t first, const uint32_t* order, const Key* keys, size_t m) {
          for (size_t k = 0; k < m; ++k) moved[k] = keys[order[k]].first;
          for (size_t k = 0; k < m; k += StartTimes::kBlock)
            starts.setBlock((first + k) / StartTimes::kBlock, moved.data() + k, std::min(StartTimes::kBlock, m - k));
          if (a_.duration.size() > 0) {
            for (size_t k = 0; k < m; ++k) moved[k] = a_.duration.get(first + order[k]);
            for (size_t k = 0; k < m; ++k) a_.duration.set(first + k, moved[k]);
          }
          permuteStretch(a_.end, first, order, m);
          permuteStretch(a_.globalPid, first, order, m);
          permuteStretch(a_.deviceId, first, order, m);
          permuteStretch(a_.kind, first, order, m);
          permuteStretch(a_.place, first, order, m);
          permuteStretch(a_.row, first, order, m);
          permuteStretch(a_.tag, first, order, m);
          permuteStretch(launchCall_, first, order, m);
          renumberGraphNodesIn(first, order, m, where);
        });
    if (!sorted) profileNote("activities: not sorted by windows (an activity far from its place): sorted whole");
    return sorted;
  }

  // The graph nodes' activities in first .. first + m - 1 after that
  // stretch was put in `order` (element first + k was first + order[k]),
  // back in activity order.
  void renumberGraphNodesIn(size_t first, const uint32_t* order, size_t m, std::vector<uint32_t>& where) {
    auto byActivity = [](const GraphNodeRun& g, size_t at) { return g.activity < at; };
    const auto from = std::lower_bound(a_.graphNodes.begin(), a_.graphNodes.end(), first, byActivity);
    const auto to = std::lower_bound(from, a_.graphNodes.end(), first + m, byActivity);
    if (from == to) return;
    where.resize(m);
    for (size_t k = 0; k < m; ++k) where[order[k]] = static_cast<uint32_t>(k);
    for (auto it = from; it != to; ++it) it->activity = static_cast<uint32_t>(first + where[it->activity - first]);
    std::sort(from, to, [](const GraphNodeRun& x, const GraphNodeRun& y) { return x.activity < y.activity; });
  }

  // The next start of a spansOnly or startsOnly list (made as HGGC_KERNEL
  // is scanned), into the block being filled.
  void addNarrowStart(int64_t start) {
    pending_[pendingStarts_++] = start;
    if (pendingStarts_ == StartTimes::kBlock) finishRead();
  }

  // The columns cut to their size. A vector cut is copied (for a moment its
  // old and new buffers are both held), so a column whose room is at most
  // 1/32 past its size (the room reserved for every row, a few activities
  // without an end left out) keeps it: that copy would be the list's peak.
  void fitColumns() {
    auto fit = [](auto& v) {
      if (v.capacity() - v.size() > v.size() / 32) v.shrink_to_fit();
    };
    fit(a_.start);
    fit(a_.narrowStart);
    fit(a_.end);
    fit(a_.globalPid);
    a_.duration.shrink_to_fit();
    fit(a_.unlaunchedPid);
    fit(a_.graphNodes);
    fit(a_.deviceId);
    fit(a_.kind);
    fit(a_.place);
    fit(a_.row);
    fit(a_.tag);
    fit(launchCall_);
  }

  // The unlaunched activities' processes after the sort (order[new] =
  // old), in their new order: looked up by old index, few of them.
  void renumberUnlaunched(const std::vector<uint32_t>& order) {
    if (a_.unlaunchedPid.empty()) return;
    std::vector<std::pair<uint32_t, int64_t>> moved;
    moved.reserve(a_.unlaunchedPid.size());
    const auto& old = a_.unlaunchedPid;
    for (size_t i = 0; i < order.size(); ++i) {
      const auto it = std::lower_bound(old.begin(), old.end(), order[i],
                                       [](const std::pair<uint32_t, int64_t>& x, uint32_t k) { return x.first < k; });
      if (it != old.end() && it->first == order[i]) moved.emplace_back(static_cast<uint32_t>(i), it->second);
    }
    a_.unlaunchedPid = std::move(moved);
  }

  // The graph nodes' activities after the sort (order[new] = old), back in
  // activity order: a bit an activity marks the few that ran one.
  void renumberGraphNodes(const std::vector<uint32_t>& order) {
    if (a_.graphNodes.empty()) return;
    std::vector<bool> ran(order.size(), false);
    for (const GraphNodeRun& g : a_.graphNodes) ran[g.activity] = true;
    std::vector<GraphNodeRun> byOld = std::move(a_.graphNodes);  // in old activity order
    a_.graphNodes.clear();
    for (size_t now = 0; now < order.size(); ++now) {
      if (!ran[order[now]]) continue;
      auto it = std::lower_bound(byOld.begin(), byOld.end(), order[now],
                                 [](const GraphNodeRun& g, uint32_t old) { return g.activity < old; });
      a_.graphNodes.push_back({static_cast<uint32_t>(now), it->globalPid, it->node});
    }
  }

  const ActivitySelection& sel_;
  const LaunchIndex& calls_;
  PpuActivities& a_;
  std::vector<uint32_t>& launchCall_;
  bool tiesByKindAndRow_ = false;
  int64_t pending_[StartTimes::kBlock];  // a narrow list's starts not yet in a block
  size_t pendingStarts_ = 0;
  static constexpr size_t kMaxPlaceDevices = 64;
  // A spansOnly list (its full form) is made without device and row: its
  // caller reads neither, and the sort orders ties by kind and position
  // (the kind goes once the list is sorted, finishAssociation).
  bool spansOnly_ = sel_.spansOnlyForm();
  bool packing_ = sel_.packPlaces && !spansOnly_ && !sel_.durationsOnly && !sel_.startsOnly;
  // A startsOnly list of kernels (read in table order) holds no row while
  // every row so far is kept: the row is the position until one is not.
  bool implicitRows_ = sel_.startsOnly && !sel_.durationsOnly && !sel_.kernelTag && !sel_.memory && a_.row.empty();
  size_t reserved_ = 0;
  size_t lastDevice_ = 0;
};

}  // namespace

namespace {

// The list in table order, each activity's launching call from `calls`.
void readLaunchedActivities(Report& report, const ActivitySelection& sel, ActivityListBuilder& list) {
  // The memory operations, for a caller that reads none of their rows once
  // the list is made (releaseMemoryOps), when not loaded already: read here
  // with the list's columns only (6 of 13: 44 of a memcpy's 100 bytes, 22.5 MiB
  // less at the end of HGGC_KERNEL's scan at scale 2500), not held by the report,
  // and given back with this function's end, before the list's sort.
  MemoryOps ownCopies, ownSets;
  const bool own = sel.memory && sel.releaseMemoryOps && !report.memoryOpsLoaded();
  if (own) {
    ownCopies = report.readMemoryOps(false, kActivityOpColumns);
    ownSets = report.readMemoryOps(true, kActivityOpColumns);
  }
  const MemoryOps* memcpys = !sel.memory ? nullptr : own ? &ownCopies : &report.memcpys();
  const MemoryOps* memsets = !sel.memory ? nullptr : own ? &ownSets : &report.memsets();
  // Room for every row when nothing narrows them, so the list never grows
  // by copying; else it grows, and is cut to its size at the end.
  list.reserve(expectedActivities(report, sel, memcpys, memsets));
  // The memory operations are taken as the kernels come, each before the
  // first kernel that starts after it, where the list is sorted after (its
  // full form, whose kind and row order ties as table order does): so the
  // list is about in start order already and the sort's permutation moves
  // each activity a short way. Taken after every kernel, each memcpy's
  // place in start order was far from its place in the list, and putting
  // the columns in order in place (permuteInPlace) missed the cache at
  // every step (+20 % user CPU for hgtx_ppu_proj_sum at scale 1000).
  const bool interleave = sel.memory && !sel.durationsOnly && !sel.startsOnly;
  size_t nextCopy = 0, nextSet = 0;
  auto takeOp = [&](ActivityKind kind, const MemoryOps& ops, size_t i) {
    list.take(kind, static_cast<uint32_t>(i), ops.start[i], ops.end[i], ops.globalPid[i], ops.deviceId[i],
              ops.correlationId[i], ops.graphNodeId[i], [] { return kNoString; });
  };
  auto takeOpsUpTo = [&](int64_t start) {
    while (nextCopy < memcpys->size() && memcpys->start[nextCopy] < start)
      takeOp(ActivityKind::Memcpy, *memcpys, nextCopy++);
    while (nextSet < memsets->size() && memsets->start[nextSet] < start)
      takeOp(ActivityKind::Memset, *memsets, nextSet++);
  };
  if (interleave) list.tiesByKindAndRow();
  report.forEachKernelChunk(
      kActivityColumns | kActivityLinkColumns | sel.chunkColumns,
      [&](const Kernels& k, size_t first) {
        if (sel.onKernelChunk) sel.onKernelChunk(k, first);
        for (size_t i = 0; i < k.size(); ++i) {
          if (interleave) takeOpsUpTo(k.start[i]);
          list.take(ActivityKind::Kernel, static_cast<uint32_t>(first + i), k.start[i], k.end[i], k.globalPid[i],
                    k.deviceId[i], k.correlationId[i], k.graphNodeId[i], [&] { return sel.kernelTag(k, i); });
        }
      },
      sel.kernelColumns);
  if (!sel.memory) return;
  for (; nextCopy < memcpys->size(); ++nextCopy) takeOp(ActivityKind::Memcpy, *memcpys, nextCopy);
  for (; nextSet < memsets->size(); ++nextSet) takeOp(ActivityKind::Memset, *memsets, nextSet);
}

}  // namespace

PpuActivities loadLaunchedActivities(Report& report, const ActivitySelection& sel, const LaunchIndex& calls,
                                     std::vector<uint32_t>& launchCall) {
  PpuActivities a;
  launchCall.clear();
  ActivityListBuilder list(sel, calls, a, launchCall);
  readLaunchedActivities(report, sel, list);
  list.finishRead();
  list.sortByStart();
  return a;
}

PpuActivities loadLaunchedActivities(Report& report, const ActivitySelection& sel, LaunchIndex&& calls,
                                     std::vector<uint32_t>& launchCall) {
  PpuActivities a;
  launchCall.clear();
  bool tiesByKindAndRow = false;
  {
    StageTimer timer("activities: read");
    const LaunchIndex index = std::move(calls);
    ActivityListBuilder list(sel, index, a, launchCall);
    readLaunchedActivities(report, sel, list);
    list.finishRead();
    tiesByKindAndRow = list.interleaved();
  }  // the index goes here, before the sort
  // A spansOnly list's memory operations went once read, and now the
  // index: both among blocks of glibc's heap still in use, and what the
  // projections allocate after is mostly apart from it (mmap), so their
  // pages stayed resident through the association and the projections
  // (90 MiB at scale 2500, the trace's peak: docs/big-reports.md, projlist18).
  if (sel.spansOnlyForm()) giveBackFreedHeap();
  StageTimer timer("activities: sort");
  ActivityListBuilder sorter(sel, LaunchIndex(0), a, launchCall);
  if (tiesByKindAndRow) sorter.tiesByKindAndRow();
  sorter.sortByStart();
  return a;
}

}  // namespace asys
