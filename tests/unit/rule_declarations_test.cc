// Every rule declaration is consistent: the CLI, help, settings panel, pie
// and compare layer all read it, so a slip here shows everywhere.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "core/rules/compare.h"
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

namespace {

// A CJK ideograph (U+4E00..U+9FFF: UTF-8 lead byte 0xE4..0xE9).
bool hasIdeograph(const std::string& s) {
  for (unsigned char c : s)
    if (c >= 0xE4 && c <= 0xE9) return true;
  return false;
}

std::vector<std::string> linesOf(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(line);
  return out;
}

// The text without what only lays it out: white space, bullets and the
// punctuation a sentence or list item ends with, so a line that joins two of
// the documentation's bullets, or ends one with '。' where it has none, still
// reads as its wording.
std::string normalised(const std::string& s) {
  static const std::vector<std::string> drop = {"•", "。", "，", "；", "：", "、"};
  std::string out;
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = s[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == ';' || c == ':') {
      ++i;
      continue;
    }
    bool dropped = false;
    for (const std::string& d : drop) {
      if (s.compare(i, d.size(), d) == 0) {
        i += d.size();
        dropped = true;
        break;
      }
    }
    if (!dropped) out += s[i++];
  }
  return out;
}

}  // namespace

// The viewer's Chinese interface shows these: every rule's description, every
// option's help (and each kernel name mode's), every global option's help.
TEST(RuleDeclarations, EveryRuleAndOptionHasChineseHelp) {
  for (const RuleSpec* r : allRules()) {
    EXPECT_TRUE(hasIdeograph(r->descriptionZh)) << r->name << ": descriptionZh \"" << r->descriptionZh << '"';
    for (const OptionSpec& o : r->options) {
      EXPECT_TRUE(hasIdeograph(o.helpZh)) << r->name << ": option " << o.name << " helpZh \"" << o.helpZh << '"';
      for (const FlagSpec& f : o.flags) EXPECT_TRUE(hasIdeograph(f.helpZh)) << r->name << ": flag " << f.name;
      // Chinese choice labels, when given, name every choice.
      if (!o.choiceLabelsZh.empty()) {
        EXPECT_EQ(o.choiceLabelsZh.size(), o.choices.size()) << r->name << ": option " << o.name;
        for (const std::string& c : o.choiceLabelsZh) EXPECT_FALSE(c.empty()) << r->name << ": option " << o.name;
      }
      // A choice with English display labels has Chinese ones.
      if (!o.choiceLabels.empty()) EXPECT_FALSE(o.choiceLabelsZh.empty()) << r->name << ": option " << o.name;
    }
  }
  for (const GlobalOptionSpec& g : globalOptions()) EXPECT_TRUE(hasIdeograph(g.helpZh)) << "--" << g.name;
}

// The Chinese texts are the rule documentation's wording, line by line
// (normalised: white space and list punctuation aside), so they cannot drift
// from it; a description's first line is in the rule's own section. The texts
// the documentation has no wording for are ours, named below (and in the
// report of the change that wrote them); the list must stay exact.
TEST(RuleDeclarations, ChineseHelpIsTheDocumentationsWording) {
  std::ifstream in(std::string(ASYS_SPEC_DIR) + "/asys-stats-rules.zh.txt");
  if (!in) GTEST_SKIP() << "no " << ASYS_SPEC_DIR << "/asys-stats-rules.zh.txt";
  std::set<std::string> titles;
  for (const RuleSpec* r : allRules()) titles.insert(r->titleZh);
  // Sections by heading: "2.3.7 HGGC PPU kernel汇总", or a compare rule's
  // unnumbered "PPU算子汇总比较".
  std::string whole;
  std::map<std::string, std::string> sections;
  std::string* section = nullptr;
  for (std::string line; std::getline(in, line);) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    // A numbered heading's number has two dots ("2. asys添加选项" is a tip's step).
    std::string heading = line;
    const size_t space = line.find(' ');
    const bool numbered = line.rfind("2.", 0) == 0 && space != std::string::npos &&
                          std::count(line.begin(), line.begin() + space, '.') >= 2;
    if (numbered) heading = line.substr(space + 1);
    if (numbered || titles.count(heading)) section = &sections[heading];
    const std::string n = normalised(line);
    whole += n;
    if (section) *section += n;
  }

  std::set<std::string> missing;  // rule, rule:option, --global
  auto check = [&](const std::string& key, const std::string& text, const std::string* own) {
    const std::vector<std::string> lines = linesOf(text);
    for (size_t i = 0; i < lines.size(); ++i) {
      const std::string n = normalised(lines[i]);
      const std::string& hay = (i == 0 && own) ? *own : whole;
      if (hay.find(n) == std::string::npos) missing.insert(key);
    }
  };
  size_t ownSections = 0;
  for (const RuleSpec* r : allRules()) {
    auto s = sections.find(r->titleZh);
    ownSections += s != sections.end();
    check(r->name, r->descriptionZh, s == sections.end() ? nullptr : &s->second);
    for (const OptionSpec& o : r->options) {
      check(r->name + ":" + o.name, o.helpZh, nullptr);
      for (const FlagSpec& f : o.flags) check(r->name + ":" + f.name, f.helpZh, nullptr);
    }
  }
  for (const GlobalOptionSpec& g : globalOptions()) check("--" + g.name, g.helpZh, nullptr);
  EXPECT_GE(ownSections, 36u) << "rules whose description is checked against their own section";

  // Ours: rules and options the documentation does not describe (the expert
  // rules, the kernel compare), option defaults it does not give, and the
  // '\/' escape of --callstack-group-config.
  const std::set<std::string> ours = {
      "ppu_gaps",           "ppu_gaps:rows",           "ppu_gaps:gap",
      "ppu_time_util",      "ppu_time_util:rows",      "ppu_time_util:threshold",
      "ppu_time_util:chunks", "ppu_time_util:range-mode", "ppu_time_util:merge-process-id",
      "ppu_kernel_summary_compare", "--callstack-group-config",
  };
  for (const std::string& key : missing) EXPECT_TRUE(ours.count(key)) << key << ": a line is not the documentation's wording";
  for (const std::string& key : ours) EXPECT_TRUE(missing.count(key)) << key << ": is the documentation's wording now";
}
