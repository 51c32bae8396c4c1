// PackedCalls gives back every cell of the table it packs: lines that fit,
// blocks kept exact (jumps, shuffled calls, offsets one past a byte), calls
// near 2^32 (the base wraps), ids with no call, and the bytes it says.
#include "core/analysis/packed_calls.h"

#include <gtest/gtest.h>

#include <vector>

#include "core/analysis/key_join.h"
#include "test_random.h"

namespace asys {
namespace {

// Every id's call as the table has it, kNoMatch past the last call.
void expectSame(const std::vector<uint32_t>& table, const PackedCalls& packed) {
  size_t last = 0;
  for (size_t id = 0; id < table.size(); ++id)
    if (table[id] != kNoMatch) last = id + 1;
  ASSERT_EQ(packed.size(), last);
  for (size_t id = 0; id < last; ++id) ASSERT_EQ(packed[id], table[id]) << "id " << id;
}

TEST(PackedCalls, InterleavedCountersFitTheirLines) {
  // Two processes' calls interleaved at random, each process's ids a
  // counter: the first process's table.
  test::Lcg rng(3);
  std::vector<uint32_t> table;
  for (uint32_t call = 0; table.size() < 100000; ++call)
    if (rng.below(2) == 0) table.push_back(call);
  const PackedCalls packed(table);
  expectSame(table, packed);
  EXPECT_EQ(packed.exactBlocks(), 0u);
  // 8 bytes a block of 64 ids, 1 an id.
  EXPECT_EQ(packed.bytes(), (100000 + 63) / 64 * 8 + 100000);
}

TEST(PackedCalls, BlocksThatDoNotFitAreExact) {
  std::vector<uint32_t> table(64 * 6, kNoMatch);
  for (uint32_t id = 0; id < 64; ++id) table[id] = 1000 + 3 * id;  // a line
  // The second block: a line but one call 254 above it (fits), the third
  // 255 above (does not).
  for (uint32_t id = 64; id < 192; ++id) table[id] = 5000;
  table[64 + 10] = 5254;
  table[128 + 10] = 5255;
  // The fourth: a jump of 100000 calls half way; the fifth shuffled calls.
  for (uint32_t id = 192; id < 256; ++id) table[id] = 9000 + id + (id >= 224 ? 100000 : 0);
  test::Lcg rng(5);
  for (uint32_t id = 256; id < 320; ++id) table[id] = static_cast<uint32_t>(rng.below(1u << 31));
  // The sixth: calls coming down (ids given in the opposite order), with
  // ids without a call between.
  for (uint32_t id = 320; id < 384; ++id) table[id] = id % 3 == 0 ? kNoMatch : 800000 - 5 * id;
  const PackedCalls packed(table);
  expectSame(table, packed);
  EXPECT_EQ(packed.exactBlocks(), 3u);  // the third, fourth and fifth
  EXPECT_EQ(packed.bytes(), 6 * 8 + 6 * 64 + 3 * 64 * 4);
}

TEST(PackedCalls, CallsNearTheTopAndIdsWithoutCalls) {
  std::vector<uint32_t> table;
  // Calls up to kNoMatch - 1 (the line's base wraps past 2^32), a block
  // without a call, a block with one call, trailing ids without one.
  for (uint32_t id = 0; id < 64; ++id) table.push_back(kNoMatch - 1 - 2 * (63 - id));
  for (uint32_t id = 0; id < 64; ++id) table.push_back(kNoMatch);
  for (uint32_t id = 0; id < 64; ++id) table.push_back(id == 40 ? 7u : kNoMatch);
  for (uint32_t id = 0; id < 64; ++id) table.push_back(id < 3 ? 0u : kNoMatch);  // call 0, repeated
  for (uint32_t id = 0; id < 100; ++id) table.push_back(kNoMatch);
  const PackedCalls packed(table);
  expectSame(table, packed);
  EXPECT_EQ(packed.size(), 3 * 64 + 3);
  EXPECT_EQ(packed.exactBlocks(), 0u);
  EXPECT_EQ(PackedCalls(std::vector<uint32_t>(50, kNoMatch)).size(), 0u);
  EXPECT_EQ(PackedCalls(std::vector<uint32_t>()).size(), 0u);
}

TEST(PackedCalls, RandomTablesComeBackTheSame) {
  test::Lcg rng(11);
  for (int round = 0; round < 300; ++round) {
    const size_t ids = rng.below(700);
    // A line with noise of up to `noise` calls, holes, now and then a jump.
    const int64_t step = static_cast<int64_t>(rng.below(300)) - 20;
    const int64_t noise = static_cast<int64_t>(rng.below(300));
    int64_t at = static_cast<int64_t>(rng.below(1u << 31)) + (1 << 20);
    std::vector<uint32_t> table;
    for (size_t id = 0; id < ids; ++id) {
      at += step;
      if (rng.below(200) == 0) at += static_cast<int64_t>(rng.below(1 << 20));
      const int64_t call = at + static_cast<int64_t>(rng.below(static_cast<uint64_t>(noise) + 1));
      table.push_back(rng.below(10) == 0 ? kNoMatch : static_cast<uint32_t>(call));
    }
    const PackedCalls packed(table);
    expectSame(table, packed);
  }
}

}  // namespace
}  // namespace asys
