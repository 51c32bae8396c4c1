#pragma once
// Values by dense group, filled in two passes over the same memberships: a
// count, then a fill. The values are held once, already grouped (8 bytes a
// value), where a (group, value) list grouped after holds 12 and its copy
// 8 more: what a summary of tens of millions of memberships can afford.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/analysis/stats.h"

namespace asys {

class GroupedValues {
 public:
  // The first pass: one call per membership (groups are found as it goes).
  void count(uint32_t group) {
    if (group + 2 > begin_.size()) begin_.resize(group + 2, 0);
    ++begin_[group + 1];
  }
  // Between the passes: `groups` of them, every counted one among them.
  void startFill(size_t groups);
  // The second pass: the same memberships, in any order.
  void add(uint32_t group, int64_t value) { values_[next_[group]++] = value; }

  size_t groups() const { return begin_.size() - 1; }
  std::span<int64_t> of(size_t group) { return {values_.data() + begin_[group], begin_[group + 1] - begin_[group]}; }
  // Each group's statistics (its values reordered in place).
  std::vector<DurationStats> summarize();

 private:
  std::vector<size_t> begin_{0}, next_;
  std::vector<int64_t> values_;
};

}  // namespace asys
