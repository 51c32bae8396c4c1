#pragma once
// A column of int64 values (durations) held in 4 bytes each where they are
// below 2^32 - 1 (4.3 s in nanoseconds), the few others beside in a map:
// half the memory of int64 while nearly every value is small, the same
// values whatever they are.
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <unordered_map>
#include <vector>

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
  // Put in another order with other columns (permuteInPlace): the 4-byte
  // values are one of its columns (narrowColumn), and followOrder(order),
  // called first with the same order, moves the wide values: value i becomes
  // value order[i].
  std::vector<uint32_t>& narrowColumn() { return low_; }
  void followOrder(const std::vector<uint32_t>& order) {
    if (wide_.empty()) return;
    std::unordered_map<size_t, int64_t> moved;
    for (size_t i = 0; i < order.size(); ++i)
      if (low_[order[i]] == kWide) moved.emplace(i, wide_.at(order[i]));
    wide_.swap(moved);
  }

 private:
  static constexpr uint32_t kWide = UINT32_MAX;  // the value is in wide_
  std::vector<uint32_t> low_;
  std::unordered_map<size_t, int64_t> wide_;
};

}  // namespace asys
