#include "core/rules/registry.h"

namespace asys {

const std::vector<const RuleSpec*>& allRules() {
  // In the documentation's order.
  static const std::vector<const RuleSpec*> rules = {
      &deviceMemoryUsageSummaryRule(),  // 2.3.1
      &deviceMemoryUsageDetailRule(),
      &hggcApiSumRule(),
      &hggcApiTraceRule(),
      &hggcKernExecTraceRule(),
      &hggcPpuKernGbSumRule(),
      &hggcPpuKernGbTraceRule(),
      &hggcPpuKernSumRule(),
      &hggcPpuTraceRule(),
      &hgtxKernSumRule(),
      &hgtxKernTraceRule(),
      &hgtxPpuProjSumRule(),
      &hgtxPpuProjTraceRule(),
      &hgtxSumRule(),
      &osrtSumRule(),
      &pcclStageSumRule(),
      &hggcPpuMemSizeSumRule(),
      &hggcPpuMemTimeSumRule(),
      &pcclDesyncTraceRule(),
      &pcclDesyncSummaryRule(),
      &ppuDeviceAttributeRule(),
      &ppuOpSumRule(),  // 2.3.21
      &moeOpSumRule(),
      &pcclOpSumRule(),
      &ppuMetricTraceRule(),
      &hgtxPushpopTraceRule(),
      &ppuOpTraceRule(),  // 2.3.26
      &ppuOpTypeSumRule(),
      &ppuOpKernelBreakdownRule(),
      &ppuOpBreakdownRule(),
      &ppuOpUnitTestRule(),  // 2.3.30
      // asys analyze
      &ppuGapsRule(),
      &ppuTimeUtilRule(),
      // compare rules (two reports), in the documentation's order
      &hgtxPpuProjectionSummaryCompareRule(),
      &ppuOperatorSummaryCompareRule(),
      &ppuOperatorTypeSummaryCompareRule(),
      &pcclDesyncSummaryCompareRule(),
      &ppuTimeUtilCompareRule(),
      &ppuOperatorKernelBreakdownCompareRule(),
      &ppuOperatorBreakdownCompareRule(),
      &ppuKernelSummaryCompareRule(),  // named only in the manual's asys compare
  };
  return rules;
}

}  // namespace asys
