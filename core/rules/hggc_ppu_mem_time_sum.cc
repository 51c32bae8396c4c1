// hggc_ppu_mem_time_sum (2.3.17): time per HGGC memory operation on the PPUs.
#include "core/report/report.h"
#include "core/rules/common.h"
#include "core/rules/memory_ops.h"
#include "core/rules/registry.h"

namespace asys {

namespace {

std::vector<ColumnSpec> columns() {
  auto cols = durationSummaryColumns("Count", "Number of operations to this type", "operation",
                                     "Total time used by all executions of this operation");
  cols.push_back({"Operation", "", CellKind::Text, "Name of the memory operation"});
  return cols;
}

GroupedDurations groupedDurations(RuleContext& ctx) {
  MemoryOpSamples s = memoryOpSamples(ctx, MemoryOpValue::Duration);
  GroupedDurations out{std::move(s.groupOf), std::move(s.values), s.names.size(), {}};
  out.texts.emplace_back(s.names.begin(), s.names.end());
  return out;
}

}  // namespace

const RuleSpec& hggcPpuMemTimeSumRule() {
  static const RuleSpec rule{
      .name = "hggc_ppu_mem_time_sum",
      .title = "HGGC PPU Memory Time Summary",
      .titleZh = "HGGC PPU memory耗时汇总",
      .rowHelp = "Row number of the memory summary",
      .topic = "HGGC",
      .description =
          "Time spent in HGGC memory operations on the PPUs, per operation: memcpys by\n"
          "copy kind ([HGGC memcpy Host-to-Device], ...) and memsets ([HGGC memset]),\n"
          "sorted by total time descending. Time (%) is the share of the listed\n"
          "operations' total time, not of the application's run time.",
      .descriptionZh =
          "按照每memory操作类型，统计本类型操作耗时，按照操作耗时总时长降序输出。\n"
          "memcpy根据拷贝的类型进行区分，如[HGGC memcpy Host-to-Device] / [HGGC memcpy Device-to-Host]。\n"
          "注意“Time”列是根据“Total Time”列的总和计算得出的，表示该memory操作类型占所有列出的memory操作耗时总时长的百分比，而不是根据应用执行时间得到的百分比。",
      .columns = columns(),
      .needs = {memoryOpsNeed()},
      .pie = {"Total Time", {"Operation"}},
      .compute = [](RuleContext& ctx) { return durationSummaryTable(columns(), groupedDurations(ctx)); },
      .groupedDurations = groupedDurations,
  };
  return rule;
}

}  // namespace asys
