#pragma once
// Byte order of names by rank: sorting rows by a name compares two integers
// instead of two strings (a summary of 200 000 rows by range name spends
// most of its sort in memcmp otherwise).
#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "core/base/string_pool.h"

namespace asys {

class TextOrder {
 public:
  // Ranks the texts of `ids` (any order, repeats allowed; kNoString ranks first).
  TextOrder(const StringPool& strings, std::span<const uint32_t> ids) {
    std::vector<uint32_t> distinct(ids.begin(), ids.end());
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    std::sort(distinct.begin(), distinct.end(),
              [&](uint32_t a, uint32_t b) { return strings.get(a) < strings.get(b); });
    rank_.assign(strings.size(), 0);
    uint32_t r = 0;
    for (size_t i = 0; i < distinct.size(); ++i) {
      if (i > 0 && strings.get(distinct[i]) != strings.get(distinct[i - 1])) ++r;
      if (distinct[i] != kNoString) rank_[distinct[i]] = r + 1;
    }
  }
  // 0 for kNoString; equal texts have equal ranks.
  uint32_t rank(uint32_t id) const { return id == kNoString ? 0 : rank_[id]; }

 private:
  std::vector<uint32_t> rank_;
};

}  // namespace asys
