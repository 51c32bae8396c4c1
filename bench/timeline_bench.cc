// The timeline's engine cost natively (bench/README.md, "Timeline"): builds
// the tracks of one report, then times window queries over all tracks at
// 1200 px, from the whole capture down to 1/10,000 of it, as
// bench/timeline-run.mjs does in WebAssembly, and also the event tracks and
// the counter tracks apart (which of them a slow window comes from); and a
// drag selection's statistics (core/timeline/selection_stats.h) over the
// same windows, with the rows of its grouped table.
// Prints one JSON line: build time, tracks, events, counter points, the
// bytes the event tracks, their levels and the counters hold (MiB), the heap
// in use after the build (glibc's mallinfo2: what the timeline and the
// report's loaded columns hold) and the process's peak resident memory.
// Usage: asys_timeline_bench REPORT [REPEAT]
#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "core/timeline/occupancy.h"
#include "core/timeline/selection_stats.h"
#include "core/timeline/timeline.h"

namespace {

double nowMs() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// VmHWM of /proc/self/status in MiB: the peak resident memory so far.
double peakMiB() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::stod(line.substr(6)) / 1024;
  return 0;
}

double heapMiB() { return static_cast<double>(mallinfo2().uordblks) / (1 << 20); }

// This thread's CPU time, ms: on a machine shared with other builds the
// wall time of a short computation is mostly waiting for a core.
double cpuMs() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: asys_timeline_bench REPORT [REPEAT]\n");
    return 2;
  }
  const int repeat = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
  auto report = asys::Report::open(argv[1]);
  const double t0 = nowMs();
  asys::Timeline t = asys::Timeline::build(*report);
  const double buildMs = nowMs() - t0;
  const double heap = heapMiB(), peak = peakMiB();
  size_t events = 0, points = 0, eventBytes = 0, levelBytes = 0, counterBytes = 0;
  std::vector<size_t> all, eventTracks, counterTracks;
  for (size_t i = 0; i < t.tracks().size(); ++i) {
    const asys::TimelineTrack& tr = t.tracks()[i];
    all.push_back(i);
    if (tr.counter) {
      points += tr.counter->size();
      counterBytes += tr.counter->bytes();
      counterTracks.push_back(i);
    } else {
      events += tr.size();
      eventBytes += tr.eventBytes();
      levelBytes += tr.levelBytes();
      eventTracks.push_back(i);
    }
  }
  const int64_t span = t.last() - t.first();
  // Best of `repeat` of one window over `ids`, in ms.
  auto best = [&](const std::vector<size_t>& ids, int64_t from, int64_t to) {
    double b = 1e300;
    for (int k = 0; k < repeat; ++k) {
      const double s = nowMs();
      size_t n = 0;
      for (size_t id : ids) n += t.tracks()[id].counter ? t.counterWindow(id, from, to, 1200).size()
                                                         : t.window(id, from, to, 1200).size();
      b = std::min(b, nowMs() - s);
      if (n == SIZE_MAX) std::puts("");  // keeps the work
    }
    return b;
  };
  std::string windows;
  for (int64_t part : {1, 10, 100, 1000, 10000}) {
    const int64_t from = t.first() + (span - span / part) / 2, to = from + span / part;
    char buf[160];
    std::snprintf(buf, sizeof buf, "%s\"1/%lld\": [%.2f, %.2f, %.2f]", windows.empty() ? "" : ", ",
                  static_cast<long long>(part), best(all, from, to), best(eventTracks, from, to),
                  best(counterTracks, from, to));
    windows += buf;
  }
  // A selection's statistics: best of `repeat`, wall and CPU ms, and the grouped rows.
  std::string selections;
  for (int64_t part : {1, 10, 100, 1000, 10000}) {
    const int64_t from = t.first() + (span - span / part) / 2, to = from + std::max<int64_t>(1, span / part);
    double b = 1e300, cpu = 1e300;
    size_t rows = 0;
    for (int k = 0; k < repeat; ++k) {
      const double s = nowMs(), c = cpuMs();
      rows = asys::windowStats(t, report->strings(), from, to).events.rowCount();
      b = std::min(b, nowMs() - s);
      cpu = std::min(cpu, cpuMs() - c);
    }
    char buf[160];
    std::snprintf(buf, sizeof buf, "%s\"1/%lld\": [%.2f, %.2f, %zu]", selections.empty() ? "" : ", ",
                  static_cast<long long>(part), b, cpu, rows);
    selections += buf;
  }
  // Occupancy histograms: the event tracks a whole-capture window draws as
  // bars, and the checkpoints they made (core/timeline/occupancy.h).
  size_t histograms = 0;
  for (size_t id : eventTracks) histograms += t.window(id, t.first(), t.last(), 1200).occupancy.empty() ? 0 : 1;
  const double checkpointMiB = static_cast<double>(t.occupancyBytes()) / (1 << 20);
  // The device rows (core/timeline/device_row.cc): made once (CPU ms), the
  // heap they add, and a whole-capture window of all of them (best CPU ms).
  const double heapBefore = heapMiB(), c0 = cpuMs();
  const std::vector<size_t> deviceRows = t.deviceRows(*report);
  const double deviceRowsCpu = cpuMs() - c0, deviceRowsHeap = heapMiB() - heapBefore;
  double deviceWindowCpu = 1e300;
  size_t deviceSlices = 0;
  for (int k = 0; k < repeat; ++k) {
    const double c = cpuMs();
    deviceSlices = 0;
    for (size_t id : deviceRows) deviceSlices += t.window(id, t.first(), t.last(), 1200).size();
    deviceWindowCpu = std::min(deviceWindowCpu, cpuMs() - c);
  }
  // The merged rows ([All Streams], the device rows) as histograms
  // (occupancy.h): their checkpoints made once (CPU ms, MiB), and a
  // whole-capture window of all of them (best CPU ms) and how many are bars.
  std::vector<size_t> mergedRows;
  for (size_t i = 0; i < t.tracks().size(); ++i)
    if (t.tracks()[i].merged()) mergedRows.push_back(i);
  const double c1 = cpuMs();
  size_t mergedCheckpointBytes = 0;
  for (size_t id : mergedRows) {
    std::vector<const asys::TimelineTrack*> sources;
    for (uint32_t k : t.tracks()[id].sources) sources.push_back(&t.tracks()[k]);
    mergedCheckpointBytes += asys::mergedCheckpointsOf(sources, t.tracks()[id].deviceRow ? 2 : 1).bytes();
  }
  const double mergedCheckpointsCpu = cpuMs() - c1;
  double mergedWindowCpu = 1e300;
  size_t mergedHistograms = 0;
  for (int k = 0; k < repeat; ++k) {
    const double c = cpuMs();
    mergedHistograms = 0;
    for (size_t id : mergedRows) mergedHistograms += t.window(id, t.first(), t.last(), 1200).occupancy.empty() ? 0 : 1;
    mergedWindowCpu = std::min(mergedWindowCpu, cpuMs() - c);
  }
  std::fprintf(stderr,
      "{\"mergedRows\": %zu, \"mergedHistograms\": %zu, \"mergedCheckpointsCpuMs\": %.1f, \"mergedCheckpointMiB\": %.3f, "
      "\"mergedWindowCpuMs\": %.2f}\n",
      mergedRows.size(), mergedHistograms, mergedCheckpointsCpu, static_cast<double>(mergedCheckpointBytes) / (1 << 20),
      mergedWindowCpu);
  std::fprintf(stderr,
      "{\"histogramTracks\": %zu, \"checkpointMiB\": %.2f, \"deviceRows\": %zu, \"deviceRowsCpuMs\": %.1f, "
      "\"deviceRowsHeapMiB\": %.2f, \"deviceWindowCpuMs\": %.2f, \"deviceSlices\": %zu}\n",
      histograms, checkpointMiB, deviceRows.size(), deviceRowsCpu, deviceRowsHeap, deviceWindowCpu, deviceSlices);
  // The graph rows (core/timeline/graph_rows.cc): made once (CPU ms), the
  // heap they add, the peak while making them, the bytes their launches keep.
  // The peak from here on: VmHWM reset to the resident memory now (writing
  // 5 to /proc/self/clear_refs), so the peak after is the graph rows' own.
  const double graphPeakBefore = peakMiB();
  { std::ofstream("/proc/self/clear_refs") << "5"; }
  const double graphRssBefore = peakMiB(), graphHeapBefore = heapMiB(), g0 = cpuMs();
  const std::vector<size_t> graphRows = t.graphRows(*report);
  const double graphRowsCpu = cpuMs() - g0, graphRowsHeap = heapMiB() - graphHeapBefore;
  size_t launches = 0, launchBytes = 0;
  for (size_t id : graphRows) {
    const asys::TimelineTrack& g = t.tracks()[id];
    launches += g.size();
    launchBytes += g.eventBytes() + g.levelBytes() + (g.launches ? g.launches->bytes() : 0);
  }
  std::fprintf(stderr,
      "{\"graphRows\": %zu, \"launches\": %zu, \"launchKiB\": %.1f, \"graphRowsCpuMs\": %.1f, \"graphRowsHeapMiB\": %.2f, "
      "\"peakBeforeGraphRowsMiB\": %.0f, \"residentBeforeGraphRowsMiB\": %.1f, \"peakWhileGraphRowsMiB\": %.1f}\n",
      graphRows.size(), launches, static_cast<double>(launchBytes) / 1024, graphRowsCpu, graphRowsHeap, graphPeakBefore,
      graphRssBefore, peakMiB());
  std::printf(
      "{\"tracks\": %zu, \"counters\": %zu, \"events\": %zu, \"counterPoints\": %zu, \"buildMs\": %.0f, "
      "\"heapMiB\": %.0f, \"peakMiB\": %.0f, \"eventMiB\": %.1f, \"levelMiB\": %.1f, \"counterMiB\": %.1f, \"windowMs (all, events, counters)\": {%s}, "
      "\"selectionMs (wall, cpu, rows)\": {%s}, \"peakAfterMiB\": %.0f}\n",
      t.tracks().size(), counterTracks.size(), events, points, buildMs, heap, peak,
      static_cast<double>(eventBytes) / (1 << 20), static_cast<double>(levelBytes) / (1 << 20),
      static_cast<double>(counterBytes) / (1 << 20), windows.c_str(), selections.c_str(),
      peakMiB());
  return 0;
}
