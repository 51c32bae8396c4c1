#pragma once
// Maps arbitrary 64-bit keys (name ids, packed id pairs) to dense group
// indices 0..n-1 in first-seen order, so per-group work runs over arrays.
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace asys {

class KeyGroups {
 public:
  uint32_t indexOf(uint64_t key) {
    if (key < kDirectLimit) {
      if (key >= direct_.size()) direct_.resize(key + 1, kUnset);
      uint32_t& slot = direct_[key];
      if (slot == kUnset) slot = add(key);
      return slot;
    }
    auto [it, inserted] = hashed_.try_emplace(key, 0);
    if (inserted) it->second = add(key);
    return it->second;
  }
  size_t size() const { return keys_.size(); }
  uint64_t key(uint32_t group) const { return keys_[group]; }

 private:
  static constexpr uint64_t kDirectLimit = 1u << 22;  // ids of string tables
  static constexpr uint32_t kUnset = 0xFFFFFFFFu;
  uint32_t add(uint64_t key) {
    keys_.push_back(key);
    return static_cast<uint32_t>(keys_.size() - 1);
  }
  std::vector<uint32_t> direct_;
  std::unordered_map<uint64_t, uint32_t> hashed_;
  std::vector<uint64_t> keys_;
};

}  // namespace asys
