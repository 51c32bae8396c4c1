#pragma once
// A rule's memory, estimated from the report's row counts before it runs:
// past the engine's memory budget (core/base/memory_budget.h) it is
// refused in one line within a second, where it would otherwise run out of
// memory after minutes of loading. An estimate that is wrong the other way
// still fails as before, in one line, when memory runs out.
#include <cstdint>

#include "core/rules/rule.h"

namespace asys {

class Report;

// Rows of the tables the rule needs (each need's table and alternatives,
// by their largest rowid: no scan) times its `memoryPerRow`; 0 when the
// rule declares none.
uint64_t estimateRuleMemory(const RuleSpec& rule, const Report& report);

// Throws Error ("out of memory: ...", one line) when the estimate for
// `report` (or the larger of a compare rule's base and target, whose sides
// run one after the other) is past the budget.
void checkRuleMemory(const RuleSpec& rule, const Report& report, const Report* target = nullptr);

}  // namespace asys
