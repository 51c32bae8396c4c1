#pragma once
// Interned sets of HGTX range slots, each member with a flag (reached
// through a graph node only). An activity's ranges are those around its
// launching call, and every call on a thread between the same two range
// boundaries has the same ones, so a report holds about as many distinct
// sets as ranges, however many kernels it has: an activity keeps a set id
// (4 bytes) instead of a list of (activity, range) pairs.
#include <cstdint>
#include <span>
#include <vector>

namespace asys {

class RangeSets {
 public:
  static constexpr uint32_t kEmpty = 0;  // the set without members

  RangeSets();
  // The id of the set with these members (slot order) and flags, one per
  // member; the same members and flags always give the same id.
  uint32_t intern(std::span<const uint32_t> members, std::span<const uint8_t> viaGraph);
  uint32_t intern(std::span<const uint32_t> members);  // every flag 0

  std::span<const uint32_t> members(uint32_t set) const {
    return {member_.data() + offset_[set], offset_[set + 1] - offset_[set]};
  }
  std::span<const uint8_t> viaGraph(uint32_t set) const {
    return {flag_.data() + offset_[set], offset_[set + 1] - offset_[set]};
  }
  size_t size() const { return offset_.size() - 1; }
  size_t memberCount() const { return member_.size(); }

 private:
  uint64_t hashOf(std::span<const uint32_t> members, std::span<const uint8_t> flags) const;
  bool equals(uint32_t set, std::span<const uint32_t> members, std::span<const uint8_t> flags) const;
  void grow();

  std::vector<uint32_t> offset_{0, 0}, member_;  // set 0: the empty set
  std::vector<uint8_t> flag_;
  std::vector<uint64_t> hash_;    // by set
  std::vector<uint32_t> table_;   // open addressing: set id + 1, 0 = free
  std::vector<uint8_t> zeros_;    // flags for intern(members)
};

}  // namespace asys
