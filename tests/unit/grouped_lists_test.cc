// GroupedLists (core/base/grouped_lists.h) on memberships worked out by hand.
#include "core/base/grouped_lists.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

using asys::GroupedLists;

namespace {
template <typename V, typename O>
std::vector<V> listOf(const GroupedLists<V, O>& lists, size_t g) {
  auto s = lists.of(g);
  return {s.begin(), s.end()};
}
}  // namespace

// Groups found as the first pass goes; the second pass in another order
// decides the order within a group.
TEST(GroupedLists, CountThenPlace) {
  const std::vector<std::pair<uint32_t, char>> memberships = {{3, 'a'}, {0, 'b'}, {3, 'c'}, {1, 'd'}, {3, 'e'}};
  GroupedLists<char, uint32_t> lists;
  for (const auto& [g, v] : memberships) lists.count(g);
  lists.startFill(5);  // group 2 counted nothing, group 4 was never seen
  for (auto it = memberships.rbegin(); it != memberships.rend(); ++it) lists.add(it->first, it->second);
  ASSERT_EQ(lists.groups(), 5u);
  EXPECT_EQ(lists.size(), 5u);
  EXPECT_EQ(listOf(lists, 0), std::vector<char>{'b'});
  EXPECT_EQ(listOf(lists, 1), std::vector<char>{'d'});
  EXPECT_TRUE(lists.of(2).empty());
  EXPECT_EQ(listOf(lists, 3), (std::vector<char>{'e', 'c', 'a'}));
  EXPECT_TRUE(lists.of(4).empty());
  // Group 3's values follow the three of groups 0 and 1 (one each) and 2 (none).
  EXPECT_EQ(lists.begin(3), 2u);
  EXPECT_EQ(lists.begin(4), 5u);
}

// Groups known ahead; values may be changed in place through of().
TEST(GroupedLists, KnownGroupsAndInPlaceValues) {
  GroupedLists<int64_t, size_t> lists(3);
  for (uint32_t g : {2u, 2u, 0u}) lists.count(g);
  lists.startFill(3);
  lists.add(2, 7);
  lists.add(0, 1);
  lists.add(2, 5);
  for (int64_t& v : lists.of(2)) v *= 10;
  EXPECT_EQ(listOf(lists, 0), std::vector<int64_t>{1});
  EXPECT_TRUE(lists.of(1).empty());
  EXPECT_EQ(listOf(lists, 2), (std::vector<int64_t>{70, 50}));
}

// No membership at all: every list empty, none out of bounds.
TEST(GroupedLists, NothingCounted) {
  GroupedLists<uint32_t> lists;
  lists.startFill(2);
  EXPECT_EQ(lists.groups(), 2u);
  EXPECT_EQ(lists.size(), 0u);
  EXPECT_TRUE(lists.of(0).empty());
  EXPECT_TRUE(lists.of(1).empty());
}

// One group at a time, in group order (an empty group in between).
TEST(GroupedLists, AppendedGroupByGroup) {
  GroupedLists<uint32_t> lists;
  lists.append(4);
  lists.append(9);
  lists.endGroup();
  lists.endGroup();
  lists.append(2);
  lists.endGroup();
  ASSERT_EQ(lists.groups(), 3u);
  EXPECT_EQ(listOf(lists, 0), (std::vector<uint32_t>{4, 9}));
  EXPECT_TRUE(lists.of(1).empty());
  EXPECT_EQ(listOf(lists, 2), std::vector<uint32_t>{2});
  EXPECT_EQ(lists.begin(2), 2u);
}
