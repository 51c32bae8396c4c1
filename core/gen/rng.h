#pragma once
// The generator's own random numbers: xoshiro256** seeded through
// splitmix64, with distributions built from +, *, / only, so the same seed
// gives the same bytes with any compiler and C library (std::*_distribution
// is implementation-defined, and libm functions may differ across builds).
#include <cstdint>

#include "core/base/fp_contract.h"

namespace asys::gen {

inline uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

class Rng {
 public:
  // `stream` separates independent sequences derived from one seed, so a
  // consumer whose number of draws varies cannot shift another's sequence.
  explicit Rng(uint64_t seed, uint64_t stream = 0) {
    uint64_t st = seed ^ (stream * 0xD1B54A32D192ED03ull);
    for (uint64_t& w : s_) w = splitmix64(st);
  }

  uint64_t next() {
    const uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  // Uniform in [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0); }
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
  // Uniform integer in [lo, hi] (inclusive).
  int64_t range(int64_t lo, int64_t hi) {
    const uint64_t span = static_cast<uint64_t>(hi - lo) + 1;
    return lo + static_cast<int64_t>(next() % span);
  }
  bool chance(double p) { return uniform() < p; }

  // Approximately standard normal: Irwin-Hall sum of four uniforms, scaled
  // to unit variance (bounded to about +-3.46, which suits durations).
  double gauss() {
    double s = uniform();  // one draw per statement: the order is fixed
    s += uniform();
    s += uniform();
    s += uniform();
    return (s - 2.0) * 1.7320508075688772;
  }

  // Multiplicative noise around 1 with relative standard deviation `rel`.
  double jitter(double rel) {
    const double f = 1.0 + rel * gauss();
    return f < 0.2 ? 0.2 : f;
  }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

// Rounds a non-negative double to the nearest integer nanosecond.
inline int64_t ns(double v) { return static_cast<int64_t>(v + 0.5); }

}  // namespace asys::gen
