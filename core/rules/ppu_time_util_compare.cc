// ppu_time_util_compare (PPU时间利用率比较): each device's time utilisation
// in two reports, matched by device index.
#include <algorithm>
#include <map>

#include "core/analysis/ppu_busy.h"
#include "core/analysis/stats.h"
#include "core/rules/compare.h"
#include "core/report/report.h"
#include "core/rules/common.h"
#include "core/rules/compare_options.h"
#include "core/rules/hgtx_association_options.h"
#include "core/rules/registry.h"

namespace asys {

namespace {

std::vector<ColumnSpec> sideColumns() {
  return {
      {"Device ID", "", CellKind::Int, "PPU device identifier", ColumnRole::Key},
      {"Device Name", "", CellKind::Text, "PPU Device name", ColumnRole::Attribute},
      {"In-Use", "%", CellKind::Decimal1, "Percentage of time the PPU is being used"},
      {"Duration", "ns", CellKind::Int, "Duration of the time range"},
      {"PPU Active Time", "ns", CellKind::Int, "PPU active time excluding overlapping"},
  };
}

// Per device: the union of its activities over the time range of
// range-mode (active: its first to last activity, inside the statistics
// range; full: the statistics range, else the capture).
Table deviceUtilisation(RuleContext& ctx) {
  ActivitySelection sel;
  sel.window = ctx.window;
  const bool full = ctx.options.value("range-mode") == "full";
  const GroupedBusy b = groupedBusy(ctx.report, sel, [](const auto& t, size_t i) {
    return static_cast<uint64_t>(static_cast<uint32_t>(t.deviceId[i]));
  });
  const Span all = b.all;
  const Span fullRange = statisticsRange(ctx.report, ctx.window, all);
  std::map<int64_t, std::string> names;
  for (const Device& d : ctx.report.devices()) names[d.id] = d.name;

  Table t(sideColumns());
  std::map<int32_t, uint32_t> byDevice;  // device id order: few devices
  for (uint32_t g = 0; g < b.groups.size(); ++g)
    byDevice.emplace(static_cast<int32_t>(static_cast<uint32_t>(b.groups.key(g))), g);
  for (const auto& [device, g] : byDevice) {
    Span range = fullRange;
    if (!full) {
      const Span& e = b.extent[g];
      range = {std::max(e.start, ctx.window.start), std::min(e.end, ctx.window.end)};
    }
    const int64_t busy = coveredLength(b.busy.group(g), range.start, range.end);
    t.setInt(0, device);
    auto name = names.find(device);
    if (name != names.end() && !name->second.empty()) t.setText(1, name->second);
    t.setDecimal(2, percent1(busy, range.length()));
    t.setInt(3, range.length());
    t.setInt(4, busy);
    t.endRow();
  }
  return t;
}

const CompareSpec& spec() {
  static const CompareSpec s{
      .side = deviceUtilisation,
      .sideColumns = sideColumns(),
      .shownKey = "Device ID",
      .shownLabel = "Device ID",
      .shownHelp = "PPU device identifier",
      .share = "In-Use",
      .values = {{.from = "In-Use"},
                 {.from = "Duration"},
                 {.from = "PPU Active Time", .ratio = "Active Time Ratio",
                  .ratioHelp = "Base PPU active time / target PPU active time"}},
  };
  return s;
}

}  // namespace

const RuleSpec& ppuTimeUtilCompareRule() {
  static const RuleSpec rule{
      .name = "ppu_time_util_compare",
      .title = "PPU Time Utilization Compare",
      .titleZh = "PPU时间利用率比较",
      .rowHelp = "Row number of the compare result",
      .topic = "Compare",
      .description = std::string(
                         "Each PPU's time utilisation in a base and a target report, matched by device\n"
                         "index: In-Use = PPU Active Time (the union of its kernels, memcpys and\n"
                         "memsets; overlaps count once) / Duration (the time range of range-mode).\n"
                         "Ordered by the larger of the two In-Use values descending.\n") +
                     kRatioDirection,
      .descriptionZh = std::string(
              "比较两个asysrep报告中的PPU时间利用率汇总结果，匹配和比较两个报告中的PPU在时间利用率的差异。\n"
              "如果选择了“PPU Active Time Range”模式，则统计的时间范围从该设备上的第一个 PPU 操作开始，到该设备上的最后一个 PPU 操作结束。\n"
              "如果选择了“Filtered Time Range”范围模式，则时间范围与指定的过滤时间范围相同。\n"
              "请注意，利用率是指“时间”利用率，而不是“资源”利用率，PPU设备在指定时间存在操作，即认为PPU此刻的时间利用率为100%。如果多个操作在同时运行，对应的时间利用率也不会超过100%。\n"
              "对于每个PPU设备，PPU在时间范围的时间利用率为：繁忙时间/时间段长度。两个报告的统计结果根据PPU设备索引匹配和对比，对比结果按照每个报告的PPU时间利用率降序排列。\n") +
          kRatioDirectionZh,
      .options = {rangeModeOption(), matchedOnlyOption()},
      .columns = compareColumns(spec()),
      .needs = {ppuActivityNeed()},
      .pie = {},
      .compare = &spec(),
      .memoryPerRow = 48,  // per row of the larger side: 40,608 KiB at scale 250, 114,564 at 1000, 262,800 at 2500 (40, 28 and 26 bytes; 2026-12-06)
  };
  return rule;
}

}  // namespace asys
