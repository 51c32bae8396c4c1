#pragma once
// The options the operator rules share (ppu_op_sum, moe_op_sum,
// ppu_op_trace, ppu_op_type_sum, the two breakdowns and their compare
// rules), worded as their sections and GUI parts word them, and the query
// they make of the operator engine.
#include <string>
#include <vector>

#include "core/operators/operator_set.h"
#include "core/rules/rule.h"

namespace asys {

// op=<operator_filter>: operator types separated by '/', `others` for the
// kernels no operator claims.
OptionSpec opFilterOption();
// order-by=<order_type>: the first choice is the default (by time share).
OptionSpec orderByOption(std::vector<std::string> choices, std::vector<std::string> labels,
                         std::vector<std::string> labelsZh);
// parse-from=<source_list>: the GUI's "Parse from" (default ALL).
OptionSpec parseFromOption();
// The six no-merge-* flags, one settings control "Merge operator parameters".
std::vector<OptionSpec> noMergeOptions();
// One of them alone, with the label a section gives it ("Merge MoE
// parameters", "Merge flash attention prefill decode operators").
OptionSpec noMergeOption(const std::string& name, const std::string& label, const std::string& labelZh);
// top=<limit>: compare only each report's first N rows.
OptionSpec topOption(const std::string& what);

// The engine query of a rule's options (op=, parse-from=, no-merge-*, and
// the activities and ranges every HGTX rule selects: device=,
// no-graph-mapping, range-include, range-exclude), its statistics time
// range and --ppu-op-config.
OperatorQuery operatorQuery(const RuleContext& ctx);

// The operator rules' shared data needs: PPU activities (HGTX and HGGC API
// data are used when present).
std::vector<DataNeed> operatorNeeds();

// The help sentence on custom rules every operator rule's description ends with.
extern const char* const kCustomRulesHelp;
// The same in Chinese (the documentation's --ppu-op-config paragraph), and
// the breakdown rules' wording of it (HGTX matches framework level, kernel
// matches kernel level).
extern const char* const kCustomRulesHelpZh;
extern const char* const kBreakdownCustomRulesHelpZh;

}  // namespace asys
