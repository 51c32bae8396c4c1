// pccl_desync_trace (2.3.18): one row per PCCL communication (PCCL kernels
// that overlap in time), how far out of step its kernels ran, and the
// kernel that started last.
#include <algorithm>
#include <numeric>

#include "core/report/report.h"
#include "core/rules/pccl_desync_common.h"
#include "core/rules/registry.h"

namespace asys {

namespace {

enum Col : size_t {
  kStart, kDuration, kOverlap, kRate, kLastProcess, kLastDevice, kLastKernel, kMaxDur, kMinDur, kAvgDur, kInstances,
  kName,
};

std::vector<ColumnSpec> columns() {
  return {
      {"Start", "ns", CellKind::Int, "Start time of PCCL communication"},
      {"Duration", "ns", CellKind::Int, "Elapsed duration of PCCL communication"},
      {"Overlap", "ns", CellKind::Int, "Overlapping duration of all PCCL kernel"},
      {"Desync Rate", "%", CellKind::Decimal1, "Desynchronization rate of PCCL communication"},
      {"Last Process", "", CellKind::Int, "Last kernel process ID in this PCCL communication"},
      {"Last Device", "", CellKind::Int, "Last kernel device ID in this PCCL communication"},
      {"Last Kernel", "", CellKind::Int, "Last kernel ID in this PCCL communication"},
      {"Max Duration", "ns", CellKind::Int, "Longest kernel duration in this PCCL communication"},
      {"Min Duration", "ns", CellKind::Int, "Shortest kernel duration in this PCCL communication"},
      {"Avg Duration", "ns", CellKind::Int, "Average kernel duration in this PCCL communication"},
      {"Instances", "", CellKind::Int, "Number of kernel in this PCCL communication"},
      {"Kernel Name", "", CellKind::Text, "Name of the PCCL kernel"},
  };
}

Table groupsTable(const MergedGroups& merged, const RuleOptions&) {
  const PcclKernelList k = pcclKernelList(merged);
  const std::vector<DesyncGroup>& groups = k.groups;

  // Desync Rate descending (exact fractions), then Start ascending; groups
  // are numbered in start order already, so that is the last tie.
  std::vector<uint32_t> order(groups.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const int c = compareDesyncRate(groups[a], groups[b]);
    return c != 0 ? c > 0 : groups[a].start < groups[b].start;
  });

  Table t(columns());
  t.declareSpans({"PCCL Communication", "Last Kernel"});
  t.declareEvents({"Last Kernel"});
  for (uint32_t g : order) {
    const DesyncGroup& d = groups[g];
    t.setInt(kStart, d.start);
    t.setInt(kDuration, d.duration());
    t.setInt(kOverlap, d.overlap);
    t.setDecimal(kRate, desyncPercent(d));
    t.setInt(kLastProcess, pidOf(k.globalPid[d.last]));
    t.setInt(kLastDevice, k.device[d.last]);
    t.setInt(kLastKernel, k.kernelId(d.last));
    t.setInt(kMaxDur, d.maxDuration);
    t.setInt(kMinDur, d.minDuration);
    t.setInt(kAvgDur, d.totalDuration / d.count);
    t.setInt(kInstances, d.count);
    t.setText(kName, k.nameOf(g));
    t.setSpan(0, d.start, d.end);
    t.setSpan(1, k.start[d.last], k.end[d.last]);
    t.setEvent(0, EventTable::Kernel, static_cast<uint32_t>(k.row[d.last]));
    t.endRow();
  }
  return t;
}

}  // namespace

const RuleSpec& pcclDesyncTraceRule() {
  static const RuleSpec rule{
      .name = "pccl_desync_trace",
      .title = "PCCL Desync Trace",
      .titleZh = "PCCL不同步跟踪",
      .rowHelp = "Row number of PCCL communication trace",
      .topic = "PCCL",
      .description =
          "PCCL kernels (short name, else demangled name, starting with pcclKernel,\n"
          "ncclKernel or ncclDevKernel) whose executions overlap in time, on any device\n"
          "and in any process, form one communication; overlap is transitive and\n"
          "half-open (kernels that only touch do not overlap). Per communication:\n"
          "Duration runs from the first kernel's start to the last kernel's end, Overlap\n"
          "is the time every kernel runs (min end - max start, 0 if negative), and\n"
          "Desync Rate = (Duration - Overlap) / Duration. A lone kernel is a\n"
          "communication of one, rate 0. Last Process / Device / Kernel are those of the\n"
          "kernel that started last (Last Kernel is its row in HGGC_KERNEL, the kernel ID\n"
          "of the other trace rules); Kernel Name is the first kernel's. Sorted by\n"
          "Desync Rate descending, then Start.",
      .descriptionZh =
          "将执行时间上存在重叠的PCCL kernel分入一个通信组，对每个通信组的所有kernel计算如下时间：\n"
          "重叠时间：本通信组内所有PCCL kernel重叠的时间。\n"
          "持续时间：从本通信组第一个kernel开始执行到最后一个kernel停止执行的时间。\n"
          "不同步比例计算方式为：(持续时间 - 重叠时间) / 持续时间。每通信组输出一行跟踪数据，结果按照不同步占比降序输出。",
      .options = pcclDesyncOptions(),
      .columns = columns(),
      .needs = pcclDesyncNeeds(),
      .pie = {.valueColumn = "", .keyColumns = {"Last Process", "Last Device"}, .countRows = true},
      .compute = [](RuleContext& ctx) { return groupsRuleTable(pcclDesyncTraceRule(), ctx); },
      .groupedDurations = pcclKernelGroups,
      .groupsTable = groupsTable,
      .memoryPerRow = 56,  // bench/rule-peaks.sh 250: 50 MiB
  };
  return rule;
}

}  // namespace asys
