#pragma once
// Rows put together by group in place: row i's group is groupOf[i] (below
// groupCount); the rows of group g end up at [begin[g], begin[g + 1]), every
// column given swapped along with groupOf. Each swap puts one row in its
// place for good (n swaps at most) and no column is copied, so grouping
// costs the offsets alone. Within a group the rows come in the order the
// swaps leave, the same for every caller (summarizeGroupsInPlace's values
// and SpanGroups' spans are grouped alike).
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace asys {

// Returns begin: groupCount + 1 offsets.
template <typename... Columns>
std::vector<size_t> groupInPlace(std::vector<uint32_t>& groupOf, size_t groupCount, Columns&... columns) {
  std::vector<size_t> begin(groupCount + 1, 0);
  for (uint32_t g : groupOf) ++begin[g + 1];
  for (size_t g = 0; g < groupCount; ++g) begin[g + 1] += begin[g];
  std::vector<size_t> next(begin.begin(), begin.end() - 1);  // by group: its first place not yet holding one of its rows
  for (uint32_t g = 0; g < groupCount; ++g) {
    for (size_t& i = next[g]; i < begin[g + 1];) {
      const uint32_t other = groupOf[i];
      if (other == g) {
        ++i;
        continue;
      }
      const size_t j = next[other]++;
      (std::swap(columns[i], columns[j]), ...);
      std::swap(groupOf[i], groupOf[j]);
    }
  }
  return begin;
}

}  // namespace asys
