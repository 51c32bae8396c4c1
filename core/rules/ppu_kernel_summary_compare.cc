// ppu_kernel_summary_compare (the manual's asys compare default set): the
// kernel summary of two reports, matched by kernel name.
#include "core/rules/compare.h"
#include "core/rules/common.h"
#include "core/rules/compare_options.h"
#include "core/rules/registry.h"

namespace asys {

namespace {

const CompareSpec& spec() {
  static const CompareSpec s{
      .side = hggcPpuKernSumRule().compute,
      .sideColumns = hggcPpuKernSumRule().columns,
      .shownKey = "Name",
      .shownLabel = "Kernel",
      .shownHelp = "Name of the kernel",
      .share = "Time",
      .values = {{.from = "Instances"},
                 {.from = "Time", .name = "Percent", .help = "Percentage of the report's total kernel time"},
                 {.from = "Avg", .help = "Average execution time of this kernel", .ratio = "Avg Ratio",
                  .ratioHelp = "Base average time / target average time"},
                 {.from = "Total Time", .name = "Total", .help = "Total time of all executions of this kernel",
                  .ratio = "Total Ratio", .ratioHelp = "Base total time / target total time"}},
  };
  return s;
}

}  // namespace

const RuleSpec& ppuKernelSummaryCompareRule() {
  static const RuleSpec rule{
      .name = "ppu_kernel_summary_compare",
      .title = "PPU Kernel Summary Compare",
      .titleZh = "PPU kernel汇总比较",
      .rowHelp = "Row number of the compare result",
      .topic = "Compare",
      .description = std::string(
                         "hggc_ppu_kern_sum of a base and a target report, matched by kernel name (its\n"
                         "text, in the chosen name mode), ordered by the larger of the two reports'\n"
                         "Percent descending, then by name.\n") +
                     kRatioDirection,
      .descriptionZh = std::string(
              "比较两个asysrep报告中的HGGC PPU kernel汇总结果，匹配和比较两个报告中的kernel执行时间差异。\n"
              "通过kernel名称（按照所选的Kernel Name的展示模式）匹配两个asysrep报告的汇总结果，按照两个报告中kernel时间占比（Percent）的较大值降序输出，相同时按照kernel名称升序输出。\n") +
          kRatioDirectionZh,
      .options = {hgtxNameOption(), kernelNameModeOption(), deviceOption(), matchedOnlyOption()},
      .columns = compareColumns(spec()),
      .needs = hggcPpuKernSumRule().needs,
      .pie = {},
      .compare = &spec(),
      .memoryPerRow = 32,  // per row of the larger side: 27,640 KiB at scale 250, 62,396 at 1000, 131,592 at 2500 (29, 16 and 14 bytes; 2026-12-06)
  };
  return rule;
}

}  // namespace asys
