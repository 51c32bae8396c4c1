#pragma once
// Values by dense group (durations by summary row), filled in two passes
// over the same memberships (core/base/grouped_lists.h), then summarised.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/analysis/stats.h"
#include "core/base/grouped_lists.h"

namespace asys {

using GroupedValues = GroupedLists<int64_t, size_t>;

// Each group's statistics (its values reordered in place).
std::vector<DurationStats> summarizeEach(GroupedValues& values);

}  // namespace asys
