#pragma once
// The statistics time range of the global --filter-time / --filter-hgtx
// options: every rule keeps only events overlapping [start, end).
#include <cstdint>
#include <limits>
#include <string>

#include "core/analysis/intervals.h"

namespace asys {

class Report;

struct TimeWindow {
  int64_t start = std::numeric_limits<int64_t>::min();
  int64_t end = std::numeric_limits<int64_t>::max();

  bool isAll() const {
    return start == std::numeric_limits<int64_t>::min() && end == std::numeric_limits<int64_t>::max();
  }
  // Half-open overlap; an instant event [s, s) counts when start <= s < end.
  bool overlaps(int64_t s, int64_t e) const {
    if (e <= s) return start <= s && s < end;
    return s < end && e > start;
  }
};

// The statistics time range as one span, for rules that divide by its
// length (range-mode=full): each side of the window where it has one, else
// the report's capture start / end (META_DATA), else `fallback`'s side.
Span statisticsRange(const Report& report, const TimeWindow& window, Span fallback);

// --filter-time START/END: nanosecond offsets from the capture start
// (META_DATA captureStart, 0 when absent); either side may be empty.
// --filter-hgtx NAME[@DOMAIN][/INDEX]: the INDEX-th (from 0, by start time)
// range named NAME, in DOMAIN when the range has one; it overrides
// --filter-time. Throws Error naming the option and the problem.
TimeWindow resolveTimeWindow(Report& report, const std::string& filterTime, const std::string& filterHgtx);

}  // namespace asys
