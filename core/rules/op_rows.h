#pragma once
// The rows of ppu_op_sum (and what ppu_op_type_sum and the compare rules
// build on): top-level operator instances grouped by OP Type and merged
// parameters, with their duration statistics, PPU active time and
// utilisation.
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/analysis/stats.h"
#include "core/operators/device_peaks.h"
#include "core/operators/operator_set.h"
#include "core/operators/utilisation.h"
#include "core/rules/rule.h"

namespace asys {

struct OpRow {
  uint32_t type = 0, key = 0;  // recognizer ids
  uint32_t name = kNoString;   // report string id: the earliest instance's OP Name
  int64_t firstStart = INT64_MAX;
  DurationStats stats;         // of the instances' durations (projections)
  int64_t active = 0;          // the instances' PPU active times, summed
  UtilisationSum util;
};

struct OpRows {
  std::vector<OpRow> rows;
  int64_t totalTime = 0;  // over all rows: Percent's whole
};

// Every top-level instance with activities, grouped by (type, key).
OpRows operatorRows(const OperatorSet& ops, const GroupUnions& spans, const DevicePeaks& peaks);

// The order of `rows` under order-by (percent: Total Time descending), ties
// by Total Time, then OP Name, then OP Type, in byte order.
std::vector<uint32_t> orderRows(const OpRows& rows, const OperatorSet& ops, const StringPool& names,
                                std::string_view orderBy);

// "a / b" in percent (one decimal, exact), unset when b is 0.
void setPercent(Table& t, size_t col, int64_t part, int64_t whole);
// A utilisation cell: the value, or "-" when unknown.
void setUtil(Table& t, size_t col, const std::optional<double>& v);

}  // namespace asys
