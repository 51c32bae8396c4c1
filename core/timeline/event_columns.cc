#include "core/timeline/event_columns.h"

#include <algorithm>
#include <limits>
#include <unordered_map>

namespace asys {

template <typename Value, typename Offset>
PackedValues<Value, Offset>::PackedValues(const std::vector<Value>& values) : size_(values.size()) {
  const size_t blocks = (size_ + kBlock - 1) / kBlock;
  base_.resize(blocks);
  max_.resize(blocks);
  wideAt_.resize(blocks);
  offset_.assign(size_, 0);
  for (size_t b = 0; b < blocks; ++b) {
    const auto first = values.begin() + static_cast<ptrdiff_t>(b * kBlock);
    const auto last = values.begin() + static_cast<ptrdiff_t>(std::min(size_, (b + 1) * kBlock));
    const auto [lo, hi] = std::minmax_element(first, last);
    base_[b] = *lo;
    max_[b] = *hi;
    // The span as unsigned: exact for any two values.
    if (static_cast<Unsigned>(static_cast<Unsigned>(*hi) - static_cast<Unsigned>(*lo)) > std::numeric_limits<Offset>::max()) {
      wideAt_[b] = static_cast<uint32_t>(wide_.size());
      wide_.insert(wide_.end(), first, last);
      continue;
    }
    wideAt_[b] = kNarrow;
    for (auto it = first; it != last; ++it)
      offset_[static_cast<size_t>(it - values.begin())] =
          static_cast<Offset>(static_cast<Unsigned>(*it) - static_cast<Unsigned>(*lo));
  }
  wide_.shrink_to_fit();
}

template <typename Value, typename Offset>
size_t PackedValues<Value, Offset>::lowerBound(Value v) const {
  size_t lo = 0, hi = size_;
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if ((*this)[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

template <typename Value, typename Offset>
size_t PackedValues<Value, Offset>::upperBound(Value v) const {
  size_t lo = 0, hi = size_;
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (!(v < (*this)[mid])) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

template <typename Value, typename Offset>
Value PackedValues<Value, Offset>::max() const {
  Value m = std::numeric_limits<Value>::min();
  for (Value v : max_) m = std::max(m, v);
  return m;
}

template <typename Value, typename Offset>
size_t PackedValues<Value, Offset>::bytes() const {
  return sizeof(Value) * (base_.capacity() + max_.capacity() + wide_.capacity()) + 4 * wideAt_.capacity() +
         sizeof(Offset) * offset_.capacity();
}

template class PackedValues<int64_t, uint32_t>;
template class PackedValues<uint32_t, uint16_t>;

NameColumn::NameColumn(const std::vector<uint32_t>& names) : size_(names.size()) {
  std::unordered_map<uint32_t, uint16_t> codeOf;
  code_.reserve(size_);
  for (uint32_t n : names) {
    // try_emplace: no node made for a name already seen.
    auto [it, added] = codeOf.try_emplace(n, static_cast<uint16_t>(distinct_.size()));
    if (added) {
      if (distinct_.size() == 65536) {  // too many names for 2 bytes: the ids themselves
        freeVector(code_);
        freeVector(distinct_);
        ids_ = names;
        return;
      }
      distinct_.push_back(n);
    }
    code_.push_back(it->second);
  }
  distinct_.shrink_to_fit();
}

size_t NameColumn::bytes() const { return 4 * distinct_.capacity() + 2 * code_.capacity() + 4 * ids_.capacity(); }

LaneColumn::LaneColumn(const std::vector<uint16_t>& lanes) : size_(lanes.size()) {
  const uint16_t top = lanes.empty() ? 0 : *std::max_element(lanes.begin(), lanes.end());
  if (top == 0) return;
  if (top > 0xFF) {
    wide_ = lanes;
    return;
  }
  small_.assign(lanes.begin(), lanes.end());
}

KindColumn::KindColumn(const std::vector<TimelineKind>& kinds) : size_(kinds.size()) {
  if (kinds.empty()) return;
  only_ = kinds.front();
  if (std::any_of(kinds.begin(), kinds.end(), [&](TimelineKind k) { return k != only_; })) each_ = kinds;
}

}  // namespace asys
