// No a*b+c fusion: the CLI and WebAssembly print the same digits.
#include "core/base/fp_contract.h"

#include "core/base/exact_sum.h"

#include <cmath>

namespace asys {

void ExactSum::add(double x) {
  if (x == 0) return;
  if (!(x > 0) || !std::isfinite(x)) {
    ++inexact_;
    return;
  }
  int e = 0;
  const double f = std::frexp(x, &e);  // x = f 2^e, f in [0.5, 1)
  uint64_t m = static_cast<uint64_t>(std::ldexp(f, 53));  // x = m 2^(e-53), exactly
  int p = e - 53 + kFractionBits;  // m's lowest bit in the fixed point
  if (p < 0) {  // bits below 2^-64: the addend rounded to the nearest unit (ties to even)
    const int s = -p;
    if (s > 63) return;  // below half a unit
    const uint64_t rest = m & ((uint64_t{1} << s) - 1), half = uint64_t{1} << (s - 1);
    m >>= s;
    if (rest > half || (rest == half && (m & 1) != 0)) ++m;
    p = 0;
  }
  if (p + 53 > kTopBit) {  // 2^160 or more: the top 32 bits are the sums' carry room
    ++inexact_;
    return;
  }
  const unsigned __int128 shifted = static_cast<unsigned __int128>(m) << (p % 32);
  const int at = p / 32;
  for (int i = 0; i < 3 && at + i < kLimbs; ++i)
    limbs_[at + i] += static_cast<uint64_t>(shifted >> (32 * i)) & 0xFFFFFFFFu;
  if (++pending_ == (1u << 30)) carry();
}

void ExactSum::carry() {
  uint64_t c = 0;
  for (uint64_t& l : limbs_) {
    const uint64_t v = l + c;
    l = v & 0xFFFFFFFFu;
    c = v >> 32;
  }
  if (c != 0) ++inexact_;  // past 2^192: cannot happen below 2^31 addends of < 2^192 each
  pending_ = 0;
}

void ExactSum::merge(const ExactSum& other) {
  carry();
  const std::array<uint64_t, kLimbs> o = other.normalizedLimbs();
  for (int i = 0; i < kLimbs; ++i) limbs_[i] += o[i];
  carry();
  inexact_ += other.inexact_;
}

std::array<uint64_t, ExactSum::kLimbs> ExactSum::normalizedLimbs() const {
  ExactSum copy = *this;
  copy.carry();
  return copy.limbs_;
}

ExactSum ExactSum::ofLimbs(const std::array<uint64_t, kLimbs>& limbs, int64_t inexact) {
  ExactSum s;
  uint64_t c = 0;  // each limb below 2^63: limb + carry stays in 64 bits
  for (int i = 0; i < kLimbs; ++i) {
    const unsigned __int128 v = static_cast<unsigned __int128>(limbs[i]) + c;
    s.limbs_[i] = static_cast<uint64_t>(v & 0xFFFFFFFFu);
    c = static_cast<uint64_t>(v >> 32);
  }
  s.inexact_ = inexact + (c != 0 ? 1 : 0);
  return s;
}

double ExactSum::value() const {
  if (inexact_ != 0) return std::nan("");
  const std::array<uint64_t, kLimbs> l = normalizedLimbs();
  int top = kLimbs - 1;
  while (top >= 0 && l[top] == 0) --top;
  if (top < 0) return 0;
  // The top three limbs (up to 96 bits) and whether any bit below them is set.
  unsigned __int128 v = 0;
  for (int i = top; i >= top - 2; --i) v = (v << 32) | (i >= 0 ? l[i] : 0);
  bool sticky = false;
  for (int i = top - 3; i >= 0; --i) sticky = sticky || l[i] != 0;
  int exponent = 32 * (top - 2) - kFractionBits;
  int bits = 0;
  for (unsigned __int128 t = v; t != 0; t >>= 1) ++bits;
  if (bits > 53) {
    const int shift = bits - 53;
    const unsigned __int128 rest = v & ((static_cast<unsigned __int128>(1) << shift) - 1);
    const unsigned __int128 half = static_cast<unsigned __int128>(1) << (shift - 1);
    v >>= shift;
    exponent += shift;
    if (rest > half || (rest == half && (sticky || (v & 1) != 0))) ++v;  // to nearest, ties to even
  }
  return std::ldexp(static_cast<double>(static_cast<uint64_t>(v)), exponent);
}

}  // namespace asys
