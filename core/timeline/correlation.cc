#include "core/timeline/correlation.h"

#include <algorithm>
#include <tuple>

#include "core/analysis/hgtx_ranges.h"
#include "core/base/stage_timer.h"

namespace asys {

namespace {

// The activity tables, by the kind of event: HGGC_KERNEL, HGGC_MEMCPY, HGGC_MEMSET.
int activityIndex(TimelineKind k) {
  switch (k) {
    case TimelineKind::Kernel:
    case TimelineKind::PcclKernel: return 0;  // a PCCL kernel has its own row, but is a kernel
    case TimelineKind::Memcpy: return 1;
    case TimelineKind::Memset: return 2;
    default: return -1;
  }
}

bool isCall(TimelineKind k) { return k == TimelineKind::Api || k == TimelineKind::ApiError; }

}  // namespace

TimelineLinks TimelineLinks::build(Report& report, const Timeline& timeline) {
  StageTimer timer("timeline: API/activity links");
  TimelineLinks out;
  if (!report.hasData("HGGC_API")) return out;
  const ApiCalls& api = report.hggcApi(acol::globalTid | acol::correlationId);
  // The rules' join (hggc_kern_exec_trace, the HGTX association): each
  // activity's launching call by (process, correlation id).
  if (report.hasData("HGGC_KERNEL")) {
    const Kernels& k = report.kernels(kcol::launcher);
    out.callOf_[0] = launchingCalls(k.globalPid, k.correlationId, api);
  }
  if (report.hasData("HGGC_MEMCPY")) {
    const MemoryOps& m = report.memcpys();
    out.callOf_[1] = launchingCalls(m.globalPid, m.correlationId, api);
  }
  if (report.hasData("HGGC_MEMSET")) {
    const MemoryOps& m = report.memsets();
    out.callOf_[2] = launchingCalls(m.globalPid, m.correlationId, api);
  }
  // The join is done: its columns go back before the call arrays are made
  // (on a 10 M-kernel report they are ~380 MB of the WebAssembly heap; a
  // rule that needs them reads them again).
  const size_t calls = api.size();
  report.releaseHggcApiColumns(acol::globalTid | acol::correlationId);
  report.releaseKernelColumns(kcol::launcher);
  report.releaseMemoryOps();

  // Where each call is, and how many activities each launched (then their
  // places, in a second pass: one array for all, no list per call).
  out.callAt_.assign(calls, TimelineEventRef{kNoTimelineRow, 0});
  out.launchedAt_.assign(calls + 1, 0);
  const auto& tracks = timeline.tracks();
  auto callOfEvent = [&](const TimelineTrack& t, size_t i) -> uint32_t {
    const int a = activityIndex(t.kind[i]);
    if (a < 0 || t.row[i] >= out.callOf_[a].size()) return kNoRange;
    return out.callOf_[a][t.row[i]];
  };
  for (uint32_t tr = 0; tr < tracks.size(); ++tr) {
    const TimelineTrack& t = tracks[tr];
    if (t.row.empty() || t.derived() || t.repeats()) continue;  // a base-name row's kernels are its stream's, listed there
    for (uint32_t i = 0; i < t.size(); ++i) {
      if (isCall(t.kind[i])) {
        if (t.row[i] < calls) out.callAt_[t.row[i]] = {tr, i};
      } else if (const uint32_t c = callOfEvent(t, i); c != kNoRange) {
        ++out.launchedAt_[c + 1];
      }
    }
  }
  for (size_t c = 0; c < calls; ++c) out.launchedAt_[c + 1] += out.launchedAt_[c];
  out.launched_.resize(out.launchedAt_.back());
  std::vector<uint32_t> fill(out.launchedAt_.begin(), out.launchedAt_.end() - 1);
  for (uint32_t tr = 0; tr < tracks.size(); ++tr) {
    const TimelineTrack& t = tracks[tr];
    if (t.row.empty() || t.derived() || t.repeats()) continue;  // a base-name row's kernels are its stream's, listed there
    for (uint32_t i = 0; i < t.size(); ++i)
      if (const uint32_t c = isCall(t.kind[i]) ? kNoRange : callOfEvent(t, i); c != kNoRange)
        out.launched_[fill[c]++] = {tr, i};
  }
  // Each call's activities in start order (a graph launch starts many).
  for (size_t c = 0; c < calls; ++c) {
    if (out.launchedAt_[c + 1] - out.launchedAt_[c] < 2) continue;
    std::sort(out.launched_.begin() + out.launchedAt_[c], out.launched_.begin() + out.launchedAt_[c + 1],
              [&](const TimelineEventRef& a, const TimelineEventRef& b) {
                return std::make_tuple(tracks[a.track].start[a.event], a.track, a.event) <
                       std::make_tuple(tracks[b.track].start[b.event], b.track, b.event);
              });
  }
  return out;
}

std::vector<TimelineEventRef> TimelineLinks::related(const Timeline& timeline, TimelineEventRef e) const {
  const auto& tracks = timeline.tracks();
  if (e.track >= tracks.size()) return {};
  const TimelineTrack& t = tracks[e.track];
  // A graph row's launch: its launching call, the call of its first
  // activity on the stream (every activity of a launch has its correlation id).
  if (t.graphRow()) {
    if (!t.launches || e.event >= t.launches->first.size()) return {};
    return related(timeline, {t.graphOf, t.launches->first[e.event]});
  }
  if (e.event >= t.row.size()) return {};
  const uint32_t row = t.row[e.event];
  if (isCall(t.kind[e.event])) {
    if (row >= callAt_.size()) return {};
    return {launched_.begin() + launchedAt_[row], launched_.begin() + launchedAt_[row + 1]};
  }
  const int a = activityIndex(t.kind[e.event]);
  if (a < 0 || row >= callOf_[a].size()) return {};
  const uint32_t c = callOf_[a][row];
  if (c == kNoRange || callAt_[c].track == kNoTimelineRow) return {};
  return {callAt_[c]};
}

}  // namespace asys
