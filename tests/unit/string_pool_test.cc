// The string pool's texts in blocks (core/base/string_pool.h): every text
// reads back as given at a block's edges, for an empty text, a text longer
// than a block, after forget(), for appended texts and through an overlay.
// The expected ids are the order of first appearance (the pool's contract),
// the texts are made here.
#include "core/base/string_pool.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace asys {
namespace {

constexpr size_t kBlock = StringPool::kBlockBytes;

// A text of `length` bytes that no other call with another `n` gives.
std::string textOf(size_t n, size_t length) {
  std::string s = std::to_string(n) + ":";
  s.resize(length, static_cast<char>('a' + n % 26));
  return s;
}

TEST(StringPool, BlockSizeIsOneMebibyte) { EXPECT_EQ(kBlock, 1048576u); }

TEST(StringPool, TextsFillingABlockExactlyThenAnEmptyOne) {
  // 1024 texts of 1024 bytes fill the first block to its last byte; the
  // empty text and "x" after them go to the next block.
  StringPool p;
  std::vector<std::string> texts;
  for (size_t i = 0; i < 1024; ++i) texts.push_back(textOf(i, 1024));
  for (size_t i = 0; i < texts.size(); ++i) EXPECT_EQ(p.intern(texts[i]), i);
  EXPECT_EQ(p.intern(""), 1024u);
  EXPECT_EQ(p.intern("x"), 1025u);
  for (size_t i = 0; i < texts.size(); ++i) ASSERT_EQ(p.get(static_cast<uint32_t>(i)), texts[i]) << i;
  EXPECT_EQ(p.get(1023).size(), 1024u);
  EXPECT_EQ(p.get(1024), "");
  EXPECT_EQ(p.get(1025), "x");
  EXPECT_EQ(p.intern(texts[1023]), 1023u);
  EXPECT_EQ(p.intern(""), 1024u);
  EXPECT_EQ(p.size(), 1026u);
}

TEST(StringPool, ATextThatDoesNotFitStartsTheNextBlock) {
  // 1000-byte texts: 1048 fit in a block (1,048,000 bytes), the 1049th
  // would need 424 bytes more. The last text of the first block must not
  // read the 576 unused bytes after it.
  StringPool p;
  std::vector<std::string> texts;
  for (size_t i = 0; i < 1050; ++i) texts.push_back(textOf(i, 1000));
  for (const std::string& t : texts) p.intern(t);
  EXPECT_EQ(p.get(1047), texts[1047]);
  EXPECT_EQ(p.get(1048), texts[1048]);
  EXPECT_EQ(p.get(1049), texts[1049]);
  EXPECT_EQ(p.intern(texts[1047]), 1047u);
  EXPECT_EQ(p.intern(texts[1048]), 1048u);
}

TEST(StringPool, EmptyTexts) {
  StringPool p;
  EXPECT_EQ(p.intern(""), 0u);
  EXPECT_EQ(p.intern("a"), 1u);
  EXPECT_EQ(p.intern(""), 0u);
  EXPECT_EQ(p.append(""), 2u);
  EXPECT_EQ(p.append("b"), 3u);
  EXPECT_EQ(p.get(0), "");
  EXPECT_EQ(p.get(1), "a");
  EXPECT_EQ(p.get(2), "");
  EXPECT_EQ(p.get(3), "b");
  EXPECT_EQ(p.get(kNoString), "");
}

TEST(StringPool, ATextLongerThanABlock) {
  StringPool p;
  const std::string longText = textOf(7, 3 * kBlock + 5);  // four block numbers
  std::string other = longText;
  other.back() = '!';
  EXPECT_EQ(p.intern("before"), 0u);
  EXPECT_EQ(p.intern(longText), 1u);
  EXPECT_EQ(p.intern("after"), 2u);
  EXPECT_EQ(p.intern(std::string(kBlock, 'k')), 3u);  // exactly one block
  EXPECT_EQ(p.intern(""), 4u);
  EXPECT_EQ(p.intern(other), 5u);
  EXPECT_EQ(p.intern("last"), 6u);
  EXPECT_EQ(p.get(0), "before");
  EXPECT_EQ(p.get(1), longText);
  EXPECT_EQ(p.get(2), "after");
  EXPECT_EQ(p.get(3), std::string(kBlock, 'k'));
  EXPECT_EQ(p.get(4), "");
  EXPECT_EQ(p.get(5), other);
  EXPECT_EQ(p.get(6), "last");
  EXPECT_EQ(p.intern(longText), 1u);
  EXPECT_EQ(p.intern(other), 5u);
  EXPECT_EQ(p.intern(std::string(kBlock, 'k')), 3u);
  // A long text first, in a pool of its own.
  StringPool q;
  EXPECT_EQ(q.intern(longText), 0u);
  EXPECT_EQ(q.intern("a"), 1u);
  EXPECT_EQ(q.get(0), longText);
  EXPECT_EQ(q.get(1), "a");
}

TEST(StringPool, ATextOfTheFirstBlockCopiedAsItGrows) {
  // The first block starts small and grows by doubling: a text read from
  // the pool and appended to it is copied before its old bytes go.
  StringPool p;
  const std::string t = textOf(3, 3000);
  const uint32_t a = p.intern(t);
  const uint32_t b = p.append(p.get(a));
  const uint32_t c = p.append(p.get(b));
  EXPECT_EQ(p.get(a), t);
  EXPECT_EQ(p.get(b), t);
  EXPECT_EQ(p.get(c), t);
}

TEST(StringPool, ManyTextsReadBackAfterTheIndexGrows) {
  // 200,000 texts: the index is made again many times from the texts.
  StringPool p;
  for (uint32_t i = 0; i < 200000; ++i) ASSERT_EQ(p.intern("t" + std::to_string(i)), i);
  for (uint32_t i = 0; i < 200000; ++i) ASSERT_EQ(p.intern("t" + std::to_string(i)), i);
  for (uint32_t i = 0; i < 200000; i += 997) EXPECT_EQ(p.get(i), "t" + std::to_string(i));
  EXPECT_EQ(p.size(), 200000u);
}

TEST(StringPool, AppendedTextsStayOutOfTheIndexWhenItGrows) {
  // Appended texts are in no slot; a pool appended to and then interned
  // into (not done by the engine) keeps them out as its index grows.
  StringPool p;
  EXPECT_EQ(p.append("a"), 0u);
  EXPECT_EQ(p.append("a"), 1u);
  for (uint32_t i = 0; i < 5000; ++i) ASSERT_EQ(p.intern("t" + std::to_string(i)), 2 + i);
  EXPECT_EQ(p.intern("a"), 5002u);
  EXPECT_EQ(p.intern("t0"), 2u);
  EXPECT_EQ(p.intern("t4999"), 5001u);
  EXPECT_EQ(p.get(0), "a");
  EXPECT_EQ(p.get(1), "a");
}

TEST(StringPool, ForgetAfterSeveralBlocksThenIntern) {
  StringPool p;
  std::vector<std::string> texts;
  for (size_t i = 0; i < 3500; ++i) texts.push_back(textOf(i, 1000));  // about 3.3 blocks
  for (const std::string& t : texts) p.intern(t);
  const std::string longText = textOf(1, 2 * kBlock);
  EXPECT_EQ(p.intern(longText), 3500u);
  p.forget();
  EXPECT_EQ(p.size(), 3501u);
  EXPECT_EQ(p.get(0), "");
  EXPECT_EQ(p.get(3500), "");
  // New ids go on from 3501; the same texts are new texts now.
  for (size_t i = 0; i < texts.size(); ++i) ASSERT_EQ(p.intern(texts[3499 - i]), 3501 + i);
  EXPECT_EQ(p.intern(longText), 7001u);
  EXPECT_EQ(p.intern("z"), 7002u);
  for (size_t i = 0; i < texts.size(); ++i) ASSERT_EQ(p.get(static_cast<uint32_t>(3501 + i)), texts[3499 - i]);
  EXPECT_EQ(p.get(7001), longText);
  EXPECT_EQ(p.get(7002), "z");
  EXPECT_EQ(p.intern(texts[0]), 3501u + 3499u);
  // Twice more: the kept blocks are used again.
  p.forget();
  EXPECT_EQ(p.intern("y"), 7003u);
  EXPECT_EQ(p.get(7003), "y");
  p.forget();
  for (size_t i = 0; i < texts.size(); ++i) ASSERT_EQ(p.intern(texts[i]), 7004 + i);
  for (size_t i = 0; i < texts.size(); ++i) ASSERT_EQ(p.get(static_cast<uint32_t>(7004 + i)), texts[i]);
}

TEST(StringPool, AppendedTextsAcrossBlocks) {
  StringPool p;
  const std::string t = textOf(5, 700000);  // one a block: the second does not fit after the first
  EXPECT_EQ(p.append(t), 0u);
  EXPECT_EQ(p.append(t), 1u);
  EXPECT_EQ(p.append(t), 2u);
  EXPECT_EQ(p.append("s"), 3u);
  for (uint32_t id = 0; id < 3; ++id) EXPECT_EQ(p.get(id), t);
  EXPECT_EQ(p.get(3), "s");
}

TEST(StringPool, OverlayIdsReadTheOverlaysBlocks) {
  StringPool overlay;
  std::vector<std::string> texts;
  for (size_t i = 0; i < 2200; ++i) texts.push_back(textOf(i, 1000));  // past two blocks
  for (const std::string& t : texts) overlay.intern(t);
  StringPool report;
  EXPECT_EQ(report.intern("own"), 0u);
  report.setOverlay(&overlay);
  EXPECT_EQ(report.get(0), "own");
  EXPECT_EQ(report.get(1), "");
  for (uint32_t i : {0u, 1047u, 1048u, 2199u}) EXPECT_EQ(report.get(i | StringPool::kOverlayBit), texts[i]);
  EXPECT_EQ(report.get(2200 | StringPool::kOverlayBit), "");
}

TEST(StringPool, ACopyHasItsOwnBlocks) {
  StringPool p;
  std::vector<std::string> texts;
  for (size_t i = 0; i < 1100; ++i) texts.push_back(textOf(i, 1000));  // past one block
  for (const std::string& t : texts) p.intern(t);
  const std::string longText = textOf(2, kBlock + 1);
  EXPECT_EQ(p.intern(longText), 1100u);
  StringPool copy(p);
  EXPECT_EQ(copy.intern("only in the copy"), 1101u);
  EXPECT_EQ(p.intern("only in the original"), 1101u);
  StringPool assigned;
  assigned.intern("replaced");
  assigned = copy;
  for (uint32_t i : {0u, 1047u, 1048u, 1099u}) {
    EXPECT_EQ(copy.get(i), texts[i]);
    EXPECT_EQ(assigned.get(i), texts[i]);
  }
  EXPECT_EQ(copy.get(1100), longText);
  EXPECT_EQ(copy.get(1101), "only in the copy");
  EXPECT_EQ(assigned.get(1101), "only in the copy");
  EXPECT_EQ(p.get(1101), "only in the original");
  EXPECT_EQ(copy.intern(texts[5]), 5u);
  EXPECT_EQ(assigned.intern("replaced"), 1102u);
  // A small pool's first block, copied, grows on its own.
  StringPool small;
  small.intern("a");
  StringPool smallCopy = small;
  const std::string t = textOf(9, 5000);
  EXPECT_EQ(smallCopy.intern(t), 1u);
  EXPECT_EQ(smallCopy.get(0), "a");
  EXPECT_EQ(smallCopy.get(1), t);
  EXPECT_EQ(small.size(), 1u);
}

TEST(StringPool, StoredIdsAfterReserve) {
  StringPool p;
  p.reserveStored(10, 3);
  p.addStored(10, "ten");
  p.addStored(3, "three");
  p.addStored(5, "ten");  // the same text: the same pool id
  p.addStored(int64_t{1} << 40, "far");
  EXPECT_EQ(p.fromStored(10), 0u);
  EXPECT_EQ(p.fromStored(3), 1u);
  EXPECT_EQ(p.fromStored(5), 0u);
  EXPECT_EQ(p.fromStored(int64_t{1} << 40), 2u);
  EXPECT_EQ(p.fromStored(4), kNoString);
  EXPECT_EQ(p.fromStored(-1), kNoString);
  EXPECT_EQ(p.get(2), "far");
  EXPECT_TRUE(p.oddTexts().empty());
}

}  // namespace
}  // namespace asys
