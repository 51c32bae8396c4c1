// Every rule declaration is consistent: the CLI, help, settings panel, pie
// and compare layer all read it, so a slip here shows everywhere.
#include <gtest/gtest.h>

#include <set>

#include "core/compare/compare.h"
#include "core/rules/rule.h"

using namespace asys;

TEST(RuleDeclarations, NamesOptionsAndPiesAreConsistent) {
  std::set<std::string> names;
  for (const RuleSpec* r : allRules()) {
    EXPECT_TRUE(names.insert(r->name).second) << "two rules named " << r->name;
    EXPECT_FALSE(r->title.empty()) << r->name;
    EXPECT_FALSE(r->rowHelp.empty()) << r->name;
    EXPECT_TRUE(static_cast<bool>(r->compute) != (r->compare != nullptr)) << r->name << ": compute xor compare";
    std::set<std::string> options;
    for (const OptionSpec& o : r->options) {
      if (o.kind == OptionKind::ExclusiveFlags) {
        for (const FlagSpec& f : o.flags) EXPECT_TRUE(options.insert(f.name).second) << r->name << ": " << f.name;
      } else {
        EXPECT_TRUE(options.insert(o.name).second) << r->name << ": option " << o.name << " twice";
      }
    }
    auto hasColumn = [&](const std::string& name) {
      for (const ColumnSpec& c : r->columns)
        if (c.name == name) return true;
      return false;
    };
    if (!r->pie.valueColumn.empty()) {
      EXPECT_TRUE(hasColumn(r->pie.valueColumn)) << r->name << ": pie value " << r->pie.valueColumn;
      for (const auto& k : r->pie.keyColumns) EXPECT_TRUE(hasColumn(k)) << r->name << ": pie key " << k;
    }
    for (const auto& c : r->sumColumns) EXPECT_TRUE(hasColumn(c)) << r->name << ": summed column " << c;
    // Tree levels are text columns, in column order.
    size_t last = 0;
    for (const auto& level : r->treeLevels) {
      size_t at = 0;
      while (at < r->columns.size() && r->columns[at].name != level) ++at;
      ASSERT_LT(at, r->columns.size()) << r->name << ": tree level " << level;
      EXPECT_EQ(r->columns[at].kind, CellKind::Text) << r->name << ": tree level " << level;
      EXPECT_TRUE(at >= last) << r->name << ": tree level " << level << " out of order";
      last = at + 1;
    }
  }
}

TEST(RuleDeclarations, CompareRulesMatchByDeclaredKeys) {
  int compares = 0;
  for (const RuleSpec* r : allRules()) {
    if (!r->compare) continue;
    ++compares;
    int keys = 0;
    for (const ColumnSpec& c : r->compare->sideColumns) keys += c.role == ColumnRole::Key;
    EXPECT_GT(keys, 0) << r->name << ": its side table declares no key column";
    EXPECT_EQ(r->columns.size(), compareColumns(*r->compare).size()) << r->name;
    bool matchedOnly = false;
    for (const OptionSpec& o : r->options) matchedOnly = matchedOnly || o.name == "matched-only";
    EXPECT_TRUE(matchedOnly) << r->name << ": the GUI's Show matched only";
  }
  EXPECT_GE(compares, 3);
}
