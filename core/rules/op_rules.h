#pragma once
// What the operator compare rules take from the operator rules: each rule's
// options (with top= instead of rows=) and the table one report contributes,
// which adds the key columns rows match by (the merged parameters, not the
// representative names each report prints).
#include <vector>

#include "core/rules/rule.h"

namespace asys {

std::vector<OptionSpec> ppuOpSumOptions(bool compare);
Table ppuOpSumSide(RuleContext& ctx);  // honours top=
std::vector<ColumnSpec> ppuOpSumSideColumns();

std::vector<OptionSpec> ppuOpTypeSumOptions();
Table ppuOpTypeSumSide(RuleContext& ctx);

// ppu_op_kernel_breakdown (kernels = true) and ppu_op_breakdown.
std::vector<OptionSpec> breakdownOptions(bool kernels, bool compare);
Table breakdownSide(RuleContext& ctx, bool kernels);  // honours top=
std::vector<ColumnSpec> breakdownSideColumns(bool kernels);

}  // namespace asys
