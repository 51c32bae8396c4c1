#pragma once
// A small seeded generator for the tests that compare a fast form with a
// plain one on many made-up inputs: the same numbers on every machine and
// every run (Knuth's MMIX linear congruential constants), so a failure
// always reproduces.
#include <cstdint>

namespace asys::test {

class Lcg {
 public:
  explicit Lcg(uint64_t seed) : state_(seed) {}
  // The next 64-bit state.
  uint64_t next() { return state_ = state_ * 6364136223846793005ull + 1442695040888963407ull; }
  // A number in [0, n), from the state's high bits (the low ones cycle short).
  uint64_t below(uint64_t n) { return (next() >> 33) % n; }

 private:
  uint64_t state_;
};

}  // namespace asys::test
