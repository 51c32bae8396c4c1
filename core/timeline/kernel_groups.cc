// A stream's kernels grouped by base name (Nsight Systems' "Show kernels
// grouped by"): one row a name under the stream, built when the viewer asks
// for a stream in view, not with the timeline.
#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <utility>

#include "core/analysis/kernel_names.h"
#include "core/base/error.h"
#include "core/timeline/busy.h"
#include "core/timeline/timeline.h"

namespace asys {

std::vector<size_t> Timeline::kernelGroups(Report& report, size_t track, size_t maxEvents) {
  if (track >= tracks_.size()) throw Error("timeline: no track " + std::to_string(track));
  if (auto it = kernelGroups_.find(track); it != kernelGroups_.end()) return it->second;
  const TimelineTrack& stream = tracks_[track];
  std::vector<size_t>& ids = kernelGroups_[track];
  if (!isPpuWork(stream) || stream.merged() || stream.derived() || stream.row.size() != stream.size()) return ids;
  // The stream's kernels (its memcpys and memsets are no kernel's group),
  // by table row: HGGC_KERNEL is read a chunk at a time, in row order.
  std::vector<std::pair<uint32_t, uint32_t>> byRow;  // (row, event)
  for (size_t i = 0; i < stream.size(); ++i) {
    const TimelineKind k = stream.kind[i];
    if (k == TimelineKind::Kernel || k == TimelineKind::PcclKernel) byRow.emplace_back(stream.row[i], static_cast<uint32_t>(i));
  }
  if (byRow.empty()) return ids;
  if (byRow.size() > maxEvents) {
    kernelGroups_.erase(track);
    throw Error("timeline: " + stream.group + " " + stream.label + " has " + std::to_string(byRow.size()) +
                " kernels, more than the " + std::to_string(maxEvents) +
                " whose rows by base name fit in memory beside the timeline");
  }
  std::sort(byRow.begin(), byRow.end());
  std::vector<uint32_t> baseOf(stream.size(), kNoString);
  {
    const Kernels none;
    KernelNamer namer(none, report.strings(), KernelNameMode::Base);
    size_t at = 0;
    report.forEachKernelChunk(kcol::names, [&](const Kernels& k, size_t first) {
      for (; at < byRow.size() && byRow[at].first < first + k.size(); ++at)
        if (byRow[at].first >= first) baseOf[byRow[at].second] = namer.nameId(k, byRow[at].first - first);
    });
  }
  // One row a base name, its events in the stream's (start) order.
  std::map<uint32_t, TimelineEventVectors> perName;
  for (const auto& [row, event] : byRow) (void)row, (void)perName[baseOf[event]];
  freeVector(byRow);
  for (size_t i = 0; i < stream.size(); ++i) {
    auto it = perName.find(baseOf[i]);
    const TimelineKind k = stream.kind[i];
    if (it == perName.end() || (k != TimelineKind::Kernel && k != TimelineKind::PcclKernel)) continue;
    it->second.append(stream, i);
  }
  freeVector(baseOf);
  std::vector<TimelineTrack> made;
  for (auto& [name, v] : perName)
    made.push_back(kernelRowOf(track, std::move(v),
                               name == kNoString ? std::string("(unnamed)") : std::string(report.strings().get(name))));
  // The busiest first (ties: by name), as Nsight lists a group's rows.
  std::vector<size_t> order(made.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return made[a].busy != made[b].busy ? made[a].busy > made[b].busy : made[a].label < made[b].label;
  });
  for (size_t k : order) {
    ids.push_back(tracks_.size());
    tracks_.push_back(std::move(made[k]));
  }
  return ids;
}

void TimelineEventVectors::append(const TimelineTrack& track, size_t i) {
  start.push_back(track.start[i]);
  end.push_back(track.end[i]);
  name.push_back(track.name[i]);
  kind.push_back(track.kind[i]);
  row.push_back(track.row[i]);
}

TimelineTrack Timeline::kernelRowOf(size_t stream, TimelineEventVectors&& v, std::string label) const {
  const TimelineTrack& of = tracks_[stream];
  TimelineTrack t;
  t.group = of.group;
  t.context = of.context;
  t.label = std::move(label);
  t.device = of.device;
  t.parent = static_cast<uint32_t>(stream);
  assignLanes(v.start, v.end, v.lane);
  t.setEvents(std::move(v));
  buildLevels(t);
  t.busy = busyOf({&t});
  t.share = of.busy > 0 ? static_cast<double>(t.busy) / of.busy : std::nan("");
  t.contextShare = std::nan("");
  return t;
}

}  // namespace asys
