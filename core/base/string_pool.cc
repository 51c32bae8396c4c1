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

StringPool::StringPool() : slots_(1024, 0) {}

namespace {
constexpr uint64_t kTagBits = 0xFFFFFFFF00000000ull;  // a slot's hash bits
// Block 0's first bytes: a pool of a few names (a writer's chunk, an
// operator's types) takes a few KiB, not a whole block.
constexpr size_t kFirstBlockBytes = 4096;
}  // namespace

StringPool::StringPool(const StringPool& other)
    : blockEnd_(other.blockEnd_),
      lastBlock_(other.lastBlock_),
      firstCapacity_(other.firstCapacity_),
      start_(other.start_),
      wraps_(other.wraps_),
      slots_(other.slots_),
      storedDirect_(other.storedDirect_),
      storedSparse_(other.storedSparse_),
      odd_(other.odd_),
      overlay_(other.overlay_),
      base_(other.base_) {
  blocks_.resize(other.blocks_.size());
  for (size_t b = 0; b < blocks_.size(); ++b) {
    if (!other.blocks_[b]) continue;  // a number a long text also takes
    const size_t capacity = b == 0 ? firstCapacity_ : std::max<size_t>(blockEnd_[b], kBlockBytes);
    blocks_[b].reset(new char[capacity]);
    std::memcpy(blocks_[b].get(), other.blocks_[b].get(), blockEnd_[b]);
  }
}

StringPool& StringPool::operator=(const StringPool& other) {
  if (this != &other) {
    StringPool copy(other);
    std::swap(*this, copy);
  }
  return *this;
}

uint64_t StringPool::startHigh(uint32_t local) const {
  const size_t wraps = static_cast<size_t>(std::upper_bound(wraps_.begin(), wraps_.end(), local) - wraps_.begin());
  return static_cast<uint64_t>(wraps) << 32;
}

std::string_view StringPool::text(uint32_t local) const {
  const uint64_t at = startOf(local);
  const size_t block = static_cast<size_t>(at >> kBlockBits);
  const uint32_t from = static_cast<uint32_t>(at & (kBlockBytes - 1));
  // It ends where the next text starts, unless that one is in a later block
  // (a text never crosses into the next block).
  uint32_t to = blockEnd_[block];
  if (local + 1 < start_.size()) {
    const uint64_t next = startOf(local + 1);
    if ((next >> kBlockBits) == block) to = static_cast<uint32_t>(next & (kBlockBytes - 1));
  }
  return std::string_view(blocks_[block].get() + from, to - from);
}

std::string_view StringPool::get(uint32_t id) const {
  const uint32_t at = id - base_;  // a forgotten id wraps past the texts
  if (at >= start_.size()) return overlay_ && tagged(id) ? overlay_->get(id & ~kOverlayBit) : std::string_view();
  return text(at);
}

void StringPool::forget() {
  base_ += static_cast<uint32_t>(start_.size());
  // The blocks are kept for the next texts: block 0 where it is, the other
  // full-size ones as spares; a long text's own block goes.
  std::unique_ptr<char[]> first;
  if (!blocks_.empty() && firstCapacity_ <= kBlockBytes) first = std::move(blocks_[0]);
  for (size_t b = 1; b < blocks_.size(); ++b)
    if (blocks_[b] && blockEnd_[b] <= kBlockBytes) spare_.push_back(std::move(blocks_[b]));
  blocks_.clear();
  blockEnd_.clear();
  if (first) {
    blocks_.push_back(std::move(first));
    blockEnd_.push_back(0);
  } else {
    firstCapacity_ = 0;
  }
  lastBlock_ = 0;
  start_.clear();
  wraps_.clear();
  std::fill(slots_.begin(), slots_.end(), uint64_t{0});
}

uint32_t StringPool::find(std::string_view s, uint64_t hash, size_t& slot) const {
  const size_t mask = slots_.size() - 1;
  const uint64_t tag = hash & kTagBits;
  for (slot = hash & mask;; slot = (slot + 1) & mask) {
    const uint64_t entry = slots_[slot];
    if (entry == 0) return kNoString;
    if ((entry & kTagBits) == tag) {
      const uint32_t local = static_cast<uint32_t>(entry) - 1;
      if (text(local) == s) return base_ + local;
    }
  }
}

// The texts' hashes are not kept (8 bytes a text): a new index hashes them
// again, which is rare once reserveStored has sized it.
void StringPool::rehash(size_t slots) {
  std::vector<uint64_t> old = std::move(slots_);
  slots_.assign(slots, 0);
  const size_t mask = slots - 1;
  for (uint64_t entry : old) {
    if (entry == 0) continue;
    size_t slot = hashOf(text(static_cast<uint32_t>(entry) - 1)) & mask;
    while (slots_[slot] != 0) slot = (slot + 1) & mask;
    slots_[slot] = entry;
  }
}

void StringPool::openBlock(size_t bytes) {
  const size_t number = blocks_.size();
  size_t numbers = 1, capacity = kBlockBytes;
  std::unique_ptr<char[]> block;
  if (bytes > kBlockBytes) {  // a long text: a block of its own, taking the numbers it covers
    numbers = bytes / kBlockBytes + (bytes % kBlockBytes != 0);
    capacity = bytes;
    block.reset(new char[bytes]);
  } else if (!spare_.empty()) {
    block = std::move(spare_.back());
    spare_.pop_back();
  } else if (number == 0) {
    capacity = kFirstBlockBytes;
    while (capacity < bytes) capacity *= 2;
    block.reset(new char[capacity]);
  } else {
    block.reset(new char[kBlockBytes]);
  }
  if (number == 0) firstCapacity_ = capacity;
  blocks_.push_back(std::move(block));
  blocks_.resize(number + numbers);
  blockEnd_.resize(number + numbers, 0);
  lastBlock_ = number;
}

uint32_t StringPool::place(std::string_view s) {
  const uint32_t local = static_cast<uint32_t>(start_.size());
  if (static_cast<uint64_t>(base_) + local >= kOverlayBit - 1) throw std::length_error("string pool: more than 2^31 texts");
  const size_t n = s.size();
  if (static_cast<uint64_t>(n) > 0xFFFFFFFFull) throw std::length_error("string pool: a text of 4 GiB or more");
  // Block 0 of a small pool grows by doubling; `s` may be one of its texts,
  // so the old bytes live until s is copied.
  std::unique_ptr<char[]> grown;
  const size_t used = blocks_.empty() ? kBlockBytes : blockEnd_[lastBlock_];
  if (used < kBlockBytes && n <= kBlockBytes - used) {
    if (lastBlock_ == 0 && used + n > firstCapacity_) {
      size_t capacity = firstCapacity_;
      while (capacity < used + n) capacity *= 2;
      capacity = std::min(capacity, kBlockBytes);
      std::unique_ptr<char[]> bigger(new char[capacity]);
      std::memcpy(bigger.get(), blocks_[0].get(), used);
      grown = std::move(blocks_[0]);
      blocks_[0] = std::move(bigger);
      firstCapacity_ = capacity;
    }
  } else {
    openBlock(n);
  }
  const uint32_t from = blockEnd_[lastBlock_];
  const uint64_t at = (static_cast<uint64_t>(lastBlock_) << kBlockBits) + from;
  while ((at >> 32) > wraps_.size()) wraps_.push_back(local);
  start_.push_back(static_cast<uint32_t>(at));
  if (n > 0) std::memcpy(blocks_[lastBlock_].get() + from, s.data(), n);
  blockEnd_[lastBlock_] = from + static_cast<uint32_t>(n);
  return local;
}

uint32_t StringPool::intern(std::string_view s) {
  const uint64_t hash = hashOf(s);
  size_t slot = 0;
  if (uint32_t id = find(s, hash, slot); id != kNoString) return id;
  const uint32_t local = place(s);
  slots_[slot] = (hash & kTagBits) | (local + 1);
  if (4 * start_.size() > 3 * slots_.size()) rehash(2 * slots_.size());  // keep the load under three quarters
  return base_ + local;
}

uint32_t StringPool::append(std::string_view s) { return base_ + place(s); }  // never in a slot

void StringPool::reserveStored(int64_t maxStoredId, size_t count) {
  if (maxStoredId >= 0 && maxStoredId < kDirectLimit && static_cast<size_t>(maxStoredId) <= 8 * count + 1024)
    storedDirect_.assign(static_cast<size_t>(maxStoredId) + 1, kNoString);
  start_.reserve(start_.size() + count);
  size_t slots = slots_.size();
  while (4 * (start_.size() + count) > 3 * slots) slots *= 2;
  if (slots != slots_.size()) rehash(slots);
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
