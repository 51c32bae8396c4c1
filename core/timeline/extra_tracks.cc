// The timeline's tracks besides streams, HGGC API and HGTX push/pop:
// OS runtime calls per thread, PCCL stages per PPU and channel, the HGTX
// projection per PPU, and the counters (memory in use, PPU metrics).
#include <set>
#include <string_view>

#include "core/analysis/hgtx_association.h"
#include "core/analysis/hgtx_projection.h"
#include "core/analysis/ppu_activities.h"
#include "core/base/stage_timer.h"
#include "core/timeline/pending.h"

namespace asys::timeline_detail {

void addOsrtTracks(Report& report, PendingTracks& out) {
  if (!report.hasData("OSRT_API")) return;
  const ApiCalls& o = report.osrtApi();
  collect(out, [&](bool fill) {
    for (size_t i = 0; i < o.size(); ++i)
      threadTrack(report, out, o.globalTid[i], kOsrt, " OSRT").take(fill, o.start[i], o.end[i], o.nameId[i], TimelineKind::Osrt);
  });
  report.releaseOsrtApi();
}

void addPcclStageTracks(Report& report, PendingTracks& out) {
  if (!report.hasData("PCCL_STAGE_EVENTS")) return;
  const PcclStages& p = report.pcclStages();
  StringPool& strings = report.strings();
  collect(out, [&](bool fill) {
    for (size_t i = 0; i < p.size(); ++i) {
      if (p.deviceId[i] < 0) continue;  // a stage of no PPU
      const std::string_view type = p.channelTypeId[i] == kNoString ? "" : strings.get(p.channelTypeId[i]);
      // TX above RX on each channel, any other direction after them.
      const int64_t order = type == "TX" ? 0 : type == "RX" ? 1 : 2 + int64_t{p.channelTypeId[i]};
      const int64_t channel = p.channelId[i];
      auto label = [&] {
        std::string l = "PCCL ";
        l += channel == kNoValue ? std::string("(no channel)") : "ch " + std::to_string(channel);
        if (!type.empty()) l.append(" ").append(type);
        return l;
      };
      deviceTrack(report, out, p.deviceId[i], kPcclStages, channel, order, label)
          .take(fill, p.start[i], p.end[i], p.nameId[i], TimelineKind::PcclStage);
    }
  });
  report.releasePcclStages();
}

// Per PPU, the ranges hgtx_ppu_proj_trace:device=N lists, each drawn from its
// Projected Start over its Projected Duration: the same association
// (kernels, memcpys and memsets of that PPU; graph mapping on; every range)
// and the same projection helper. One PPU at a time, so only one PPU's
// activities with their links are held at once.
std::string addProjectionTracks(Report& report, PendingTracks& out, size_t maxActivities, size_t& activitiesOut) {
  if (!report.hasData("HGTX_EVENTS") || !report.hasData("HGGC_API")) return "";
  auto refusal = [&](size_t activities) {
    return "No HGTX projection rows: " + std::to_string(activities) + " PPU activities are more than the " +
           std::to_string(maxActivities) + " whose association fits in memory beside the timeline; " +
           "hgtx_ppu_proj_trace lists the same projections";
  };
  std::set<int64_t> devices;
  size_t activities = 0;
  for (const char* table : {"HGGC_MEMCPY", "HGGC_MEMSET"}) {
    if (!report.hasData(table)) continue;
    const MemoryOps& m = std::string_view(table) == "HGGC_MEMCPY" ? report.memcpys() : report.memsets();
    activities += m.size();
    for (int32_t d : m.deviceId) devices.insert(d);
  }
  // Past the bound by the kernels' rows as the report says them
  // (Report::rowEstimate, max(rowid): the row count of a table written by
  // appending), refused without reading them: on a report that large the
  // scan counting them was one of the timeline's passes over the whole file
  // (in the browser, a read of it all through FileReaderSync).
  if (const size_t said = activities + report.rowEstimate("HGGC_KERNEL"); said > maxActivities) {
    activitiesOut = said;  // the bound of the kernels' rows by HGTX range too
    return refusal(said);
  }
  // The kernels' devices a chunk at a time: the column is not held through
  // the families built after this one.
  if (report.hasData("HGGC_KERNEL"))
    activities += report.forEachKernelChunk(kcol::deviceId, [&](const Kernels& k, size_t) {
      for (int32_t d : k.deviceId) devices.insert(d);
    });
  activitiesOut = activities;
  if (activities > maxActivities) return refusal(activities);
  for (int64_t device : devices) {
    ActivitySelection sel;
    sel.memory = true;
    sel.links = true;
    sel.devices = std::vector<int64_t>{device};
    const PpuActivities activities = loadPpuActivities(report, sel);
    if (activities.size() == 0) continue;
    const HgtxAssociation association = associateHgtx(report, activities, RangeSelection{});
    const RangeProjections proj = projectRanges(activities, association);
    for (size_t r = 0; r < association.ranges.size(); ++r) {
      if (proj.ops[r] == 0) continue;
      deviceTrack(report, out, device, kProjection, 0, 0, [] { return std::string("HGTX projection"); })
          .add(proj.start[r], proj.end[r], association.ranges.name[r], TimelineKind::Projection);
    }
  }
  return "";
}

void addCounterTracks(Report& report, PendingTracks& out) {
  for (auto& [device, counter] : memoryInUse(report)) {
    Pending& p = deviceTrack(report, out, device, kMemory, 0, 0, [] { return std::string("Memory in use"); });
    p.counter = std::move(counter);
  }
  std::vector<MetricCounter> metrics = metricCounters(report);
  report.releaseMetrics();  // the counters hold their points
  for (size_t k = 0; k < metrics.size(); ++k) {
    MetricCounter& m = metrics[k];
    Pending& p = deviceTrack(report, out, m.device, kMetrics, static_cast<int64_t>(k), 0,
                             [&] { return std::string(report.strings().get(m.name)); });
    p.counter = std::move(m.counter);
  }
}

}  // namespace asys::timeline_detail
