// hggc_ppu_mem_size_sum (2.3.16): bytes per HGGC memory operation on the PPUs.
#include <algorithm>
#include <numeric>

#include "core/analysis/stats.h"
#include "core/report/report.h"
#include "core/rules/common.h"
#include "core/rules/memory_ops.h"
#include "core/rules/registry.h"

namespace asys {

namespace {

std::vector<ColumnSpec> columns() {
  return {
      {"Total", "bytes", CellKind::Int, "Total memory utilized by this operation"},
      {"Count", "", CellKind::Int, "Number of executions of this operation"},
      {"Avg", "bytes", CellKind::Int, "Average memory size of this operation"},
      {"Med", "bytes", CellKind::Int, "Median memory size of this operation"},
      {"Min", "bytes", CellKind::Int, "Smallest memory size of this operation"},
      {"Max", "bytes", CellKind::Int, "Largest memory size of this operation"},
      {"StdDev", "bytes", CellKind::Int, "Standard deviation of the memory size of this operation"},
      {"Operation", "", CellKind::Text, "Name of the memory operation"},
  };
}

GroupedDurations groupedDurations(RuleContext& ctx) {
  MemoryOpSamples s = memoryOpSamples(ctx, MemoryOpValue::Bytes);
  GroupedDurations out{std::move(s.groupOf), std::move(s.values), s.names.size(), {}};
  out.texts.emplace_back(s.names.begin(), s.names.end());
  return out;
}

// Total descending, then the operation's name.
Table groupsTable(const MergedGroups& g, const RuleOptions&) {
  const std::vector<DurationStats>& stats = g.stats;
  const std::vector<std::string>& names = g.texts[0];
  std::vector<size_t> order(stats.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (stats[a].total != stats[b].total) return stats[a].total > stats[b].total;
    return names[a] < names[b];
  });
  Table t(columns());
  for (size_t i : order) {
    const DurationStats& st = stats[i];
    t.setInt(0, st.total);
    t.setInt(1, st.count);
    t.setInt(2, st.avg);
    t.setInt(3, st.med);
    t.setInt(4, st.min);
    t.setInt(5, st.max);
    t.setInt(6, st.stddev);
    t.setText(7, names[i]);
    t.endRow();
  }
  return t;
}

}  // namespace

const RuleSpec& hggcPpuMemSizeSumRule() {
  static const RuleSpec rule{
      .name = "hggc_ppu_mem_size_sum",
      .title = "HGGC PPU Memory Size Summary",
      .titleZh = "HGGC PPU memory数据量汇总",
      .rowHelp = "Row number of the memory summary",
      .topic = "HGGC",
      .description =
          "Bytes moved or set by HGGC memory operations on the PPUs, per operation:\n"
          "memcpys by copy kind ([HGGC memcpy Host-to-Device], ...) and memsets\n"
          "([HGGC memset]), sorted by total bytes descending.",
      .descriptionZh =
          "按照每memory操作类型，统计本类型操作数据量，按照操作数据量总和降序输出。\n"
          "memcpy根据拷贝的类型进行区分，如[HGGC memcpy Host-to-Device] / [HGGC memcpy Device-to-Host]",
      .columns = columns(),
      .needs = {memoryOpsNeed()},
      .pie = {"Total", {"Operation"}},
      .compute = [](RuleContext& ctx) { return groupsRuleTable(hggcPpuMemSizeSumRule(), ctx); },
      .groupedDurations = groupedDurations,
      .groupsTable = groupsTable,
  };
  return rule;
}

}  // namespace asys
