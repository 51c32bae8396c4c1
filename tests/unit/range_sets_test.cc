// Interned range sets: equal members and flags give one id, any difference
// another; many sets (past the table's growth) keep their members.
#include "core/analysis/range_sets.h"

#include <gtest/gtest.h>

#include <map>
#include <vector>

namespace asys {
namespace {

TEST(RangeSets, EmptySetIsZeroAndEqualSetsShareAnId) {
  RangeSets s;
  EXPECT_EQ(s.intern(std::vector<uint32_t>{}), RangeSets::kEmpty);
  const uint32_t a = s.intern(std::vector<uint32_t>{1, 4, 9});
  EXPECT_NE(a, RangeSets::kEmpty);
  EXPECT_EQ(s.intern(std::vector<uint32_t>{1, 4, 9}), a);
  EXPECT_NE(s.intern(std::vector<uint32_t>{1, 4}), a);
  const std::vector<uint8_t> graph{0, 1, 0};
  const uint32_t b = s.intern(std::vector<uint32_t>{1, 4, 9}, graph);
  EXPECT_NE(b, a);  // the same ranges, one through a graph node
  EXPECT_EQ(s.viaGraph(b)[1], 1);
  EXPECT_EQ(s.members(a).size(), 3u);
  EXPECT_EQ(s.members(RangeSets::kEmpty).size(), 0u);
}

TEST(RangeSets, ManySetsAgainstAMap) {
  RangeSets s;
  std::map<std::vector<uint32_t>, uint32_t> seen{{{}, RangeSets::kEmpty}};
  uint64_t seed = 7;
  for (int i = 0; i < 20000; ++i) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    std::vector<uint32_t> m;
    for (uint32_t r = 0, k = (seed >> 40) % 5; r < k; ++r) m.push_back(static_cast<uint32_t>((seed >> (8 * r)) % 50));
    const uint32_t id = s.intern(m);
    auto [it, added] = seen.emplace(m, id);
    EXPECT_EQ(it->second, id);
    if (added) EXPECT_EQ(id + 1, s.size());
  }
  EXPECT_EQ(s.size(), seen.size());
  for (const auto& [m, id] : seen) EXPECT_EQ(std::vector<uint32_t>(s.members(id).begin(), s.members(id).end()), m);
}

}  // namespace
}  // namespace asys
