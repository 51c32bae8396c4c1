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
      &ppuDeviceAttributeRule(),
      &ppuMetricTraceRule(),
      &hgtxPushpopTraceRule(),
      // asys analyze
      &ppuGapsRule(),
      &ppuTimeUtilRule(),
  };
  return rules;
}

}  // namespace asys
