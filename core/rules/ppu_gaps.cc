// ppu_gaps (asys analyze, the full manual's expert rules): idle gaps of each
// process's PPU work on each device.
#include <algorithm>
#include <numeric>
#include <tuple>

#include "core/analysis/ppu_busy.h"
#include "core/report/report.h"
#include "core/rules/common.h"
#include "core/rules/registry.h"

namespace asys {

namespace {

std::vector<ColumnSpec> columns() {
  return {
      {"Duration", "ns", CellKind::Int, "Duration of the gap"},
      {"Start", "ns", CellKind::Int, "Start timestamp of the gap"},
      {"PID", "", CellKind::Int, "Process ID whose PPU work has the gap"},
      {"Device ID", "", CellKind::Int, "PPU device ID"},
  };
}

OptionSpec gapOption() {
  OptionSpec o{.name = "gap", .kind = OptionKind::Int, .placeholder = "<ms>", .label = "Minimum gap (ms)",
               .labelZh = "最小空闲间隙 (ms)",
               .help = "Only gaps strictly longer than this many milliseconds. Default is 500.",
               .helpZh = "仅输出时长严格大于此毫秒数的空闲间隙。默认为500。"};
  o.defaultValue = "500";
  o.defaultLabel = "500";
  o.minValue = 0;
  return o;
}

// One group a gap: keys PID, Device ID and Start (a process's gaps on a
// device start apart), its Duration the one sum. Across reports the groups
// only join: every report's processes and devices are its own.
GroupedDurations groupedDurations(RuleContext& ctx) {
  ActivitySelection sel;
  sel.window = ctx.window;
  const int64_t minGap = *ctx.options.intValue("gap") * 1000000;

  // One group per (process, device).
  const GroupedBusy b = groupedBusy(ctx.report, sel, [](const auto& t, size_t i) {
    return (static_cast<uint64_t>(pidOf(t.globalPid[i])) << 32) | static_cast<uint32_t>(t.deviceId[i]);
  });
  const KeyGroups& groups = b.groups;
  const SpanGroups& busy = b.busy;
  GroupedDurations out;
  out.ids = {{IdKind::kPid, {}}, {IdKind::kDevice, {}}, {IdKind::kTime, {}}};
  out.sums.resize(1);
  for (size_t g = 0; g < groups.size(); ++g) {
    const int64_t pid = static_cast<int64_t>(groups.key(g) >> 32);
    const int32_t device = static_cast<int32_t>(static_cast<uint32_t>(groups.key(g)));
    for (const Span& s : gapsBetween(busy.group(g))) {
      if (s.length() <= minGap) continue;
      out.ids[0].values.push_back(pid);
      out.ids[1].values.push_back(device);
      out.ids[2].values.push_back(s.start);
      out.sums[0].push_back(s.length());
    }
  }
  out.groupCount = out.sums[0].size();
  return out;
}

Table groupsTable(const MergedGroups& g, const RuleOptions&) {
  const std::vector<int64_t>&pid = g.ids[0].values, &device = g.ids[1].values, &start = g.ids[2].values,
                         &duration = g.sums[0];
  std::vector<uint32_t> order(g.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return std::make_tuple(-duration[a], start[a], pid[a], device[a]) <
           std::make_tuple(-duration[b], start[b], pid[b], device[b]);
  });
  Table t(columns());
  t.declareSpans({"Gap"});
  for (uint32_t i : order) {
    t.setInt(0, duration[i]);
    t.setInt(1, start[i]);
    t.setInt(2, pid[i]);
    t.setInt(3, device[i]);
    t.setSpan(0, start[i], start[i] + duration[i]);
    t.endRow();
  }
  return t;
}

}  // namespace

const RuleSpec& ppuGapsRule() {
  static const RuleSpec rule{
      .name = "ppu_gaps",
      .title = "PPU Gaps",
      .titleZh = "PPU空闲间隙",
      .rowHelp = "Row number of the PPU gap",
      .topic = "Expert rules",
      .description =
          "Idle gaps of the PPUs: per process and device, the union of its PPU activities\n"
          "(kernels, memcpys, memsets), and the gaps between its blocks, from the first\n"
          "activity to the last, strictly longer than gap milliseconds. Sorted by Duration\n"
          "descending, then Start.",
      .descriptionZh =
          "统计PPU的空闲间隙：对每进程、每PPU设备，合并其PPU活动（HGGC Kernel / memcpy / memset）的执行时间，从第一个PPU活动开始到最后一个PPU活动结束，输出PPU活动之间时长严格大于gap毫秒的空闲间隙。\n"
          "结果按照Duration降序排列，Duration相同时按照Start升序排列。",
      .options = {rowsOption("gaps", 50), gapOption()},
      .columns = columns(),
      .needs = {ppuActivityNeed()},
      .pie = {"Duration", {"PID", "Device ID"}},
      .compute = [](RuleContext& ctx) { return groupsRuleTable(ppuGapsRule(), ctx); },
      .groupedDurations = groupedDurations,
      .groupsTable = groupsTable,
      .command = RuleCommand::Analyze,
      .memoryPerRow = 24,  // 20 bytes an activity (core/analysis/ppu_busy.h)
  };
  return rule;
}

}  // namespace asys
