// sortNearlySorted (core/base/window_sort.h): the stable sort of a nearly
// sorted list a window at a time, checked against std::stable_sort of the
// same list; and StartTimes::setBlock, which that sort writes the starts with.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "core/analysis/start_times.h"
#include "core/base/permute.h"
#include "core/base/window_sort.h"

namespace {

using Key = std::pair<int64_t, uint8_t>;

// A list of n keys, each put at most `shift` places from its place in key
// order: the keys ascending with many ties (start and a kind of 0..2), then
// shuffled within stretches of shift + 1 elements.
std::vector<Key> nearlySorted(size_t n, size_t shift, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<Key> keys(n);
  int64_t start = 1000;
  for (Key& k : keys) {
    start += static_cast<int64_t>(rng() % 3);  // a third of neighbours tie on start
    k = {start, static_cast<uint8_t>(rng() % 3)};
  }
  std::sort(keys.begin(), keys.end());
  for (size_t from = 0; from < n; from += shift + 1)
    std::shuffle(keys.begin() + static_cast<std::ptrdiff_t>(from),
                 keys.begin() + static_cast<std::ptrdiff_t>(std::min(n, from + shift + 1)), rng);
  return keys;
}

// Sorts (key, original position) rows with sortNearlySorted, the rows moved
// as the activity list's columns are (permuteStretch); answers whether it
// sorted them.
bool sortRows(std::vector<Key>& keys, std::vector<uint32_t>& position, size_t window) {
  return asys::sortNearlySorted<Key>(
      keys.size(), window, [&](size_t i) { return keys[i]; },
      [&](size_t first, const uint32_t* order, const Key*, size_t m) {
        asys::permuteStretch(keys, first, order, m);
        asys::permuteStretch(position, first, order, m);
      });
}

// The expected result: the rows stably sorted by key (ties in list order).
std::vector<std::pair<Key, uint32_t>> stablySorted(const std::vector<Key>& keys,
                                                   const std::vector<uint32_t>& position) {
  std::vector<std::pair<Key, uint32_t>> rows;
  for (size_t i = 0; i < keys.size(); ++i) rows.emplace_back(keys[i], position[i]);
  std::stable_sort(rows.begin(), rows.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  return rows;
}

std::vector<std::pair<Key, uint32_t>> rowsOf(const std::vector<Key>& keys, const std::vector<uint32_t>& position) {
  std::vector<std::pair<Key, uint32_t>> rows;
  for (size_t i = 0; i < keys.size(); ++i) rows.emplace_back(keys[i], position[i]);
  return rows;
}

}  // namespace

TEST(SortNearlySorted, SortsAsAStableSortWhenEveryElementIsWithinHalfAWindow) {
  // Windows of 16 (halves of 8), elements up to 7 places from their place;
  // lengths that end on a window, on a half, and in between; and lists
  // shorter than a window.
  for (size_t n : {0u, 1u, 5u, 16u, 24u, 100u, 1000u, 1037u}) {
    for (uint32_t seed = 1; seed <= 5; ++seed) {
      SCOPED_TRACE(testing::Message() << "n " << n << " seed " << seed);
      std::vector<Key> keys = nearlySorted(n, 7, seed);
      std::vector<uint32_t> position(n);
      for (size_t i = 0; i < n; ++i) position[i] = static_cast<uint32_t>(i);
      const auto want = stablySorted(keys, position);
      ASSERT_TRUE(sortRows(keys, position, 16));
      EXPECT_EQ(rowsOf(keys, position), want);
    }
  }
}

TEST(SortNearlySorted, StopsWhereAnElementIsFartherAndKeepsTiesInOrder) {
  // The smallest key put last of 1000: no window reaches it in time, so the
  // sort answers false. The list is then still the same rows with equal
  // keys in their first relative order: a stable sort from there gives the
  // stable sort of the list as first given.
  std::vector<Key> keys = nearlySorted(1000, 5, 9);
  std::rotate(keys.begin(), keys.begin() + 1, keys.end());
  keys.back() = {0, 0};
  std::vector<uint32_t> position(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) position[i] = static_cast<uint32_t>(i);
  const auto want = stablySorted(keys, position);
  EXPECT_FALSE(sortRows(keys, position, 16));
  EXPECT_NE(rowsOf(keys, position), want);
  EXPECT_EQ(stablySorted(keys, position), want);
}

TEST(StartTimes, BlocksMadeAgainInPlace) {
  // Three blocks appended (the last short), then each made again with other
  // times: near ones over wide ones (a distance past 4.3 s, the int64
  // extremes), and wide ones over near ones; every time read back as set,
  // and the blocks not set keep theirs.
  const size_t kB = asys::StartTimes::kBlock;
  std::vector<int64_t> times;
  for (size_t i = 0; i < 2 * kB + 10; ++i) times.push_back(static_cast<int64_t>(1'000 + 7 * i));
  times[3] = 9'000'000'000'000;
  times[kB + 1] = INT64_MIN;
  times[kB + 2] = INT64_MAX;
  asys::StartTimes s;
  s.reserve(times.size());
  for (size_t from = 0; from < times.size(); from += kB)
    s.appendBlock(times.data() + from, std::min(kB, times.size() - from));

  std::vector<int64_t> block(kB);
  for (size_t k = 0; k < kB; ++k) block[k] = static_cast<int64_t>(500 - k);  // block 0: all near, descending
  s.setBlock(0, block.data(), kB);
  std::copy(block.begin(), block.end(), times.begin());
  for (size_t k = 0; k < 10; ++k) block[k] = k % 2 == 0 ? static_cast<int64_t>(k) : 8'000'000'000 + static_cast<int64_t>(k);
  s.setBlock(2, block.data(), 10);  // the short last block: every other time wide
  std::copy(block.begin(), block.begin() + 10, times.begin() + static_cast<std::ptrdiff_t>(2 * kB));
  ASSERT_EQ(s.size(), times.size());
  for (size_t i = 0; i < times.size(); ++i) ASSERT_EQ(s[i], times[i]) << "time " << i;
}
