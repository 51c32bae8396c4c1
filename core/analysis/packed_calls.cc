#include "core/analysis/packed_calls.h"

#include <algorithm>
#include <limits>


namespace asys {

PackedCalls::PackedCalls(const std::vector<uint32_t>& callOf) {
  size_t n = callOf.size();
  while (n > 0 && callOf[n - 1] == kNoMatch) --n;
  ids_ = n;
  blocks_.resize((n + kBlock - 1) / kBlock);
  offsets_.assign(n, kNone);
  for (size_t k = 0; k < blocks_.size(); ++k) {
    const size_t first = k * kBlock;
    pack(callOf.data() + first, std::min(kBlock, n - first), blocks_[k], offsets_.data() + first);
  }
  exact_.shrink_to_fit();
}

// The line through the block's first and last call; its base put so that
// every call's offset from it is within a signed byte but kNone, or else
// the block exact.
void PackedCalls::pack(const uint32_t* calls, size_t n, Block& block, int8_t* offsets) {
  block = {0, 0};
  size_t j0 = n, j1 = 0;
  for (size_t j = 0; j < n; ++j) {
    if (calls[j] == kNoMatch) continue;
    j0 = std::min(j0, j);
    j1 = j;
  }
  if (j0 == n) return;  // no call: every offset kNone
  const int64_t step =
      j1 > j0 ? ((int64_t{calls[j1]} - int64_t{calls[j0]}) << kStepShift) / static_cast<int64_t>(j1 - j0) : 0;
  auto line = [&](size_t j) { return (step * static_cast<int64_t>(j)) >> kStepShift; };
  int64_t low = std::numeric_limits<int64_t>::max(), high = std::numeric_limits<int64_t>::min();
  for (size_t j = j0; j <= j1; ++j) {
    if (calls[j] == kNoMatch) continue;
    const int64_t d = int64_t{calls[j]} - line(j);
    low = std::min(low, d);
    high = std::max(high, d);
  }
  const bool fits = step > kExact && step <= std::numeric_limits<int32_t>::max() && high - low <= 254;
  if (!fits) {
    block = {static_cast<uint32_t>(exact_.size() / kBlock), kExact};
    exact_.insert(exact_.end(), calls, calls + n);
    exact_.resize(exact_.size() + (kBlock - n), kNoMatch);
    return;
  }
  const int64_t base = low + 127;  // offsets from -127 to 127
  block = {static_cast<uint32_t>(base), static_cast<int32_t>(step)};
  for (size_t j = j0; j <= j1; ++j)
    if (calls[j] != kNoMatch) offsets[j] = static_cast<int8_t>(int64_t{calls[j]} - line(j) - base);
}

size_t PackedCalls::bytes() const {
  return blocks_.size() * sizeof(Block) + offsets_.size() + exact_.size() * sizeof(uint32_t);
}

}  // namespace asys
