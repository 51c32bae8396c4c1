// The step bounds of Regex::search (core/base/regex.cc): one search, and all
// of one regex's searches in a run. The step counts are worked out from the
// pattern: `x.*[yz]` on n x's tries, from each of the n start positions, every
// length of `.*` before failing on `[yz]`: about n^2 / 2 steps in all.
#include <gtest/gtest.h>

#include <string>

#include "core/base/error.h"
#include "core/base/regex.h"

namespace asys {
namespace {

std::string errorOf(const Regex& re, const std::string& subject, int times = 1) {
  try {
    for (int i = 0; i < times; ++i) re.search(subject);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(RegexSteps, OneSearchPastTenMillionStepsIsAnError) {
  // 6000 x's: ~18 million steps, past the 10 million of one search.
  const Regex re("x.*[yz]", "range-include");
  EXPECT_EQ(errorOf(re, std::string(6000, 'x')),
            "range-include: regular expression 'x.*[yz]' took more than 10 million steps on a name of 6000 characters");
}

TEST(RegexSteps, SearchesThatBacktrackOnEveryNameEndTheRun) {
  // 2000 x's: 2000 * 2001 / 2 tries of `.*` plus two per start position,
  // 2,005,000 steps a search, under one search's bound; the run's
  // 50 million are passed on the 25th search.
  const Regex re("x.*[yz]", "--ppu-op-config 'T=kernel:x.*[yz]'");
  const std::string error = errorOf(re, std::string(2000, 'x'), 100);
  EXPECT_NE(error.find("--ppu-op-config 'T=kernel:x.*[yz]': regular expression 'x.*[yz]' took 5"), std::string::npos)
      << error;
  EXPECT_NE(error.find(" steps on 25 names (2.0 million a name), backtracking on every name"), std::string::npos) << error;
}

TEST(RegexSteps, SearchesAveragingOverTenThousandStepsEndTheRun) {
  // 200 x's: 200 * 201 / 2 tries of `.*` plus two per start position, 20,500
  // steps a search: far under one search's bound, over the run's average, so
  // the run ends once its steps pass 50 million, on the 2440th search.
  const Regex re("x.*[yz]", "range-include");
  const std::string error = errorOf(re, std::string(200, 'x'), 3000);
  EXPECT_NE(error.find("range-include: regular expression 'x.*[yz]' took 50.0 million steps on 2440 names"), std::string::npos) << error;
  EXPECT_NE(error.find(" (20.5 thousand a name), backtracking on every name"), std::string::npos) << error;
}

TEST(RegexSteps, ManyCheapSearchesNeverEndTheRun) {
  // Anchored, so one start position: ~2000 steps a search, 60 million over
  // 30000 searches, past the run's 50 million but at 2000 a name.
  const Regex re("^x.*[yz]", "range-include");
  EXPECT_EQ(errorOf(re, std::string(2000, 'x'), 30000), "");
  EXPECT_TRUE(re.search(std::string(2000, 'x') + "y"));
}

TEST(RegexSteps, EachSearchStartsItsOwnCount) {
  // 4000 x's: ~8 million steps, under the bound each time; three searches
  // take 24 million but at 8 million a name, under the run's 50 million.
  const Regex re("x.*[yz]", "range-include");
  EXPECT_EQ(errorOf(re, std::string(4000, 'x'), 3), "");
}

}  // namespace
}  // namespace asys
