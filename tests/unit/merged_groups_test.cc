// mergedGroupsOf with the values given as the spans' lengths
// (GroupedDurations::valuesAreSpanLengths, hgtx_ppu_proj_sum's own table)
// and with them given apart (a fleet state): the same statistics and unions.
#include "core/rules/common.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "core/gen/generator.h"
#include "core/report/report.h"
#include "core/rules/rule.h"
#include "core/table/writers.h"
#include "tests/unit/test_random.h"

namespace asys {
namespace {

std::vector<int64_t> fields(const DurationStats& s) { return {s.total, s.count, s.avg, s.med, s.min, s.max, s.stddev}; }

TEST(MergedGroups, ValuesAsSpanLengthsGiveWhatValuesGivenApartGive) {
  asys::test::Lcg random(777);
  auto next = [&](uint64_t n) { return random.below(n); };
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

std::string csvOf(const Table& t) {
  std::ostringstream out;
  writeCsv(t, out);
  return out.str();
}

// hgtx_ppu_proj_sum's own table (the values read from the spans, the
// projections as first activities) and its table made from its fleet state
// (values and span groups given apart, as the Python package reads them),
// each on a fresh open of a generated report: the same CSV.
TEST(MergedGroups, ProjectionSummaryOwnTableIsItsFleetStatesTable) {
  const std::string path =
      (std::filesystem::temp_directory_path() / ("asys-merged-" + std::to_string(::getpid()) + ".asysrep")).string();
  generateReport({.seed = 7, .scale = 0.25, .profile = "base"}, path);
  const RuleSpec* rule = findRule("hgtx_ppu_proj_sum");
  ASSERT_NE(rule, nullptr);
  for (const std::vector<std::string>& given : {std::vector<std::string>{}, std::vector<std::string>{"range-mode=full"}}) {
    const RuleOptions options = parseRuleOptions(*rule, given);
    auto own = Report::open(path);
    const std::string ownCsv = csvOf(runRule(*rule, *own, options));
    auto state = Report::open(path);
    RuleContext ctx{*state, options, {}, RuleConfig::defaults()};
    const std::string stateCsv = csvOf(groupsRuleTable(*rule, ctx));
    EXPECT_GT(ownCsv.size(), 1000u);
    EXPECT_EQ(ownCsv, stateCsv) << (given.empty() ? "" : given[0]);
  }
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace asys
