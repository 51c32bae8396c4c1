#pragma once
// A statistics rule, declared once. The declaration feeds the CLI parser,
// `--help-report`, the viewer's settings panel, the table header and the pie
// chart; `compute` turns a report into the rule's table.
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/analysis/time_window.h"
#include "core/rules/rule_config.h"
#include "core/table/table.h"

namespace asys {

class Report;
struct CompareSpec;
struct GroupedDurations;
struct MergedGroups;

enum class OptionKind {
  Flag,            // `name` alone
  Int,             // `name=<n>`
  IdList,          // `name=<id>/<id>...` (devices, PIDs, TIDs)
  Choice,          // `name=<value>` from `choices`
  ExclusiveFlags,  // one of `flags` alone (e.g. base | mangled), or none
  Regex,           // `name=<regex>`: a PCRE2 pattern, compiled (checked) when parsed
  RegexList,       // `name=<regex>/<regex>...`: `\/` is a literal '/' inside one
  ChoiceList,      // `name=<value>/<value>...`, each from `choices` (a multi-select; none = all)
  TextList,        // `name=<text>/<text>...`: names the rule checks itself (operator types)
};

struct FlagSpec {
  std::string name;
  std::string label;  // settings panel text
  std::string help;
  // `help` in Chinese (the documentation's wording). The label has none: the
  // documentation keeps the modes' names (Base, Mangled) in its Chinese text.
  std::string helpZh;
};

struct OptionSpec {
  std::string name;         // CLI name (for ExclusiveFlags: the group's id)
  OptionKind kind;
  std::string placeholder;  // `<limit>` in `rows=<limit>`
  std::string label;        // settings panel label
  std::string labelZh;      // the same in Chinese (the rule documentation's wording)
  std::string help;         // help text, may span lines
  // `help` in Chinese, for the viewer (the CLI's help stays English): the
  // documentation's wording of the option (its bullet under 支持的选项列举如下,
  // or its 规则设置 entry), one sentence or bullet per line.
  std::string helpZh;
  std::string defaultValue; // "" = none (all devices, no limit, ...)
  std::string defaultLabel; // how the panel shows the default ("All", "Demangled")
  std::string defaultLabelZh;  // the same in Chinese ("" = `defaultLabel`)
  std::vector<std::string> choices;  // Choice
  std::vector<std::string> choiceLabels;  // Choice: the panel's text per choice ("" = the value)
  // Choice / ChoiceList: the panel's Chinese text per choice ("" or missing = the English one).
  std::vector<std::string> choiceLabelsZh;
  std::vector<FlagSpec> flags;       // ExclusiveFlags
  // A Flag that turns something off (`no-graph-mapping`): the panel shows a
  // checkbox for the thing itself, ticked by default, with `label`.
  bool inverted = false;
  // Int: the accepted range (checked when parsed).
  std::optional<int64_t> minValue, maxValue;
  // Options that one settings-panel control shows together (the operator
  // rules' six no-merge-* flags are the GUI's one "Merge operator
  // parameters"): the control's label; "" = a control of its own.
  std::string group;
  std::string groupZh;  // the group's label in Chinese
};

// A table the rule reads and the collection option that produces it. With
// `alternatives`, data in any one of `table` and the alternatives is enough
// (a rule that reads whichever of several tables the report has).
struct DataNeed {
  std::string table;
  std::string what;        // "HGGC kernel data"
  std::string collection;  // "--trace hggc"
  std::vector<std::string> alternatives;  // other tables that also satisfy the need

  bool metBy(const Report& report) const;
  // "WHAT (table T, collected with C)"; "(table T or U, ...)" with alternatives.
  std::string missingText() const;
};

// Pie chart: sum `valueColumn` per distinct value of the chosen key column,
// or, with `countRows`, count the rows per value ("which device is most
// often last").
struct PieSpec {
  std::string valueColumn;
  std::vector<std::string> keyColumns;  // the dimension switch, first = default
  bool countRows = false;
};

// Options as given, validated against the declaration.
class RuleOptions {
 public:
  bool flag(const std::string& name) const { return values_.count(name) > 0; }
  std::optional<std::string> value(const std::string& name) const;
  std::optional<int64_t> intValue(const std::string& name) const;
  // Empty optional = option absent (no filter).
  std::optional<std::vector<int64_t>> idList(const std::string& name) const;
  // The values of a ChoiceList (or any '/'-separated list); empty when absent.
  std::vector<std::string> list(const std::string& name) const;
  void set(const std::string& name, const std::string& value) { values_[name] = value; }
  const std::map<std::string, std::string>& all() const { return values_; }

 private:
  std::map<std::string, std::string> values_;
};

struct RuleContext {
  Report& report;
  const RuleOptions& options;
  TimeWindow window;  // keep only events overlapping it
  const RuleConfig& config;  // the global options (--callstack-group-config, ...)
};

// Which command runs the rule: `asys stats`, or `asys analyze` (the
// expert-system rules of the full manual).
enum class RuleCommand { Stats, Analyze };

struct RuleSpec {
  std::string name;
  std::string title;
  // The title in Chinese: the rule documentation's section title
  // (asys-stats-rules.zh.txt, "2.3.7 HGGC PPU kernel汇总" without the number).
  std::string titleZh;
  std::string rowHelp;      // the Row# line of the help: "Row number of the kernel summary"
  std::string topic;        // rule list group: "HGGC", "HGTX", "OS runtime", "Device"
  std::string description;  // the rule's computation, for help and the panel
  // The description in Chinese, for the viewer: the documentation's 统计规则
  // of the rule (asys-stats-rules.zh.txt), trimmed to what `description`
  // covers, one paragraph per line.
  std::string descriptionZh;
  std::vector<OptionSpec> options;
  // The global options (rule_config.h) the rule reads: named in its help,
  // shown in its settings panel.
  std::vector<std::string> globalOptions;
  std::vector<ColumnSpec> columns;  // without Row#, which every table has
  std::vector<DataNeed> needs;
  PieSpec pie;
  // Columns whose selected rows the viewer sums (the documentation's "通过选中
  // 行来统计求列和": the sums of the selected rows, or of all rows, under the
  // header).
  std::vector<std::string> sumColumns;
  // The first column's text of a summary row the table always has (the
  // operator type summary's "Summary"): not a row of its own to the viewer's
  // selected-row sums and pie chart. "" when none.
  std::string summaryRow;
  // Rows that are paths through nested groups (the operator breakdowns'
  // framework -> library -> kernel): the columns that start each level, in
  // order. A level's cells are its start column and those after it up to the
  // next level's (the columns before the first belong to the first level).
  // The viewer shows such a table also as an expandable tree. Empty: flat.
  std::vector<std::string> treeLevels;
  std::function<Table(RuleContext&)> compute;  // one report (unset for a compare rule)
  // A duration summary's groups before their statistics (common.h), which
  // `compute` makes its table of: set, the rule's state merges exactly
  // across reports (asys fleet, docs/fleet.md). Unset for the other rules.
  std::function<GroupedDurations(RuleContext&)> groupedDurations;
  // The table of those groups with their statistics, of one report or of
  // many merged (the rule's `compute` is groupsRuleTable, common.h, so both
  // are made here). Unset with groupedDurations set: durationSummaryTable.
  std::function<Table(const MergedGroups&, const RuleOptions&)> groupsTable;
  RuleCommand command = RuleCommand::Stats;
  // A compare rule (two reports, base first) instead of `compute`.
  const CompareSpec* compare = nullptr;
  // The rule's peak memory in bytes a row of the tables it needs (`needs`,
  // with their alternatives), measured on the generator's reports
  // (bench/rule-peaks.sh prints it): what the engine's estimate multiplies
  // the report's rows by to refuse a rule past its memory budget before it
  // starts (core/rules/memory_estimate.h). 0: never refused.
  uint32_t memoryPerRow = 0;
};

const std::vector<const RuleSpec*>& allRules();
const RuleSpec* findRule(const std::string& name);

// Parses `opt`, `opt=value` items (already split on unescaped ':') against
// the rule's declaration; throws Error naming the rule and the option.
// Options with a declared default that are not given read as the default.
RuleOptions parseRuleOptions(const RuleSpec& rule, const std::vector<std::string>& items);

// Runs the rule: checks its data needs (MissingDataError naming table and
// collection option), computes, applies `rows`.
Table runRule(const RuleSpec& rule, Report& report, const RuleOptions& options,
              const TimeWindow& window = {}, const RuleConfig& config = RuleConfig::defaults());

// The groups of a duration summary (RuleSpec::groupedDurations, common.h)
// after the checks runRule makes: what a fleet run takes from each report.
// Throws Error for a rule that declares none.
GroupedDurations runGroupedDurations(const RuleSpec& rule, Report& report, const RuleOptions& options,
                                     const TimeWindow& window = {}, const RuleConfig& config = RuleConfig::defaults());

// Runs a compare rule on a base and a target report, each with its own
// statistics time range; checks both reports' data needs.
Table runCompareRule(const RuleSpec& rule, Report& base, Report& target, const RuleOptions& options,
                     const TimeWindow& baseWindow, const TimeWindow& targetWindow,
                     const RuleConfig& config = RuleConfig::defaults());

}  // namespace asys
