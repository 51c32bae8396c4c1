// ppu_op_kernel_breakdown (2.3.28, PPU算子kernel性能分解) and ppu_op_breakdown
// (2.3.29, PPU算子性能分解): the operators' time broken down framework ->
// library -> kernel (op_breakdown.h), to the kernel level and to the library
// level with its utilisation. One file: the two rules differ only in depth.
#include "core/base/stage_timer.h"
#include "core/rules/common.h"
#include "core/rules/hgtx_association_options.h"
#include "core/rules/op_breakdown.h"
#include "core/rules/op_options.h"
#include "core/rules/op_rows.h"
#include "core/rules/op_rules.h"
#include "core/rules/registry.h"

namespace asys {

namespace {

std::vector<ColumnSpec> columns(bool kernels, bool matchKeys) {
  std::vector<ColumnSpec> c = {
      {"OP Type", "", CellKind::Text, "PPU operator type", ColumnRole::Key},
      {"Framework OP", "", CellKind::Text, "Name of the framework layer operator", ColumnRole::Attribute},
      {"Framework Time", "%", CellKind::Decimal1, "Framework operator time percentage of 'Total Time'"},
      {"Framework Avg", "ns", CellKind::Int, "Average duration of this framework operator"},
      {"Framework Instances", "", CellKind::Int, "Number of this framework operator"},
      {"Library OP", "", CellKind::Text, "Name of the compute library layer operator", ColumnRole::Attribute},
      {"Library Time", "%", CellKind::Decimal1, "Library operator time percentage of 'Total Time'"},
      {"Library Avg", "ns", CellKind::Int, "Average duration of this library operator"},
      {"Library Instances", "", CellKind::Int, "Number of this library operator"},
  };
  if (kernels) {
    c.push_back({"Kernel Name", "", CellKind::Text, "Name of the HGGC kernel", ColumnRole::Attribute});
    c.push_back({"Kernel Time", "%", CellKind::Decimal1, "HGGC kernel time percentage of 'Total Time'"});
    c.push_back({"Kernel Avg", "ns", CellKind::Int, "Average duration of this kernel"});
    c.push_back({"Kernel Instances", "", CellKind::Int, "Number of this kernel"});
  } else {
    c.push_back({"Compute Util", "%", CellKind::Decimal1, "Utilization ratio of PPU compute capability"});
    c.push_back({"HBM Load Util", "%", CellKind::Decimal1, "Utilization ratio of PPU HBM load bandwidth"});
    c.push_back({"HBM Store Util", "%", CellKind::Decimal1, "Utilization ratio of PPU HBM store bandwidth"});
  }
  if (matchKeys) {
    c.push_back({"Framework Key", "", CellKind::Text, "The framework operator's merged parameters", ColumnRole::Key});
    c.push_back({"Library Key", "", CellKind::Text, "The library operator's merged parameters", ColumnRole::Key});
    if (kernels) c.push_back({"Kernel Key", "", CellKind::Text, "The kernel's name", ColumnRole::Key});
  }
  return c;
}

Table compute(RuleContext& ctx, bool kernels, bool matchKeys, int64_t limit) {
  // Kernel columns loaded before the rule, or planned for later rules, stay.
  const uint32_t keptKernels = ctx.report.loadedKernelColumns() | ctx.report.plannedKernelColumns();
  OperatorQuery query = operatorQuery(ctx);
  query.endsAsDurations = true;  // op_breakdown.cc reads them through endOf
  // The kernel level shows no utilisation: the instances' data type and
  // device (5 bytes an instance) are not kept for it.
  query.work = !kernels;
  // A group shows its first instance's name alone: the range texts are
  // read back for those (docs/big-reports.md, "The range texts").
  query.deferNames = true;
  OperatorSet ops = buildOperators(ctx.report, std::move(query));
  // The kernels' names the operator set read (the kernel-level operators'
  // recognition) are read again only for the kernel level: without it they
  // go (4 bytes a kernel) before the groups are made, and with it after.
  if (!kernels) ctx.report.releaseKernelColumns(kcol::names & ~keptKernels);
  // The rule's own step (ASYS_PROFILE: its peak apart from the operator set's).
  StageTimer timer(kernels ? "ppu_op_kernel_breakdown: groups and rows" : "ppu_op_breakdown: groups and rows");
  const Breakdown b = computeBreakdown(ctx, ops, kernels);
  if (kernels) ctx.report.releaseKernelColumns(kcol::names & ~keptKernels);
  const StringPool& names = ctx.report.strings();
  const std::vector<uint32_t> leaves =
      breakdownLeaves(b, ops, names, kernels, ctx.options.value("order-by").value_or("percent"), limit);
  Table t(columns(kernels, matchKeys));
  auto group = [&](const BreakdownGroup& g, size_t col) {
    t.setText(col, breakdownName(g, names));
    setPercent(t, col + 1, g.time, b.totalTime);
    if (g.instances > 0) t.setInt(col + 2, g.time / g.instances);
    t.setInt(col + 3, g.instances);
  };
  const size_t keyCol = kernels ? 13 : 12;
  for (uint32_t leaf : leaves) {
    const BreakdownGroup& g3 = kernels ? b.level[2][leaf] : b.level[1][leaf];
    const BreakdownGroup& g2 = kernels ? b.level[1][g3.parent] : g3;
    const BreakdownGroup& g1 = b.level[0][g2.parent];
    t.setText(0, ops.recognizer.typeName(g1.type));
    group(g1, 1);
    group(g2, 5);
    if (kernels) {
      group(g3, 9);
    } else if (g2.kind == BreakdownKind::Operator) {
      setUtil(t, 9, g2.util.compute());
      setUtil(t, 10, g2.util.load());
      setUtil(t, 11, g2.util.store());
    }
    if (matchKeys) {
      t.setText(keyCol, breakdownKey(g1, ops, names, 0));
      t.setText(keyCol + 1, breakdownKey(g2, ops, names, 1));
      if (kernels) t.setText(keyCol + 2, breakdownKey(g3, ops, names, 2));
    }
    t.endRow();
  }
  addOperatorWarnings(t, ops);
  return t;
}

const char* const kBreakdownHelp =
    "The operators of ppu_op_sum (same recognition, merging, op= and top-level\n"
    "counting), each PPU activity on the path framework operator -> library operator\n"
    "-> kernel. A missing level reads 'Native' (a library operator no framework\n"
    "operator runs; kernels no library operator runs, each an instance); 'Idle' is the\n"
    "time inside an operator's projection (first activity's start to last one's end)\n"
    "that none of its children covers (instances: the operators with idle time). Total\n"
    "Time = the sum of the top-level operators' durations; every Time (%) is a group's\n"
    "summed durations over it, Avg = that sum / Instances. Sorted level by level by\n"
    "time share, descending; rows=N keeps the N rows of largest time (the smallest\n"
    "are left out), in that order.\n";

// 2.3.28 / 2.3.29 统计规则 (each rule adds its own ordering line).
const char* const kBreakdownHelpZh =
    "根据HGTX标记和kernel名称识别各个层级的算子，根据算子在PPU上的投影时间范围确定算子之间的嵌套关系。\n"
    "PPU算子被分为框架层、加速库层和kernel层三个层级，部分层级可能不存在PPU算子信息。以自顶向下的顺序查看算子的嵌套关系，"
    "处于嵌套顶层的算子（无论其归属哪个层级）为顶层算子。\n"
    "PPU算子汇总的Total Time的计算方式为：所有顶层算子的执行时间的累加\n"
    "每种PPU算子的时间占比的计算方式为：累加本PPU算子的执行时间，得到执行时间汇总。计算执行时间汇总 / Total Time，得到本PPU算子的时间占比。\n"
    "父一级PPU算子范围内，未存在子一级PPU算子的时间范围（PPU设备空闲），被标记为Idle。各个层级中缺失的父一级PPU算子被标记为Native。\n"
    "汇总结果组织如下：\n";

}  // namespace

std::vector<OptionSpec> breakdownOptions(bool kernels, bool compare) {
  std::vector<OptionSpec> o = {compare ? topOption(kernels ? "kernel-level rows" : "library-level rows")
                                       : rowsOption("rows"),
                               deviceOption(), rangeIncludeOption(), rangeExcludeOption()};
  // The breakdown sections' own wording of rows= and top=.
  o[0].helpZh = compare ? std::string("仅比较每个报告top N占比的") + (kernels ? "kernel层" : "加速库层") +
                              "算子，部分占比较小的算子将会被忽略。\n默认为“-1”，即不限制展示结果条数。"
                        : "限制输出结果的条数，部分占比较小的算子将会被忽略。\n默认为-1，表示无上限。";
  if (kernels) o.push_back(kernelNameModeOption());
  o.push_back(opFilterOption());
  o.push_back(orderByOption({"percent", "avg", "instances", "name"},
                            {"Time percentage", "Average time", "Instances", "Name"},
                            {"时间占比", "平均执行时间", "实例数", "名称"}));
  for (OptionSpec& m : noMergeOptions()) o.push_back(std::move(m));
  o.push_back(parseFromOption());
  return o;
}

Table breakdownSide(RuleContext& ctx, bool kernels) {
  return compute(ctx, kernels, true, ctx.options.intValue("top").value_or(-1));
}
std::vector<ColumnSpec> breakdownSideColumns(bool kernels) { return columns(kernels, true); }

const RuleSpec& ppuOpKernelBreakdownRule() {
  static const RuleSpec rule{
      .name = "ppu_op_kernel_breakdown",
      .title = "PPU Operator Kernel Breakdown",
      .titleZh = "PPU算子kernel性能分解",
      .rowHelp = "Row number of the PPU operator kernel breakdown",
      .topic = "Operators",
      .description = std::string(kBreakdownHelp) +
                     "One row per (framework, library, kernel) group; kernels by name in the chosen\n"
                     "mode (memcpys and memsets as hggc_ppu_trace names them). Custom rules of\n"
                     "--ppu-op-config: HGTX matches are framework-level operators, kernel matches\n"
                     "kernel-level ones.",
      .descriptionZh = std::string(kBreakdownHelpZh) + "每框架层算子、每加速库层算子、每kernel层算子，按照逐层的时间占比降序排列。\n" + kBreakdownCustomRulesHelpZh,
      .options = breakdownOptions(true, false),
      .globalOptions = {"ppu-op-config"},
      .columns = columns(true, false),
      .needs = operatorNeeds(),
      .pie = {"Kernel Time", {"Kernel Name", "Library OP", "Framework OP", "OP Type"}},
      .treeLevels = {"Framework OP", "Library OP", "Kernel Name"},
      .compute = [](RuleContext& ctx) { return compute(ctx, true, false, ctx.options.intValue("rows").value_or(-1)); },
      .memoryPerRow = 112,  // 934,872 / 108,220 KiB at scale 2500 / 250: 92.6, 107.2 bytes a row (2026-12-06, texts9)
  };
  return rule;
}

const RuleSpec& ppuOpBreakdownRule() {
  static const RuleSpec rule{
      .name = "ppu_op_breakdown",
      .title = "PPU Operator Breakdown",
      .titleZh = "PPU算子性能分解",
      .rowHelp = "Row number of the PPU operator breakdown",
      .topic = "Operators",
      .description = std::string(kBreakdownHelp) +
                     "One row per (framework, library) group, with the library operators' Compute Util\n"
                     "and HBM Load / Store Util (ppu_op_sum's formulas over the group's instances; '-'\n"
                     "for Native and Idle). Custom rules of --ppu-op-config: HGTX matches are\n"
                     "framework-level operators, kernel matches kernel-level ones.",
      .descriptionZh = std::string(kBreakdownHelpZh) + "每框架层算子、每加速库层算子，按照逐层的时间占比降序排列。\n" + kBreakdownCustomRulesHelpZh,
      .options = breakdownOptions(false, false),
      .globalOptions = {"ppu-op-config"},
      .columns = columns(false, false),
      .needs = operatorNeeds(),
      .pie = {"Library Time", {"Library OP", "Framework OP", "OP Type"}},
      .treeLevels = {"Framework OP", "Library OP"},
      .compute = [](RuleContext& ctx) { return compute(ctx, false, false, ctx.options.intValue("rows").value_or(-1)); },
      .memoryPerRow = 104,  // 884,164 / 104,080 KiB at scale 2500 / 250: 87.6, 103.1 bytes a row (2026-12-06, texts9)
  };
  return rule;
}

}  // namespace asys
