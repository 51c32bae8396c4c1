// The association's ranges chosen as the scan finds them and put in slot
// order (chooseRanges), on reports whose HGTX_EVENTS is not in start order:
// push/pop ranges written as they close (each thread's in post-order),
// several threads in two processes interleaved, many equal starts and
// zero-length ranges, start/end ranges (one ended on another thread),
// ranges never closed, domains created after their ranges and created
// again under another name (the last creation wins; past a scan's chunk,
// the choice is made again: HgtxDomainNamedLate), inline texts and
// StringIds names, more rows than a scan's chunk. Every answer is compared
// with a brute force over the rows: the kept ranges sorted by (start,
// longer first, event), their names, and what keepNamedRange is told, in
// event order; scanned with and without deferred texts, and loaded.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "core/analysis/association_ranges.h"
#include "core/base/regex.h"
#include "core/base/string_pool.h"
#include "core/report/report.h"
#include "tests/unit/temp_report.h"

namespace asys {
namespace {

constexpr int64_t kNull = INT64_MIN;

struct Row {
  int64_t start, end = kNull;
  int type;
  std::string text;  // inline, "" with textId or no name
  int64_t textId = kNull;
  int64_t tid, endTid = kNull, domainId = kNull;
};

const std::vector<std::string> kStored = {"", "aten::mm", "aten::copy_", "MoE:M_8", "drop me"};  // StringIds 1..4

// One thread's push/pop ranges written as they close (post-order), a few
// left open at its end, and start/end ranges written at their end.
void thread(std::mt19937& rng, int64_t tid, int64_t domainId, int count, std::vector<Row>& out) {
  std::vector<Row> open;
  int64_t t = 0;
  int made = 0;
  auto name = [&](Row& r) {
    const int pick = static_cast<int>(rng() % 6);
    if (pick < 4) r.textId = pick + 1;                       // a StringIds name
    else if (pick == 4) r.text = "op_id = " + std::to_string(made) + ", sizes = [" + std::to_string(rng() % 9) + "]";
    // pick 5: no name at all ("")
    if (rng() % 5 == 0) r.domainId = domainId;
  };
  while (made < count) {
    t += static_cast<int64_t>(rng() % 3);  // many equal starts
    const int what = static_cast<int>(rng() % 10);
    if (what < 4 || open.empty()) {
      Row r{t, kNull, 59};
      r.tid = tid;
      name(r);
      open.push_back(r);
      ++made;
    } else if (what < 8) {
      Row r = open.back();
      open.pop_back();
      r.end = t;  // zero-length when nothing passed
      out.push_back(r);
    } else {
      Row r{t, t + static_cast<int64_t>(rng() % 40), 60};
      r.tid = tid;
      r.endTid = rng() % 8 == 0 ? tid + 1 : tid;  // ended on another thread: not a range
      name(r);
      out.push_back(r);
      ++made;
    }
  }
  // The outermost ones stay open (never closed: end NULL), the others close.
  while (open.size() > 2) {
    Row r = open.back();
    open.pop_back();
    r.end = t + 5;
    out.push_back(r);
  }
  for (Row& r : open) out.push_back(r);
}

struct Made {
  std::string path;
  std::vector<Row> rows;
};

// createdFirst: every domain created once, before any range (as a
// profiler writes them), where the scan names the ranges alone.
Made makeReport(const std::string& tag, int perThread, bool createdFirst = false) {
  std::mt19937 rng(20261206u + static_cast<unsigned>(perThread));
  const int64_t pidA = int64_t{7} << 24, pidB = int64_t{9} << 24;
  const std::vector<int64_t> tids = {pidA + 1, pidA + 2, pidB + 1};
  std::vector<std::vector<Row>> threads(tids.size());
  for (size_t k = 0; k < tids.size(); ++k) thread(rng, tids[k], 5, perThread, threads[k]);
  // Interleaved as a profiler writes several threads' rows.
  std::vector<Row> rows;
  std::vector<size_t> at(tids.size(), 0);
  for (;;) {
    std::vector<size_t> left;
    for (size_t k = 0; k < tids.size(); ++k)
      if (at[k] < threads[k].size()) left.push_back(k);
    if (left.empty()) break;
    const size_t k = left[rng() % left.size()];
    const size_t take = std::min<size_t>(1 + rng() % 4, threads[k].size() - at[k]);
    for (size_t j = 0; j < take; ++j) rows.push_back(threads[k][at[k]++]);
  }
  // Domain 5: process A's created after a third of its ranges, then again
  // under another name near the end (the last creation wins); process B's
  // once, in the middle, with a StringIds name.
  auto create = [](int64_t tid, const std::string& text, int64_t textId) {
    Row r{0, kNull, 75};
    r.tid = tid;
    r.text = text;
    r.textId = textId;
    r.domainId = 5;
    return r;
  };
  if (createdFirst) {
    rows.insert(rows.begin(), {create(tids[0], "first", kNull), create(tids[2], "", 3)});
  } else {
    rows.insert(rows.begin() + static_cast<long>(rows.size() / 3), create(tids[0], "first", kNull));
    rows.insert(rows.begin() + static_cast<long>(rows.size() / 2), create(tids[2], "", 3));
    rows.insert(rows.end() - 3, create(tids[1], "pccl", kNull));
  }

  const std::string p = test::freshTempPath("range_order_" + tag);
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open(p.c_str(), &db), SQLITE_OK);
  const char* schema = R"SQL(
CREATE TABLE META_DATA (name TEXT PRIMARY KEY, value TEXT);
INSERT INTO META_DATA VALUES ('format', 'asysrep'), ('formatVersion', '1'), ('captureStart', '0'), ('captureEnd', '100000000');
CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO StringIds VALUES (1, 'aten::mm'), (2, 'aten::copy_'), (3, 'MoE:M_8'), (4, 'drop me');
CREATE TABLE HGTX_EVENTS (start INTEGER, end INTEGER, eventType INTEGER, rangeId INTEGER,
  category INTEGER, color INTEGER, text TEXT, globalTid INTEGER, endGlobalTid INTEGER,
  textId INTEGER, domainId INTEGER);
BEGIN;
)SQL";
  EXPECT_EQ(sqlite3_exec(db, schema, nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(db,
                               "INSERT INTO HGTX_EVENTS (start, end, eventType, text, globalTid, endGlobalTid, "
                               "textId, domainId) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                               -1, &st, nullptr),
            SQLITE_OK);
  auto bind = [&](int col, int64_t v) {
    if (v == kNull) sqlite3_bind_null(st, col);
    else sqlite3_bind_int64(st, col, v);
  };
  for (const Row& r : rows) {
    bind(1, r.start);
    bind(2, r.end);
    bind(3, r.type);
    if (r.text.empty()) sqlite3_bind_null(st, 4);
    else sqlite3_bind_text(st, 4, r.text.c_str(), -1, SQLITE_TRANSIENT);
    bind(5, r.tid);
    bind(6, r.endTid);
    bind(7, r.textId);
    bind(8, r.domainId);
    EXPECT_EQ(sqlite3_step(st), SQLITE_DONE);
    sqlite3_reset(st);
  }
  sqlite3_finalize(st);
  EXPECT_EQ(sqlite3_exec(db, "COMMIT;", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
  return {p, rows};
}

struct Expected {
  std::vector<uint32_t> told;                 // keepNamedRange's events, in order
  std::vector<std::string> toldOwn, toldQualified;
  std::vector<uint32_t> event;                // the kept ranges in slot order
  std::vector<int64_t> start, end;
  std::vector<std::string> name;
};

// The brute force: every row's range, named as the spec says, filtered as
// `choose` filters (`refuse`: keepNamedRange's refusals too), sorted by
// (start, longer first, event).
Expected bruteForce(const std::vector<Row>& rows, bool refuse = true) {
  std::map<std::pair<int64_t, int64_t>, std::string> domain;
  int64_t last = INT64_MIN;
  for (const Row& r : rows) {
    last = std::max({last, r.start, r.end});
    if (r.type == 75) domain[{r.tid >> 24, r.domainId}] = r.textId != kNull ? kStored[r.textId] : r.text;
  }
  Expected x;
  std::vector<std::tuple<int64_t, int64_t, uint32_t, std::string>> kept;
  for (size_t e = 0; e < rows.size(); ++e) {
    const Row& r = rows[e];
    if (r.type != 59 && r.type != 60) continue;
    if (r.type == 60 && r.endTid != kNull && r.endTid != r.tid) continue;
    const std::string own = r.textId != kNull ? kStored[r.textId] : r.text;
    const auto d = domain.find({r.tid >> 24, r.domainId});
    const bool named = r.textId != kNull || !r.text.empty();  // a range without a name is named "", domain or not
    const std::string qualified = named && d != domain.end() && r.domainId != kNull ? d->second + ":" + own : own;
    if (qualified.find("drop") != std::string::npos) continue;  // the exclude
    x.told.push_back(static_cast<uint32_t>(e));
    x.toldOwn.push_back(own);
    x.toldQualified.push_back(qualified);
    if (refuse && e % 7 == 3) continue;  // keepNamedRange refuses it
    const int64_t end = r.end == kNull ? std::max(last, r.start) : r.end;
    kept.emplace_back(r.start, -end, static_cast<uint32_t>(e), qualified);
  }
  std::sort(kept.begin(), kept.end());
  for (const auto& [start, minusEnd, e, name] : kept) {
    x.event.push_back(e);
    x.start.push_back(start);
    x.end.push_back(-minusEnd);
    x.name.push_back(name);
  }
  return x;
}

enum class How { kScanned, kDeferred, kLoaded };

// Returns how many times the ranges were chosen: twice where chooseRanges
// asked its caller to run again (a domain named after its ranges, past the
// scan's chunk that chose them), as rule.cc's runners do.
int expectAsBruteForce(const Made& made, How how) {
  const Expected x = bruteForce(made.rows);
  auto report = Report::open(made.path);
  if (how == How::kLoaded) report->hgtx();
  StringPool& s = report->strings();
  Expected told;
  RangeSelection sel;
  sel.exclude.emplace_back("drop", "range-exclude");
  sel.deferTexts = how == How::kDeferred;
  sel.keepNamedRange = [&](uint32_t event, const RangeNaming& n) {
    // The texts are read where they are told (a deferred one lives only
    // while its chunk is read).
    told.told.push_back(event);
    told.toldOwn.emplace_back(n.own == kNoString ? "" : std::string(s.get(n.own)));
    told.toldQualified.emplace_back(s.get(n.qualified));
    return event % 7 != 3;
  };
  int runs = 0;
  std::optional<AssociationRanges> chosen;
  while (!chosen && runs < 3) {
    ++runs;
    told = {};
    try {
      chosen = chooseRanges(*report, sel);
    } catch (const HgtxDomainNamedLate&) {
      EXPECT_NE(report->knownHgtxDomainNames(), nullptr);  // queried: the next run knows them
    }
  }
  if (!chosen) {
    ADD_FAILURE() << "chosen " << runs << " times";
    return runs;
  }
  const AssociationRanges& r = *chosen;
  EXPECT_EQ(told.told, x.told);
  EXPECT_EQ(told.toldOwn, x.toldOwn);
  EXPECT_EQ(told.toldQualified, x.toldQualified);
  EXPECT_EQ(r.size(), x.event.size());
  if (r.size() != x.event.size()) return runs;
  EXPECT_EQ(r.event, x.event);
  EXPECT_EQ(r.start, x.start);
  std::vector<int64_t> end(r.size());
  for (size_t k = 0; k < r.size(); ++k) end[k] = r.end(k);
  EXPECT_EQ(end, x.end);
  // Names: deferred ones read back by event, as the operator rules do.
  std::vector<uint32_t> deferred;
  for (uint32_t name : r.name)
    if (deferredEvent(name) != kNoString) deferred.push_back(deferredEvent(name));
  EXPECT_EQ(!deferred.empty(), how == How::kDeferred);
  const std::vector<uint32_t> readBack = report->hgtxTexts(deferred);
  std::vector<std::string> names;
  size_t d = 0;
  for (uint32_t name : r.name) names.emplace_back(s.get(deferredEvent(name) != kNoString ? readBack[d++] : name));
  EXPECT_EQ(names, x.name);
  return runs;
}

TEST(RangeOrder, RangesWrittenAsTheyCloseAgainstABruteForce) {
  const Made made = makeReport("small", 300);
  for (How how : {How::kScanned, How::kDeferred, How::kLoaded}) {
    SCOPED_TRACE(static_cast<int>(how));
    // One chunk: its creations are read before its ranges are named.
    EXPECT_EQ(expectAsBruteForce(made, how), 1);
  }
}

// More rows than a scan's chunk (65,536): deferred texts forgotten at each
// chunk's end, their ids never given again.
TEST(RangeOrder, ManyChunksAgainstABruteForce) {
  const Made made = makeReport("large", 60000);
  ASSERT_GT(made.rows.size(), 150000u);
  for (How how : {How::kScanned, How::kDeferred}) {
    SCOPED_TRACE(static_cast<int>(how));
    // Domain 5 of process A is created after ranges of it that earlier
    // chunks named: keepNamedRange has been told other names, so the
    // caller runs again.
    EXPECT_EQ(expectAsBruteForce(made, how), 2);
  }
}

// Domains created before their ranges: the scan names every range from
// the creations it read; the report's domains are never queried.
TEST(RangeOrder, DomainsCreatedFirstNeedNoQuery) {
  const Made made = makeReport("first", 60000, /*createdFirst=*/true);
  for (How how : {How::kScanned, How::kDeferred}) {
    SCOPED_TRACE(static_cast<int>(how));
    EXPECT_EQ(expectAsBruteForce(made, how), 1);
  }
  auto report = Report::open(made.path);
  RangeSelection all;
  all.exclude.emplace_back("drop", "range-exclude");
  const AssociationRanges r = chooseRanges(*report, all);
  EXPECT_EQ(r.event, bruteForce(made.rows, /*refuse=*/false).event);
  EXPECT_EQ(report->knownHgtxDomainNames(), nullptr);
}

// A selection whose tests keep no state of their own is chosen again in
// chooseRanges itself, with the domains' last names.
TEST(RangeOrder, DomainsNamedLateWithoutStateChosenAgainInPlace) {
  const Made made = makeReport("late", 60000);
  const Expected x = bruteForce(made.rows, /*refuse=*/false);
  for (bool deferred : {false, true}) {
    SCOPED_TRACE(deferred);
    auto report = Report::open(made.path);
    RangeSelection sel;
    sel.exclude.emplace_back("drop", "range-exclude");
    sel.deferTexts = deferred;
    const AssociationRanges r = chooseRanges(*report, sel);
    EXPECT_NE(report->knownHgtxDomainNames(), nullptr);
    EXPECT_EQ(r.event, x.event);
    std::vector<uint32_t> events;
    for (uint32_t name : r.name)
      if (deferredEvent(name) != kNoString) events.push_back(deferredEvent(name));
    const std::vector<uint32_t> readBack = report->hgtxTexts(events);
    std::vector<std::string> names;
    size_t d = 0;
    for (uint32_t name : r.name)
      names.emplace_back(report->strings().get(deferredEvent(name) != kNoString ? readBack[d++] : name));
    EXPECT_EQ(names, x.name);
  }
}

TEST(StringPool, ForgottenTextsKeepTheirIdsUnused) {
  StringPool p;
  const uint32_t a = p.intern("a"), b = p.intern("b");
  EXPECT_EQ(p.intern("a"), a);
  p.forget();
  EXPECT_EQ(p.get(a), "");
  EXPECT_EQ(p.get(b), "");
  const uint32_t a2 = p.intern("a");
  EXPECT_NE(a2, a);
  EXPECT_NE(a2, b);
  EXPECT_EQ(p.get(a2), "a");
  EXPECT_EQ(p.intern("a"), a2);
  EXPECT_EQ(p.size(), 3u);
  // As an overlay: tagged ids read through the report's pool.
  StringPool strings;
  strings.setOverlay(&p);
  EXPECT_EQ(strings.get(a2 | StringPool::kOverlayBit), "a");
  EXPECT_EQ(strings.get(a | StringPool::kOverlayBit), "");
}

}  // namespace
}  // namespace asys
