// Folding a table as it is scanned: ColumnLoad::runInChunks hands the rows
// run() loads, a chunk at a time, with run()'s notes and errors; LaunchIndex
// finds the launching call a brute-force search finds.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <random>
#include <string>

#include "core/analysis/key_join.h"
#include "core/analysis/launch_index.h"
#include "core/base/error.h"
#include "core/base/string_pool.h"
#include "core/report/column_loader.h"
#include "core/report/report.h"
#include "core/report/sqlite_db.h"
#include "test_random.h"

namespace asys {
namespace {

// A table T (start, end, deviceId) of `rows` rows written with SQLite alone:
// row i starts at 10 i and lasts i % 5 ns, device i % 3, NULL device every
// 7th row; `edit` then changes cells by SQL.
std::string writeTable(const std::string& name, size_t rows, const std::string& edit = "") {
  const std::string path = ::testing::TempDir() + name + "_" + std::to_string(getpid()) + ".sqlite";
  std::filesystem::remove(path);
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  std::string sql = "BEGIN; CREATE TABLE T (start INTEGER, end INTEGER, deviceId INTEGER);";
  for (size_t i = 0; i < rows; ++i) {
    const std::string device = i % 7 == 0 ? "NULL" : std::to_string(i % 3);
    sql += "INSERT INTO T VALUES (" + std::to_string(10 * i) + ", " + std::to_string(10 * i + i % 5) + ", " + device + ");";
  }
  sql += edit + "COMMIT;";
  EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
  return path;
}

struct Columns {
  std::vector<int64_t> start, end;
  std::vector<int32_t> device;
};

ColumnLoad loadOf(SqliteDb& db, StringPool& strings, Columns& c, ColumnLoad::Notes& notes) {
  ColumnLoad load(db, strings, "T", &notes);
  load.int64("start", c.start, ColumnLoad::Null::Error)
      .int64("end", c.end, ColumnLoad::Null::Present)
      .int32("deviceId", c.device, ColumnLoad::Null::Noted);
  return load;
}

TEST(ChunkedScan, ChunksAreTheRowsRunLoadsWithItsNotesAndMarks) {
  const size_t rows = 5000;
  const std::string path = writeTable("chunks", rows);
  SqliteDb db(path);
  StringPool strings;
  Columns whole, part;
  ColumnLoad::Notes wholeNotes, chunkNotes;
  std::vector<int64_t> wholeMarks, chunkMarks;
  ColumnLoad a = loadOf(db, strings, whole, wholeNotes);
  a.rowidMarks(wholeMarks);
  ASSERT_EQ(a.run(), rows);
  ColumnLoad b = loadOf(db, strings, part, chunkNotes);
  b.rowidMarks(chunkMarks);
  Columns joined;
  std::vector<size_t> firsts;
  ASSERT_EQ(b.runInChunks(1024, [&](size_t first, size_t n) {
    firsts.push_back(first);
    ASSERT_EQ(part.start.size(), n);
    joined.start.insert(joined.start.end(), part.start.begin(), part.start.end());
    joined.end.insert(joined.end.end(), part.end.begin(), part.end.end());
    joined.device.insert(joined.device.end(), part.device.begin(), part.device.end());
  }), rows);
  EXPECT_EQ(firsts, (std::vector<size_t>{0, 1024, 2048, 3072, 4096}));
  // Worked from writeTable's rows.
  ASSERT_EQ(joined.start.size(), rows);
  EXPECT_EQ(joined.end[4999], 49994);
  EXPECT_EQ(joined.device[4998], -1);  // 4998 = 7 * 714: NULL
  EXPECT_EQ(joined.device[4999], 4999 % 3);
  EXPECT_EQ(joined.start, whole.start);
  EXPECT_EQ(joined.end, whole.end);
  EXPECT_EQ(joined.device, whole.device);
  EXPECT_TRUE(part.start.empty() && part.start.capacity() == 0);  // nothing kept after the scan
  ASSERT_EQ(chunkNotes.items.size(), 1u);
  EXPECT_EQ(chunkNotes.items, wholeNotes.items);
  EXPECT_EQ(chunkNotes.items[0].second, "T: 715 rows have a NULL deviceId, read as no device");  // rows 0, 7, ..., 4998
  EXPECT_EQ(chunkMarks, wholeMarks);
  EXPECT_EQ(chunkMarks.size(), 5u);
  std::filesystem::remove(path);
}

// The whole-table checks see every row before they complain: the error is
// run()'s, not the first one a chunk holds.
TEST(ChunkedScan, ErrorsAreThoseOfAWholeLoad) {
  struct Case {
    std::string edit, expected;
  };
  const std::vector<Case> cases = {
      // An end before its start in chunk 1, a start past the limit in chunk 4:
      // the start, as run() checks every start first.
      {"UPDATE T SET end = 0 WHERE rowid = 100; UPDATE T SET start = 4611686018427387905 WHERE rowid = 3500;",
       "row 3500: start 4611686018427387905 is further than"},
      {"UPDATE T SET end = 0 WHERE rowid = 3000; UPDATE T SET end = 5 WHERE rowid = 2000;",
       "row 2000: end 5 is before start 19990"},
      // A cell that is no integer stops the scan where it is, before any check.
      {"UPDATE T SET end = 0 WHERE rowid = 100; UPDATE T SET start = 'x' WHERE rowid = 4000;",
       "table T, column start, row 4000: 'x' is not an integer"},
  };
  for (const Case& c : cases) {
    const std::string path = writeTable("chunk_errors", 5000, c.edit);
    SqliteDb db(path);
    StringPool strings;
    Columns cols;
    ColumnLoad::Notes notes;
    std::string wholeError, chunkError;
    try {
      loadOf(db, strings, cols, notes).run();
    } catch (const Error& e) {
      wholeError = e.what();
    }
    try {
      loadOf(db, strings, cols, notes).runInChunks(1024, [](size_t, size_t) {});
    } catch (const Error& e) {
      chunkError = e.what();
    }
    EXPECT_NE(wholeError.find(c.expected), std::string::npos) << wholeError;
    EXPECT_EQ(chunkError, wholeError);
    std::filesystem::remove(path);
  }
}

TEST(ChunkedScan, AnErrorOfTheFoldStopsTheScan) {
  const std::string path = writeTable("chunk_throw", 5000);
  SqliteDb db(path);
  StringPool strings;
  Columns cols;
  ColumnLoad::Notes notes;
  size_t chunks = 0;
  EXPECT_THROW(loadOf(db, strings, cols, notes).runInChunks(1024, [&](size_t first, size_t) {
    ++chunks;
    if (first == 1024) throw Error("stop");
  }), Error);
  EXPECT_EQ(chunks, 2u);
  // The connection is usable again: the statement was finalised.
  EXPECT_EQ(loadOf(db, strings, cols, notes).run(), 5000u);
  std::filesystem::remove(path);
}

uint32_t bruteForce(const ApiCalls& api, int64_t globalPid, int64_t corr) {
  if (corr == kNoValue) return kNoMatch;
  for (size_t c = 0; c < api.size(); ++c)
    if (api.correlationId[c] == corr && pidOf(api.globalTid[c]) == pidOf(globalPid)) return static_cast<uint32_t>(c);
  return kNoMatch;
}

// Dense ids (the direct tables), sparse ones (the sorted list, from the
// first call or part way when the tables pass four ids a call), negative
// ids, more processes than the tables take; repeated and NULL ids.
TEST(LaunchIndex, FindsTheFirstCallWithTheIdInTheProcess) {
  std::mt19937_64 rng(7);
  for (int round = 0; round < 400; ++round) {
    const int kind = round % 5;
    const int64_t spread = kind == 1 ? 1000003 : 1;
    const int processes = kind == 3 ? 70 : 3;
    ApiCalls api;
    const size_t calls = 1 + rng() % 200;
    for (size_t c = 0; c < calls; ++c) {
      const int64_t pid = 1 + static_cast<int64_t>(rng() % processes);
      api.globalTid.push_back((pid << 24) + static_cast<int64_t>(rng() % 4));
      int64_t id = static_cast<int64_t>(rng() % 60) * spread;
      if (kind == 2 && rng() % 20 == 0) id = -id - 1;
      if (kind == 4 && c == calls / 2) id = 1 << 20;  // past four ids a call, part way
      api.correlationId.push_back(rng() % 10 == 0 ? kNoValue : id);
    }
    api.rows = calls;
    LaunchIndex index(calls);
    for (size_t c = 0; c < calls; ++c) index.add(static_cast<uint32_t>(c), api.globalTid[c], api.correlationId[c]);
    index.finish();
    for (int i = 0; i < 150; ++i) {
      const int64_t pid = (1 + static_cast<int64_t>(rng() % (processes + 1))) << 24;  // the last has no calls
      int64_t id = rng() % 12 == 0 ? kNoValue : static_cast<int64_t>(rng() % 70) * spread;
      if (kind == 2 && rng() % 5 == 0) id = -static_cast<int64_t>(rng() % 60) - 1;
      if (kind == 4 && i == 0) id = 1 << 20;
      ASSERT_EQ(index.find(pid, id), bruteForce(api, pid, id)) << "round " << round << " id " << id;
    }
  }
}

// Many calls of a few processes, each process's ids a counter (the packed
// tables' lines), with repeated ids, NULL ids, ids out of order and jumps
// (blocks kept exact), ids with no call; past the tables (a negative id, a
// 65th process, an id past four a call) the sorted list. Checked against a
// map of (process, id) to the first call built here.
TEST(LaunchIndex, PackedTablesAndTheSortedListAgreeWithAMap) {
  test::Lcg rng(19);
  for (int round = 0; round < 24; ++round) {
    const int kind = round % 6;  // 0-2 packed; 3 a negative id, 4 a 65th process, 5 a far id: sorted
    const int64_t processes = kind == 4 ? 65 : 1 + round % 4;
    const size_t calls = 20000 + rng.below(20000);
    std::vector<int64_t> nextId(static_cast<size_t>(processes) + 1, static_cast<int64_t>(rng.below(3)));
    std::map<std::pair<int64_t, int64_t>, uint32_t> first;
    LaunchIndex index(calls);
    for (size_t c = 0; c < calls; ++c) {
      const int64_t pid = 1 + static_cast<int64_t>(rng.below(static_cast<uint64_t>(processes)));
      const int64_t tid = (pid << 24) + static_cast<int64_t>(rng.below(8));
      int64_t& next = nextId[static_cast<size_t>(pid)];
      int64_t id = next++;
      const uint64_t r = rng.below(1000);
      if (r < 20) id = kNoValue;
      else if (r < 40) id = std::max<int64_t>(0, id - static_cast<int64_t>(rng.below(300)));  // repeated (or late)
      else if (r < 45) next += static_cast<int64_t>(rng.below(kind == 0 ? 3 : 200));  // ids skipped
      if (kind == 3 && c == calls / 2) id = -5;
      if (kind == 5 && c == calls / 3) id = static_cast<int64_t>(calls) * 5;
      index.add(static_cast<uint32_t>(c), tid, id);
      if (id != kNoValue) first.emplace(std::make_pair(pid, id), static_cast<uint32_t>(c));
      // Runs of one process's calls (jumps in the others' lines).
      if (kind == 1 && rng.below(2000) == 0) {
        for (int k = 0; k < 400 && c + 1 < calls; ++k) {
          ++c;
          const int64_t pid1 = 1;
          const int64_t id1 = nextId[1]++;
          index.add(static_cast<uint32_t>(c), pid1 << 24, id1);
          first.emplace(std::make_pair(pid1, id1), static_cast<uint32_t>(c));
        }
      }
    }
    index.finish();
    index.finish();  // a second finish changes nothing
    EXPECT_EQ(index.dense(), kind < 3) << "round " << round;
    if (kind == 0) EXPECT_LT(index.bytes(), calls * 2) << "round " << round;  // about a byte an id
    if (kind == 1) EXPECT_GT(index.exactBlocks(), 0u) << "round " << round;
    int64_t maxId = 0;
    for (const auto& [key, call] : first) maxId = std::max(maxId, key.second);
    for (int64_t pid = 0; pid <= processes + 1; ++pid) {
      for (int64_t id = -3; id <= maxId + 70; ++id) {
        auto it = first.find({pid, id});
        const uint32_t want = it == first.end() ? kNoMatch : it->second;
        ASSERT_EQ(index.find(pid << 24 | 5, id), want) << "round " << round << " pid " << pid << " id " << id;
      }
      ASSERT_EQ(index.find(pid << 24, kNoValue), kNoMatch);
    }
  }
}

}  // namespace
}  // namespace asys
