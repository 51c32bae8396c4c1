// The call-stack group rules (core/analysis/callstack_groups.h) on hand-made
// chains: library versus function signature, order root -> leaf with frames
// in between, several configs of one name, the escaped '/', one regex
// evaluation per distinct string, and the one-line parse errors.
#include "core/analysis/callstack_groups.h"

#include <gtest/gtest.h>

#include "core/base/error.h"
#include "core/base/string_pool.h"

namespace asys {
namespace {

struct Chain {
  std::vector<uint32_t> symbols, modules;
};

// Frames as (symbol, module) texts, root first.
Chain chain(StringPool& pool, std::initializer_list<std::pair<const char*, const char*>> frames) {
  Chain c;
  for (const auto& [symbol, module] : frames) {
    c.symbols.push_back(pool.intern(symbol));
    c.modules.push_back(module ? pool.intern(module) : kNoString);
  }
  return c;
}

std::vector<uint32_t> match(CallstackMatcher& m, const Chain& c) {
  std::vector<uint32_t> out;
  m.match(c.symbols, c.modules, out);
  return out;
}

std::string parseError(const std::string& config) {
  try {
    CallstackGroups g;
    g.add(config);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(CallstackGroups, OrderFromRootToLeafWithFramesBetween) {
  StringPool pool;
  CallstackGroups g;
  g.add("launch=libtorch/LaunchKernel");   // 0
  g.add("inverted=LaunchKernel/libtorch");  // 1
  g.add("sig=^at::native::add");            // 2: a function signature
  g.add("lib=libhgrt");                     // 3: a library
  g.add("py=loss\\.py");                    // 4: a Python frame
  CallstackMatcher m(g, pool);
  const Chain launch = chain(pool, {{"main", "/app/train.py"},
                                    {"at::native::add_kernel()", "/lib/libtorch_ppu.so"},
                                    {"0x7f00", "/lib/libtorch_ppu.so"},
                                    {"hgLaunchKernel", "/usr/lib/libhgrt.so"},
                                    {"reserve()", "/usr/lib/libhggc.so"}});
  EXPECT_EQ(match(m, launch), (std::vector<uint32_t>{0, 2, 3}));
  const Chain loss = chain(pool, {{"main", "/app/train.py"}, {"record_loss", "/app/loss.py"}, {"malloc", nullptr}});
  EXPECT_EQ(match(m, loss), (std::vector<uint32_t>{4}));
  EXPECT_TRUE(match(m, Chain{}).empty());
}

TEST(CallstackGroups, OneFrameCannotMatchTwoRegexes) {
  StringPool pool;
  CallstackGroups g;
  g.add("twice=libtorch/libtorch");
  CallstackMatcher m(g, pool);
  EXPECT_TRUE(match(m, chain(pool, {{"a", "libtorch.so"}})).empty());
  EXPECT_EQ(match(m, chain(pool, {{"a", "libtorch.so"}, {"b", "libtorch.so"}})).size(), 1u);
}

TEST(CallstackGroups, SameNameIsOneGroupInFirstOrder) {
  StringPool pool;
  CallstackGroups g;
  g.add("acompute=libacblas");
  g.add("torch=libtorch");
  g.add("acompute=libacdnn");
  ASSERT_EQ(g.groups().size(), 2u);
  EXPECT_EQ(g.groups()[0].name, "acompute");
  EXPECT_EQ(g.groups()[0].configs.size(), 2u);
  CallstackMatcher m(g, pool);
  EXPECT_EQ(match(m, chain(pool, {{"f", "libtorch.so"}, {"g", "libacdnn.so"}})), (std::vector<uint32_t>{0, 1}));
}

TEST(CallstackGroups, EscapedSlashIsLiteral) {
  StringPool pool;
  CallstackGroups g;
  g.add("nn=torch\\/nn\\/modules");
  ASSERT_EQ(g.groups()[0].configs[0].size(), 1u);  // one regex, not three
  CallstackMatcher m(g, pool);
  EXPECT_EQ(match(m, chain(pool, {{"_apply", "/opt/torch/nn/modules/module.py"}})).size(), 1u);
  EXPECT_TRUE(match(m, chain(pool, {{"torch", nullptr}, {"nn", nullptr}, {"modules", nullptr}})).empty());
}

TEST(CallstackGroups, EachRegexRunsOncePerDistinctString) {
  StringPool pool;
  CallstackGroups g;
  g.add("a=zzz");
  CallstackMatcher m(g, pool);
  const Chain c = chain(pool, {{"f", "libx.so"}, {"g", "libx.so"}, {"f", "liby.so"}});
  for (int i = 0; i < 100; ++i) match(m, c);
  // Distinct strings: f, g, libx.so, liby.so.
  EXPECT_EQ(m.evaluations(), 4u);
}

TEST(CallstackGroups, BuiltInsParseAndKeepTheirOrder) {
  const CallstackGroups& b = CallstackGroups::builtIn();
  ASSERT_EQ(b.groups().size(), CallstackGroups::builtInConfigs().size());
  EXPECT_EQ(b.groups().front().name, "acompute");
  EXPECT_EQ(b.groups().back().name, "torch_python");
}

TEST(CallstackGroups, ParseErrorsQuoteTheConfig) {
  EXPECT_EQ(parseError("acompute"), "--callstack-group-config 'acompute': expected NAME=FRAME_RE[/FRAME_RE...] (no '=')");
  EXPECT_EQ(parseError("=x"), "--callstack-group-config '=x': the group name before '=' is empty");
  EXPECT_EQ(parseError("a="), "--callstack-group-config 'a=': group 'a' has no frame regex after '='");
  EXPECT_EQ(parseError("a=x/"),
            "--callstack-group-config 'a=x/': group 'a': regular expression 2 of 'x/' is empty (separate regexes "
            "with a single '/', write a literal '/' as '\\/')");
  EXPECT_EQ(parseError("a=x/[y"),
            "--callstack-group-config 'a=x/[y': group 'a', frame regex 2: invalid regular expression '[y' at "
            "position 2: missing terminating ] for character class");
  EXPECT_EQ(parseError("a=(?=x)"), "");  // '=' inside the regex: the name ends at the first '='
}

}  // namespace
}  // namespace asys
