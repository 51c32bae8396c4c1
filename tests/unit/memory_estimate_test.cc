// The fail-fast memory estimate (core/rules/memory_estimate.h): rows of the
// tables a rule needs, by their largest rowid, times the rule's declared
// bytes a row; past the budget the rule is refused before it computes, in
// one line; within it the rule runs. Figures worked by hand from the SQL.
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "core/base/error.h"
#include "core/base/memory_budget.h"
#include "core/report/report.h"
#include "core/rules/memory_estimate.h"
#include "core/rules/rule.h"
#include "tests/unit/sql_query.h"

namespace {

using asys::Report;
using asys::RuleSpec;

// HGGC_KERNEL with rowids 1, 2 and 40 (a gap: the estimate says 40 rows),
// HGGC_MEMCPY with 3 rows, HGGC_API empty (no rows: not counted).
std::string smallReport() {
  return asys::test::reportFromSql(
      "mem",
      "CREATE TABLE META_DATA (name TEXT, value TEXT);"
      "INSERT INTO META_DATA VALUES ('format','asysrep'),('formatVersion','1');"
      "CREATE TABLE HGGC_KERNEL (start INTEGER, end INTEGER, deviceId INTEGER);"
      "INSERT INTO HGGC_KERNEL (rowid, start, end, deviceId) VALUES (1,0,10,0),(2,5,20,0),(40,30,35,1);"
      "CREATE TABLE HGGC_MEMCPY (start INTEGER, end INTEGER);"
      "INSERT INTO HGGC_MEMCPY VALUES (1,2),(3,4),(5,6);"
      "CREATE TABLE HGGC_API (start INTEGER, end INTEGER);",
      "small");
}

RuleSpec ruleReading(std::vector<asys::DataNeed> needs, uint32_t perRow, bool* ran) {
  RuleSpec rule;
  rule.name = "memory_test";
  rule.needs = std::move(needs);
  rule.memoryPerRow = perRow;
  rule.compute = [ran](asys::RuleContext&) {
    *ran = true;
    return asys::Table({{"N", "", asys::CellKind::Int, ""}});
  };
  return rule;
}

TEST(MemoryBudget, BytesAreReadAndWrittenAsDocumented) {
  EXPECT_EQ(asys::parseBytes("100"), 100u);
  EXPECT_EQ(asys::parseBytes("2K"), 2048u);
  EXPECT_EQ(asys::parseBytes("512M"), 512u << 20);
  EXPECT_EQ(asys::parseBytes("2G"), uint64_t{2} << 30);
  for (const char* bad : {"", "G", "1.5G", "2T", "2GB", "-1", "99999999999999999999", "17179869184G"})
    EXPECT_FALSE(asys::parseBytes(bad)) << bad;
  EXPECT_EQ(asys::bytesText(100), "100 bytes");
  EXPECT_EQ(asys::bytesText(1536), "1.5 KB");
  EXPECT_EQ(asys::bytesText(uint64_t{3} << 29), "1.5 GB");
}

TEST(MemoryEstimate, RowsOfTheNeededTablesAndTheirAlternativesTimesBytesARow) {
  auto report = Report::open(smallReport());
  bool ran = false;
  // 40 kernels (largest rowid) + 3 memcpys; HGGC_API has no rows.
  const RuleSpec both = ruleReading({{"HGGC_KERNEL", "kernels", "--trace hggc", {"HGGC_MEMCPY"}},
                                     {"HGGC_API", "calls", "--trace hggc"}},
                                    100, &ran);
  EXPECT_EQ(asys::estimateRuleMemory(both, *report), 4300u);
  const RuleSpec undeclared = ruleReading({{"HGGC_KERNEL", "kernels", "--trace hggc"}}, 0, &ran);
  EXPECT_EQ(asys::estimateRuleMemory(undeclared, *report), 0u);
}

TEST(MemoryEstimate, PastTheBudgetARuleIsRefusedBeforeItComputesInOneLine) {
  auto report = Report::open(smallReport());
  bool ran = false;
  const RuleSpec rule = ruleReading({{"HGGC_KERNEL", "kernels", "--trace hggc", {"HGGC_MEMCPY"}}}, 100, &ran);
  asys::setMemoryBudget(4299);  // the estimate is 4300 bytes
  try {
    asys::runRule(rule, *report, asys::parseRuleOptions(rule, {}));
    ADD_FAILURE() << "not refused";
  } catch (const asys::Error& e) {
    const std::string what = e.what();
    EXPECT_EQ(what,
              "out of memory: about 4.2 KB needed for the 43 rows of HGGC_KERNEL, HGGC_MEMCPY, past the 4.2 KB "
              "this engine may use (ASYS_MEMORY_BUDGET sets it); refused before it started");
    EXPECT_EQ(what.find('\n'), std::string::npos);
  }
  EXPECT_FALSE(ran);
  asys::setMemoryBudget(4300);
  asys::runRule(rule, *report, asys::parseRuleOptions(rule, {}));
  EXPECT_TRUE(ran);
  asys::setMemoryBudget(UINT64_MAX);
}

// A second report: HGGC_KERNEL's largest rowid 100, nothing else.
std::string largerReport() {
  return asys::test::reportFromSql(
      "mem",
      "CREATE TABLE META_DATA (name TEXT, value TEXT);"
      "INSERT INTO META_DATA VALUES ('format','asysrep'),('formatVersion','1');"
      "CREATE TABLE HGGC_KERNEL (start INTEGER, end INTEGER, deviceId INTEGER);"
      "INSERT INTO HGGC_KERNEL (rowid, start, end, deviceId) VALUES (1,0,10,0),(100,30,35,1);",
      "larger");
}

TEST(MemoryEstimate, ACompareRuleNeedsItsLargerSidesRowsNotBoth) {
  // Its sides run one after the other (core/rules/compare.cc): 43 rows
  // against 100, 100 bytes a row: 10,000 bytes, whichever side is the base
  // (both together would be 14,300).
  auto small = Report::open(smallReport());
  auto larger = Report::open(largerReport());
  bool ran = false;
  const RuleSpec rule = ruleReading({{"HGGC_KERNEL", "kernels", "--trace hggc", {"HGGC_MEMCPY"}}}, 100, &ran);
  asys::setMemoryBudget(10000);
  EXPECT_NO_THROW(asys::checkRuleMemory(rule, *small, larger.get()));
  EXPECT_NO_THROW(asys::checkRuleMemory(rule, *larger, small.get()));
  asys::setMemoryBudget(9999);
  for (auto [base, target] : {std::pair{small.get(), larger.get()}, std::pair{larger.get(), small.get()}}) {
    try {
      asys::checkRuleMemory(rule, *base, target);
      ADD_FAILURE() << "not refused";
    } catch (const asys::Error& e) {
      EXPECT_EQ(std::string(e.what()),
                "out of memory: about 9.8 KB needed for the 100 rows of HGGC_KERNEL in the larger of the two reports, "
                "past the 9.8 KB this engine may use (ASYS_MEMORY_BUDGET sets it); refused before it started");
    }
  }
  asys::setMemoryBudget(UINT64_MAX);
}

TEST(MemoryEstimate, EveryRuleThatDeclaresItReadsTables) {
  // A rule's bytes a row multiply the rows of what it needs: a rule that
  // declares them and needs no table would never be estimated.
  for (const RuleSpec* rule : asys::allRules())
    if (rule->memoryPerRow > 0) EXPECT_FALSE(rule->needs.empty()) << rule->name;
}

}  // namespace
