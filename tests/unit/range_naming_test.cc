// What the association's scan of HGTX_EVENTS tells a caller about each
// range without the table held whole (RangeSelection::keepNamedRange, the
// ranges' IDs, Report::scanHgtx with hcol::args), on a hand-built report,
// every value worked out by hand below; and the same answers when the
// events are loaded first (the one-chunk path, every domain known).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/analysis/association_ranges.h"
#include "core/analysis/key_join.h"
#include "core/report/report.h"
#include "tests/unit/sql_query.h"

namespace asys {
namespace {

// Thread T (globalTid 1677721702). HGTX_EVENTS, rowid order = event index:
//   e0 push/pop [0, 100)  "aten::mm" (textId 1) with arguments "sizes = [[2, 3], [3, 4]]" (argsId 2)
//   e1 start/end [10, 20) "phase" (inline text), rangeId 7 (not its position 2)
//   e2 push/pop [30, 40)  "MoE:M_8" (textId 3) in domain 5, whose name "moe" comes later (e4)
//   e3 push/pop [50, 60)  "last" (inline), rangeId 4 (its position: e3 + 1), arguments argsId 2
//   e4 domain 5 created, named "moe"
// e2's domain is named by a later row: the names of the domains are read
// before the scan (Report::hgtxDomainNames), so e2 is told its qualified name.
const char* kSql = R"SQL(
CREATE TABLE META_DATA (name TEXT PRIMARY KEY, value TEXT);
INSERT INTO META_DATA VALUES ('format', 'asysrep'), ('formatVersion', '1'), ('captureStart', '0'), ('captureEnd', '200');
CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO StringIds VALUES (1, 'aten::mm'), (2, 'sizes = [[2, 3], [3, 4]]'), (3, 'MoE:M_8');
CREATE TABLE HGTX_EVENTS (start INTEGER, end INTEGER, eventType INTEGER, rangeId INTEGER,
  category INTEGER, color INTEGER, text TEXT, globalTid INTEGER, endGlobalTid INTEGER,
  textId INTEGER, domainId INTEGER, argsId INTEGER);
INSERT INTO HGTX_EVENTS VALUES
  (0, 100, 59, NULL, NULL, NULL, NULL, 1677721702, NULL, 1, NULL, 2),
  (10, 20, 60, 7, NULL, NULL, 'phase', 1677721702, 1677721702, NULL, NULL, NULL),
  (30, 40, 59, NULL, NULL, NULL, NULL, 1677721702, NULL, 3, 5, NULL),
  (50, 60, 59, 4, NULL, NULL, 'last', 1677721702, NULL, NULL, NULL, 2),
  (0, NULL, 75, NULL, NULL, NULL, 'moe', 1677721702, NULL, NULL, 5, NULL);
)SQL";

std::string reportPath(const std::string& tag, const char* sql) {
  return test::reportFromSql("range_naming", sql, tag);
}

struct Told {
  uint32_t event;
  std::string own, args, qualified;
  bool operator==(const Told&) const = default;
};
std::ostream& operator<<(std::ostream& o, const Told& t) {
  return o << "{" << t.event << ", " << t.own << ", " << t.args << ", " << t.qualified << "}";
}

// Chooses the ranges with keepNamedRange keeping all but `dropped`, noting what it is told.
AssociationRanges choose(Report& report, std::vector<Told>& told, uint32_t dropped = 1) {
  const StringPool& s = report.strings();
  auto text = [&](uint32_t id) { return id == kNoString ? std::string("-") : std::string(s.get(id)); };
  RangeSelection sel;
  sel.rangeIds = true;
  sel.keepNamedRange = [&](uint32_t event, const RangeNaming& n) {
    told.push_back({event, text(n.own), text(n.args), text(n.qualified)});
    return event != dropped;
  };
  return chooseRanges(report, sel);
}

void expectChosen(Report& report, const AssociationRanges& r, const std::vector<Told>& told) {
  const std::vector<Told> expected = {
      {0, "aten::mm", "sizes = [[2, 3], [3, 4]]", "aten::mm"},
      {1, "phase", "-", "phase"},
      {2, "MoE:M_8", "-", "moe:MoE:M_8"},  // qualified once its domain's name is known
      {3, "last", "sizes = [[2, 3], [3, 4]]", "last"},
  };
  EXPECT_EQ(told, expected);
  // Slots in start order: e0 [0, 100), e2 [30, 40), e3 [50, 60); e1 dropped.
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r.event, (std::vector<uint32_t>{0, 2, 3}));
  EXPECT_EQ(r.start, (std::vector<int64_t>{0, 30, 50}));
  EXPECT_EQ((std::vector<int64_t>{r.end(0), r.end(1), r.end(2)}), (std::vector<int64_t>{100, 40, 60}));
  EXPECT_EQ(report.strings().get(r.name[1]), "moe:MoE:M_8");
  // IDs: e3's 4 is its position; e0 and e2 have none (their position);
  // e1's 7, which is not, is not kept: e1 was dropped.
  EXPECT_EQ(r.rangeId(0), 1);
  EXPECT_EQ(r.rangeId(2), 3);
  EXPECT_EQ(r.rangeId(3), 4);
  EXPECT_TRUE(r.otherRangeIds.empty());
}

TEST(RangeNaming, AKeptRangeKeepsAnIdThatIsNotItsPosition) {
  auto report = Report::open(reportPath("ids", kSql));
  std::vector<Told> told;
  const AssociationRanges r = choose(*report, told, /*dropped=*/kNoMatch);
  ASSERT_EQ(r.size(), 4u);  // e0 [0, 100), e1 [10, 20), e2 [30, 40), e3 [50, 60)
  EXPECT_EQ(r.otherRangeIds, (std::vector<std::pair<uint32_t, int64_t>>{{1, 7}}));
  EXPECT_EQ(r.rangeId(1), 7);
  EXPECT_EQ(r.rangeId(3), 4);
  EXPECT_EQ(r.rangeId(0), 1);
}

TEST(RangeNaming, ScannedRangesAreToldTheirNamesArgumentsAndIds) {
  auto report = Report::open(reportPath("scan", kSql));
  std::vector<Told> told;
  const AssociationRanges r = choose(*report, told);
  EXPECT_FALSE(report->hgtxLoaded());  // chosen from a scan, never loaded
  expectChosen(*report, r, told);
}

TEST(RangeNaming, LoadedEventsTellTheSame) {
  auto report = Report::open(reportPath("loaded", kSql));
  ASSERT_EQ(report->hgtx().size(), 5u);
  std::vector<Told> told;
  const AssociationRanges r = choose(*report, told);
  expectChosen(*report, r, told);
}

// keepOwnName refuses "phase" and "last" by their own name as they are
// found: keepNamedRange is asked only of e0 and e2 (e2 once its domain's
// name is known), and the chosen ranges are e0 and e2, scanned or loaded.
void expectOwnNameRefusals(Report& report) {
  const StringPool& s = report.strings();
  std::vector<uint32_t> asked, refusedOwn;
  RangeSelection sel;
  sel.keepOwnName = [&](uint32_t own) {
    const std::string_view name = own == kNoString ? std::string_view() : s.get(own);
    return name != "phase" && name != "last";
  };
  sel.keepNamedRange = [&](uint32_t event, const RangeNaming&) {
    asked.push_back(event);
    return true;
  };
  const AssociationRanges r = chooseRanges(report, sel);
  EXPECT_EQ(asked, (std::vector<uint32_t>{0, 2}));
  EXPECT_EQ(r.event, (std::vector<uint32_t>{0, 2}));
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(s.get(r.name[1]), "moe:MoE:M_8");
}

TEST(RangeNaming, RefusedByOwnNameAsFound) {
  auto scanned = Report::open(reportPath("own_scan", kSql));
  expectOwnNameRefusals(*scanned);
  EXPECT_FALSE(scanned->hgtxLoaded());
  auto loaded = Report::open(reportPath("own_loaded", kSql));
  ASSERT_EQ(loaded->hgtx().size(), 5u);
  expectOwnNameRefusals(*loaded);
}

TEST(RangeNaming, ScanReadsArgumentsOnlyWhenAsked) {
  auto report = Report::open(reportPath("args", kSql));
  std::vector<std::string> args;
  report->scanHgtx(hcol::ranges | hcol::args, [&](size_t first, const HgtxEvents& c) {
    EXPECT_EQ(first, 0u);
    for (uint32_t a : c.argsId) args.push_back(a == kNoString ? "-" : std::string(report->strings().get(a)));
  });
  EXPECT_EQ(args, (std::vector<std::string>{"sizes = [[2, 3], [3, 4]]", "-", "-", "sizes = [[2, 3], [3, 4]]", "-"}));
  size_t chunks = 0;
  report->scanHgtx(hcol::ranges, [&](size_t, const HgtxEvents& c) {
    ++chunks;
    EXPECT_TRUE(c.argsId.empty());
  });
  EXPECT_EQ(chunks, 1u);
}

TEST(RangeNaming, ATableWithoutArgumentsGivesNone) {
  // The same events without the argsId column (an older writer).
  const char* sql = R"SQL(
CREATE TABLE META_DATA (name TEXT PRIMARY KEY, value TEXT);
INSERT INTO META_DATA VALUES ('format', 'asysrep'), ('formatVersion', '1'), ('captureStart', '0'), ('captureEnd', '200');
CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO StringIds VALUES (1, 'aten::mm'), (3, 'MoE:M_8');
CREATE TABLE HGTX_EVENTS (start INTEGER, end INTEGER, eventType INTEGER, rangeId INTEGER,
  category INTEGER, color INTEGER, text TEXT, globalTid INTEGER, endGlobalTid INTEGER,
  textId INTEGER, domainId INTEGER);
INSERT INTO HGTX_EVENTS VALUES
  (0, 100, 59, NULL, NULL, NULL, NULL, 1677721702, NULL, 1, NULL),
  (10, 20, 60, 7, NULL, NULL, 'phase', 1677721702, 1677721702, NULL, NULL),
  (30, 40, 59, NULL, NULL, NULL, NULL, 1677721702, NULL, 3, 5),
  (50, 60, 59, 4, NULL, NULL, 'last', 1677721702, NULL, NULL, NULL),
  (0, NULL, 75, NULL, NULL, NULL, 'moe', 1677721702, NULL, NULL, 5);
)SQL";
  auto report = Report::open(reportPath("noargs", sql));
  size_t chunks = 0;
  report->scanHgtx(hcol::ranges | hcol::args, [&](size_t, const HgtxEvents& c) {
    ++chunks;
    EXPECT_EQ(c.size(), 5u);
    EXPECT_TRUE(c.argsId.empty());
  });
  EXPECT_EQ(chunks, 1u);
  std::vector<Told> told;
  RangeSelection sel;
  sel.keepNamedRange = [&](uint32_t event, const RangeNaming& n) {
    told.push_back({event, "", n.args == kNoString ? "-" : "?", ""});
    return true;
  };
  EXPECT_EQ(chooseRanges(*report, sel).size(), 4u);
  EXPECT_EQ(told, (std::vector<Told>{{0, "", "-", ""}, {1, "", "-", ""}, {2, "", "-", ""}, {3, "", "-", ""}}));
}

}  // namespace
}  // namespace asys
