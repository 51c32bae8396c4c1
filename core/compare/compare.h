#pragma once
// The compare layer: one implementation turns a rule's table into its
// compare table (the documentation's "报告对比" rules). A compare rule is a
// short declaration over the table each report contributes: which columns
// match rows across the two reports (by their text, never by per-report
// string ids): the side table's Key columns (ColumnRole), which value
// columns become "base / target" cells, which ratio
// columns follow them, and which share orders the rows.
#include <functional>
#include <string>
#include <vector>

#include "core/table/table.h"

namespace asys {

class Report;
struct RuleContext;

struct CompareValue {
  std::string from;  // the side table's column
  // The output column; empty = the side column's own name, unit and help.
  std::string name, help;
  // A ratio column right after it, "" for none: base / target, one decimal
  // ("-" when a side is missing or zero). For times > 1.0 means the target is
  // faster (output-conventions.md: one direction everywhere).
  std::string ratio, ratioHelp;
};

struct CompareSpec {
  // The table one report contributes, computed with the compare rule's
  // options in that report's own context (its own statistics time range).
  std::function<Table(RuleContext&)> side;
  std::vector<ColumnSpec> sideColumns;  // the columns `side` writes
  // The key column shown once per side as "Base <label>" / "Target <label>"
  // (last in the table, as every compare section lists them).
  std::string shownKey, shownLabel, shownHelp;
  // A leading "Device Name" cell ("base / target"): from the side column of
  // that name when the side table has one, else the report's PPU name.
  bool deviceName = true;
  // The side column (a percentage) whose larger side orders the rows,
  // descending; ties by key.
  std::string share;
  std::vector<CompareValue> values;
};

// The compare table of two reports. `matchedOnly` keeps the rows both have.
Table compareTables(const CompareSpec& spec, RuleContext& base, RuleContext& target, bool matchedOnly);

// The output columns (for the rule's declaration: help, panel, pie).
std::vector<ColumnSpec> compareColumns(const CompareSpec& spec);

}  // namespace asys
