#include "core/base/string_pool.h"

#include "core/base/text.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace asys {

namespace {
// 64-bit on every target (size_t is 32-bit in WebAssembly), eight bytes a
// step: names are long (demangled signatures, annotated ranges), and every
// inline name of a million-row table is hashed once.
uint64_t hashOf(std::string_view s) {
  constexpr uint64_t kMul = 0x9E3779B97F4A7C15ull;
  uint64_t h = s.size() * kMul;
  const char* p = s.data();
  size_t n = s.size();
  for (; n >= 8; p += 8, n -= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    h = (h ^ w) * kMul;
    h ^= h >> 29;
  }
  if (n > 0) {
    uint64_t w = 0;
    std::memcpy(&w, p, n);
    h = (h ^ w) * kMul;
  }
  h ^= h >> 32;
  h *= 0xD6E8FEB86659FD93ull;
  return h ^ (h >> 32);
}
// File ids above this (or sparser than 8 per string) go to the hash map.
constexpr int64_t kDirectLimit = int64_t{1} << 26;
}  // namespace

StringPool::StringPool() : slots_(1024, 0), slotHash_(1024, 0) {}

std::string_view StringPool::get(uint32_t id) const {
  const uint32_t at = id - base_;  // a forgotten id wraps past the texts
  if (at >= offset_.size()) return overlay_ && tagged(id) ? overlay_->get(id & ~kOverlayBit) : std::string_view();
  return std::string_view(bytes_).substr(offset_[at], length_[at]);
}

void StringPool::forget() {
  base_ += static_cast<uint32_t>(offset_.size());
  bytes_.clear();
  offset_.clear();
  length_.clear();
  hash_.clear();
  std::fill(slots_.begin(), slots_.end(), 0u);
}

uint32_t StringPool::find(std::string_view s, uint64_t hash, size_t& slot) const {
  const size_t mask = slots_.size() - 1;
  for (slot = hash & mask;; slot = (slot + 1) & mask) {
    const uint32_t entry = slots_[slot];
    if (entry == 0) return kNoString;
    if (slotHash_[slot] == static_cast<uint32_t>(hash >> 32) &&
        std::string_view(bytes_).substr(offset_[entry - 1], length_[entry - 1]) == s)
      return base_ + entry - 1;
  }
}

void StringPool::grow() {
  std::vector<uint32_t> old = std::move(slots_);
  slots_.assign(old.size() * 2, 0);
  slotHash_.assign(old.size() * 2, 0);
  const size_t mask = slots_.size() - 1;
  for (uint32_t entry : old) {
    if (entry == 0) continue;
    const uint64_t hash = hash_[entry - 1];
    size_t slot = hash & mask;
    while (slots_[slot] != 0) slot = (slot + 1) & mask;
    slots_[slot] = entry;
    slotHash_[slot] = static_cast<uint32_t>(hash >> 32);
  }
}

uint32_t StringPool::intern(std::string_view s) {
  const uint64_t hash = hashOf(s);
  size_t slot = 0;
  if (uint32_t id = find(s, hash, slot); id != kNoString) return id;
  const uint32_t local = static_cast<uint32_t>(offset_.size());
  if (static_cast<uint64_t>(base_) + local >= kOverlayBit - 1) throw std::length_error("string pool: more than 2^31 texts");
  const uint32_t id = base_ + local;
  offset_.push_back(bytes_.size());
  length_.push_back(static_cast<uint32_t>(s.size()));
  hash_.push_back(hash);
  bytes_.append(s);
  slots_[slot] = local + 1;
  slotHash_[slot] = static_cast<uint32_t>(hash >> 32);
  if (offset_.size() * 2 > slots_.size()) grow();  // keep the load under one half
  return id;
}

uint32_t StringPool::append(std::string_view s) {
  const uint32_t local = static_cast<uint32_t>(offset_.size());
  if (static_cast<uint64_t>(base_) + local >= kOverlayBit - 1) throw std::length_error("string pool: more than 2^31 texts");
  offset_.push_back(bytes_.size());
  length_.push_back(static_cast<uint32_t>(s.size()));
  hash_.push_back(0);  // never in a slot: grow() reads the hashes of slotted texts only
  bytes_.append(s);
  return base_ + local;
}

void StringPool::reserveStored(int64_t maxStoredId, size_t count) {
  if (maxStoredId >= 0 && maxStoredId < kDirectLimit && static_cast<size_t>(maxStoredId) <= 8 * count + 1024)
    storedDirect_.assign(static_cast<size_t>(maxStoredId) + 1, kNoString);
  offset_.reserve(offset_.size() + count);
  length_.reserve(length_.size() + count);
  hash_.reserve(hash_.size() + count);
  while (slots_.size() < 2 * (offset_.size() + count)) grow();
}

void StringPool::addStored(int64_t storedId, std::string_view s) {
  const uint32_t id = intern(s);
  if (storedId >= 0 && static_cast<uint64_t>(storedId) < storedDirect_.size()) storedDirect_[storedId] = id;
  else storedSparse_[storedId] = id;
  const bool nul = s.find('\0') != std::string_view::npos, notUtf8 = !isValidUtf8(s);
  if (nul || notUtf8) odd_.push_back({id, storedId, notUtf8, nul});
}

uint32_t StringPool::fromStoredSparse(int64_t storedId) const {
  auto it = storedSparse_.find(storedId);
  return it == storedSparse_.end() ? kNoString : it->second;
}

}  // namespace asys
