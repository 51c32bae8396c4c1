// pccl_desync_summary (2.3.19): the desync rates of the PCCL communications
// (as pccl_desync_trace groups them) summarised per kernel name.
#include <algorithm>
#include <numeric>
#include <string_view>
#include <unordered_map>

#include "core/analysis/stats.h"
#include "core/rules/pccl_desync_common.h"
#include "core/rules/registry.h"

namespace asys {

namespace {

enum Col : size_t { kTime, kCount, kP90, kAvg, kMed, kMin, kMax, kStdDev, kTotalDuration, kTotalOverlap, kName };

std::vector<ColumnSpec> columns() {
  return {
      {"Time", "%", CellKind::Decimal1, "Percentage of 'Total Duration'"},
      {"Count", "", CellKind::Int, "Number of communication of this PCCL kernel"},
      {"Desync P90", "%", CellKind::Decimal1,
       "90th percentile of the desynchronization rates of this PCCL kernel (nearest rank)"},
      {"Desync Avg", "%", CellKind::Decimal1, "Average desynchronization rate of this PCCL kernel"},
      {"Desync Med", "%", CellKind::Decimal1, "Median desynchronization rate of this PCCL kernel"},
      {"Desync Min", "%", CellKind::Decimal1, "Smallest desynchronization rate of this PCCL kernel"},
      {"Desync Max", "%", CellKind::Decimal1, "Largest desynchronization rate of this PCCL kernel"},
      {"Desync StdDev", "%", CellKind::Decimal1, "Standard deviation of desynchronization rate of this PCCL kernel"},
      {"Total Duration", "ns", CellKind::Int, "Total elapsed duration of all communication of this PCCL kernel"},
      {"Total Overlap", "ns", CellKind::Int, "Total overlap duration of all communication of this PCCL kernel"},
      {"Kernel Name", "", CellKind::Text, "Name of the PCCL kernel", ColumnRole::Key},
  };
}

Table groupsTable(const MergedGroups& merged, const RuleOptions&) {
  const PcclKernelList k = pcclKernelList(merged);
  const std::vector<DesyncGroup>& groups = k.groups;
  // Dense name ids of the groups' names.
  std::vector<std::string_view> nameText;
  std::vector<uint32_t> nameOf(groups.size());
  {
    std::unordered_map<std::string_view, uint32_t> ids;
    for (size_t g = 0; g < groups.size(); ++g) {
      auto [it, added] = ids.try_emplace(k.nameOf(g), static_cast<uint32_t>(nameText.size()));
      if (added) nameText.push_back(k.nameOf(g));
      nameOf[g] = it->second;
    }
  }
  const size_t names = nameText.size();

  // The groups of each name together (a counting sort by name).
  std::vector<uint32_t> begin(names + 1, 0);
  for (size_t g = 0; g < groups.size(); ++g) ++begin[nameOf[g] + 1];
  for (size_t n = 0; n < names; ++n) begin[n + 1] += begin[n];
  std::vector<const DesyncGroup*> byName(groups.size());
  std::vector<uint32_t> next(begin.begin(), begin.end() - 1);
  std::vector<int64_t> totalDuration(names, 0), totalOverlap(names, 0);
  int64_t allDuration = 0;
  for (size_t g = 0; g < groups.size(); ++g) {
    const uint32_t n = nameOf[g];
    byName[next[n]++] = &groups[g];
    totalDuration[n] += groups[g].duration();
    totalOverlap[n] += groups[g].overlap;
    allDuration += groups[g].duration();
  }

  // Total Duration descending, then the name in byte order.
  std::vector<uint32_t> order(names);
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    if (totalDuration[a] != totalDuration[b]) return totalDuration[a] > totalDuration[b];
    return nameText[a] < nameText[b];
  });

  Table t(columns());
  for (uint32_t n : order) {
    const std::span<const DesyncGroup*> own(byName.data() + begin[n], begin[n + 1] - begin[n]);
    const DesyncRateStats s = desyncRateStats(own);
    t.setDecimal(kTime, percent1(totalDuration[n], allDuration));
    t.setInt(kCount, static_cast<int64_t>(own.size()));
    t.setDecimal(kP90, s.p90);
    t.setDecimal(kAvg, s.avg);
    t.setDecimal(kMed, s.med);
    t.setDecimal(kMin, s.min);
    t.setDecimal(kMax, s.max);
    t.setDecimal(kStdDev, s.stddev);
    t.setInt(kTotalDuration, totalDuration[n]);
    t.setInt(kTotalOverlap, totalOverlap[n]);
    t.setText(kName, nameText[n]);
    t.endRow();
  }
  return t;
}

}  // namespace

const RuleSpec& pcclDesyncSummaryRule() {
  static const RuleSpec rule{
      .name = "pccl_desync_summary",
      .title = "PCCL Desync Summary",
      .titleZh = "PCCL不同步汇总",
      .rowHelp = "Row number of PCCL communication summary",
      .topic = "PCCL",
      .description =
          "The PCCL communications of pccl_desync_trace (PCCL kernels that overlap in\n"
          "time, transitively, over all devices and processes), summarised per kernel\n"
          "name (the communication's first kernel's). Desync rates are (Duration -\n"
          "Overlap) / Duration per communication; P90 is the nearest-rank 90th\n"
          "percentile (the ceil(0.9 n)-th smallest rate), StdDev the population\n"
          "deviation, all from the exact rates, printed with one decimal. Time (%) is the\n"
          "share of the listed communications' Total Duration, not of the application's\n"
          "run time. Sorted by Total Duration descending.",
      .descriptionZh =
          "将执行时间上存在重叠的PCCL kernel分入一个通信组，对每个通信组的所有kernel计算如下时间：\n"
          "重叠时间：本通信组内所有PCCL kernel重叠的时间。\n"
          "持续时间：从本通信组第一个kernel开始执行到最后一个kernel停止执行的时间。\n"
          "不同步比例计算方式为：(持续时间 - 重叠时间) / 持续时间。\n"
          "按照每kernel名称统计通信组的耗时和不同步占比，按照通信组的耗时汇总降序输出。\n"
          "注意“Time”列是根据“Total Duration”列的总和计算得出的，表示该PCCL kernel所在通信组耗时占所有列出的通信组耗时总时长的百分比，而不是根据应用执行时间得到的百分比。",
      .options = pcclDesyncOptions(),
      .columns = columns(),
      .needs = pcclDesyncNeeds(),
      .pie = {"Total Duration", {"Kernel Name"}},
      .compute = [](RuleContext& ctx) { return groupsRuleTable(pcclDesyncSummaryRule(), ctx); },
      .groupedDurations = pcclKernelGroups,
      .groupsTable = groupsTable,
      .memoryPerRow = 56,  // bench/rule-peaks.sh 250: 49 MiB
  };
  return rule;
}

}  // namespace asys
