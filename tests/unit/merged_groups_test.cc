// mergedGroupsOf with the values given as the spans' lengths
// (GroupedDurations::valuesAreSpanLengths, hgtx_ppu_proj_sum's own table)
// and with them given apart (a fleet state): the same statistics and unions.
#include "core/rules/common.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace asys {
namespace {

std::vector<int64_t> fields(const DurationStats& s) { return {s.total, s.count, s.avg, s.med, s.min, s.max, s.stddev}; }

TEST(MergedGroups, ValuesAsSpanLengthsGiveWhatValuesGivenApartGive) {
  uint64_t seed = 777;
  auto next = [&](uint64_t n) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return (seed >> 33) % n;
  };
  for (int round = 0; round < 30; ++round) {
    const size_t groups = 1 + next(12), n = next(300);
    GroupedDurations apart, asLengths;
    apart.groupCount = asLengths.groupCount = groups;
    for (size_t i = 0; i < n; ++i) {
      const uint32_t g = static_cast<uint32_t>(next(groups));
      // Overlapping, touching, empty and long spans (past 4.3 s).
      const int64_t start = static_cast<int64_t>(next(1000)) * 10;
      const int64_t length = next(7) == 0 ? 5'000'000'000 : static_cast<int64_t>(next(40)) - 2;
      const Span s{start, start + length};
      apart.groupOf.push_back(g);
      apart.values.push_back(length);
      apart.spanGroup.push_back(g);
      apart.spans.push_back(s);
      asLengths.groupOf.push_back(g);
      asLengths.spans.push_back(s);
    }
    asLengths.valuesAreSpanLengths = true;
    const MergedGroups a = mergedGroupsOf(apart), b = mergedGroupsOf(asLengths);
    ASSERT_EQ(a.size(), groups);
    ASSERT_EQ(b.size(), groups);
    EXPECT_EQ(b.covered, a.covered) << "round " << round;
    for (size_t g = 0; g < groups; ++g) EXPECT_EQ(fields(b.stats[g]), fields(a.stats[g])) << "round " << round << " group " << g;
  }
}

}  // namespace
}  // namespace asys
