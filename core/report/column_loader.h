#pragma once
// Reads chosen columns of one asysrep table into vectors, in one scan in rowid
// order, checking every cell: an integer column holds integers (or NULL where
// NULL is allowed), a name id points into StringIds. A cell that breaks this
// throws one Error naming the file, table, column, row and value, so a broken
// table never turns into a plausible-looking result (a text `start` read as
// 0, a dangling name id printed as ""). The scan hands rows to a row sink
// inside SQLite (core/sqlite/row_sink.h; run() says how).
#include <cstdint>
#include <exception>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/sqlite/row_sink.h"

namespace asys {

class SqliteDb;
class StringPool;

class ColumnLoad {
 public:
  // Allowed: NULL cells read as "no value", and a column the table lacks
  // reads as NULL everywhere (older writers). Present: NULL cells allowed,
  // but the column must exist (an `end` that may be open, never absent).
  // Error: neither. Noted: as Allowed, but the cell should hold a value (a
  // device id): the rows holding NULL are counted in the load's notes.
  enum class Null : uint8_t { Allowed, Present, Error, Noted };

  // What loads noticed and tolerated, per table, each text once: NULL in a
  // Noted column, names that are not UTF-8 or hold a NUL. The report hands
  // them to the rules that read the table, as warnings.
  struct Notes {
    std::vector<std::pair<std::string, std::string>> items;  // table, text
    void add(const std::string& table, std::string text);
  };

  // `notes`, when given, receives this load's notes at the end of run().
  ColumnLoad(SqliteDb& db, StringPool& strings, std::string table, Notes* notes = nullptr);

  // NULL reads as kNoValue.
  ColumnLoad& int64(const char* column, std::vector<int64_t>& out, Null null = Null::Allowed);
  // NULL reads as -1 (ids: device, context, stream, grid sizes).
  ColumnLoad& int32(const char* column, std::vector<int32_t>& out, Null null = Null::Allowed);
  // A StringIds id, stored as the pool id of its text; NULL reads as kNoString.
  ColumnLoad& name(const char* column, std::vector<uint32_t>& out);
  // An inline TEXT cell, interned; NULL reads as kNoString. With `pool`:
  // interned there instead, its id tagged with StringPool::kOverlayBit (a
  // reader's transient texts: StringPool::setOverlay).
  ColumnLoad& text(const char* column, std::vector<uint32_t>& out, StringPool* pool = nullptr);
  ColumnLoad& real(const char* column, std::vector<double>& out);

  // Reads every row and returns how many. A column the table lacks reads as
  // NULL everywhere (older writers), unless the column is required (Present,
  // Error). When both `start` and `end` are loaded, an end before its start
  // is an error naming the row (a negative duration is never a measurement).
  size_t run();

  // run(), `chunkRows` rows at a time, for a caller that folds the rows as
  // they come and keeps what it needs, not the table: when `chunk(first,
  // rows)` is called, the targets hold the table's rows [first, first +
  // rows); after it they are filled again from the next row, and they end
  // empty. Every check and note is run()'s, over the whole table and with
  // its errors: a cell's error stops the scan where run() stops, and the
  // whole-table checks of `start` and `end`, which see every row first,
  // throw after the last chunk (the chunks before may hold such rows). An
  // error thrown by `chunk` stops the scan and passes through.
  size_t runInChunks(size_t chunkRows, const std::function<void(size_t first, size_t rows)>& chunk);

  // With run(): the rowid of every kRowidMarkEvery-th row (rows 0, 1024,
  // ...), so that a later runRange() can find rows by their position.
  static constexpr size_t kRowidMarkEvery = 1024;
  ColumnLoad& rowidMarks(std::vector<int64_t>& marks);
  // Reads only the rows whose rowid is in [firstRowid, lastRowid], the first
  // of them being row `firstRow` of the table (0-based, for the errors' row
  // numbers), about `expectedRows` of them (the targets are sized for it).
  // Every cell is checked as by run(); the whole-table checks (times within
  // the limit, the sum of durations) and the notes are run()'s.
  size_t runRange(int64_t firstRowid, int64_t lastRowid, size_t firstRow, size_t expectedRows);

 private:
  enum class Kind : uint8_t { Int64, Int32, Name, Text, Real };
  struct Target {
    const char* column;
    Kind kind;
    Null null;
    void* out;
    size_t nulls = 0;  // NULL cells read
    StringPool* pool = nullptr;  // Text: interned there, tagged (text())
  };
  ColumnLoad& add(const char* column, Kind kind, Null null, void* out);
  // One row's cells, checked and appended to the targets.
  void take(sqlite3_value** cells, const unsigned char* types, const sqlite3_int64* ints);
  void takeInOrder(sqlite3_value** cells, const unsigned char* types, const sqlite3_int64* ints);
  void takeInteger(int column, int64_t value);
  void sizeFor(size_t rows);
  // Stores a value at the current row of a target (sized by sizeFor).
  template <typename T>
  void put(const Target& t, T value) {
    (*static_cast<std::vector<T>*>(t.out))[row_ - 1 - chunkFirst_] = value;
  }
  void takeOther(int column, sqlite3_value* cell, int type);
  // The scan of run() and runRange(): `where` is the rowid condition, or "";
  // the targets are sized for `expectedRows`, by default the table's bound.
  size_t scan(const std::string& where, std::optional<size_t> expectedRows);
  // runInChunks(): hands the rows taken since the last chunk to chunk_.
  void endChunk();
  // Resizes every target to `rows` (within their capacity after a chunk).
  void resizeTargets(size_t rows);
  // The whole-table checks of `start` and `end`, fed the targets' rows a
  // chunk at a time (rows chunkFirst_ on); throwEndsError() throws the
  // first error of the highest kind once every row is in.
  void checkEnds(size_t rows);
  void throwEndsError() const;
  // Names that are not UTF-8 or hold a NUL among the targets' rows, counted
  // a chunk at a time for addNotes().
  void countOddNames(size_t rows);
  void addNotes() const;
  [[noreturn]] void bad(int column, const std::string& why) const;
  int64_t integer(int column, sqlite3_value* cell, int type) const;
  // The row sink's callback (core/sqlite/row_sink.h): take(), and whether to
  // return a row now; never throws.
  static int takeRow(void* self, sqlite3_value** cells, const unsigned char* types, const sqlite3_int64* ints);

  SqliteDb& db_;
  StringPool& strings_;
  std::string table_;
  Notes* notes_;
  std::vector<Target> targets_;
  size_t row_ = 0;
  size_t firstRow_ = 0;  // the table's row number of row_ 0 (runRange)
  // runInChunks(): the rows a chunk holds, what is called with each, and
  // the row the targets' first entry holds (0 for run()).
  size_t chunkRows_ = 0;
  const std::function<void(size_t, size_t)>* chunk_ = nullptr;
  size_t chunkFirst_ = 0;
  // checkEnds(): the first error of each kind so far ("" none) and the
  // durations' sum up to the rows checked.
  std::string badStart_, badEnd_, badOrder_;
  int64_t durationSum_ = 0;
  // countOddNames(): by target, the rows whose name is not UTF-8 / holds a
  // NUL, with the first one's StringIds id and whether others differ.
  struct OddSeen {
    size_t rows = 0;
    int64_t first = 0;
    bool more = false;
    void add(int64_t storedId);
    std::string ids() const;
  };
  std::vector<std::pair<OddSeen, OddSeen>> oddSeen_;
  std::vector<int64_t>* marks_ = nullptr;
  bool hasStringIds_ = false;
  std::exception_ptr failure_;  // what stopped the scan inside takeRow()
  AsysRowSink sink_{};
  // The targets by kind, for take()'s fast path: column index and memory.
  std::vector<int> integerColumns_;  // Int64, Int32 and Name columns
  std::vector<std::pair<int, int64_t*>> int64Columns_;
  std::vector<std::pair<int, int32_t*>> int32Columns_;
  std::vector<std::pair<int, uint32_t*>> nameColumns_;
  size_t rows_ = 0;  // rows every target is sized for
  std::vector<int> otherColumns_;    // Text and Real
  std::vector<unsigned char> types_;
  std::vector<sqlite3_int64> ints_;
};

}  // namespace asys
