#pragma once
// Pieces several rule declarations share: the documented options that recur
// (rows, device, base/mangled, hgtx-name, process, thread), the columns of
// the duration summaries, and their row builder.
#include <span>
#include <functional>
#include <string>
#include <utility>
#include <string_view>
#include <vector>

#include "core/analysis/kernel_names.h"
#include "core/analysis/grouped_values.h"
#include "core/analysis/intervals.h"
#include "core/analysis/stats.h"
#include "core/base/string_pool.h"
#include "core/report/asysrep_tables.h"
#include "core/rules/rule.h"

namespace asys {

// rows=<limit>: at most `limit` rows; -1 (the default unless given) is no limit.
OptionSpec rowsOption(const std::string& what, int64_t defaultLimit = -1);
OptionSpec deviceOption();
OptionSpec kernelNameModeOption();
OptionSpec hgtxNameOption();
OptionSpec processOption();
OptionSpec threadOption();

KernelNameMode kernelNameMode(const RuleOptions& options);

// HGGC_KERNEL, HGGC_MEMCPY or HGGC_MEMSET: any PPU activity.
DataNeed ppuActivityNeed();

// True when `id` passes an optional id list (absent list = everything).
bool inList(const std::optional<std::vector<int64_t>>& list, int64_t id);

// Time (%), Total Time, <count>, Avg, Med, Min, Max, StdDev for a subject
// ("function", "kernel", "range") as the rule sections word them.
std::vector<ColumnSpec> durationSummaryColumns(const std::string& countColumn,
                                               const std::string& countHelp,
                                               const std::string& subject,
                                               const std::string& totalHelp);

// An integer key of a group, with the id kind that says how `asys merge`
// renumbers it (core/report/asysrep_tables.h: kPlain, kTime, kThread,
// kPid, kDevice): a fleet run renumbers each report's keys the same way, so
// that its table names what the merged report's names.
struct IdColumn {
  IdKind kind = IdKind::kPlain;
  std::vector<int64_t> values;  // by group; kNoValue: none
};

// A rule's state that merges exactly across reports (asys fleet,
// docs/fleet.md), the groups of its table before their statistics: each
// kept event's group and value (a duration, a size), and per group its keys
// (integer ids and texts) and the integer columns that add up across
// reports. Two reports' groups with equal keys are one group of the merged
// report. The rules that declare the function that makes it
// (RuleSpec::groupedDurations) make their own table from it too, through
// RuleSpec::groupsTable, so that a fleet run makes the same table.
// The distinct key texts of a rule's groups, each once (GroupedDurations::
// textIds): a report's hgtx_sum has a group a distinct range name, 120 k on
// a 190 MB rank report, where a std::string a group and column held 32
// bytes and a heap block each while the state was made. A text is the
// report's own string (`refer`: its id, 4 bytes, no copy; read from the
// report's pool when asked, so the groups must not outlive the report, as
// they do not: a rule's table or a fleet task's state is made while it is
// open) or a copy (`add`).
class TextPool {
 public:
  TextPool() = default;
  explicit TextPool(const StringPool& strings) : strings_(&strings) {}
  // Ids count from 0 in order of addition. The pool does not look for an
  // equal text: its caller adds each distinct text once (by string id, say).
  uint32_t add(std::string_view text) {
    entries_.push_back(kOwned | static_cast<uint32_t>(owned_.size()));
    owned_.emplace_back(text);
    return static_cast<uint32_t>(entries_.size() - 1);
  }
  uint32_t refer(uint32_t stringId) {  // a pool made with the report's strings
    if (stringId == kNoString) return add(strings_->get(kNoString));  // its text ("")
    entries_.push_back(stringId);  // a pool id: below 2^31
    return static_cast<uint32_t>(entries_.size() - 1);
  }
  std::string_view get(uint32_t id) const {
    const uint32_t e = entries_[id];
    return (e & kOwned) ? std::string_view(owned_[e & ~kOwned]) : strings_->get(e);
  }
  size_t size() const { return entries_.size(); }

 private:
  static constexpr uint32_t kOwned = 0x80000000u;  // else a string id (below 2^31)
  const StringPool* strings_ = nullptr;
  std::vector<uint32_t> entries_;  // by id: the report's string id, or kOwned | its index in owned_
  std::vector<std::string> owned_;
};

struct GroupedDurations {
  std::vector<uint32_t> groupOf;
  std::vector<int64_t> values;
  size_t groupCount = 0;
  std::vector<std::vector<std::string>> texts;  // [text column][group]
  // Or the texts as ids into one pool, [text column][group] (hgtx_sum):
  // one copy of each distinct text. A rule gives `texts` or these, not both.
  std::vector<std::vector<uint32_t>> textIds;
  TextPool textPool;
  // Or the values already grouped, groupCount lists (groupOf, values empty).
  GroupedValues grouped;
  std::vector<IdColumn> ids;                     // [id column].values[group]
  std::vector<std::vector<int64_t>> sums;        // [sum column][group]
  // Spans whose union per group the table shows (hgtx_ppu_proj_sum's Proj
  // Active Time): span i belongs to group spanGroup[i]; times on the
  // report's clock (asys fleet shifts them as kTime ids). Reports' unions
  // overlap, so they merge as spans, not as sums.
  std::vector<uint32_t> spanGroup;
  std::vector<Span> spans;
  // Or the values are the spans' lengths, groupOf the spans' groups, and
  // values and spanGroup are left empty, so that neither is held beside the
  // spans (hgtx_ppu_proj_sum's own table: its merge was its peak at scale
  // 2500). Only a rule's own table sets it: a fleet state (asys fleet, the
  // Python package) has them all.
  bool valuesAreSpanLengths = false;
  std::vector<std::string> warnings;             // the report's, as its table has them
};

// Groups with their values' statistics: one report's (mergedGroupsOf), or
// the groups of many reports merged (asys fleet). A group may have no
// values (count 0): a rule whose groups carry sums only.
struct MergedGroups {
  std::vector<std::vector<std::string>> texts;
  std::vector<IdColumn> ids;
  std::vector<std::vector<int64_t>> sums;
  std::vector<DurationStats> stats;
  // By group, the length of the union of its spans (GroupedDurations::spans);
  // empty for a rule without spans.
  std::vector<int64_t> covered;
  size_t size() const { return stats.size(); }
};
MergedGroups mergedGroupsOf(GroupedDurations groups);

// Renumbers the id columns as asys merge renumbers a report's ids: `pids`
// and `devices` are (old, new) pairs of the ids that change, `timeShift`
// what its times move by, `kernelRowShift` its kernel positions.
void renumberIds(std::vector<IdColumn>& ids, std::span<const std::pair<int64_t, int64_t>> pids,
                 std::span<const std::pair<int64_t, int64_t>> devices, int64_t timeShift,
                 int64_t kernelRowShift);

// The rule's table of its groups (RuleSpec::groupsTable; unset: the duration
// summary table of the rule's columns), before `rows`.
Table tableOfGroups(const RuleSpec& rule, const MergedGroups& groups, const RuleOptions& options);

// Ranks of texts in byte order (equal texts, equal ranks): rows sorted by a
// name compare two integers.
std::vector<uint32_t> textRanks(const std::vector<std::string>& texts);

// A rule's table as RuleSpec::compute makes it for one report: its groups
// (groupedDurations), their statistics, its groupsTable.
Table groupsRuleTable(const RuleSpec& rule, RuleContext& ctx);

// The table of a GroupedDurations: its groups summarised, then the function below.
Table durationSummaryTable(std::vector<ColumnSpec> columns, GroupedDurations groups);
Table durationSummaryTable(std::vector<ColumnSpec> columns, const MergedGroups& groups);

// Fills those columns (plus the trailing text columns given per group),
// ordered by total time descending, then by the text columns ascending.
// Time (%) is over the sum of all groups, before any `rows` cut.
Table durationSummaryTable(std::vector<ColumnSpec> columns, const std::vector<DurationStats>& stats,
                           const std::vector<std::vector<std::string_view>>& texts);

// The same table as a view, for summaries of very many groups (hgtx_sum:
// one a distinct range name, a million on a large report), whose cells held
// whole would outweigh the rest of the rule: it keeps the statistics and
// the order (60 bytes a group); `text(c, g)`, group g's text in trailing
// column c, is asked when a row is made, and while the rows are sorted;
// the text it gives stays valid while the view lives (a chunk's texts are
// all asked before its rows are made).
using GroupText = std::function<std::string_view(size_t column, uint32_t group)>;
Table durationSummaryView(std::vector<ColumnSpec> columns, std::vector<DurationStats> stats, size_t textColumns,
                          GroupText text);
// Its order made apart (groups by `totals` descending, then the texts as
// above), and the view given it: the fleet sorts its merged groups while
// their medians are still being selected (docs/fleet.md).
std::vector<uint32_t> durationSummaryOrder(const std::vector<int64_t>& totals, size_t textColumns, const GroupText& text);
Table durationSummaryView(std::vector<ColumnSpec> columns, std::vector<DurationStats> stats, size_t textColumns,
                          GroupText text, std::vector<uint32_t> order);

}  // namespace asys
