// A stream's kernels grouped by HGTX range (Nsight Systems' "Show kernels
// grouped by: NVTX range"): one row a name of the kernels' innermost range,
// and one of the kernels no range encloses, under the stream; built when the
// viewer asks for the streams in view, not with the timeline
// (docs/timeline.md, "Kernels grouped by HGTX range").
#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <string>
#include <tuple>
#include <utility>

#include "core/analysis/hgtx_association.h"
#include "core/analysis/ppu_activities.h"
#include "core/base/error.h"
#include "core/timeline/busy.h"
#include "core/timeline/timeline.h"

namespace asys {
namespace {

// The kernels' row: not a name id (every range has one, "" for a range
// without a name).
constexpr uint32_t kOutside = kNoString;

// Whether a stream-like track has kernels to group (its events' table rows
// known): a stream or the PCCL kernels row.
bool groupable(const TimelineTrack& t) {
  return isPpuWork(t) && !t.merged() && !t.derived() && t.row.size() == t.size();
}

bool isKernel(TimelineKind k) { return k == TimelineKind::Kernel || k == TimelineKind::PcclKernel; }

// The union of intervals in start order (a row's busy time, before it is a track).
int64_t unionLength(const TimelineEventVectors& v) {
  int64_t total = 0, from = 0, to = 0;
  for (size_t i = 0; i < v.start.size(); ++i) {
    if (i == 0 || v.start[i] > to) {
      total += to - from;
      from = v.start[i];
      to = v.end[i];
    } else {
      to = std::max(to, v.end[i]);
    }
  }
  return total + (to - from);
}

// A kernel of an asked track: its HGGC_KERNEL row, its track (index into the
// asked list) and its event there.
struct AskedKernel {
  uint32_t row, track, event;
  bool operator<(const AskedKernel& o) const { return row < o.row; }
};

// The range a kernel's row is named after, of its associated ranges (slot
// order: start order, the longer first): the innermost, the last that
// starts. A kernel that ran a graph node created inside ranges takes the
// innermost of those (what the node was made in, the same for every launch
// of it) over the ranges around the graph's launch.
uint32_t innermostRange(const HgtxAssociation& a, size_t activity) {
  const RangeList ranges = a.rangesOf(activity);
  if (ranges.empty()) return kOutside;
  for (size_t j = ranges.size(); j-- > 0;)
    if (a.viaGraph(activity, j)) return a.ranges.name[ranges[j]];
  return a.ranges.name[ranges.back()];
}

}  // namespace

std::vector<size_t> Timeline::kernelRangeGroups(Report& report, const std::vector<size_t>& asked, size_t maxEvents,
                                               size_t maxRows) {
  for (size_t track : asked)
    if (track >= tracks_.size()) throw Error("timeline: no track " + std::to_string(track));
  if (rangeGroupsRefused())
    throw Error("timeline: no kernel rows by HGTX range: " + std::to_string(ppuActivities_) +
                " PPU activities are more than the " + std::to_string(associationMax_) +
                " whose association fits in memory beside the timeline; hgtx_kern_trace lists each kernel's ranges");
  // The tracks to build (each once, even if asked twice), by PPU: one
  // association a PPU, of the asked tracks' kernels only.
  std::vector<size_t> build;
  std::map<int64_t, std::vector<uint32_t>> byDevice;  // device -> indices into `build`
  for (size_t track : asked) {
    if (rangeGroups_.count(track) || std::find(build.begin(), build.end(), track) != build.end()) continue;
    const TimelineTrack& t = tracks_[track];
    size_t kernels = 0;
    if (groupable(t))
      for (size_t i = 0; i < t.size(); ++i) kernels += isKernel(t.kind[i]);
    if (kernels > maxEvents)
      throw Error("timeline: " + t.group + " " + t.label + " has " + std::to_string(kernels) + " kernels, more than the " +
                  std::to_string(maxEvents) + " whose rows by HGTX range fit in memory beside the timeline");
    if (kernels == 0) {
      rangeGroups_[track];  // none: asked again, still none
      continue;
    }
    byDevice[t.device].push_back(static_cast<uint32_t>(build.size()));
    build.push_back(track);
  }
  const bool association = report.hasData("HGTX_EVENTS") && report.hasData("HGGC_API");
  for (const auto& [device, which] : byDevice) {
    std::vector<AskedKernel> kernels;
    for (uint32_t b : which) {
      const TimelineTrack& t = tracks_[build[b]];
      for (size_t i = 0; i < t.size(); ++i)
        if (isKernel(t.kind[i])) kernels.push_back({t.row[i], b, static_cast<uint32_t>(i)});
    }
    std::sort(kernels.begin(), kernels.end());
    std::vector<uint32_t> rangeOf(kernels.size(), kOutside);  // by position in `kernels`
    auto at = [&](uint32_t row) {
      const auto it = std::lower_bound(kernels.begin(), kernels.end(), AskedKernel{row, 0, 0});
      return it != kernels.end() && it->row == row ? static_cast<size_t>(it - kernels.begin()) : kernels.size();
    };
    if (association) {
      // The association hgtx_kern_sum makes (every range, graph mapping on),
      // of this PPU's asked kernels only: its memory is theirs.
      ActivitySelection sel;
      sel.memory = false;
      sel.links = true;
      sel.devices = std::vector<int64_t>{device};
      sel.keepKernel = [&](uint32_t row) { return at(row) < kernels.size(); };
      const PpuActivities activities = loadPpuActivities(report, sel);
      if (activities.size() > 0) {
        // What the association loads into the report (HGGC_API's link
        // columns, HGTX_EVENTS) is given back after, unless it was held
        // before: the rows stay, not the tables they were made from.
        const uint32_t apiBefore = report.loadedHggcApiColumns();
        const bool hgtxBefore = report.hgtxLoaded();
        RangeSelection ranges;
        ranges.releaseEvents = !hgtxBefore;
        const HgtxAssociation a = associateHgtx(report, activities, ranges);
        for (size_t k = 0; k < activities.size(); ++k)
          if (activities.kind[k] == ActivityKind::Kernel)
            if (const size_t p = at(activities.row[k]); p < kernels.size()) rangeOf[p] = innermostRange(a, k);
        if (const uint32_t loaded = report.loadedHggcApiColumns() & ~apiBefore) report.releaseHggcApiColumns(loaded);
      }
    }
    // Each asked track's rows: one a range name, its kernels in the
    // stream's (start) order, drawn with their own names.
    std::vector<std::vector<uint32_t>> nameOf(which.size());
    std::map<uint32_t, size_t> slot;  // build index -> index into which/nameOf
    for (size_t w = 0; w < which.size(); ++w) {
      slot[which[w]] = w;
      nameOf[w].assign(tracks_[build[which[w]]].size(), kOutside);
    }
    for (size_t p = 0; p < kernels.size(); ++p) nameOf[slot[kernels[p].track]][kernels[p].event] = rangeOf[p];
    std::vector<AskedKernel>().swap(kernels);
    std::vector<uint32_t>().swap(rangeOf);
    for (size_t w = 0; w < which.size(); ++w) {
      const size_t track = build[which[w]];
      std::map<uint32_t, TimelineEventVectors> perRange;
      {
        const TimelineTrack& stream = tracks_[track];
        for (size_t i = 0; i < stream.size(); ++i) {
          const TimelineKind k = stream.kind[i];
          if (!isKernel(k)) continue;
          perRange[nameOf[w][i]].append(stream, i);
        }
      }
      // Past `maxRows` names (ranges named per call: PyTorch's `aten::mm,
      // op_id = 1529997, ...` are one name a range) the busiest keep their
      // rows and the rest are one row, so that a stream has at most
      // maxRows + 2 rows, not one a call.
      auto labelOf = [&](uint32_t name) {
        std::string l = name == kOutside ? std::string("(no HGTX range)") : std::string(report.strings().get(name));
        return l.empty() ? std::string("(unnamed)") : l;  // a range without a name, as a kernel's row by base name
      };
      std::map<uint32_t, bool> merged;
      if (perRange.size() - perRange.count(kOutside) > maxRows) {
        std::vector<std::tuple<int64_t, std::string, uint32_t>> ranked;  // (-busy, label, name)
        for (const auto& [name, v] : perRange)
          if (name != kOutside) ranked.emplace_back(-unionLength(v), labelOf(name), name);
        std::sort(ranked.begin(), ranked.end());
        for (size_t k = maxRows; k < ranked.size(); ++k) merged[std::get<2>(ranked[k])] = true;
      }
      TimelineEventVectors other;
      if (!merged.empty()) {
        const TimelineTrack& stream = tracks_[track];
        for (size_t i = 0; i < stream.size(); ++i) {
          if (!isKernel(stream.kind[i]) || !merged.count(nameOf[w][i])) continue;
          other.append(stream, i);
        }
        for (const auto& [name, yes] : merged) perRange.erase(name);
      }
      std::vector<uint32_t>().swap(nameOf[w]);
      std::vector<TimelineTrack> made;
      auto make = [&](TimelineEventVectors&& v, std::string label) {
        made.push_back(kernelRowOf(track, std::move(v), std::move(label)));
        made.back().grouping = TimelineTrack::Grouping::HgtxRange;
      };
      for (auto& [name, v] : perRange) {
        make(std::move(v), labelOf(name));
        made.back().outsideRanges = name == kOutside;
      }
      if (!merged.empty()) {
        make(std::move(other), "(" + std::to_string(merged.size()) + " other HGTX ranges)");
        made.back().otherRanges = static_cast<uint32_t>(merged.size());
      }
      // The busiest first (ties: by label), as the rows by base name; the
      // other ranges' row last.
      std::vector<size_t> order(made.size());
      std::iota(order.begin(), order.end(), 0);
      std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        if ((made[a].otherRanges > 0) != (made[b].otherRanges > 0)) return made[b].otherRanges > 0;
        return made[a].busy != made[b].busy ? made[a].busy > made[b].busy : made[a].label < made[b].label;
      });
      std::vector<size_t>& ids = rangeGroups_[track];
      for (size_t k : order) {
        ids.push_back(tracks_.size());
        tracks_.push_back(std::move(made[k]));
      }
    }
  }
  std::vector<size_t> ids;
  for (size_t track : asked) {
    const std::vector<size_t>& mine = rangeGroups_[track];
    ids.insert(ids.end(), mine.begin(), mine.end());
  }
  return ids;
}

}  // namespace asys
