// ppu_operator_summary_compare (PPU算子汇总比较): ppu_op_sum of two reports,
// matched by OP Type and merged parameters.
#include "core/rules/compare.h"
#include "core/rules/compare_options.h"
#include "core/rules/op_options.h"
#include "core/rules/op_rules.h"
#include "core/rules/registry.h"

namespace asys {

namespace {

const CompareSpec& spec() {
  static const CompareSpec s{
      .side = ppuOpSumSide,
      .sideColumns = ppuOpSumSideColumns(),
      .shownKey = "OP Name",
      .shownLabel = "OP Name",
      .shownHelp = "Name of the PPU operator",
      .share = "Percent",
      .values = {{.from = "Percent"},
                 {.from = "Instances", .help = "Number of this PPU operator"},
                 {.from = "Avg", .help = "Average execution time of this operator's kernel", .ratio = "Avg Ratio",
                  .ratioHelp = "Base average time / target average time"},
                 {.from = "Total Time", .name = "Total", .help = "Total time used by all kernel instances of this operator",
                  .ratio = "Total Ratio", .ratioHelp = "Base total time / target total time"},
                 {.from = "PPU Active Time", .name = "Active",
                  .help = "Total PPU active time excluding overlapping for this operator", .ratio = "Active Ratio",
                  .ratioHelp = "Base active time / target active time"},
                 {.from = "Compute Util"},
                 {.from = "HBM Load Util"},
                 {.from = "HBM Store Util"}},
      .sharedKeys = {"OP Type"},
  };
  return s;
}

std::vector<OptionSpec> options() {
  std::vector<OptionSpec> o = ppuOpSumOptions(true);
  o.push_back(matchedOnlyOption());
  return o;
}

}  // namespace

const RuleSpec& ppuOperatorSummaryCompareRule() {
  static const RuleSpec rule{
      .name = "ppu_operator_summary_compare",
      .title = "PPU Operator Summary Compare",
      .titleZh = "PPU算子汇总比较",
      .rowHelp = "Row number of the compare result",
      .topic = "Compare",
      .description = std::string(
                         "ppu_op_sum of a base and a target report, matched by OP Type and the merged\n"
                         "parameters (so the same collective on other buffers, ranks or communicators,\n"
                         "or the same aten::mm with other op ids, is one row; each report's OP Name is\n"
                         "its own). top=N compares each report's first N operators. Ordered by the\n"
                         "larger of the two reports' Percent descending.\n") +
                     kRatioDirection + "\n" + kCustomRulesHelp,
      .descriptionZh = std::string(
              "比较两个asysrep报告中的PPU算子汇总结果，匹配和比较两个报告中的PPU算子执行时间差异。\n"
              "PPU算子的执行信息汇总时，若两个PPU算子之间大部分参数相同，仅少量对应能影响较小的参数差异，默认会忽略参数差异，按照相同的PPU算子合并汇总。\n"
              "通过PPU算子类型和PPU算子参数匹配两个asysrep报告的算子汇总结果，按照每个报告的算子占比降序输出。\n") +
          kRatioDirectionZh + std::string("\n") + kCustomRulesHelpZh,
      .options = options(),
      .globalOptions = {"ppu-op-config"},
      .columns = compareColumns(spec()),
      .needs = operatorNeeds(),
      .pie = {},
      .compare = &spec(),
      .memoryPerRow = 128,  // per row of the larger side: 104-108 bytes at scale 250 natively (2026-12-06, after texts9); 128 (2.0 GiB for the 3 GB report's 16.5 M activities) answers there in Chromium in 92-102 s (lead), where 136 refused it
  };
  return rule;
}

}  // namespace asys
