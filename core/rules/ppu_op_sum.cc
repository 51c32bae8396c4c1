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

Table compute(RuleContext& ctx, bool matchKey, int64_t limit) {
  OperatorSet ops = buildOperators(ctx, operatorQuery(ctx));
  const GroupUnions spans = topLevelSpans(ops);
  const DevicePeaks peaks(ctx.report);
  const OpRows rows = operatorRows(ops, spans, peaks);
  const StringPool& names = ctx.report.strings();
  const std::vector<uint32_t> order = orderRows(rows, ops, names, ctx.options.value("order-by").value_or("percent"));
  Table t(columns(matchKey));
  size_t emitted = 0;
  for (uint32_t i : order) {
    if (limit >= 0 && emitted++ >= static_cast<size_t>(limit)) break;
    const OpRow& r = rows.rows[i];
    t.setText(kType, ops.recognizer.typeName(r.type));
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
    t.setText(kName, names.get(r.name));
    if (matchKey) t.setText(kKey, ops.recognizer.keyText(r.key));
    t.endRow();
  }
  addOperatorWarnings(t, ops);
  return t;
}

}  // namespace

std::vector<OptionSpec> ppuOpSumOptions(bool compare) {
  std::vector<OptionSpec> o = {compare ? topOption("operators") : rowsOption("operators"), deviceOption(),
                               rangeIncludeOption(), rangeExcludeOption(), opFilterOption(),
                               orderByOption({"percent", "instances", "avg", "max", "active-percent", "compute-util",
                                              "hbm-load-util", "hbm-store-util", "name"},
                                             {"Time percentage", "Instances", "Average time", "Largest time",
                                              "Active percentage", "Compute utilization", "HBM load utilization",
                                              "HBM store utilization", "OP Name"}),
                               graphMappingOption()};
  for (OptionSpec& m : noMergeOptions()) o.push_back(std::move(m));
  o.push_back(parseFromOption());
  return o;
}

Table ppuOpSumSide(RuleContext& ctx) { return compute(ctx, true, ctx.options.intValue("top").value_or(-1)); }
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
      .options = ppuOpSumOptions(false),
      .globalOptions = {"ppu-op-config"},
      .columns = columns(false),
      .needs = operatorNeeds(),
      .pie = {"Total Time", {"OP Type", "OP Name"}},
      .sumColumns = {"Total Time", "Percent"},
      .compute = [](RuleContext& ctx) { return compute(ctx, false, -1); },
  };
  return rule;
}

}  // namespace asys
