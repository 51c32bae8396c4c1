// ppu_operator_kernel_breakdown_compare (PPU算子kernel性能分解比较) and
// ppu_operator_breakdown_compare (PPU算子性能分解比较): the two breakdowns of
// two reports side by side, matched level by level (OP Type, then the
// framework, library and kernel groups). One file: they differ in depth.
#include "core/rules/compare.h"
#include "core/rules/compare_options.h"
#include "core/rules/op_options.h"
#include "core/rules/op_rules.h"
#include "core/rules/registry.h"

namespace asys {

namespace {

CompareSpec blocks(bool kernels) {
  CompareSpec s;
  s.side = [kernels](RuleContext& ctx) { return breakdownSide(ctx, kernels); };
  s.sideColumns = breakdownSideColumns(kernels);
  s.share = kernels ? "Kernel Time" : "Library Time";
  s.sharedKeys = {"OP Type"};
  s.levels.push_back({2, "Framework Time",
                      {{.from = "Framework OP"}, {.from = "Framework Time"}, {.from = "Framework Avg"},
                       {.from = "Framework Instances"}}});
  CompareLevel library{3, "Library Time",
                       {{.from = "Library OP"}, {.from = "Library Time"}, {.from = "Library Avg"},
                        {.from = "Library Instances"}}};
  if (!kernels) {
    for (const char* c : {"Compute Util", "HBM Load Util", "HBM Store Util"}) library.columns.push_back({.from = c});
  }
  s.levels.push_back(library);
  if (kernels) {
    s.levels.push_back({4, "Kernel Time",
                        {{.from = "Kernel Name", .name = "Kernel"}, {.from = "Kernel Time"}, {.from = "Kernel Avg"},
                         {.from = "Kernel Instances"}}});
    s.ratios = {{.from = "Kernel Avg", .ratio = "Avg Ratio",
                 .ratioHelp = "Base kernel average time / target kernel average time"}};
  } else {
    s.ratios = {{.from = "Library Avg", .ratio = "Avg Ratio",
                 .ratioHelp = "Base library operator average time / target library operator average time"}};
  }
  return s;
}

const CompareSpec& kernelSpec() {
  static const CompareSpec s = blocks(true);
  return s;
}
const CompareSpec& librarySpec() {
  static const CompareSpec s = blocks(false);
  return s;
}

std::vector<OptionSpec> options(bool kernels) {
  std::vector<OptionSpec> o = breakdownOptions(kernels, true);
  o.push_back(matchedOnlyOption());
  return o;
}

const char* const kMatching =
    "Rows match by OP Type and each level's merged parameters (Native and Idle as\n"
    "such; kernels by name in the chosen mode); a report without the row shows the\n"
    "levels it has ('-' below them). Each report's columns form a block. Ordered\n"
    "level by level by the larger of the two reports' time shares, descending.\n"
    "top=N compares each report's N rows of largest time.\n";

}  // namespace

const RuleSpec& ppuOperatorKernelBreakdownCompareRule() {
  static const RuleSpec rule{
      .name = "ppu_operator_kernel_breakdown_compare",
      .title = "PPU Operator Kernel Breakdown Compare",
      .titleZh = "PPU算子kernel性能分解比较",
      .rowHelp = "Row number of the compare result",
      .topic = "Compare",
      .description = std::string("ppu_op_kernel_breakdown of a base and a target report. ") + kMatching +
                     "Avg Ratio = base kernel Avg / target kernel Avg (one decimal; above 1.0 the\n"
                     "target is faster; '-' when a side has no such kernel or a zero).\n" + kCustomRulesHelp,
      .descriptionZh = std::string(
              "比较两个asysrep报告中的PPU算子和kernel性能分解结果，匹配和比较两个报告中的性能分解kernel层的差异。\n"
              "对每个asysrep报告，计算PPU算子kernel性能分解，识别asysrep报告中的PPU算子，根据算子的种类和嵌套关系，将算子分为框架层、加速库层和kernel层三个层级，获取嵌套的算子逐层细化的性能分解信息。\n"
              "父一级PPU算子范围内，未存在子一级PPU算子的时间范围（PPU设备空闲），被标记为Idle。各个层级中缺失的父一级PPU算子被标记为Native。\n"
              "通过三个层级的PPU算子参数匹配两个asysrep报告的kernel层性能分解数据，并比较kernel层的性能数据。输出结果按照每个报告中的每级算子的占比降序排列。\n") +
          kRatioDirectionZh + std::string("\n") + kBreakdownCustomRulesHelpZh,
      .options = options(true),
      .globalOptions = {"ppu-op-config"},
      .columns = compareColumns(kernelSpec()),
      .needs = operatorNeeds(),
      .pie = {},
      .compare = &kernelSpec(),
      .memoryPerRow = 128,  // per row of the larger side: 104-108 bytes at scale 250 natively (2026-12-06, after texts9); 128 (2.0 GiB for the 3 GB report's 16.5 M activities) answers there in Chromium in 92-102 s (lead), where 136 refused it
  };
  return rule;
}

const RuleSpec& ppuOperatorBreakdownCompareRule() {
  static const RuleSpec rule{
      .name = "ppu_operator_breakdown_compare",
      .title = "PPU Operator Breakdown Compare",
      .titleZh = "PPU算子性能分解比较",
      .rowHelp = "Row number of the compare result",
      .topic = "Compare",
      .description = std::string("ppu_op_breakdown of a base and a target report. ") + kMatching +
                     "Avg Ratio = base library Avg / target library Avg (one decimal; above 1.0 the\n"
                     "target is faster; '-' when a side has no such library group or a zero).\n" +
                     kCustomRulesHelp,
      .descriptionZh = std::string(
              "比较两个asysrep报告中的PPU算子性能分解结果，匹配和比较两个报告中的性能分解加速库层的差异。\n"
              "对每个asysrep报告，计算PPU算子性能分解，识别asysrep报告中的PPU算子，根据算子的种类和嵌套关系，将算子分为框架层、加速库层和kernel层三个层级，获取加速库层的性能分解信息和硬件利用率信息。\n"
              "父一级PPU算子范围内，未存在子一级PPU算子的时间范围（PPU设备空闲），被标记为Idle。各个层级中缺失的父一级PPU算子被标记为Native。\n"
              "通过框架层和加速库层的PPU算子参数匹配两个asysrep报告的加速库层性能分解数据，并比较差异。输出结果按照每个报告中的每级算子的占比降序排列。\n") +
          kRatioDirectionZh + std::string("\n") + kBreakdownCustomRulesHelpZh,
      .options = options(false),
      .globalOptions = {"ppu-op-config"},
      .columns = compareColumns(librarySpec()),
      .needs = operatorNeeds(),
      .pie = {},
      .compare = &librarySpec(),
      .memoryPerRow = 128,  // per row of the larger side: 104-108 bytes at scale 250 natively (2026-12-06, after texts9); 128 (2.0 GiB for the 3 GB report's 16.5 M activities) answers there in Chromium in 92-102 s (lead), where 136 refused it
  };
  return rule;
}

}  // namespace asys
