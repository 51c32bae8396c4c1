// pccl_desync_summary_compare (PCCL不同步汇总比较): the PCCL desync summary of
// two reports, matched by kernel name.
#include "core/rules/compare.h"
#include "core/rules/compare_options.h"
#include "core/rules/pccl_desync_common.h"
#include "core/rules/registry.h"

namespace asys {

namespace {

const CompareSpec& spec() {
  static const CompareSpec s{
      .side = pcclDesyncSummaryRule().compute,
      .sideColumns = pcclDesyncSummaryRule().columns,
      .shownKey = "Kernel Name",
      .shownLabel = "Kernel",
      .shownHelp = "Name of the kernel",
      .share = "Time",
      .values = {{.from = "Time"},
                 {.from = "Count"},
                 {.from = "Desync P90"},
                 {.from = "Desync Avg"},
                 {.from = "Total Duration"},
                 {.from = "Total Overlap"}},
  };
  return s;
}

}  // namespace

const RuleSpec& pcclDesyncSummaryCompareRule() {
  std::vector<OptionSpec> options = pcclDesyncOptions();
  options.push_back(matchedOnlyOption());
  static const RuleSpec rule{
      .name = "pccl_desync_summary_compare",
      .title = "PCCL Desync Summary Compare",
      .titleZh = "PCCL不同步汇总比较",
      .rowHelp = "Row number of the compare result",
      .topic = "Compare",
      .description = std::string(
                         "pccl_desync_summary of a base and a target report, matched by PCCL kernel\n"
                         "name (its text, in the chosen name mode), ordered by the larger of the two\n"
                         "reports' Time descending.\n") +
                     kRatioDirection,
      .descriptionZh = std::string(
              "比较两个asysrep报告中的PCCL不同步汇总结果，匹配和比较两个报告中的PCCL kernel通信组的不同步占比。\n"
              "不同步比例计算方式为：(持续时间 - 重叠时间) / 持续时间。\n"
              "Desync P90列的计算方法为：将相同kernel名称的通信组统计结果根据不同步率升序排列，获取第90百分位的不同步率，本数值表示大部分PCCL通信不同步率优于此结果。\n"
              "通过kernel名称匹配两个asysrep报告的汇总结果，按照每个报告的通信组耗时占比降序输出。\n") +
          kRatioDirectionZh,
      .options = options,
      .columns = compareColumns(spec()),
      .needs = pcclDesyncNeeds(),
      .pie = {},
      .compare = &spec(),
      .memoryPerRow = 24,  // per row of the larger side: 19,220 KiB at scale 250, 35,120 at 1000, 75,824 at 2500 (20, 9 and 8 bytes; 2026-12-06)
  };
  return rule;
}

}  // namespace asys
