// GroupSizes (core/report/group_sizes.h): each row's group and place in it,
// walked from several first rows, against the groups' first rows summed
// here; empty groups, a group of 255 rows and more, checkpoints (every 64th
// group) that fall on empty groups.
#include "core/report/group_sizes.h"

#include <gtest/gtest.h>

#include <vector>

namespace asys {
namespace {

TEST(GroupSizes, EachRowsGroupAndPlaceAsTheFirstRowsSay) {
  // 300 groups: sizes 0-3 mostly, a run of empty groups over a checkpoint
  // (groups 60-140), and three big ones (255, 256, 1000).
  std::vector<size_t> size;
  for (size_t g = 0; g < 300; ++g) size.push_back(g >= 60 && g <= 140 ? 0 : (g * 7 + 3) % 4);
  size[10] = 255;
  size[150] = 256;
  size[299] = 1000;
  GroupSizes s;
  s.reserve(size.size());
  for (const size_t n : size) s.add(n);
  std::vector<size_t> groupOf, placeOf;  // by row, from the sizes
  for (size_t g = 0; g < size.size(); ++g)
    for (size_t k = 0; k < size[g]; ++k) {
      groupOf.push_back(g);
      placeOf.push_back(k);
    }
  ASSERT_EQ(s.groups(), size.size());
  ASSERT_EQ(s.rows(), groupOf.size());
  for (size_t g = 0; g < size.size(); ++g) ASSERT_EQ(s.sizeOf(g), size[g]) << g;
  for (const size_t from : std::vector<size_t>{0, 1, 254, 255, 256, 300, groupOf.size() / 2, groupOf.size() - 1}) {
    GroupSizes::Walk walk = s.walkFrom(from);
    for (size_t r = from; r < groupOf.size(); r += 1 + r % 3) {
      ASSERT_EQ(walk.groupOf(r), groupOf[r]) << "from " << from << ", row " << r;
      ASSERT_EQ(walk.indexOf(r), placeOf[r]) << "from " << from << ", row " << r;
    }
  }
  // From the first row after the empty run: the first group after it with rows.
  size_t afterEmpty = 0;
  for (size_t g = 0; g <= 140; ++g) afterEmpty += size[g];
  EXPECT_EQ(s.walkFrom(afterEmpty).groupOf(afterEmpty), 141u);
}

TEST(GroupSizes, NoGroupsAndOnlyEmptyGroups) {
  GroupSizes none;
  EXPECT_EQ(none.rows(), 0u);
  EXPECT_EQ(none.walkFrom(0).groupOf(0), 0u);  // past the (no) groups' end
  GroupSizes empty;
  for (int g = 0; g < 130; ++g) empty.add(0);
  EXPECT_EQ(empty.rows(), 0u);
  EXPECT_EQ(empty.walkFrom(0).groupOf(0), 130u);
}

}  // namespace
}  // namespace asys
