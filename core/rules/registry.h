#pragma once
// Every rule's declaration, one function per rule file.
#include "core/rules/rule.h"

namespace asys {

const RuleSpec& deviceMemoryUsageDetailRule();
const RuleSpec& deviceMemoryUsageSummaryRule();
const RuleSpec& hggcApiSumRule();
const RuleSpec& hggcApiTraceRule();
const RuleSpec& hggcKernExecTraceRule();
const RuleSpec& hggcPpuKernGbSumRule();
const RuleSpec& hggcPpuKernGbTraceRule();
const RuleSpec& hggcPpuKernSumRule();
const RuleSpec& hggcPpuTraceRule();
const RuleSpec& hggcPpuMemSizeSumRule();
const RuleSpec& hggcPpuMemTimeSumRule();
const RuleSpec& hgtxKernSumRule();
const RuleSpec& hgtxKernTraceRule();
const RuleSpec& hgtxPpuProjSumRule();
const RuleSpec& hgtxPpuProjTraceRule();
const RuleSpec& hgtxSumRule();
const RuleSpec& hgtxPushpopTraceRule();
const RuleSpec& osrtSumRule();
const RuleSpec& pcclDesyncSummaryRule();
const RuleSpec& pcclDesyncTraceRule();
const RuleSpec& pcclOpSumRule();
const RuleSpec& pcclStageSumRule();
const RuleSpec& ppuDeviceAttributeRule();
const RuleSpec& ppuMetricTraceRule();
const RuleSpec& ppuGapsRule();
const RuleSpec& ppuTimeUtilRule();
const RuleSpec& ppuOpSumRule();
const RuleSpec& moeOpSumRule();
const RuleSpec& ppuOpTraceRule();
const RuleSpec& ppuOpTypeSumRule();
const RuleSpec& ppuOpKernelBreakdownRule();
const RuleSpec& ppuOpBreakdownRule();
const RuleSpec& ppuOpUnitTestRule();
const RuleSpec& ppuOperatorSummaryCompareRule();
const RuleSpec& ppuOperatorTypeSummaryCompareRule();
const RuleSpec& ppuOperatorKernelBreakdownCompareRule();
const RuleSpec& ppuOperatorBreakdownCompareRule();
const RuleSpec& hgtxPpuProjectionSummaryCompareRule();
const RuleSpec& pcclDesyncSummaryCompareRule();
const RuleSpec& ppuTimeUtilCompareRule();
const RuleSpec& ppuKernelSummaryCompareRule();

}  // namespace asys
