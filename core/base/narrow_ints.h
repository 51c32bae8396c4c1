#pragma once
// A column of int64 values (durations) held in 4 bytes each where they are
// below 2^32 - 1 (4.3 s in nanoseconds), the few others beside in a map:
// half the memory of int64 while nearly every value is small, the same
// values whatever they are.
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/base/passed_pages.h"

namespace asys {

class NarrowInts {
 public:
  void assign(size_t n, int64_t value) {
    low_.assign(n, 0);
    wide_.clear();
    if (value != 0)
      for (size_t k = 0; k < n; ++k) set(k, value);
  }
  size_t size() const { return low_.size(); }
  // Grown one value at a time (a list made as a table is scanned).
  void reserve(size_t n) { low_.reserve(n); }
  void push_back(int64_t v) {
    low_.push_back(0);
    set(low_.size() - 1, v);
  }
  void shrink_to_fit() { low_.shrink_to_fit(); }
  size_t capacity() const { return low_.capacity(); }
  // The first n values kept (n <= size()).
  void truncate(size_t n) {
    for (auto it = wide_.begin(); it != wide_.end();) it = it->first >= n ? wide_.erase(it) : std::next(it);
    low_.resize(n);
  }
  int64_t get(size_t k) const {
    const uint32_t v = low_[k];
    return v != kWide ? int64_t{v} : wide_.at(k);
  }
  void set(size_t k, int64_t v) {
    if (v >= 0 && v < int64_t{kWide}) {
      if (low_[k] == kWide) wide_.erase(k);
      low_[k] = static_cast<uint32_t>(v);
    } else {
      low_[k] = kWide;
      wide_[k] = v;
    }
  }
  void add(size_t k, int64_t d) { set(k, get(k) + d); }
  size_t wideCount() const { return wide_.size(); }
  // The first `count` values' pages given back (giveBackPassed), by a last
  // reader that reads none of them again (a value held wide stays).
  void givePassedBack(size_t count) const { giveBackPassed(low_, count); }
  // Put in another order with other columns: `permute(order)` puts each
  // vector it is given in that order (order[new] = old; permuteInPlace,
  // which uses the order up) with the values here among them; the few
  // values held wide are moved to their new places. Empty: left as it is.
  template <typename Permute>
  void permuteInPlace(std::vector<uint32_t>& order, Permute&& permute) {
    std::vector<std::pair<size_t, int64_t>> moved;
    if (!wide_.empty()) {
      for (size_t k = 0; k < order.size(); ++k)
        if (const auto it = wide_.find(order[k]); it != wide_.end()) moved.emplace_back(k, it->second);
      wide_.clear();
    }
    permute(order, low_);
    for (const auto& [k, v] : moved) wide_[k] = v;
  }

 private:
  static constexpr uint32_t kWide = UINT32_MAX;  // the value is in wide_
  std::vector<uint32_t> low_;
  std::unordered_map<size_t, int64_t> wide_;
};

}  // namespace asys
