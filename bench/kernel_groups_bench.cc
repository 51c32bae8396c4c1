// What "Show kernels grouped by" costs natively (bench/README.md): builds the
// timeline of one report, then the rows of every stream (and PCCL kernels
// row) of every PPU grouped by MODE: `none` (the timeline alone: the
// baseline), `base` (Timeline::kernelGroups, by base name) or `range`
// (Timeline::kernelRangeGroups, by innermost HGTX range, one call with every
// stream as the viewer asks for the rows in view). One mode a process, so
// that /usr/bin/time's peak is that mode's.
// Prints one JSON line: the build's CPU ms, the grouping's CPU ms, the rows
// made, the heap in use after the build and after the grouping (glibc's
// mallinfo2) and the peak resident memory after each.
// Usage: asys_kernel_groups_bench REPORT none|base|range [MAX_ACTIVITIES]
#include <malloc.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <string>
#include <vector>

#include "core/timeline/timeline.h"

namespace {

double peakMiB() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::stod(line.substr(6)) / 1024;
  return 0;
}

double heapMiB() { return static_cast<double>(mallinfo2().uordblks) / (1 << 20); }

double cpuMs() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: asys_kernel_groups_bench REPORT none|base|range [MAX_ACTIVITIES]\n");
    return 2;
  }
  const std::string mode = argv[2];
  asys::TimelineOptions options;
  if (argc > 3) options.projectionMaxActivities = std::strtoull(argv[3], nullptr, 10);
  auto report = asys::Report::open(argv[1]);
  const double c0 = cpuMs();
  asys::Timeline t = asys::Timeline::build(*report, options);
  const double buildMs = cpuMs() - c0;
  const double heapBuilt = heapMiB(), peakBuilt = peakMiB();
  std::vector<size_t> streams;
  size_t kernels = 0;
  for (size_t i = 0; i < t.tracks().size(); ++i)
    if (asys::isPpuWork(t.tracks()[i])) {
      streams.push_back(i);
      kernels += t.tracks()[i].size();
    }
  const size_t before = t.tracks().size();
  const double c1 = cpuMs();
  if (mode == "base") {
    for (size_t s : streams) t.kernelGroups(*report, s, SIZE_MAX);
  } else if (mode == "range") {
    t.kernelRangeGroups(*report, streams, SIZE_MAX);
  }
  const double groupMs = cpuMs() - c1;
  std::printf(
      "{\"mode\": \"%s\", \"streams\": %zu, \"events\": %zu, \"build_cpu_ms\": %.0f, \"group_cpu_ms\": %.0f, "
      "\"rows\": %zu, \"heap_built_mib\": %.1f, \"peak_built_mib\": %.1f, \"heap_after_mib\": %.1f, "
      "\"peak_after_mib\": %.1f, \"ppu_activities\": %zu}\n",
      mode.c_str(), streams.size(), kernels, buildMs, groupMs, t.tracks().size() - before, heapBuilt, peakBuilt,
      heapMiB(), peakMiB(), t.ppuActivities());
  return 0;
}
