#include "core/rules/memory_estimate.h"

#include <set>
#include <string>

#include "core/base/error.h"
#include "core/base/memory_budget.h"
#include "core/base/stage_timer.h"
#include "core/report/report.h"

namespace asys {

namespace {

// The tables the rule needs (each need's table and its alternatives) that
// the report has rows in.
std::set<std::string> neededTables(const RuleSpec& rule, const Report& report) {
  std::set<std::string> tables;
  for (const DataNeed& need : rule.needs) {
    tables.insert(need.table);
    tables.insert(need.alternatives.begin(), need.alternatives.end());
  }
  std::set<std::string> present;
  for (const std::string& t : tables)
    if (report.rowEstimate(t) > 0) present.insert(t);
  return present;
}

uint64_t neededRows(const RuleSpec& rule, const Report& report) {
  uint64_t rows = 0;
  for (const std::string& t : neededTables(rule, report)) rows += report.rowEstimate(t);
  return rows;
}

}  // namespace

uint64_t estimateRuleMemory(const RuleSpec& rule, const Report& report) {
  return neededRows(rule, report) * rule.memoryPerRow;
}

void checkRuleMemory(const RuleSpec& rule, const Report& report, const Report* target) {
  // A compare rule runs its sides one after the other: the first is held as
  // the columns its output reads (packed while the other runs) and its
  // report given back (core/rules/compare.cc), so the larger side's rows
  // are what it needs, and a compare rule's memoryPerRow is per row of one
  // side (its peak over the larger side's rows).
  const uint64_t baseRows = neededRows(rule, report);
  const uint64_t targetRows = target ? neededRows(rule, *target) : 0;
  const bool targetLarger = targetRows > baseRows;
  const uint64_t rows = targetLarger ? targetRows : baseRows;
  profileNote("memory estimate " + rule.name + " " + std::to_string(rows) + " rows x " +
              std::to_string(rule.memoryPerRow) + " bytes");
  if (rule.memoryPerRow == 0) return;
  const uint64_t estimate = rows * rule.memoryPerRow;
  const uint64_t budget = memoryBudget();
  if (estimate <= budget) return;
  const std::set<std::string> tables = neededTables(rule, targetLarger ? *target : report);
  std::string names;
  for (const std::string& t : tables) names += (names.empty() ? "" : ", ") + t;
  throw Error("out of memory: about " + bytesText(estimate) + " needed for the " + std::to_string(rows) +
              " rows of " + names + (target ? " in the larger of the two reports" : "") + ", past the " + bytesText(budget) +
              " this engine may use (ASYS_MEMORY_BUDGET sets it); refused before it started");
}

}  // namespace asys
