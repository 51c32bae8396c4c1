// isValidUtf8 against RFC 3629's edges, byte sequences written out by hand.
#include <gtest/gtest.h>

#include <string>

#include "core/base/text.h"

namespace asys {
namespace {

bool valid(const std::string& bytes) { return isValidUtf8(bytes); }

TEST(Utf8, AcceptsEveryLengthOfSequence) {
  EXPECT_TRUE(valid(""));
  EXPECT_TRUE(valid("gemm<float, 128>"));
  EXPECT_TRUE(valid("\xC3\xA9"));          // é U+00E9
  EXPECT_TRUE(valid("\xE2\x82\xAC"));      // € U+20AC
  EXPECT_TRUE(valid("\xE7\xBB\x9F\xE8\xAE\xA1"));  // 统计
  EXPECT_TRUE(valid("\xF0\x9F\x98\x80"));  // U+1F600
  EXPECT_TRUE(valid("\xF4\x8F\xBF\xBF"));  // U+10FFFF, the last code point
  EXPECT_TRUE(valid(std::string("a\0b", 3)));  // NUL is a character
}

TEST(Utf8, RejectsWhatRfc3629Forbids) {
  EXPECT_FALSE(valid("gemm\xFF"));             // never a UTF-8 byte
  EXPECT_FALSE(valid("\x80"));                 // a continuation alone
  EXPECT_FALSE(valid("\xC0\x80"));             // overlong NUL
  EXPECT_FALSE(valid("\xC1\xBF"));             // overlong U+007F
  EXPECT_FALSE(valid("\xE0\x9F\xBF"));         // overlong U+07FF
  EXPECT_FALSE(valid("\xED\xA0\x80"));         // surrogate U+D800
  EXPECT_FALSE(valid("\xF0\x8F\xBF\xBF"));     // overlong U+FFFF
  EXPECT_FALSE(valid("\xF4\x90\x80\x80"));     // U+110000, beyond Unicode
  EXPECT_FALSE(valid("\xF5\x80\x80\x80"));
  EXPECT_FALSE(valid("\xE2\x82"));             // cut short at the end
  EXPECT_FALSE(valid("\xE2\x82x"));            // cut short by an ASCII byte
  EXPECT_FALSE(valid("\xC3"));
}

}  // namespace
}  // namespace asys
