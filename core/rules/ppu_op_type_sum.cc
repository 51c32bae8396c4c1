// ppu_op_type_sum (2.3.27, PPU算子类型汇总): the operators of ppu_op_sum per
// type, each type's top operator, and a Summary row over all types.
#include <algorithm>
#include <numeric>
#include <unordered_map>

#include "core/rules/common.h"
#include "core/rules/hgtx_association_options.h"
#include "core/rules/op_options.h"
#include "core/rules/op_rows.h"
#include "core/rules/op_rules.h"
#include "core/rules/registry.h"

namespace asys {

namespace {

enum Col : size_t { kType, kPercent, kAvg, kTotal, kInstances, kActive, kActivePercent, kTopPercent, kTopName };

constexpr std::string_view kSummary = "Summary";

std::vector<ColumnSpec> columns() {
  return {
      {"OP Type", "", CellKind::Text, "PPU operator type", ColumnRole::Key},
      {"Percent", "%", CellKind::Decimal1, "Percentage of 'Total Time'"},
      {"Avg", "ns", CellKind::Int, "Average duration of this operator type"},
      {"Total Time", "ns", CellKind::Int, "Total duration used by all instances of this operator type"},
      {"Instances", "", CellKind::Int, "Number of this PPU operator type"},
      {"PPU Active Time", "ns", CellKind::Int, "Total PPU active time excluding overlapping for this operator type"},
      {"Active Percent", "%", CellKind::Decimal1, "Percentage of active time to total duration time"},
      {"Top OP Percent", "%", CellKind::Decimal1, "Percentage of top PPU operator of 'Total Time'"},
      {"Top OP Name", "", CellKind::Text, "Name of the top PPU operator of this type", ColumnRole::Attribute},
  };
}

struct TypeRow {
  std::string_view type;
  int64_t total = 0, instances = 0, active = 0;
  uint32_t top = 0;  // row index into OpRows, the first in ppu_op_sum's order
  bool hasTop = false;
};

// The table of ppu_op_sum's groups (op_rows.h), of one report or of many.
Table groupsTable(const MergedGroups& groups, const RuleOptions&) {
  const OpRows rows = operatorRows(groups);
  // ppu_op_sum's order (Total Time, then name): a type's first row is its top operator.
  const std::vector<uint32_t> order = orderRows(rows, "percent");
  std::vector<TypeRow> types;
  std::unordered_map<std::string_view, uint32_t> typeIndex;
  TypeRow summary;
  for (uint32_t i : order) {
    const OpRow& r = rows.rows[i];
    const auto [at, added] = typeIndex.try_emplace(r.type, static_cast<uint32_t>(types.size()));
    if (added) types.push_back({r.type, 0, 0, 0, i, true});
    for (TypeRow* t : {&types[at->second], &summary}) {
      t->total += r.stats.total;
      t->instances += r.stats.count;
      t->active += r.active;
      if (!t->hasTop) {
        t->top = i;
        t->hasTop = true;
      }
    }
  }
  std::stable_sort(types.begin(), types.end(), [&](const TypeRow& a, const TypeRow& b) {
    if (a.total != b.total) return a.total > b.total;
    return a.type < b.type;
  });
  Table t(columns());
  auto emit = [&](const TypeRow& r, std::string_view type) {
    t.setText(kType, type);
    setPercent(t, kPercent, r.total, summary.total);
    if (r.instances > 0) t.setInt(kAvg, r.total / r.instances);
    t.setInt(kTotal, r.total);
    t.setInt(kInstances, r.instances);
    t.setInt(kActive, r.active);
    setPercent(t, kActivePercent, r.active, r.total);
    if (r.hasTop) {
      setPercent(t, kTopPercent, rows.rows[r.top].stats.total, summary.total);
      t.setText(kTopName, rows.rows[r.top].name);
    }
    t.endRow();
  };
  // The Summary row is always there, first.
  emit(summary, kSummary);
  for (const TypeRow& r : types) emit(r, r.type);
  return t;
}

}  // namespace

std::vector<OptionSpec> ppuOpTypeSumOptions() {
  std::vector<OptionSpec> o = {deviceOption(), rangeIncludeOption(), rangeExcludeOption(), opFilterOption(),
                               graphMappingOption()};
  for (OptionSpec& m : noMergeOptions()) o.push_back(std::move(m));
  o.push_back(parseFromOption());
  return o;
}

Table ppuOpTypeSumSide(RuleContext& ctx) { return groupsRuleTable(ppuOpTypeSumRule(), ctx); }

const RuleSpec& ppuOpTypeSumRule() {
  static const RuleSpec rule{
      .name = "ppu_op_type_sum",
      .title = "PPU Operator Type Summary",
      .titleZh = "PPU算子类型汇总",
      .rowHelp = "Row number of the PPU operator type summary",
      .topic = "Operators",
      .description = std::string(
                         "The operators of ppu_op_sum (same recognition, merging and top-level counting)\n"
                         "per OP Type: Total Time, Instances and PPU Active Time summed, Avg = Total /\n"
                         "Instances, Active Percent = Active / Total. The type's top operator is its\n"
                         "ppu_op_sum row with the largest Total Time (ties by name); Top OP Percent is\n"
                         "that row's Total Time over the Summary's. The first row, OP Type 'Summary', is\n"
                         "always there: every type together, its top operator the largest of all.\n"
                         "Percent is of the Summary's Total Time. Types sorted by Total Time descending.\n") +
                     kCustomRulesHelp,
      .descriptionZh = std::string(
              "PPU算子的执行时间统计方式为：\n"
              "每个PPU算子在PPU侧的执行时间为：本算子关联的PPU侧第一个活动开始，到最后一个活动结束的持续时间。\n"
              "PPU算子的PPU活跃时间PPU Active Time计算方式为：\n"
              "指定的时间点存在一个或者多个本PPU算子关联的PPU活动，则记为活跃时间。如果多个PPU活动在时间上重叠，重叠的部分不会被多次计入活跃时间。\n"
              "汇总结果组织如下：\n"
              "每PPU算子类型，汇总每个算子的执行时间信息，结果按照Total Time降序排列。\n"
              "每PPU算子类型内，对每种算子参数组合的执行时间汇总，挑选汇总执行时间最长的算子参数组合，作为热点算子。\n"
              "固定生成Summary类型的汇总行，汇总所有PPU算子类型的执行时间信息，挑选汇总执行时间最长的算子参数组合，作为汇总行的热点算子。\n") +
          kCustomRulesHelpZh,
      .options = ppuOpTypeSumOptions(),
      .globalOptions = {"ppu-op-config"},
      .columns = columns(),
      .needs = operatorNeeds(),
      .pie = {"Total Time", {"OP Type"}},
      .sumColumns = {"Total Time", "Instances", "PPU Active Time"},
      .summaryRow = std::string(kSummary),
      .compute = [](RuleContext& ctx) { return groupsRuleTable(ppuOpTypeSumRule(), ctx); },
      .groupedDurations = [](RuleContext& ctx) { return operatorGroups(ctx); },
      .groupsTable = groupsTable,
      .memoryPerRow = 96,  // ppu_op_sum's operator set and groups: 784,824 / 96,060 KiB at scale 2500 / 250: 77.7, 95.1 bytes a row (2026-12-06, texts9)
  };
  return rule;
}

}  // namespace asys
