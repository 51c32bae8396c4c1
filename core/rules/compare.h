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

// The side-blocks layout (the breakdown compares): a group level of the side
// table, identified by its first `keys` Key columns, whose columns each
// report shows in its own block ("Base Framework OP", ..., "Target ...").
struct CompareLevel {
  size_t keys = 0;
  std::string share;                 // the side column ordering rows at this level
  std::vector<CompareValue> columns;  // `from`, and `name` without the Base/Target prefix
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
  // Side Key columns shown once, after Device Name: the same text on both
  // sides by construction (the OP Type).
  std::vector<std::string> sharedKeys;
  // A row whose key text is this one comes first whatever its share (the
  // type summary's "Summary").
  std::string pinnedKey;
  // Side blocks instead of "base / target" cells (`values` and `shownKey`
  // unused): each level's columns for the base, then for the target, then
  // `ratios` (their `ratio` columns only) from the deepest level's rows. A
  // side without the row shows the levels it does have (a kernel the target
  // lacks under a framework operator it has); rows are ordered level by
  // level by the larger of the two sides' shares.
  std::vector<CompareLevel> levels;
  std::vector<CompareValue> ratios;
};

// The compare table of two reports. `matchedOnly` keeps the rows both have.
Table compareTables(const CompareSpec& spec, RuleContext& base, RuleContext& target, bool matchedOnly);

// The output columns (for the rule's declaration: help, panel, pie).
std::vector<ColumnSpec> compareColumns(const CompareSpec& spec);

}  // namespace asys
