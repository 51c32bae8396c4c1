// device_memory_usage_summary (2.3.1): device memory per process, PPU and
// Group List (the groups of the allocation's call stack), in one of four
// usage modes.
#include <algorithm>
#include <numeric>

#include "core/analysis/device_memory.h"
#include "core/analysis/key_groups.h"
#include "core/report/report.h"
#include "core/rules/common.h"
#include "core/rules/device_memory_options.h"
#include "core/rules/registry.h"

namespace asys {

namespace {

enum Col : size_t { kPid, kDevice, kGroups, kUsage };

std::vector<ColumnSpec> columns(bool counts) {
  return {
      {"PID", "", CellKind::Int, "Process identifier"},
      {"Device ID", "", CellKind::Int, "PPU device identifier"},
      {"Group List", "", CellKind::Text, "Memory usage belonged group list, splited by '/'"},
      // A count has no unit (docs/rules.md): the header says which it is.
      {"Memory Usage", counts ? "" : "bytes", CellKind::Int, "Device memory usage"},
  };
}

OptionSpec usageModeOption() {
  OptionSpec o{.name = "usage-mode",
               .kind = OptionKind::Choice,
               .placeholder = "<mode>",
               .label = "Usage Mode",
               .labelZh = "统计数据种类",
               .help = "Specify the memory usage mode.\n"
                       "If 'alloc-size', statistic overall allocated device memory usage.\n"
                       "If 'unreleased-size', statistic allocated but not freed device memory usage.\n"
                       "If 'alloc-count', statistic overall allocated device memory count.\n"
                       "If 'unreleased-count', statistic allocated but not freed device memory count.\n"
                       "Default is 'unreleased-size'.",
               .helpZh = "统计数据种类。\n"
                         "device_memory_usage_summary 规则支持四种数据种类：\n"
                         "'alloc-count': 申请的内存次数汇总。\n"
                         "'alloc-size': 申请的内存量汇总。\n"
                         "'unreleased-count': 泄漏的内存次数汇总。\n"
                         "'unreleased-size': 泄漏的内存量汇总（默认值）。"};
  o.choices = {"alloc-size", "unreleased-size", "alloc-count", "unreleased-count"};
  o.choiceLabels = {"Total Alloc Size", "Unreleased Alloc Size", "Total Alloc Count", "Unreleased Alloc Count"};
  o.choiceLabelsZh = {"申请的内存量汇总", "泄漏的内存量汇总", "申请的内存次数汇总", "泄漏的内存次数汇总"};
  o.defaultValue = "unreleased-size";
  o.defaultLabel = "Unreleased Alloc Size";
  return o;
}

bool countsMode(const RuleOptions& options) {
  const std::string mode = options.value("usage-mode").value_or("unreleased-size");
  return mode.size() > 6 && mode.compare(mode.size() - 6, 6, "-count") == 0;
}

// Groups with no values: keys PID, Device ID and Group List, Memory Usage
// their one sum.
GroupedDurations groupedDurations(RuleContext& ctx) {
  Report& report = ctx.report;
  const std::string mode = ctx.options.value("usage-mode").value_or("unreleased-size");
  const bool unreleasedOnly = mode.rfind("unreleased", 0) == 0;
  const bool counts = countsMode(ctx.options);

  const DeviceMemoryEvents events = pairDeviceMemory(report);
  const MemoryUsageEvents& m = report.memoryUsage(mcol::pairing);
  std::vector<uint32_t> allocations;
  for (uint32_t e : events.order) {
    if (m.operation[e] != kMemoryAllocation || !ctx.window.overlaps(m.start[e], m.start[e])) continue;
    if (unreleasedOnly && !unreleasedAtEnd(m, events, e, ctx.window)) continue;
    allocations.push_back(e);
  }
  const GroupLists lists(report, ctx.config.callstackGroups(), ctx.options.flag("match-first-group"), allocations);

  // Rows: (pid, device) as a dense place, times the Group List.
  KeyGroups places, rows;
  std::vector<int64_t> usage;
  uint64_t lastPlaceKey = ~0ull;
  uint32_t place = 0;
  for (uint32_t e : allocations) {
    const uint64_t placeKey =
        (static_cast<uint64_t>(memoryEventPid(m, e) & 0xFFFFFFFF) << 32) | static_cast<uint32_t>(m.deviceId[e]);
    if (placeKey != lastPlaceKey) {  // consecutive allocations mostly share one
      lastPlaceKey = placeKey;
      place = places.indexOf(placeKey);
    }
    const uint32_t row = rows.indexOf(static_cast<uint64_t>(place) * lists.size() + lists.of(e));
    if (row == usage.size()) usage.push_back(0);
    usage[row] += counts ? 1 : (m.bytes[e] == kNoValue ? 0 : m.bytes[e]);
  }
  GroupedDurations out;
  out.groupCount = usage.size();
  out.ids = {{IdKind::kPid, {}}, {IdKind::kDevice, {}}};
  out.texts.resize(1);
  for (uint32_t r = 0; r < usage.size(); ++r) {
    const uint64_t placeKey = places.key(static_cast<uint32_t>(rows.key(r) / lists.size()));
    out.ids[0].values.push_back(static_cast<int32_t>(placeKey >> 32));
    out.ids[1].values.push_back(static_cast<int32_t>(placeKey));
    out.texts[0].push_back(lists.text(static_cast<uint32_t>(rows.key(r) % lists.size())));
  }
  out.sums = {std::move(usage)};
  Table warnings(columns(counts));
  addPairingWarnings(warnings, ctx, events);
  out.warnings = warnings.warnings();
  return out;
}

// Memory Usage descending; ties by PID, Device ID, then Group List.
Table groupsTable(const MergedGroups& g, const RuleOptions& options) {
  const std::vector<int64_t>&pid = g.ids[0].values, &device = g.ids[1].values, &usage = g.sums[0];
  const std::vector<std::string>& list = g.texts[0];
  std::vector<uint32_t> order(g.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    if (usage[a] != usage[b]) return usage[a] > usage[b];
    if (pid[a] != pid[b]) return pid[a] < pid[b];
    if (device[a] != device[b]) return device[a] < device[b];
    return list[a] < list[b];
  });
  Table t(columns(countsMode(options)));
  for (uint32_t r : order) {
    if (pid[r] >= 0) t.setInt(kPid, pid[r]);
    t.setInt(kDevice, device[r]);
    t.setText(kGroups, list[r]);
    t.setInt(kUsage, usage[r]);
    t.endRow();
  }
  return t;
}

}  // namespace

const RuleSpec& deviceMemoryUsageSummaryRule() {
  static const RuleSpec rule{
      .name = "device_memory_usage_summary",
      .title = "Device Memory Usage Summary",
      .titleZh = "设备内存使用分组汇总",
      .rowHelp = "Row number of the device memory usage",
      .topic = "Device memory",
      .description =
          "Group and statistic device memory usage of specified mode,\n"
          "If 'alloc-size' mode,  display allocated device memory usage summary.\n"
          "If 'alloc-count' mode, display allocated device memory count summary.\n"
          "If 'unreleased-size' mode, display allocated but not freed device memory usage summary.\n"
          "If 'unreleased-count' mode, display allocated but not freed device memory count summary.\n"
          "Per process and PPU, a release frees the latest unreleased allocation of the\n"
          "same address; unreleased = not released before the end of the time range.\n"
          "Each allocation belongs to the groups its call stack matches (all of them in\n"
          "--callstack-group-config order, joined by '/', or the first with\n"
          "match-first-group; 'others' when none). Sorted by Memory Usage descending.",
      .descriptionZh =
          "device_memory_usage_summary 规则支持四种数据种类：\n"
          "'alloc-size': 申请的内存量汇总。\n"
          "'alloc-count': 申请的内存次数汇总。\n"
          "'unreleased-size': 泄漏的内存量汇总（默认值）。\n"
          "'unreleased-count': 泄漏的内存次数汇总。\n"
          "按照每进程、每PPU级别，汇总已申请且没有释放的PPU设备内存使用记录。\n"
          "对于每个申请且没有释放的内存使用记录，根据内存申请时的调用栈信息（帧的排列顺序，每帧匹配的关键字），匹配分组规则。\n"
          "内存使用记录可能匹配到多个分组，输出的分组信息将显示记录归属的所有分组，通过/间隔。\n"
          "若分组匹配策略按匹配第一组，则只归属于第一个满足条件的分组。\n"
          "分组的排列顺序取决于命令行选项--callstack-group-config的创建分组顺序。\n"
          "不归属于用户指定组的内存使用，汇总到缺省的others分组。\n"
          "汇总每种分组组合的内存使用量，结果按照内存使用量汇总降序排列。",
      .options = {matchFirstGroupOption(), usageModeOption()},
      .globalOptions = {"callstack-group-config"},
      .columns = columns(false),
      .needs = {deviceMemoryNeed()},
      .pie = {"Memory Usage", {"Group List", "PID", "Device ID"}},
      .compute = [](RuleContext& ctx) { return groupsRuleTable(deviceMemoryUsageSummaryRule(), ctx); },
      .groupedDurations = groupedDurations,
      .groupsTable = groupsTable,
  };
  return rule;
}

}  // namespace asys
