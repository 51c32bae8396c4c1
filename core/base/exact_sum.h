#pragma once
// A sum of non-negative doubles that does not depend on their order: every
// addend is added exactly into a fixed-point integer (units of 2^-64, 256
// bits, as 8 limbs of 32 bits), and read back rounded once to the nearest
// double (ties to even). Two sums merge by adding their limbs, so the sum of
// many reports' parts equals the sum over one merged report (asys fleet,
// docs/fleet.md). An addend's bits below 2^-64 are rounded to the nearest
// unit (ties to even: the same for every order); an addend of 2^160 or more,
// negative or not finite makes the sum unknown (NaN).
#include <array>
#include <cstdint>

namespace asys {

class ExactSum {
 public:
  static constexpr int kLimbs = 8;
  static constexpr int kFractionBits = 64;
  static constexpr int kTopBit = 224;  // an addend's bits stay below: it is below 2^160

  void add(double x);
  // Adds another sum's parts (its limbs and unknown addends).
  void merge(const ExactSum& other);
  // The nearest double to the exact sum (ties to even), or NaN.
  double value() const;
  bool exact() const { return inexact_ == 0; }

  // The parts, for a state that merges across reports: limbs below 2^32
  // after normalized(); a sum made of parts added limb by limb (each below
  // 2^63) reads the same as the sum of all their addends.
  std::array<uint64_t, kLimbs> normalizedLimbs() const;
  int64_t inexactCount() const { return inexact_; }
  static ExactSum ofLimbs(const std::array<uint64_t, kLimbs>& limbs, int64_t inexact);

 private:
  void carry();
  std::array<uint64_t, kLimbs> limbs_{};
  uint32_t pending_ = 0;  // adds since the last carry (each adds < 2^32 a limb)
  int64_t inexact_ = 0;
};

}  // namespace asys
