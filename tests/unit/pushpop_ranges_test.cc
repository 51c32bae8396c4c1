// PushPopRangeBuilder (the push/pop ranges and their stacks folded from a
// scan of HGTX_EVENTS) against values worked out by hand: two chunks of
// events written as a profiler writes them (a range when it is popped), a
// domain named after its range, ranges that start together, a range ID
// that is not the row's position; and summarizeGroupsInPlace by hand.
#include <gtest/gtest.h>

#include <string>

#include "core/analysis/hgtx_stacks.h"
#include "core/analysis/stats.h"
#include "core/base/narrow_ints.h"
#include "core/base/permute.h"
#include "core/base/string_pool.h"

namespace asys {
namespace {

constexpr int64_t kA = (int64_t{1} << 24) | 1;  // process 1, thread 1
constexpr int64_t kB = (int64_t{2} << 24) | 5;  // process 2, thread 5

struct Event {
  int32_t type;
  int64_t start, end, tid, rangeId, domainId;
  const char* name;
};

HgtxEvents chunkOf(StringPool& strings, std::initializer_list<Event> events) {
  HgtxEvents h;
  for (const Event& e : events) {
    h.eventType.push_back(e.type);
    h.start.push_back(e.start);
    h.end.push_back(e.end);
    h.globalTid.push_back(e.tid);
    h.endGlobalTid.push_back(kNoValue);
    h.rangeId.push_back(e.rangeId);
    h.domainId.push_back(e.domainId);
    h.nameId.push_back(strings.intern(e.name));
  }
  return h;
}

constexpr int64_t N = kNoValue;

TEST(PushPopRanges, StacksNamesAndOrderWorkedByHand) {
  StringPool strings;
  // Chunk 1, events 0..7; chunk 2, events 8..9.
  const HgtxEvents c1 = chunkOf(strings, {
                                             {kHgtxPushPop, 10, 20, kA, N, N, "inner1"},    // e0
                                             {kHgtxPushPop, 10, 50, kA, N, N, "outer"},     // e1
                                             {kHgtxPushPop, 30, 40, kA, N, N, "inner2"},    // e2
                                             {kHgtxPushPop, 30, 40, kA, N, N, "inner3"},    // e3
                                             {kHgtxMark, 35, N, kA, N, N, "mark"},          // e4
                                             {kHgtxPushPop, 45, N, kA, N, N, "open"},       // e5: never closed
                                             {kHgtxStartEnd, 15, 25, kA, 900, N, "se"},     // e6: not push/pop
                                             {kHgtxPushPop, 10, 20, kB, 100, 3, "b"},       // e7: domain 3
                                         });
  const HgtxEvents c2 = chunkOf(strings, {
                                             {kHgtxDomainCreate, 0, N, kB, N, 3, "Dom"},    // e8: names domain 3
                                             {kHgtxPushPop, 5, 60, kB, N, N, "broot"},      // e9
                                         });
  PushPopRangeBuilder builder(strings);
  builder.add(0, c1);
  builder.add(8, c2);
  const PushPopRanges r = builder.finish();

  // By start, then duration, then globalTid (kA < kB), then event:
  // e9 (5, 55), e0 (10, 10, A), e7 (10, 10, B), e1 (10, 40), e2 (30, 10), e3 (30, 10).
  ASSERT_EQ(r.size(), 6u);
  EXPECT_EQ(r.event, (std::vector<uint32_t>{9, 0, 7, 1, 2, 3}));
  EXPECT_EQ(r.start, (std::vector<int64_t>{5, 10, 10, 10, 30, 30}));
  for (size_t k = 0; k < r.size(); ++k)
    EXPECT_EQ(r.end(k), (std::vector<int64_t>{60, 20, 20, 50, 40, 40}[k])) << k;
  EXPECT_EQ(r.globalTid(0), kB);
  EXPECT_EQ(r.globalTid(1), kA);
  // Thread A: e1 [10,50) encloses e0 [10,20) (same start, longer first) and
  // e2 [30,40); e3 has e2's start and end and a later event: inside e2.
  // Thread B: e9 [5,60) encloses e7.
  constexpr uint32_t R = kNoParent;
  const std::vector<uint32_t> parents{R, 3, 0, R, 3, 4};
  const std::vector<int64_t> durChild{10, 0, 0, 20, 10, 0};
  for (size_t k = 0; k < r.size(); ++k) {
    EXPECT_EQ(r.parent(k), parents[k]) << k;
    EXPECT_EQ(r.durChild.get(k), durChild[k]) << k;
  }
  EXPECT_EQ(r.numChild, (std::vector<uint32_t>{1, 0, 0, 2, 1, 0}));
  // A range's thread is its root's: e3 (A) under e2 under e1.
  EXPECT_EQ(r.globalTid(5), kA);
  EXPECT_EQ(r.globalTid(2), kB);
  EXPECT_EQ(r.level(0), 0);
  EXPECT_EQ(r.level(2), 1);
  EXPECT_EQ(r.level(4), 1);
  EXPECT_EQ(r.level(5), 2);
  // IDs: e7's is 100, the others their row's 1-based position.
  EXPECT_EQ(r.rangeId(0), 10);
  EXPECT_EQ(r.rangeId(2), 100);
  EXPECT_EQ(r.rangeId(5), 4);
  std::string stack;
  r.appendStack(5, stack);
  EXPECT_EQ(stack, ":2:3:4");
  stack.clear();
  r.appendStack(2, stack);
  EXPECT_EQ(stack, ":10:100");
  // e7's domain is named by a later row.
  EXPECT_EQ(strings.get(r.name[2]), "Dom:b");
  EXPECT_EQ(strings.get(r.name[0]), "broot");
  EXPECT_EQ(strings.get(r.name[5]), "inner3");
}

TEST(PushPopRanges, IdsThatAreTheRowsPositionsAreNotHeld) {
  StringPool strings;
  const HgtxEvents c = chunkOf(strings, {
                                            {kHgtxPushPop, 0, 10, kA, N, N, "a"},
                                            {kHgtxPushPop, 2, 4, kA, 2, N, "b"},  // its position + 1: 2
                                        });
  PushPopRangeBuilder builder(strings);
  builder.add(0, c);
  const PushPopRanges r = builder.finish();
  EXPECT_TRUE(r.rangeIds.empty());
  EXPECT_EQ(r.rangeId(0), 1);
  EXPECT_EQ(r.rangeId(1), 2);
  EXPECT_EQ(r.parent(0), kNoParent);
  EXPECT_EQ(r.parent(1), 0u);
}

TEST(PushPopRanges, DurationsPast4SecondsAreKeptWhole) {
  StringPool strings;
  constexpr int64_t kS = 1'000'000'000;  // 1 s
  const HgtxEvents c = chunkOf(strings, {
                                            {kHgtxPushPop, 1, 5 * kS + 1, kA, N, N, "child1"},
                                            {kHgtxPushPop, 6 * kS, 9 * kS, kA, N, N, "child2"},
                                            {kHgtxPushPop, 0, 10 * kS, kA, N, N, "parent"},
                                        });
  PushPopRangeBuilder builder(strings);
  builder.add(0, c);
  const PushPopRanges r = builder.finish();
  ASSERT_EQ(r.event, (std::vector<uint32_t>{2, 0, 1}));
  EXPECT_EQ(r.duration.get(0), 10 * kS);
  EXPECT_EQ(r.end(0), 10 * kS);
  EXPECT_EQ(r.duration.get(1), 5 * kS);
  EXPECT_EQ(r.duration.get(2), 3 * kS);
  EXPECT_EQ(r.durChild.get(0), 8 * kS);
  EXPECT_EQ(r.numChild[0], 2u);
  EXPECT_EQ(r.parent(1), 0u);
  EXPECT_EQ(r.parent(2), 0u);
}

TEST(NarrowInts, SmallAndLargeValues) {
  NarrowInts v;
  v.assign(4, 0);
  v.set(0, 7);
  v.set(1, int64_t{1} << 40);
  v.set(2, -3);
  v.set(3, 0xFFFFFFFEll);  // the largest held in 4 bytes
  EXPECT_EQ(v.get(0), 7);
  EXPECT_EQ(v.get(1), int64_t{1} << 40);
  EXPECT_EQ(v.get(2), -3);
  EXPECT_EQ(v.get(3), 0xFFFFFFFEll);
  EXPECT_EQ(v.wideCount(), 2u);
  v.add(3, 1);  // 2^32 - 1: now held beside
  EXPECT_EQ(v.get(3), 0xFFFFFFFFll);
  v.set(1, 5);  // small again
  EXPECT_EQ(v.get(1), 5);
  EXPECT_EQ(v.wideCount(), 2u);  // -3 and 2^32 - 1
}

TEST(PermuteInPlace, ColumnsFollowTheOrder) {
  // Element i becomes element order[i]: cycles (0 2 3), (1), (4 5).
  std::vector<uint32_t> order{2, 1, 3, 0, 5, 4};
  std::vector<int64_t> a{10, 11, 12, 13, 14, 15};
  std::vector<uint32_t> b{0, 1, 2, 3, 4, 5};
  std::vector<int64_t> empty;
  permuteInPlace(order, a, b, empty);
  EXPECT_EQ(a, (std::vector<int64_t>{12, 11, 13, 10, 15, 14}));
  EXPECT_EQ(b, (std::vector<uint32_t>{2, 1, 3, 0, 5, 4}));
  EXPECT_TRUE(empty.empty());
}

TEST(PermuteInPlace, KeepingTheOrderMovesTheSameAndLeavesItAsGiven) {
  // The same cycles (0 2 3), (1), (4 5): the columns as above, the order
  // not used up (its cells would be UINT32_MAX where used up).
  const std::vector<uint32_t> given{2, 1, 3, 0, 5, 4};
  std::vector<uint32_t> order = given;
  std::vector<int64_t> a{10, 11, 12, 13, 14, 15};
  std::vector<uint8_t> b{0, 1, 2, 3, 4, 5};
  std::vector<int64_t> empty;
  permuteInPlaceKeepingOrder(order, a, b, empty);
  EXPECT_EQ(a, (std::vector<int64_t>{12, 11, 13, 10, 15, 14}));
  EXPECT_EQ(b, (std::vector<uint8_t>{2, 1, 3, 0, 5, 4}));
  EXPECT_TRUE(empty.empty());
  EXPECT_EQ(order, given);
  // One cycle through all: element i becomes element i + 1, the last the first.
  const std::vector<uint32_t> rotate{1, 2, 3, 4, 0};
  std::vector<int64_t> c{7, 8, 9, 10, 11};
  permuteInPlaceKeepingOrder(rotate, c);
  EXPECT_EQ(c, (std::vector<int64_t>{8, 9, 10, 11, 7}));
}

TEST(SummarizeGroupsInPlace, GroupsWorkedByHand) {
  std::vector<uint32_t> groupOf{1, 0, 1, 2, 0, 1};
  std::vector<int64_t> values{5, 3, 1, 7, 9, 2};
  const std::vector<DurationStats> s = summarizeGroupsInPlace(groupOf, values, 4);
  ASSERT_EQ(s.size(), 4u);
  // Group 0: 3, 9: mean 6, deviations 3 and 3.
  EXPECT_EQ(s[0].total, 12);
  EXPECT_EQ(s[0].count, 2);
  EXPECT_EQ(s[0].avg, 6);
  EXPECT_EQ(s[0].med, 6);
  EXPECT_EQ(s[0].min, 3);
  EXPECT_EQ(s[0].max, 9);
  EXPECT_EQ(s[0].stddev, 3);
  // Group 1: 5, 1, 2: total 8, mean 8/3 -> 2, median 2; variance
  // ((15-8)^2 + (3-8)^2 + (6-8)^2) / 27 = 78/27 = 2.89, sd 1.70 -> 1.
  EXPECT_EQ(s[1].total, 8);
  EXPECT_EQ(s[1].count, 3);
  EXPECT_EQ(s[1].avg, 2);
  EXPECT_EQ(s[1].med, 2);
  EXPECT_EQ(s[1].min, 1);
  EXPECT_EQ(s[1].max, 5);
  EXPECT_EQ(s[1].stddev, 1);
  // Group 2: 7 alone; group 3: none.
  EXPECT_EQ(s[2].total, 7);
  EXPECT_EQ(s[2].med, 7);
  EXPECT_EQ(s[2].stddev, 0);
  EXPECT_EQ(s[3].count, 0);
  EXPECT_EQ(s[3].total, 0);
  // Given back.
  EXPECT_TRUE(groupOf.empty());
  EXPECT_TRUE(values.empty());
}

}  // namespace
}  // namespace asys
