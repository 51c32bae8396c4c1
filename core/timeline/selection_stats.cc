#include "core/timeline/selection_stats.h"

#include <algorithm>
#include <array>
#include <map>
#include <numeric>
#include <optional>
#include <string_view>

#include "core/analysis/key_groups.h"
#include "core/analysis/time_window.h"
#include "core/base/error.h"
#include "core/base/stage_timer.h"
#include "core/timeline/busy.h"

namespace asys {

namespace {

// The table's kinds, in kSelectionKindNames' order; the HGTX projection and
// counters are none of them.
enum class Kind : uint8_t { Kernel, Memcpy, Memset, Api, Hgtx, Osrt, PcclStage, None };
static_assert(static_cast<size_t>(Kind::None) == kSelectionKindNames.size());

Kind kindOf(TimelineKind k) {
  switch (k) {
    case TimelineKind::Kernel:
    case TimelineKind::PcclKernel: return Kind::Kernel;
    case TimelineKind::Memcpy: return Kind::Memcpy;
    case TimelineKind::Memset: return Kind::Memset;
    case TimelineKind::Api:
    case TimelineKind::ApiError: return Kind::Api;
    case TimelineKind::Hgtx:
    case TimelineKind::HgtxStartEnd: return Kind::Hgtx;
    case TimelineKind::Osrt: return Kind::Osrt;
    case TimelineKind::PcclStage: return Kind::PcclStage;
    default: return Kind::None;
  }
}

// The events seen, per (kind, name): dense groups, a few counters each.
class EventGroups {
 public:
  EventGroups(int64_t from, int64_t to) : from_(from), to_(to) {}
  void add(Kind kind, uint32_t name, int64_t start, int64_t end) {
    const uint32_t g = keys_.indexOf((static_cast<uint64_t>(kind) << 32) | name);
    if (g == total_.size()) {
      for (auto* v : {&total_, &count_, &inside_}) v->push_back(0);
      min_.push_back(INT64_MAX);
      max_.push_back(INT64_MIN);
    }
    const int64_t d = end - start;
    total_[g] += d;
    ++count_[g];
    min_[g] = std::min(min_[g], d);
    max_[g] = std::max(max_[g], d);
    inside_[g] += std::max<int64_t>(0, std::min(end, to_) - std::max(start, from_));
  }
  Table table(const StringPool& strings) const {
    const size_t n = total_.size();
    std::vector<uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    auto kind = [&](uint32_t g) { return kSelectionKindNames[keys_.key(g) >> 32]; };
    auto name = [&](uint32_t g) {
      const uint32_t id = static_cast<uint32_t>(keys_.key(g));
      return id == kNoString ? std::string_view() : strings.get(id);
    };
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      if (total_[a] != total_[b]) return total_[a] > total_[b];
      if (kind(a) != kind(b)) return kind(a) < kind(b);
      return name(a) < name(b);
    });
    Table t(windowStatsColumns());
    for (uint32_t g : order) {
      t.setInt(0, total_[g]);
      t.setInt(1, count_[g]);
      t.setInt(2, total_[g] / count_[g]);
      t.setInt(3, min_[g]);
      t.setInt(4, max_[g]);
      t.setInt(5, inside_[g]);
      t.setText(6, kind(g));
      t.setText(7, name(g));
      t.endRow();
    }
    return t;
  }

 private:
  int64_t from_, to_;
  KeyGroups keys_;
  std::vector<int64_t> total_, count_, min_, max_, inside_;
};

}  // namespace

std::vector<ColumnSpec> windowStatsColumns() {
  return {
      {"Total Time", "ns", CellKind::Int, "Total duration of the events overlapping the selection, each whole", ColumnRole::Value},
      {"Count", "", CellKind::Int, "Number of events overlapping the selection", ColumnRole::Value},
      {"Avg", "ns", CellKind::Int, "Average duration of these events", ColumnRole::Value},
      {"Min", "ns", CellKind::Int, "Shortest of these events", ColumnRole::Value},
      {"Max", "ns", CellKind::Int, "Longest of these events", ColumnRole::Value},
      {"In Selection", "ns", CellKind::Int, "Their durations clipped to the selection, summed", ColumnRole::Value},
      {"Kind", "", CellKind::Text, "The kind of event: Kernel, Memcpy, Memset, HGGC API, HGTX range, OSRT, PCCL stage", ColumnRole::Attribute},
      {"Name", "", CellKind::Text, "Name of the events", ColumnRole::Key},
  };
}

WindowStats windowStats(const Timeline& timeline, const StringPool& strings, int64_t from, int64_t to) {
  if (from >= to) {
    throw Error("selection statistics: the window [" + std::to_string(from) + ", " + std::to_string(to) +
                ") is empty");
  }
  const TimeWindow window{from, to};
  EventGroups groups(from, to);
  WindowStats out;
  out.from = from;
  out.to = to;
  // Each PPU's work in start order across its tracks: one pass feeds the
  // groups and the three unions (clipped starts keep the order).
  std::optional<StageTimer> stage(std::in_place, "selection: PPU work");
  std::map<int64_t, std::vector<const TimelineTrack*>> work;
  for (const TimelineTrack& t : timeline.tracks())
    if (isPpuWork(t)) work[t.device].push_back(&t);
  for (const auto& entry : work) {
    // Named, not a structured binding: a lambda below reads them (clang 14).
    const int64_t device = entry.first;
    const std::vector<const TimelineTrack*>& tracks = entry.second;
    std::vector<size_t> first(tracks.size());
    for (size_t k = 0; k < tracks.size(); ++k) first[k] = firstReaching(*tracks[k], from);
    RunningUnion all, kernels, memory;
    forEachInStartOrder(tracks, first, to, [&](size_t k, size_t i) {
      const TimelineTrack& t = *tracks[k];
      const int64_t s = t.start[i], e = t.end[i];
      if (!window.overlaps(s, e)) return;
      const Kind kind = kindOf(t.kind[i]);
      groups.add(kind, t.name[i], s, e);
      const int64_t cs = std::max(s, from), ce = std::min(e, to);
      if (cs >= ce) return;  // an instant covers no time
      all.add(cs, ce);
      (kind == Kind::Kernel ? kernels : memory).add(cs, ce);
    });
    out.devices.push_back({device, tracks.front()->group, all.length(), kernels.length(), memory.length()});
  }
  // Every other row's events, track by track.
  stage.emplace("selection: other rows");
  for (const TimelineTrack& t : timeline.tracks()) {
    if (t.counter || isPpuWork(t) || t.derived() || t.repeats()) continue;  // a base-name row: its stream's kernels again
    for (size_t i = firstReaching(t, from); i < t.size() && t.start[i] < to; ++i) {
      const Kind kind = kindOf(t.kind[i]);
      if (kind != Kind::None && window.overlaps(t.start[i], t.end[i])) groups.add(kind, t.name[i], t.start[i], t.end[i]);
    }
  }
  stage.emplace("selection: table");
  out.events = groups.table(strings);
  return out;
}

}  // namespace asys
