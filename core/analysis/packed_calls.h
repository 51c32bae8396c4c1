#pragma once
// One process's launching calls by correlation id (LaunchIndex's dense
// table once built) in about 1 byte an id instead of 4, the same answers.
//
// A process's calls come in table order and its ids from a counter, so the
// call of id c grows with c at a steady rate (about one call an id, times
// the processes whose calls interleave with it). Per block of 64 ids one
// line (a base call and calls an id) and per id its signed byte off that
// line; a block whose calls stray further from its line (a jump in the
// order, ids out of order) keeps its 64 calls exact, 4 bytes each. NULL
// cells (no call with that id) are a reserved byte, so they stay exact too.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/analysis/key_join.h"

namespace asys {

class PackedCalls {
 public:
  PackedCalls() = default;
  // `callOf`: calls by id, kNoMatch (core/analysis/key_join.h) where none.
  explicit PackedCalls(const std::vector<uint32_t>& callOf);

  // The ids held: those past the last id with a call are left out.
  size_t size() const { return ids_; }
  // The call of `id` (< size()), or kNoMatch.
  uint32_t operator[](size_t id) const {
    const Block& b = blocks_[id / kBlock];
    const auto j = static_cast<int64_t>(id % kBlock);
    if (b.step == kExact) return exact_[size_t{b.base} * kBlock + static_cast<size_t>(j)];
    const int8_t off = offsets_[id];
    if (off == kNone) return kNoMatch;
    // Modulo 2^32: the base may be any value that makes the offsets fit.
    return b.base + static_cast<uint32_t>((int64_t{b.step} * j) >> kStepShift) +
           static_cast<uint32_t>(int32_t{off});
  }
  size_t bytes() const;
  size_t exactBlocks() const { return exact_.size() / kBlock; }

 private:
  static constexpr size_t kBlock = 64;
  static constexpr int kStepShift = 8;          // steps in 1/256 calls an id
  static constexpr int8_t kNone = INT8_MIN;     // no call has the id
  static constexpr int32_t kExact = INT32_MIN;  // the block's calls are in exact_
  struct Block {
    uint32_t base;  // the line's call at the block's first id; an exact block: its index in exact_
    int32_t step;   // the line's calls an id, << kStepShift; or kExact
  };
  void pack(const uint32_t* calls, size_t n, Block& block, int8_t* offsets);

  size_t ids_ = 0;
  std::vector<Block> blocks_;
  std::vector<int8_t> offsets_;  // by id (unused in an exact block)
  std::vector<uint32_t> exact_;
};

}  // namespace asys
