// SmallIds (core/base/small_ids.h): values appended or set keep their
// value as the column widens from 1 to 2 to 4 bytes (the bounds by hand).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "core/base/small_ids.h"

namespace asys {
namespace {

TEST(SmallIds, PushBackWidensAtEachBoundKeepingTheValues) {
  SmallIds ids;
  ids.reserve(8);
  const std::vector<uint32_t> values = {0, 254, 255, 7, 65534, 65535, 0xFFFFFFFEu, 3};
  for (uint32_t v : values) ids.push_back(v);
  ids.shrink_to_fit();
  ASSERT_EQ(ids.size(), values.size());
  for (size_t i = 0; i < values.size(); ++i) EXPECT_EQ(ids.get(i), values[i]) << i;
}

TEST(SmallIds, SetAfterPushBackAndResize) {
  SmallIds ids;
  ids.push_back(1);
  ids.resize(3);  // new ones are 0
  ids.set(2, 300);
  ids.push_back(9);
  EXPECT_EQ(ids.size(), 4u);
  EXPECT_EQ(ids.get(0), 1u);
  EXPECT_EQ(ids.get(1), 0u);
  EXPECT_EQ(ids.get(2), 300u);
  EXPECT_EQ(ids.get(3), 9u);
}

}  // namespace
}  // namespace asys
