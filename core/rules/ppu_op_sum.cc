// ppu_op_sum (2.3.21, PPU算子汇总): the operators of a report grouped by type
// and merged parameters, their PPU time and how far they are from the
// hardware's limits.
#include "core/rules/op_rules.h"

#include "core/rules/common.h"
#include "core/rules/hgtx_association_options.h"
#include "core/rules/op_options.h"
#include "core/rules/op_rows.h"
#include "core/rules/registry.h"

namespace asys {

namespace {

enum Col : size_t {
  kType, kTotal, kPercent, kInstances, kAvg, kMed, kMin, kMax, kStdDev, kActive, kActivePercent, kCompute, kLoad,
  kStore, kName, kKey
};

std::vector<ColumnSpec> columns(bool matchKey) {
  std::vector<ColumnSpec> c = {
      {"OP Type", "", CellKind::Text, "PPU operator type", ColumnRole::Key},
      {"Total Time", "ns", CellKind::Int, "Total time used by all kernel instances of this operator"},
      {"Percent", "%", CellKind::Decimal1, "Percentage of 'Total Time'"},
      {"Instances", "", CellKind::Int, "Number of this operator"},
      {"Avg", "ns", CellKind::Int, "Average execution time of this operator"},
      {"Med", "ns", CellKind::Int, "Median execution time of this operator"},
      {"Min", "ns", CellKind::Int, "Smallest execution time of this operator"},
      {"Max", "ns", CellKind::Int, "Largest execution time of this operator"},
      {"StdDev", "ns", CellKind::Int, "Standard deviation of the time of this operator"},
      {"PPU Active Time", "ns", CellKind::Int, "Total PPU active time excluding overlapping for this operator"},
      {"Active Percent", "%", CellKind::Decimal1, "Percentage of active time to total duration time"},
      {"Compute Util", "%", CellKind::Decimal1, "Utilization ratio of PPU compute capability"},
      {"HBM Load Util", "%", CellKind::Decimal1, "Utilization ratio of PPU HBM load bandwidth"},
      {"HBM Store Util", "%", CellKind::Decimal1, "Utilization ratio of PPU HBM store bandwidth"},
      {"OP Name", "", CellKind::Text, "Name of the PPU operator", ColumnRole::Attribute},
  };
  if (matchKey) {
    c.push_back({"Operator Key", "", CellKind::Text, "The operator's merged parameters (what matches rows)",
                 ColumnRole::Key});
  }
  return c;
}

Table tableOf(const OpRows& rows, std::string_view orderBy, bool matchKey, int64_t limit) {
  const std::vector<uint32_t> order = orderRows(rows, orderBy);
  Table t(columns(matchKey));
  size_t emitted = 0;
  for (uint32_t i : order) {
    if (limit >= 0 && emitted++ >= static_cast<size_t>(limit)) break;
    const OpRow& r = rows.rows[i];
    t.setText(kType, r.type);
    t.setInt(kTotal, r.stats.total);
    setPercent(t, kPercent, r.stats.total, rows.totalTime);
    t.setInt(kInstances, r.stats.count);
    t.setInt(kAvg, r.stats.avg);
    t.setInt(kMed, r.stats.med);
    t.setInt(kMin, r.stats.min);
    t.setInt(kMax, r.stats.max);
    t.setInt(kStdDev, r.stats.stddev);
    t.setInt(kActive, r.active);
    setPercent(t, kActivePercent, r.active, r.stats.total);
    setUtil(t, kCompute, r.util.compute());
    setUtil(t, kLoad, r.util.load());
    setUtil(t, kStore, r.util.store());
    t.setText(kName, r.name);
    if (matchKey) t.setText(kKey, r.key);
    t.endRow();
  }
  return t;
}

// The table of the operators' groups (common.h), of one report or of many.
Table groupsTable(const MergedGroups& groups, const RuleOptions& options) {
  return tableOf(operatorRows(groups), options.value("order-by").value_or("percent"), false, -1);
}

}  // namespace

std::vector<OptionSpec> ppuOpSumOptions(bool compare) {
  std::vector<OptionSpec> o = {compare ? topOption("operators") : rowsOption("operators"), deviceOption(),
                               rangeIncludeOption(), rangeExcludeOption(), opFilterOption(),
                               orderByOption({"percent", "instances", "avg", "max", "active-percent", "compute-util",
                                              "hbm-load-util", "hbm-store-util", "name"},
                                             {"Time percentage", "Instances", "Average time", "Largest time",
                                              "Active percentage", "Compute utilization", "HBM load utilization",
                                              "HBM store utilization", "OP Name"},
                                             {"时间占比", "实例数", "平均执行时间", "最长执行时间", "PPU活跃时间占比",
                                              "PPU计算能力利用率", "HBM load利用率", "HBM store利用率", "OP Name"}),
                               graphMappingOption()};
  for (OptionSpec& m : noMergeOptions()) o.push_back(std::move(m));
  o.push_back(parseFromOption());
  return o;
}

Table ppuOpSumSide(RuleContext& ctx) {
  GroupedDurations groups = operatorGroups(ctx);
  const std::vector<std::string> warnings = std::move(groups.warnings);
  Table t = tableOf(operatorRows(mergedGroupsOf(std::move(groups))), ctx.options.value("order-by").value_or("percent"),
                    true, ctx.options.intValue("top").value_or(-1));
  for (const std::string& w : warnings) t.addWarning(w);
  return t;
}
std::vector<ColumnSpec> ppuOpSumSideColumns() { return columns(true); }

const RuleSpec& ppuOpSumRule() {
  static const RuleSpec rule{
      .name = "ppu_op_sum",
      .title = "PPU Operator Summary",
      .titleZh = "PPU算子汇总",
      .rowHelp = "Row number of the PPU operator summary",
      .topic = "Operators",
      .description = std::string(
                         "PPU operators recognised from HGTX annotations (ACBLAS and DeepGemm GEMMs, MoE\n"
                         "layers, PCCL operators, flash attention, PyTorch ranges) and kernel names (GEMM,\n"
                         "PCCL/NCCL, attention, elementwise kernels), docs/operators.md. An operator's\n"
                         "PPU activities are those associated with its HGTX range (launched inside it on\n"
                         "its thread, or through an HGGC graph node created inside it; nested operator\n"
                         "ranges of one level give each activity to the innermost), or the kernel itself.\n"
                         "Each activity counts once, in its top-level operator (framework, else library,\n"
                         "else kernel). Duration = first activity's start to last one's end; PPU Active\n"
                         "Time = their union (summed over instances); Active Percent = Active / Total.\n"
                         "Instances differing only in parameters of little effect are one row (the\n"
                         "no-merge-* flags turn that off); OP Name is the row's earliest instance.\n"
                         "Compute Util = FLOPs / (peak FLOP/s of the data type x time), HBM Load / Store\n"
                         "Util = bytes read / written / (HBM bytes/s x time), summed over the instances;\n"
                         "peaks from TARGET_INFO_PPU, else the documented table of GPUs; '-' when\n"
                         "unknown. Percent is of the listed operators' Total Time. Sorted by Total Time\n"
                         "descending.\n") +
                     kCustomRulesHelp,
      .descriptionZh = std::string(
              "PPU算子的执行时间统计方式为：\n"
              "每个PPU算子在PPU侧的执行时间为：本算子关联的PPU侧第一个活动开始，到最后一个活动结束的持续时间。\n"
              "PPU算子的PPU活跃时间PPU Active Time计算方式为：\n"
              "指定的时间点存在一个或者多个本PPU算子关联的PPU活动，则记为活跃时间。如果多个PPU活动在时间上重叠，重叠的部分不会被多次计入活跃时间。\n"
              "PPU算子的执行信息汇总时，若两个PPU算子之间大部分参数相同，仅少量对应能影响较小的参数差异，默认会忽略参数差异，按照相同的PPU算子合并汇总。\n"
              "若算子类型指定了others类型，未关联到PPU算子的kernel也参与统计，根据kernel名称进行汇总。\n"
              "汇总结果组织如下：每PPU算子参数组合（默认忽略性能影响较小的参数差异），汇总每个算子的执行时间信息，结果按照Total Time列降序输出。\n"
              "PPU计算能力利用率估算的计算方法为：本算子计算量 / (PPU计算每秒峰值能力 * 算子平均执行时间)\n"
              "HBM load和store利用率估算的计算方法为：本算子的数据量 / (HBM每秒峰值吞吐能力 * 算子平均执行时间)\n"
              "注意“Percent”列是根据“Total Time”列的总和计算得出的，表示该PPU算子总耗时占所有列出的算子耗时总时长的百分比，而不是根据应用执行时间得到的百分比。\n") +
          kCustomRulesHelpZh,
      .options = ppuOpSumOptions(false),
      .globalOptions = {"ppu-op-config"},
      .columns = columns(false),
      .needs = operatorNeeds(),
      .pie = {"Total Time", {"OP Type", "OP Name"}},
      .sumColumns = {"Total Time", "Percent"},
      .compute = [](RuleContext& ctx) { return groupsRuleTable(ppuOpSumRule(), ctx); },
      .groupedDurations = [](RuleContext& ctx) { return operatorGroups(ctx); },
      .groupsTable = groupsTable,
      .memoryPerRow = 96,  // 784,628 / 95,940 KiB at scale 2500 / 250: 77.7, 95.0 bytes a row (2026-12-06, texts9: the range texts not held)
  };
  return rule;
}

}  // namespace asys
