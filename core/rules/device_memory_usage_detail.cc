// device_memory_usage_detail (2.3.1): one row per device memory allocation
// (and, with usage-mode=all, per release) with the groups of the allocation's
// call stack.
#include <algorithm>
#include <cstdio>

#include "core/analysis/device_memory.h"
#include "core/report/report.h"
#include "core/rules/device_memory_options.h"
#include "core/rules/registry.h"

namespace asys {

namespace {

enum Col : size_t { kPid, kDevice, kGroups, kTime, kTid, kContext, kMemory, kSize, kAccess, kEventId };

std::vector<ColumnSpec> columns() {
  return {
      {"PID", "", CellKind::Int, "Process identifier"},
      {"Device ID", "", CellKind::Int, "PPU device identifier"},
      {"Group List", "", CellKind::Text, "Memory usage belonged group list, splited by '/'"},
      {"Time", "ns", CellKind::Int, "Memory usage timestamp"},
      {"TID", "", CellKind::Int, "Thread identifier"},
      {"Context ID", "", CellKind::Int, "Context identifier"},
      {"Memory", "", CellKind::Text, "Memory identifier"},
      {"Size", "bytes", CellKind::Int, "Memory usage size"},
      {"Access Flag", "", CellKind::Int, "Memory access flag"},
      {"Event ID", "", CellKind::Int, "Memory usage event identifier"},
  };
}

OptionSpec usageModeOption() {
  OptionSpec o{.name = "usage-mode",
               .kind = OptionKind::Choice,
               .placeholder = "<mode>",
               .label = "Usage Mode",
               .labelZh = "统计数据种类",
               .help = "Specify the memory usage mode.\n"
                       "If 'all', export every allocation and release.\n"
                       "If 'unreleased', export the allocations not released by the end of the\n"
                       "time range (leaked device memory).\n"
                       "Default is 'unreleased'.",
               .helpZh = "统计数据种类。\n"
                         "device_memory_usage_detail 规则支持两种数据种类：\n"
                         "'all'：支持导出申请和释放的内存跟踪。\n"
                         "'unreleased'：支持导出泄漏的内存跟踪（默认值）。"};
  o.choices = {"all", "unreleased"};
  o.choiceLabels = {"All Alloc and Free Trace", "Unreleased Alloc Trace"};
  o.choiceLabelsZh = {"申请和释放的内存跟踪", "泄漏的内存跟踪"};
  o.defaultValue = "unreleased";
  o.defaultLabel = "Unreleased Alloc Trace";
  return o;
}

// The address as a debugger or PyTorch's memory snapshot shows it.
std::string hexAddress(int64_t address) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(address));
  return text;
}

Table compute(RuleContext& ctx) {
  Report& report = ctx.report;
  const bool all = ctx.options.value("usage-mode") == "all";
  const DeviceMemoryEvents events = pairDeviceMemory(report);
  const MemoryUsageEvents& m = report.memoryUsage(mcol::all);
  constexpr uint32_t kNone = DeviceMemoryEvents::kNone;

  std::vector<uint32_t> rows, allocations;
  for (uint32_t e : events.order) {
    if (!ctx.window.overlaps(m.start[e], m.start[e])) continue;
    if (m.operation[e] == kMemoryAllocation) {
      if (!all && !unreleasedAtEnd(m, events, e, ctx.window)) continue;
      allocations.push_back(e);
    } else if (!all) {
      continue;
    } else if (events.partner[e] != kNone) {
      allocations.push_back(events.partner[e]);  // a release shows its allocation's groups
    }
    rows.push_back(e);
  }
  const GroupLists lists(report, ctx.config.callstackGroups(), ctx.options.flag("match-first-group"), allocations);

  // The span a row stands for on a timeline: the memory held, from the
  // allocation to its release (or to the end of the time range).
  Span fallback{0, 0};
  if (!events.order.empty()) fallback = {m.start[events.order.front()], m.start[events.order.back()]};
  const int64_t rangeEnd = statisticsRange(report, ctx.window, fallback).end;

  Table t(columns());
  t.declareSpans({"Memory Held"});
  for (uint32_t e : rows) {
    const bool allocation = m.operation[e] == kMemoryAllocation;
    const uint32_t alloc = allocation ? e : events.partner[e];
    const uint32_t release = allocation ? events.partner[e] : e;
    if (const int64_t pid = memoryEventPid(m, e); pid >= 0) t.setInt(kPid, pid);
    t.setInt(kDevice, m.deviceId[e]);
    if (alloc != kNone) t.setText(kGroups, lists.text(lists.of(alloc)));
    t.setInt(kTime, m.start[e]);
    if (m.globalTid[e] != kNoValue) t.setInt(kTid, tidOf(m.globalTid[e]));
    if (m.contextId[e] != kNoValue) t.setInt(kContext, m.contextId[e]);
    if (m.address[e] != kNoValue) t.setText(kMemory, hexAddress(m.address[e]));
    if (m.bytes[e] != kNoValue) t.setInt(kSize, m.bytes[e]);
    if (m.accessFlags[e] != kNoValue) t.setInt(kAccess, m.accessFlags[e]);
    if (m.eventId[e] != kNoValue) t.setInt(kEventId, m.eventId[e]);
    const int64_t from = m.start[alloc != kNone ? alloc : e];
    const int64_t to = release != kNone ? m.start[release] : std::max(rangeEnd, from);
    t.setSpan(0, from, to);
    t.endRow();
  }
  addPairingWarnings(t, ctx, events);
  return t;
}

}  // namespace

const RuleSpec& deviceMemoryUsageDetailRule() {
  static const RuleSpec rule{
      .name = "device_memory_usage_detail",
      .title = "Device Memory Usage Detail",
      .titleZh = "设备内存使用详细信息",
      .rowHelp = "Row number of the device memory usage",
      .topic = "Device memory",
      .description =
          "Export device memory usage records of specified mode, each with the group\n"
          "list of its allocation's call stack.\n"
          "If 'unreleased' mode, display the allocations not freed by the end of the\n"
          "time range; if 'all' mode, display every allocation and release (a release\n"
          "shows the groups of the allocation it frees, '-' when it frees none).\n"
          "Per process and PPU, a release frees the latest unreleased allocation of the\n"
          "same address. Rows in time order (then event id); Memory is the address.",
      .descriptionZh =
          "device_memory_usage_detail：输出每笔申请且未释放的内存使用记录，以及所属的分组。\n"
          "device_memory_usage_detail 规则支持两种数据种类：\n"
          "'unreleased'：支持导出泄漏的内存跟踪（默认值）。\n"
          "'all'：支持导出申请和释放的内存跟踪。",
      .options = {matchFirstGroupOption(), usageModeOption()},
      .globalOptions = {"callstack-group-config"},
      .columns = columns(),
      .needs = {deviceMemoryNeed()},
      .pie = {"Size", {"Group List", "PID", "Device ID"}},
      .compute = compute,
  };
  return rule;
}

}  // namespace asys
