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
      &pcclOpSumRule(),
      &ppuMetricTraceRule(),
      &hgtxPushpopTraceRule(),
      // asys analyze
      &ppuGapsRule(),
      &ppuTimeUtilRule(),
      // compare rules (two reports), in the documentation's order
      &hgtxPpuProjectionSummaryCompareRule(),
      &pcclDesyncSummaryCompareRule(),
      &ppuTimeUtilCompareRule(),
      &ppuKernelSummaryCompareRule(),
  };
  return rules;
}

}  // namespace asys
