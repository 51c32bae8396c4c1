#include "core/analysis/ppu_activities.h"

#include <algorithm>
#include <numeric>
#include <tuple>

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

PpuActivities loadPpuActivities(Report& report, const ActivitySelection& sel) {
  uint32_t columns = kActivityColumns | sel.kernelColumns;
  if (sel.links) columns |= kActivityLinkColumns;
  // By ActivityKind: kernels, memcpys, memsets (none without `memory`).
  std::vector<Source> sources = {sourceOf(report.kernels(columns))};
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
    const bool filtered = kind == static_cast<size_t>(ActivityKind::Kernel) && sel.keepKernel;
    for (size_t i = 0; i < src.start->size(); ++i) {
      const int64_t start = (*src.start)[i], end = (*src.end)[i];
      if (end == kNoValue || !inDevices(sel.devices, (*src.deviceId)[i]) || !sel.window.overlaps(start, end)) continue;
      if (filtered && !sel.keepKernel(static_cast<uint32_t>(i))) continue;
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
  if (sel.links) {
    a.correlationId.resize(n);
    a.graphNodeId.resize(n);
  }
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
      a.graphNodeId[i] = (*src.graphNodeId)[p.row];
    }
  }
  return a;
}

}  // namespace asys
