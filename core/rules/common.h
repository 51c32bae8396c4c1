#pragma once
// Pieces several rule declarations share: the documented options that recur
// (rows, device, base/mangled, hgtx-name, process, thread), the columns of
// the duration summaries, and their row builder.
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/analysis/kernel_names.h"
#include "core/analysis/stats.h"
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

// A duration summary's events before their statistics: each kept event's
// group and value, and per group the texts of the table's trailing columns.
// The rules of the durationSummaryTable family declare the function that
// makes it (RuleSpec::groupedDurations), so that a fleet run can merge the
// groups of many reports exactly and make the same table (docs/fleet.md).
struct GroupedDurations {
  std::vector<uint32_t> groupOf;
  std::vector<int64_t> values;
  size_t groupCount = 0;
  std::vector<std::vector<std::string>> texts;  // [text column][group]
};

// The table of a GroupedDurations: its groups summarised, then the function below.
Table durationSummaryTable(std::vector<ColumnSpec> columns, GroupedDurations groups);

// Fills those columns (plus the trailing text columns given per group),
// ordered by total time descending, then by the text columns ascending.
// Time (%) is over the sum of all groups, before any `rows` cut.
Table durationSummaryTable(std::vector<ColumnSpec> columns, const std::vector<DurationStats>& stats,
                           const std::vector<std::vector<std::string_view>>& texts);

// The same table as a view, for summaries of very many groups (hgtx_sum:
// one a distinct range name, a million on a large report), whose cells held
// whole would outweigh the rest of the rule: it keeps the statistics and
// the order (60 bytes a group); `text(c, g)`, group g's text in trailing
// column c, is asked when a row is made, and while the rows are sorted.
using GroupText = std::function<std::string_view(size_t column, uint32_t group)>;
Table durationSummaryView(std::vector<ColumnSpec> columns, std::vector<DurationStats> stats, size_t textColumns,
                          GroupText text);

}  // namespace asys
