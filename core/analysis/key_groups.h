#pragma once
// Maps arbitrary 64-bit keys (name ids, packed id pairs) to dense group
// indices 0..n-1 in first-seen order, so per-group work runs over arrays.
// Small keys index a direct table; the others an open-addressing hash table
// (no node per key, one probe on average): rules call this once per row.
#include <cstddef>
#include <cstdint>
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
    if (slots_.empty()) slots_.assign(1024, kUnset);
    size_t mask = slots_.size() - 1;
    for (size_t s = mix(key) & mask;; s = (s + 1) & mask) {
      const uint32_t g = slots_[s];
      if (g == kUnset) {
        const uint32_t added = add(key);
        slots_[s] = added;
        if (++hashed_ * 2 > slots_.size()) grow();
        return added;
      }
      if (keys_[g] == key) return g;
    }
  }
  // The group of a key seen before, or kNoGroup; adds nothing.
  static constexpr uint32_t kNoGroup = 0xFFFFFFFFu;
  uint32_t find(uint64_t key) const {
    if (key < kDirectLimit) return key < direct_.size() ? direct_[key] : kNoGroup;
    if (slots_.empty()) return kNoGroup;
    const size_t mask = slots_.size() - 1;
    for (size_t s = mix(key) & mask;; s = (s + 1) & mask) {
      const uint32_t g = slots_[s];
      if (g == kUnset || keys_[g] == key) return g;
    }
  }
  size_t size() const { return keys_.size(); }
  uint64_t key(uint32_t group) const { return keys_[group]; }

 private:
  static constexpr uint64_t kDirectLimit = 1u << 22;  // ids of string tables
  static constexpr uint32_t kUnset = 0xFFFFFFFFu;
  static uint64_t mix(uint64_t k) {
    k ^= k >> 33;
    k *= 0xFF51AFD7ED558CCDull;
    k ^= k >> 33;
    return k;
  }
  uint32_t add(uint64_t key) {
    keys_.push_back(key);
    return static_cast<uint32_t>(keys_.size() - 1);
  }
  void grow() {
    std::vector<uint32_t> old(slots_.size() * 2, kUnset);
    old.swap(slots_);
    const size_t mask = slots_.size() - 1;
    for (uint32_t g : old) {
      if (g == kUnset) continue;
      size_t s = mix(keys_[g]) & mask;
      while (slots_[s] != kUnset) s = (s + 1) & mask;
      slots_[s] = g;
    }
  }
  std::vector<uint32_t> direct_;
  std::vector<uint32_t> slots_;  // hashed keys: group index, kUnset = empty
  size_t hashed_ = 0;
  std::vector<uint64_t> keys_;
};

}  // namespace asys
