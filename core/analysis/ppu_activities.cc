#include "core/analysis/ppu_activities.h"

#include <algorithm>
#include <numeric>
#include <tuple>

namespace asys {

namespace {
bool inDevices(const std::optional<std::vector<int64_t>>& devices, int32_t id) {
  return !devices || std::find(devices->begin(), devices->end(), id) != devices->end();
}
}  // namespace

PpuActivities loadPpuActivities(Report& report, const ActivitySelection& sel) {
  uint32_t columns = kcol::time | kcol::deviceId | kcol::globalPid | sel.kernelColumns;
  if (sel.links) columns |= kcol::correlationId | kcol::graphNodeId;
  const Kernels& k = report.kernels(columns);
  const MemoryOps* memory[2] = {nullptr, nullptr};
  if (sel.memory) {
    memory[0] = &report.memcpys();
    memory[1] = &report.memsets();
  }

  // Pick the rows first, then fill the columns in start order.
  struct Pick {
    int64_t start;
    ActivityKind kind;
    uint32_t row;
  };
  std::vector<Pick> picks;
  picks.reserve(k.size() + (memory[0] ? memory[0]->size() + memory[1]->size() : 0));
  auto take = [&](const std::vector<int64_t>& start, const std::vector<int64_t>& end,
                  const std::vector<int32_t>& device, ActivityKind kind) {
    const bool filtered = kind == ActivityKind::Kernel && sel.keepKernel;
    for (size_t i = 0; i < start.size(); ++i) {
      if (end[i] == kNoValue || !inDevices(sel.devices, device[i]) || !sel.window.overlaps(start[i], end[i])) continue;
      if (filtered && !sel.keepKernel(static_cast<uint32_t>(i))) continue;
      picks.push_back({start[i], kind, static_cast<uint32_t>(i)});
    }
  };
  take(k.start, k.end, k.deviceId, ActivityKind::Kernel);
  if (memory[0]) {
    take(memory[0]->start, memory[0]->end, memory[0]->deviceId, ActivityKind::Memcpy);
    take(memory[1]->start, memory[1]->end, memory[1]->deviceId, ActivityKind::Memset);
  }
  // Mostly sorted already (tables are written in time order per stream).
  std::sort(picks.begin(), picks.end(), [](const Pick& a, const Pick& b) {
    return std::tie(a.start, a.kind, a.row) < std::tie(b.start, b.kind, b.row);
  });

  PpuActivities a;
  const size_t n = picks.size();
  a.start.resize(n);
  a.end.resize(n);
  a.globalPid.resize(n);
  a.deviceId.resize(n);
  a.kind.resize(n);
  a.row.resize(n);
  if (sel.links) {
    a.correlationId.resize(n);
    a.graphNodeId.resize(n);
  }
  for (size_t i = 0; i < n; ++i) {
    const Pick& p = picks[i];
    a.kind[i] = p.kind;
    a.row[i] = p.row;
    if (p.kind == ActivityKind::Kernel) {
      a.start[i] = k.start[p.row];
      a.end[i] = k.end[p.row];
      a.globalPid[i] = k.globalPid[p.row];
      a.deviceId[i] = k.deviceId[p.row];
      if (sel.links) {
        a.correlationId[i] = k.correlationId[p.row];
        a.graphNodeId[i] = k.graphNodeId[p.row];
      }
    } else {
      const MemoryOps& m = *memory[p.kind == ActivityKind::Memcpy ? 0 : 1];
      a.start[i] = m.start[p.row];
      a.end[i] = m.end[p.row];
      a.globalPid[i] = m.globalPid[p.row];
      a.deviceId[i] = m.deviceId[p.row];
      if (sel.links) {
        a.correlationId[i] = m.correlationId[p.row];
        a.graphNodeId[i] = m.graphNodeId[p.row];
      }
    }
  }
  return a;
}

}  // namespace asys
