// BlockCache over an in-memory "file" whose byte i is a function of i, so
// every answer is checked against the bytes themselves, and every read of
// the source is recorded.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "core/report/block_cache.h"

using asys::BlockCache;

namespace {

constexpr int64_t kPage = 4096;

uint8_t byteAt(int64_t i) { return static_cast<uint8_t>((i * 2654435761u) >> 13); }

struct Read {
  int64_t offset, length;
};

struct FakeFile {
  int64_t size;
  std::vector<Read> reads;
  bool failing = false;

  BlockCache::Source source() {
    return [this](uint8_t* dst, int64_t length, int64_t offset) {
      reads.push_back({offset, length});
      if (failing) return false;
      EXPECT_GE(offset, 0);
      EXPECT_LE(offset + length, size);
      for (int64_t i = 0; i < length; ++i) dst[i] = byteAt(offset + i);
      return true;
    };
  }
  int64_t bytesRead() const {
    int64_t n = 0;
    for (const Read& r : reads) n += r.length;
    return n;
  }
};

bool holdsFileBytes(const uint8_t* p, int64_t offset, int64_t length) {
  for (int64_t i = 0; i < length; ++i)
    if (p[i] != byteAt(offset + i)) return false;
  return true;
}

constexpr BlockCache::Limits kSmall{64 << 10, 1 << 20, 4 << 20};

}  // namespace

TEST(BlockCache, CopiesExactlyTheFileBytesAnywhere) {
  FakeFile file{10'000'123};  // not a multiple of any block size
  BlockCache cache(file.size, file.source(), kSmall);
  std::mt19937_64 rng(5);
  std::vector<uint8_t> buf(300'000);
  for (int i = 0; i < 500; ++i) {
    const int64_t length = 1 + static_cast<int64_t>(rng() % buf.size());
    const int64_t offset = static_cast<int64_t>(rng() % static_cast<uint64_t>(file.size - length + 1));
    ASSERT_TRUE(cache.copy(buf.data(), length, offset));
    ASSERT_TRUE(holdsFileBytes(buf.data(), offset, length)) << "offset " << offset << " length " << length;
  }
  // The last bytes of the file, alone.
  ASSERT_TRUE(cache.copy(buf.data(), 3, file.size - 3));
  EXPECT_TRUE(holdsFileBytes(buf.data(), file.size - 3, 3));
}

TEST(BlockCache, AScanReadsEachByteOnceInGrowingBlocks) {
  FakeFile file{64 << 20};
  BlockCache cache(file.size, file.source(), kSmall);
  std::vector<uint8_t> page(kPage);
  for (int64_t at = 0; at < file.size; at += kPage) {
    ASSERT_TRUE(cache.copy(page.data(), kPage, at));
    ASSERT_TRUE(holdsFileBytes(page.data(), at, kPage));
  }
  EXPECT_EQ(file.bytesRead(), file.size);
  // 64 KiB, 256 KiB, then 1 MiB blocks: 2 + (64 MiB - 320 KiB) / 1 MiB = 65.7 -> 66 reads,
  // where reading page by page would take 16384.
  ASSERT_GE(file.reads.size(), 3u);
  EXPECT_EQ(file.reads[0].length, 64 << 10);
  EXPECT_EQ(file.reads[1].length, 256 << 10);
  EXPECT_EQ(file.reads[2].length, 1 << 20);
  EXPECT_EQ(file.reads.size(), 66u);
  EXPECT_LE(cache.cachedBytes(), kSmall.capacity);
}

TEST(BlockCache, AScanOfEveryThirdPageStillReadsAhead) {
  // A table whose pages alternate with two other tables' (asys gen writes
  // its tables interleaved like this).
  FakeFile file{32 << 20};
  BlockCache cache(file.size, file.source(), kSmall);
  std::vector<uint8_t> page(kPage);
  for (int64_t at = 0; at < file.size; at += 3 * kPage) ASSERT_TRUE(cache.copy(page.data(), kPage, at));
  EXPECT_LE(file.reads.size(), 40u);
  EXPECT_LE(file.bytesRead(), file.size);
}

TEST(BlockCache, ScatteredReadsStaySmall) {
  FakeFile file{1 << 30};
  BlockCache cache(file.size, file.source(), kSmall);
  std::vector<uint8_t> page(kPage);
  // Ten pages 100 MB apart: each costs one minimal read, not a large block.
  for (int i = 0; i < 10; ++i) {
    const int64_t at = i * int64_t{100'000'000} / kPage * kPage;
    ASSERT_TRUE(cache.copy(page.data(), kPage, at));
    ASSERT_TRUE(holdsFileBytes(page.data(), at, kPage));
  }
  EXPECT_EQ(file.reads.size(), 10u);
  EXPECT_EQ(file.bytesRead(), 10 * int64_t{64 << 10});
  // Read again: all cached.
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(cache.copy(page.data(), kPage, i * int64_t{100'000'000} / kPage * kPage));
  EXPECT_EQ(file.reads.size(), 10u);
}

TEST(BlockCache, PinnedPagesStayValidWhileTheCacheTurnsOver) {
  FakeFile file{64 << 20};
  BlockCache cache(file.size, file.source(), kSmall);
  const uint8_t* held = cache.pin(5 * kPage, kPage);
  ASSERT_NE(held, nullptr);
  ASSERT_TRUE(holdsFileBytes(held, 5 * kPage, kPage));
  // A scan of the whole file: far more than the capacity passes through.
  for (int64_t at = 0; at < file.size; at += kPage) {
    const uint8_t* p = cache.pin(at, kPage);
    ASSERT_NE(p, nullptr);
    ASSERT_TRUE(holdsFileBytes(p, at, kPage));
    cache.release(p);
  }
  EXPECT_TRUE(holdsFileBytes(held, 5 * kPage, kPage));  // still there, still right
  // The held block counts, but nothing more than the limit besides it.
  EXPECT_LE(cache.cachedBytes(), kSmall.capacity + kSmall.maxRead);
  cache.release(held);
}

TEST(BlockCache, PinRefusesWhatItCannotHandOutWhole) {
  FakeFile file{1 << 20};
  BlockCache cache(file.size, file.source(), kSmall);
  EXPECT_EQ(cache.pin(file.size - 10, 20), nullptr);  // past the end
  EXPECT_EQ(cache.pin(-1, 10), nullptr);
  // Two neighbouring minimal blocks: a range over their seam is not in one block.
  std::vector<uint8_t> buf(16);
  ASSERT_TRUE(cache.copy(buf.data(), 1, 0));                   // block [0, 64K)
  ASSERT_TRUE(cache.copy(buf.data(), 1, 200 << 10));           // block [192K, 256K)
  ASSERT_TRUE(cache.copy(buf.data(), 1, (64 << 10) + 10));     // continues: [64K, 192K) fits between
  const uint8_t* seam = cache.pin((64 << 10) - 8, 16);
  EXPECT_EQ(seam, nullptr);
  // copy() reads across the seam.
  ASSERT_TRUE(cache.copy(buf.data(), 16, (64 << 10) - 8));
  EXPECT_TRUE(holdsFileBytes(buf.data(), (64 << 10) - 8, 16));
}

TEST(BlockCache, AFailedReadIsReportedAndNotCached) {
  FakeFile file{1 << 20};
  BlockCache cache(file.size, file.source(), kSmall);
  std::vector<uint8_t> page(kPage);
  file.failing = true;
  EXPECT_FALSE(cache.copy(page.data(), kPage, 0));
  EXPECT_EQ(cache.pin(0, kPage), nullptr);
  EXPECT_EQ(cache.cachedBytes(), 0);
  file.failing = false;
  ASSERT_TRUE(cache.copy(page.data(), kPage, 0));
  EXPECT_TRUE(holdsFileBytes(page.data(), 0, kPage));
}
