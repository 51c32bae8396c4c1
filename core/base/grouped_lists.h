#pragma once
// Lists of values grouped by a dense index (compressed rows: list g is
// values[offset[g] .. offset[g+1])), built in two passes over the same
// memberships, one counting and one placing. The values are held once,
// already grouped (sizeof(Value) each, plus one Offset a group), where a
// (group, value) list sorted after holds a group index beside every value
// and a copy of it: what tens of millions of (range, kernel) memberships can
// afford. Offset is the narrowest type that holds the number of values.
//
//   GroupedLists<uint32_t> lists;
//   for (each membership) lists.count(group);
//   lists.startFill(groups);
//   for (each membership, in any order) lists.add(group, value);
//
// or GroupedLists<uint32_t>::fromPasses(groups, walk), walk(emit) calling
// emit(group, value) for each membership.
//
// Values of one group keep the order the second pass adds them in. A list
// built one group at a time, in group order, uses append() and endGroup().
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace asys {

template <typename Value, typename Offset = uint32_t>
class GroupedLists {
 public:
  GroupedLists() = default;
  // `groups` known ahead: count() then never grows the offsets.
  explicit GroupedLists(size_t groups) : offset_(groups + 1, 0) {}

  // The first pass: one call per value to come (a group never seen before
  // grows the lists, so groups may be found as the pass goes).
  void count(size_t group) {
    if (group + 2 > offset_.size()) offset_.resize(group + 2, 0);
    ++offset_[group + 1];
  }
  // Between the passes: `groups` lists, every counted group among them.
  // Group g's count (in offset_[g + 1]) becomes where its values start: the
  // second pass's cursor, which ends where they end, the next group's
  // start, so the fill needs no cursors of its own.
  void startFill(size_t groups) {
    offset_.resize(groups + 1, 0);
    Offset placed = 0;
    for (size_t g = 0; g < groups; ++g) {
      const Offset count = offset_[g + 1];
      offset_[g + 1] = placed;
      placed += count;
    }
    values_.resize(placed);
  }
  // The second pass: the same memberships, in any order. The lists are
  // read only once it is complete.
  void add(size_t group, const Value& value) { values_[offset_[group + 1]++] = value; }

  // Both passes from one walk over the memberships: `pass(emit)` calls
  // emit(group, value) for each, the same ones each time it is called
  // (twice: counting, then placing).
  template <typename Pass>
  static GroupedLists fromPasses(size_t groups, Pass&& pass) {
    GroupedLists out(groups);
    pass([&](size_t group, const Value&) { out.count(group); });
    out.startFill(groups);
    pass([&](size_t group, const Value& value) { out.add(group, value); });
    return out;
  }

  // One group at a time instead, in group order: its values, then endGroup().
  void append(const Value& value) { values_.push_back(value); }
  void endGroup() { offset_.push_back(static_cast<Offset>(values_.size())); }

  size_t groups() const { return offset_.size() - 1; }
  size_t size() const { return values_.size(); }  // values, over every group
  // Where group g's values start among all of them.
  size_t begin(size_t g) const { return offset_[g]; }
  std::span<const Value> of(size_t g) const { return {values_.data() + offset_[g], offset_[g + 1] - offset_[g]}; }
  std::span<Value> of(size_t g) { return {values_.data() + offset_[g], offset_[g + 1] - offset_[g]}; }

 private:
  std::vector<Offset> offset_{0};
  std::vector<Value> values_;
};

}  // namespace asys
