#include "core/analysis/range_sets.h"

#include <algorithm>

namespace asys {

namespace {

uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
  return h * 0xBF58476D1CE4E5B9ull;
}

}  // namespace

RangeSets::RangeSets() : table_(64, 0) {
  hash_.push_back(hashOf({}, {}));
  table_[hash_[0] & (table_.size() - 1)] = 1;
}

uint64_t RangeSets::hashOf(std::span<const uint32_t> members, std::span<const uint8_t> flags) const {
  uint64_t h = members.size();
  for (size_t i = 0; i < members.size(); ++i) h = mix(h, (static_cast<uint64_t>(members[i]) << 1) | flags[i]);
  return h ^ (h >> 31);
}

bool RangeSets::equals(uint32_t set, std::span<const uint32_t> members, std::span<const uint8_t> flags) const {
  const auto m = this->members(set);
  const auto f = viaGraph(set);
  return std::equal(m.begin(), m.end(), members.begin(), members.end()) &&
         std::equal(f.begin(), f.end(), flags.begin(), flags.end());
}

void RangeSets::grow() {
  std::vector<uint32_t> table(table_.size() * 2, 0);
  const size_t mask = table.size() - 1;
  for (uint32_t s = 0; s < size(); ++s) {
    size_t i = hash_[s] & mask;
    while (table[i] != 0) i = (i + 1) & mask;
    table[i] = s + 1;
  }
  table_.swap(table);
}

uint32_t RangeSets::intern(std::span<const uint32_t> members) {
  if (zeros_.size() < members.size()) zeros_.resize(members.size(), 0);
  return intern(members, std::span<const uint8_t>(zeros_.data(), members.size()));
}

uint32_t RangeSets::intern(std::span<const uint32_t> members, std::span<const uint8_t> flags) {
  const uint64_t h = hashOf(members, flags);
  const size_t mask = table_.size() - 1;
  size_t i = h & mask;
  for (; table_[i] != 0; i = (i + 1) & mask) {
    const uint32_t s = table_[i] - 1;
    if (hash_[s] == h && equals(s, members, flags)) return s;
  }
  const uint32_t id = static_cast<uint32_t>(size());
  member_.insert(member_.end(), members.begin(), members.end());
  flag_.insert(flag_.end(), flags.begin(), flags.end());
  offset_.push_back(static_cast<uint32_t>(member_.size()));
  hash_.push_back(h);
  table_[i] = id + 1;
  if (2 * size() > table_.size()) grow();
  return id;
}

}  // namespace asys
