#pragma once
// Times held in about 4 bytes each (hgtx_ppu_proj_trace's ranges' starts,
// by slot: in start order): each time's distance from the smallest of its
// block of 64, in 4 bytes while below 4.3 s (the few others exact beside,
// as NarrowInts does), and one 8-byte time a block. The same values
// whatever they are; small where neighbours are close, as sorted times are.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace asys {

class StartTimes {
 public:
  void assign(const std::vector<int64_t>& times) {
    const size_t n = times.size();
    base_.assign((n + kBlock - 1) / kBlock, 0);
    low_.assign(n, 0);
    wide_.clear();
    for (size_t b = 0; b < base_.size(); ++b) {
      const size_t from = b * kBlock, to = std::min(n, from + kBlock);
      const int64_t base = *std::min_element(times.begin() + from, times.begin() + to);
      base_[b] = base;
      for (size_t i = from; i < to; ++i) {
        // A distance past int64 (times far apart) is kept whole too.
        const uint64_t d = static_cast<uint64_t>(times[i]) - static_cast<uint64_t>(base);
        if (d < kWide) {
          low_[i] = static_cast<uint32_t>(d);
        } else {
          low_[i] = kWide;
          wide_[i] = times[i];
        }
      }
    }
  }
  size_t size() const { return low_.size(); }
  int64_t operator[](size_t i) const {
    const uint32_t v = low_[i];
    return v != kWide ? base_[i / kBlock] + int64_t{v} : wideAt(i);
  }

 private:
  // Out of line, so that the common read stays small where it is inlined
  // (the trace's sort compares two starts a step).
  [[gnu::noinline]] int64_t wideAt(size_t i) const { return wide_.at(i); }
  static constexpr size_t kBlock = 64;
  static constexpr uint32_t kWide = UINT32_MAX;  // the time is in wide_
  std::vector<int64_t> base_;                    // by block: its smallest time
  std::vector<uint32_t> low_;                    // by time: its distance from that
  std::unordered_map<size_t, int64_t> wide_;
};

}  // namespace asys
