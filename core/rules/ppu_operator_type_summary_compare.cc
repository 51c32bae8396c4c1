// ppu_operator_type_summary_compare (PPU算子类型汇总比较): ppu_op_type_sum of
// two reports, matched by OP Type, the Summary row first.
#include "core/rules/compare.h"
#include "core/rules/compare_options.h"
#include "core/rules/op_options.h"
#include "core/rules/op_rules.h"
#include "core/rules/registry.h"

namespace asys {

namespace {

const CompareSpec& spec() {
  static const CompareSpec s{
      .side = ppuOpTypeSumSide,
      .sideColumns = ppuOpTypeSumRule().columns,
      .shownKey = "Top OP Name",
      .shownLabel = "Top OP Name",
      .shownHelp = "Name of the top PPU operator of this type",
      .share = "Percent",
      .values = {{.from = "Percent"},
                 {.from = "Instances", .help = "Number of this PPU operator"},
                 {.from = "Avg", .ratio = "Avg Ratio", .ratioHelp = "Base average duration / target average duration"},
                 {.from = "Total Time", .name = "Total", .ratio = "Total Ratio",
                  .ratioHelp = "Base total time / target total time"},
                 {.from = "PPU Active Time", .ratio = "Active Time Ratio",
                  .ratioHelp = "Base PPU active time / target PPU active time"},
                 {.from = "Top OP Percent"}},
      .sharedKeys = {"OP Type"},
      .pinnedKey = "Summary",
  };
  return s;
}

std::vector<OptionSpec> options() {
  std::vector<OptionSpec> o = ppuOpTypeSumOptions();
  o.push_back(matchedOnlyOption());
  return o;
}

}  // namespace

const RuleSpec& ppuOperatorTypeSummaryCompareRule() {
  static const RuleSpec rule{
      .name = "ppu_operator_type_summary_compare",
      .title = "PPU Operator Type Summary Compare",
      .titleZh = "PPU算子类型汇总比较",
      .rowHelp = "Row number of the compare result",
      .topic = "Compare",
      .description = std::string(
                         "ppu_op_type_sum of a base and a target report, matched by OP Type. The Summary\n"
                         "row (every type together, and each report's top operator) always comes first;\n"
                         "the types follow by the larger of the two reports' Percent descending.\n") +
                     kRatioDirection + "\n" + kCustomRulesHelp,
      .descriptionZh = std::string(
              "比较两个asysrep报告中的PPU算子类型汇总结果，匹配和比较两个报告中的PPU算子类型的执行时间差异。\n"
              "通过PPU算子类型匹配两个asysrep报告的算子类型汇总结果，按照每个报告的算子类型占比降序排列。固定生成Summary类型的汇总行，汇总比较两个报告所有PPU算子类型的执行时间信息和热点算子。\n") +
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
