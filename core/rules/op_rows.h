#pragma once
// The rows of ppu_op_sum (and what ppu_op_type_sum, ppu_op_unit_test and the
// compare rules build on): top-level operator instances grouped by OP Type
// and merged parameters, with their duration statistics, PPU active time and
// utilisation. The rows are made from the rules' state (common.h:
// GroupedDurations), so that one report and the reports of many ranks
// (asys fleet) make them in the same code.
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/analysis/stats.h"
#include "core/operators/device_peaks.h"
#include "core/operators/operator_set.h"
#include "core/operators/utilisation.h"
#include "core/rules/common.h"
#include "core/rules/rule.h"

namespace asys {

struct OpRow {
  std::string_view type, key;  // OP Type, the merged parameters (Operator Key)
  std::string_view name;       // OP Name: the earliest instance's (ties: the smallest name)
  DurationStats stats;         // of the instances' durations (projections)
  int64_t active = 0;          // the instances' PPU active times, summed
  UtilisationSum util;
};

struct OpRows {
  MergedGroups groups;  // what the rows' texts are views of
  std::vector<OpRow> rows;
  int64_t totalTime = 0;  // over all rows: Percent's whole
};

// The state of the operator rules (RuleSpec::groupedDurations): a group per
// (OP Type, Operator Key) with its instances' durations as values, its PPU
// active time and its utilisation's exact parts as sums (UtilisationSum::
// appendParts), and a group per row and report naming its earliest
// instance (start a kTime id, name a text). The set's warnings go with it.
// `report`: where the set's deferred names are read (OperatorQuery::
// deferNames), only those of the instances that may name a row.
GroupedDurations operatorGroups(const OperatorSet& ops, const TopLevelSpans& spans, const DevicePeaks& peaks,
                                const StringPool& names, Report* report = nullptr);
// The same, building the operator set of the rule's options.
GroupedDurations operatorGroups(RuleContext& ctx);

// Every top-level instance with activities, grouped by (type, key).
OpRows operatorRows(MergedGroups groups);
OpRows operatorRows(const OperatorSet& ops, const TopLevelSpans& spans, const DevicePeaks& peaks,
                    const StringPool& names);

// The order of `rows` under order-by (percent: Total Time descending), ties
// by Total Time, then OP Name, then OP Type, then Operator Key, in byte order.
std::vector<uint32_t> orderRows(const OpRows& rows, std::string_view orderBy);

// "a / b" in percent (one decimal, exact), unset when b is 0.
void setPercent(Table& t, size_t col, int64_t part, int64_t whole);
// A utilisation cell: the value, or "-" when unknown.
void setUtil(Table& t, size_t col, const std::optional<double>& v);

}  // namespace asys
