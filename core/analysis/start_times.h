#pragma once
// Times held in about 4 bytes each (hgtx_ppu_proj_trace's ranges' starts,
// by slot: in start order, and hgtx_kern_trace's as they come back from
// the sweep; a projection's or hgtx_kern_trace's activities' starts, in
// start order once sorted, about so as HGGC_KERNEL is scanned): each time's
// distance from the smallest of its block of 64, in 4 bytes while below
// 4.3 s (the few others exact beside, as NarrowInts does), and one 8-byte
// time a block. The same values whatever they are; small where neighbours
// are close, as sorted times are.
#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "core/base/passed_pages.h"

namespace asys {

class StartTimes {
 public:
  void assign(const std::vector<int64_t>& times) {
    const size_t n = times.size();
    base_.clear();
    low_.clear();
    wide_.clear();
    reserve(n);
    for (size_t from = 0; from < n; from += kBlock) appendBlock(times.data() + from, std::min(kBlock, n - from));
  }
  // Made a block at a time (a list read as a table is scanned): room for
  // n times, then blocks of kBlock times each (the last may be shorter,
  // and no block follows it).
  void reserve(size_t n) {
    low_.reserve(n);
    base_.reserve((n + kBlock - 1) / kBlock);
  }
  void appendBlock(const int64_t* times, size_t n) {
    const int64_t base = *std::min_element(times, times + n);
    base_.push_back(base);
    for (size_t k = 0; k < n; ++k) low_.push_back(lowOf(low_.size(), times[k], base));
  }
  // Made from n times given in any order, twice (forEach(put) calls
  // put(i, time) once for every i < n, the same each time): the first
  // pass finds each block's smallest time, the second each time's distance
  // from it. For times made again where they come by something else than
  // their index (the ranges' starts from the sweep's streams, a thread at
  // a time: RangeSweep::restoreSpans), so that they are never held in 8
  // bytes each. The same values as assign() would hold.
  template <typename ForEach>
  void assignTwice(size_t n, ForEach&& forEach) {
    base_.assign((n + kBlock - 1) / kBlock, INT64_MAX);
    low_.assign(n, 0);
    wide_.clear();
    forEach([this](size_t i, int64_t time) {
      int64_t& base = base_[i / kBlock];
      if (time < base) base = time;
    });
    forEach([this](size_t i, int64_t time) { low_[i] = lowOf(i, time, base_[i / kBlock]); });
  }
  // Block b's times made again, in another order or others (n: kBlock, or
  // fewer in the last block): a list sorted in place a window of whole
  // blocks at a time (PPU activities' sortInWindows).
  void setBlock(size_t b, const int64_t* times, size_t n) {
    const int64_t base = *std::min_element(times, times + n);
    base_[b] = base;
    const size_t first = b * kBlock;
    for (size_t k = 0; k < n; ++k) {
      if (low_[first + k] == kWide) wide_.erase(first + k);
      low_[first + k] = lowOf(first + k, times[k], base);
    }
  }
  size_t capacity() const { return low_.capacity(); }
  void shrink_to_fit() {
    low_.shrink_to_fit();
    base_.shrink_to_fit();
  }
  // The first `count` times' pages given back (giveBackPassed), by a last
  // reader that reads none of them again (a time held wide stays).
  void givePassedBack(size_t count) const { giveBackPassed(low_, count); }
  static constexpr size_t kBlock = 64;
  size_t size() const { return low_.size(); }
  int64_t operator[](size_t i) const {
    const uint32_t v = low_[i];
    return v != kWide ? base_[i / kBlock] + int64_t{v} : wideAt(i);
  }

 private:
  // Time i's distance from its block's smallest time `base`, or kWide with
  // the time kept whole in wide_ (a distance past 4.3 s, or past int64:
  // times far apart).
  uint32_t lowOf(size_t i, int64_t time, int64_t base) {
    const uint64_t d = static_cast<uint64_t>(time) - static_cast<uint64_t>(base);
    if (d < kWide) return static_cast<uint32_t>(d);
    wide_[i] = time;
    return kWide;
  }
  // Out of line, so that the common read stays small where it is inlined
  // (the trace's sort compares two starts a step).
  [[gnu::noinline]] int64_t wideAt(size_t i) const { return wide_.at(i); }
  static constexpr uint32_t kWide = UINT32_MAX;  // the time is in wide_
  std::vector<int64_t> base_;                    // by block: its smallest time
  std::vector<uint32_t> low_;                    // by time: its distance from that
  std::unordered_map<size_t, int64_t> wide_;
};

}  // namespace asys
