// ExactSum against sums worked out in 128-bit integers (an independent
// exact method: GCC converts an unsigned __int128 to the nearest double, ties
// to even), and against itself in every order and split into parts.
#include "core/base/exact_sum.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

namespace asys {
namespace {

TEST(ExactSum, RoundsOnceToNearestTiesToEven) {
  ExactSum a;
  a.add(9007199254740992.0);  // 2^53
  a.add(1);                   // 2^53 + 1: a tie, to the even 2^53
  EXPECT_EQ(a.value(), 9007199254740992.0);
  a.add(2);  // 2^53 + 3: a tie, to the even 2^53 + 4
  EXPECT_EQ(a.value(), 9007199254740996.0);
  ExactSum b;  // 1 + 2^-60 + ... stays exact below a double's precision, then rounds once
  b.add(1);
  for (int i = 0; i < 16; ++i) b.add(std::ldexp(1.0, -57));  // 16 x 2^-57 = 2^-53: half an ulp of 1
  EXPECT_EQ(b.value(), 1.0);                                  // a tie, to the even 1
  b.add(std::ldexp(1.0, -60));                                // past the tie
  EXPECT_EQ(b.value(), std::nextafter(1.0, 2.0));
  ExactSum none;
  EXPECT_EQ(none.value(), 0.0);
}

TEST(ExactSum, IntegersEqualTheir128BitSum) {
  std::mt19937_64 rng(7);
  for (int round = 0; round < 50; ++round) {
    std::vector<double> v;
    unsigned __int128 exact = 0;
    for (int i = 0; i < 1000; ++i) {
      const uint64_t m = rng() >> 11;          // 53 bits
      const int shift = static_cast<int>(rng() % 60);
      const double x = std::ldexp(static_cast<double>(m), shift);
      v.push_back(x);
      exact += static_cast<unsigned __int128>(m) << shift;
    }
    ExactSum s;
    for (double x : v) s.add(x);
    EXPECT_EQ(s.value(), static_cast<double>(exact));
    // Any order, and any split into parts merged (or added limb by limb), gives the same.
    std::shuffle(v.begin(), v.end(), rng);
    ExactSum left, right;
    for (size_t i = 0; i < v.size(); ++i) (i % 3 == 0 ? left : right).add(v[i]);
    ExactSum merged = left;
    merged.merge(right);
    EXPECT_EQ(merged.value(), s.value());
    std::array<uint64_t, ExactSum::kLimbs> limbs{};
    const auto l = left.normalizedLimbs(), r = right.normalizedLimbs();
    for (int i = 0; i < ExactSum::kLimbs; ++i) limbs[i] = l[i] + r[i];
    EXPECT_EQ(ExactSum::ofLimbs(limbs, 0).value(), s.value());
  }
}

TEST(ExactSum, FractionsDownTo2ToTheMinus64AreExact) {
  std::mt19937_64 rng(11);
  std::vector<double> v;
  unsigned __int128 units = 0;  // in 2^-64
  for (int i = 0; i < 1000; ++i) {
    const uint64_t m = rng() >> 11;
    const int shift = static_cast<int>(rng() % 60);  // m 2^-shift: bits from 2^-59 up
    v.push_back(std::ldexp(static_cast<double>(m), -shift));
    units += static_cast<unsigned __int128>(m) << (64 - shift);
  }
  ExactSum s;
  for (double x : v) s.add(x);
  EXPECT_EQ(s.value(), std::ldexp(static_cast<double>(units), -64));
}

TEST(ExactSum, WhatItCannotHoldIsUnknown) {
  ExactSum big;
  big.add(std::ldexp(1.0, 170));
  EXPECT_TRUE(std::isnan(big.value()));
  ExactSum negative;
  negative.add(-1);
  EXPECT_TRUE(std::isnan(negative.value()));
  ExactSum tiny;  // below half a unit of 2^-64: rounds to nothing
  tiny.add(std::ldexp(1.0, -70));
  EXPECT_TRUE(tiny.exact());
  EXPECT_EQ(tiny.value(), 0.0);
}

}  // namespace
}  // namespace asys
