// Table::setTextOf: a text given by a caller's id is interned once a chunk
// and its id reused; what the cells say must be what setText of the same
// texts says, across chunks (clearRows empties the pool the memo points
// into), sources with the same ids, and more distinct ids than the memo
// has slots.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/base/string_pool.h"
#include "core/table/table.h"

namespace {

using asys::CellKind;
using asys::StringPool;
using asys::Table;

std::vector<asys::ColumnSpec> twoTexts() {
  return {{"A", "", CellKind::Text, ""}, {"B", "", CellKind::Text, ""}};
}

TEST(TableTextMemo, AChunkEmptiedForgetsTheIdsItMemoized) {
  StringPool names;
  const uint32_t x = names.intern("x");
  Table t(twoTexts());
  t.setTextOf(0, names, x);
  t.endRow();
  t.clearRows();
  // The emptied pool's first text is now "y": a memo kept across the
  // clear would answer its id for "x".
  t.setText(0, "y");
  t.setTextOf(1, names, x);
  t.endRow();
  EXPECT_EQ(t.textAt(0, 0), "y");
  EXPECT_EQ(t.textAt(0, 1), "x");
}

TEST(TableTextMemo, SourcesWithTheSameIdsKeepTheirOwnTexts) {
  StringPool a, b;
  for (int i = 0; i < 3; ++i) {
    a.intern("a" + std::to_string(i));
    b.intern("b" + std::to_string(i));
  }
  Table t(twoTexts());
  for (uint32_t row = 0; row < 30; ++row) {
    t.setTextOf(0, a, row % 3);
    t.setTextOf(1, b, row % 3);
    t.endRow();
  }
  for (size_t row = 0; row < 30; ++row) {
    EXPECT_EQ(t.textAt(row, 0), "a" + std::to_string(row % 3));
    EXPECT_EQ(t.textAt(row, 1), "b" + std::to_string(row % 3));
  }
  // Equal texts still share one id in the table's pool, as setText's do.
  EXPECT_EQ(t.textIdAt(0, 0), t.textIdAt(3, 0));
}

TEST(TableTextMemo, MoreDistinctIdsThanSlotsAreEachTheirText) {
  // 20,000 ids in a 4,096-slot memo, visited out of order and again: every
  // collision replaces a slot, never answers another id's text.
  StringPool names;
  std::vector<uint32_t> ids;
  for (int i = 0; i < 20000; ++i) ids.push_back(names.intern("name " + std::to_string(i)));
  Table t(twoTexts());
  std::vector<int> expected;
  for (int pass = 0; pass < 2; ++pass) {
    for (int i = 0; i < 20000; ++i) {
      const int k = static_cast<int>((static_cast<uint64_t>(i) * 7919 + pass) % 20000);
      t.setTextOf(0, names, ids[k]);
      t.endRow();
      expected.push_back(k);
    }
  }
  ASSERT_EQ(t.rowCount(), expected.size());
  for (size_t row = 0; row < expected.size(); ++row)
    ASSERT_EQ(t.textAt(row, 0), "name " + std::to_string(expected[row])) << row;
  EXPECT_EQ(t.textPool().size(), 20000u);
}

TEST(TableTextMemo, AppendedTextsReadTheSame) {
  // A writer's chunk appends its texts unsearched (appendTexts): the memo
  // then reuses each appended id within the chunk.
  StringPool names;
  const uint32_t p = names.intern("p"), q = names.intern("q");
  Table t(twoTexts());
  t.appendTexts();
  for (int row = 0; row < 10; ++row) {
    t.setTextOf(0, names, row % 2 ? q : p);
    t.endRow();
  }
  for (size_t row = 0; row < 10; ++row) EXPECT_EQ(t.textAt(row, 0), row % 2 ? "q" : "p");
  EXPECT_EQ(t.textPool().size(), 2u);
}

}  // namespace
