// Every rule declaration is consistent: the CLI, help, settings panel, pie
// and compare layer all read it, so a slip here shows everywhere.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "core/compare/compare.h"
#include "core/rules/rule.h"
#include "core/rules/rule_config.h"

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

// The viewer's Chinese interface reads these: every rule and every settings
// control has a Chinese label.
TEST(RuleDeclarations, EveryRuleAndOptionHasAChineseLabel) {
  auto chinese = [](const std::string& s) {
    for (unsigned char c : s)
      if (c >= 0x80) return true;  // UTF-8: CJK text is never plain ASCII
    return false;
  };
  for (const RuleSpec* r : allRules()) {
    EXPECT_TRUE(chinese(r->titleZh)) << r->name << ": titleZh \"" << r->titleZh << '"';
    for (const OptionSpec& o : r->options) {
      EXPECT_TRUE(chinese(o.labelZh)) << r->name << ": option " << o.name;
      if (!o.group.empty()) EXPECT_TRUE(chinese(o.groupZh)) << r->name << ": group of " << o.name;
    }
    for (const std::string& g : r->globalOptions) {
      ASSERT_NE(findGlobalOption(g), nullptr) << g;
      EXPECT_TRUE(chinese(findGlobalOption(g)->labelZh)) << g;
    }
  }
}

// The Chinese titles are the rule documentation's section titles
// (shared/spec/asys-stats-rules.zh.txt: "2.3.7 HGGC PPU kernel汇总", or an
// unnumbered compare section "PPU算子汇总比较"). Skipped without shared/.
TEST(RuleDeclarations, ChineseTitlesAreTheDocumentationsSectionTitles) {
  std::ifstream in(std::string(ASYS_SPEC_DIR) + "/asys-stats-rules.zh.txt");
  if (!in) GTEST_SKIP() << "no " << ASYS_SPEC_DIR << "/asys-stats-rules.zh.txt";
  std::set<std::string> headings;
  for (std::string line; std::getline(in, line);) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    headings.insert(line);
    const size_t space = line.find(' ');
    if (space != std::string::npos && line.rfind("2.", 0) == 0) headings.insert(line.substr(space + 1));
  }
  // Rules the documentation has no section for (the expert rules, the detail
  // half of 2.3.1, the kernel compare named only in an example): their
  // titles are ours, written in its words.
  const std::set<std::string> undocumented = {"ppu_gaps", "ppu_time_util", "device_memory_usage_detail",
                                              "ppu_kernel_summary_compare"};
  size_t checked = 0;
  for (const RuleSpec* r : allRules()) {
    if (undocumented.count(r->name)) continue;
    ++checked;
    EXPECT_TRUE(headings.count(r->titleZh)) << r->name << ": \"" << r->titleZh << "\" is no section title";
  }
  EXPECT_GE(checked, 36u);
}
