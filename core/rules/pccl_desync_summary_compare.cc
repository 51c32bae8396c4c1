// pccl_desync_summary_compare (PCCL不同步汇总比较): the PCCL desync summary of
// two reports, matched by kernel name.
#include "core/compare/compare.h"
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
      .options = options,
      .columns = compareColumns(spec()),
      .needs = pcclDesyncNeeds(),
      .pie = {},
      .compare = &spec(),
  };
  return rule;
}

}  // namespace asys
