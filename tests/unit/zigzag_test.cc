// zigzag / unzigzag (core/base/zigzag.h): the order of small magnitudes,
// worked out by hand, and a round trip at the ends of int64.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

#include "core/base/zigzag.h"

namespace asys {
namespace {

TEST(Zigzag, SmallMagnitudesFirstEitherSign) {
  EXPECT_EQ(zigzag(0), 0u);
  EXPECT_EQ(zigzag(-1), 1u);
  EXPECT_EQ(zigzag(1), 2u);
  EXPECT_EQ(zigzag(-2), 3u);
  EXPECT_EQ(zigzag(63), 126u);
  EXPECT_EQ(zigzag(-64), 127u);
}

TEST(Zigzag, RoundTripsEveryEnd) {
  constexpr int64_t lo = std::numeric_limits<int64_t>::min(), hi = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(zigzag(hi), UINT64_MAX - 1);
  EXPECT_EQ(zigzag(lo), UINT64_MAX);
  for (int64_t v : {lo, lo + 1, int64_t{-3}, int64_t{0}, int64_t{5}, hi - 1, hi}) EXPECT_EQ(unzigzag(zigzag(v)), v);
}

}  // namespace
}  // namespace asys
