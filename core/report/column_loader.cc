#include "core/report/column_loader.h"

#include <sqlite3.h>

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "core/base/error.h"
#include "core/base/stage_timer.h"
#include "core/report/report.h"
#include "core/report/sqlite_db.h"

namespace asys {

ColumnLoad::ColumnLoad(SqliteDb& db, StringPool& strings, std::string table, Notes* notes)
    : db_(db), strings_(strings), table_(std::move(table)), notes_(notes) {}

void ColumnLoad::Notes::add(const std::string& table, std::string text) {
  for (const auto& [t, x] : items)
    if (t == table && x == text) return;
  items.emplace_back(table, std::move(text));
}

ColumnLoad& ColumnLoad::add(const char* column, Kind kind, Null null, void* out) {
  targets_.push_back({column, kind, null, out});
  return *this;
}

ColumnLoad& ColumnLoad::int64(const char* column, std::vector<int64_t>& out, Null null) {
  return add(column, Kind::Int64, null, &out);
}
ColumnLoad& ColumnLoad::int32(const char* column, std::vector<int32_t>& out, Null null) {
  return add(column, Kind::Int32, null, &out);
}
ColumnLoad& ColumnLoad::name(const char* column, std::vector<uint32_t>& out) {
  return add(column, Kind::Name, Null::Allowed, &out);
}
ColumnLoad& ColumnLoad::text(const char* column, std::vector<uint32_t>& out, StringPool* pool) {
  add(column, Kind::Text, Null::Allowed, &out);
  targets_.back().pool = pool;
  return *this;
}
ColumnLoad& ColumnLoad::real(const char* column, std::vector<double>& out) {
  return add(column, Kind::Real, Null::Allowed, &out);
}

namespace {

// A cell's value as the error message quotes it, cut to a readable length.
std::string quoted(sqlite3_value* cell) {
  switch (sqlite3_value_type(cell)) {
    case SQLITE_NULL: return "NULL";
    case SQLITE_BLOB: return "a BLOB of " + std::to_string(sqlite3_value_bytes(cell)) + " bytes";
    default: {
      std::string v(reinterpret_cast<const char*>(sqlite3_value_text(cell)),
                    static_cast<size_t>(sqlite3_value_bytes(cell)));
      if (v.size() > 40) v = v.substr(0, 37) + "...";
      return "'" + v + "'";
    }
  }
}

template <typename T>
std::vector<T>& as(void* p) {
  return *static_cast<std::vector<T>*>(p);
}

template <typename T>
void fit(std::vector<T>& v, size_t rows, bool giveBack) {
  v.resize(rows);
  if (giveBack) v.shrink_to_fit();
}

constexpr const char* kSinkName = "asys_column_load";
// The scan returns a row to run() this often. In WebAssembly a function runs
// as it was compiled when it was entered; V8 first compiles fast baseline
// code and optimises hot functions in the background for their next call.
// A scan that never left sqlite3_step would run all of it on the baseline
// code (2x slower); returning now and then lets it pick up the optimised one.
constexpr size_t kYieldRows = 1024;

}  // namespace

void ColumnLoad::bad(int col, const std::string& why) const {
  throw Error(db_.path() + ": table " + table_ + ", column " + targets_[col].column + ", row " +
              std::to_string(firstRow_ + row_) + ": " + why);
}

// An integer cell: INTEGER, or a REAL with no fraction (some writers store
// floats); TEXT and BLOB are not numbers (SQLite's INTEGER affinity already
// turned numeric text into integers on insert).
int64_t ColumnLoad::integer(int col, sqlite3_value* cell, int type) const {
  if (type == SQLITE_INTEGER) return sqlite3_value_int64(cell);
  if (type == SQLITE_FLOAT) {
    const double d = sqlite3_value_double(cell);
    if (std::floor(d) == d && std::fabs(d) < 9.2e18) return static_cast<int64_t>(d);
  }
  bad(col, quoted(cell) + " is not an integer");
}

// A cell that is not an INTEGER: NULL, REAL, TEXT or BLOB, checked against
// what the column allows.
void ColumnLoad::takeOther(int c, sqlite3_value* cell, int type) {
  Target& t = targets_[c];
  if (type == SQLITE_NULL && t.null == Null::Error) bad(c, "NULL where a value is required");
  if (type == SQLITE_NULL) ++t.nulls;
  switch (t.kind) {
    case Kind::Int64:
      put<int64_t>(t, type == SQLITE_NULL ? kNoValue : integer(c, cell, type));
      break;
    case Kind::Int32:
      if (type == SQLITE_NULL) put<int32_t>(t, -1);
      else takeInteger(c, integer(c, cell, type));
      break;
    case Kind::Name:
      if (type == SQLITE_NULL) put<uint32_t>(t, kNoString);
      else takeInteger(c, integer(c, cell, type));
      break;
    case Kind::Text: {
      uint32_t id = kNoString;
      if (type != SQLITE_NULL) {
        if (type == SQLITE_BLOB) bad(c, quoted(cell) + " is not text");
        const unsigned char* p = sqlite3_value_text(cell);
        const std::string_view text(reinterpret_cast<const char*>(p), static_cast<size_t>(sqlite3_value_bytes(cell)));
        id = t.pool ? t.pool->intern(text) | StringPool::kOverlayBit : strings_.intern(text);
      }
      put<uint32_t>(t, id);
      break;
    }
    case Kind::Real:
      if (type == SQLITE_TEXT || type == SQLITE_BLOB) bad(c, quoted(cell) + " is not a number");
      put<double>(t, type == SQLITE_NULL ? std::nan("") : sqlite3_value_double(cell));
      break;
  }
}

// An integer value of an Int64, Int32 or Name column (a Text or Real column
// never gets here with an integer: see take()).
inline void ColumnLoad::takeInteger(int c, int64_t v) {
  const Target& t = targets_[c];
  switch (t.kind) {
    case Kind::Int64: put<int64_t>(t, v); return;
    case Kind::Int32:
      if (v < INT32_MIN || v > INT32_MAX) bad(c, std::to_string(v) + " is out of range");
      put<int32_t>(t, static_cast<int32_t>(v));
      return;
    case Kind::Name: {
      const uint32_t id = strings_.fromStored(v);
      if (id == kNoString) {
        bad(c, "string id " + std::to_string(v) +
                   (hasStringIds_ ? " is not in StringIds" : ", but the report has no StringIds table"));
      }
      put<uint32_t>(t, id);
      return;
    }
    default: return;
  }
}

// Every cell of a row in column order, each checked: the first cell that
// breaks its column's rule is the one the error names.
void ColumnLoad::takeInOrder(sqlite3_value** cells, const unsigned char* types, const sqlite3_int64* ints) {
  const int n = static_cast<int>(targets_.size());
  for (int c = 0; c < n; ++c) {
    const Kind kind = targets_[c].kind;
    if (types[c] == SQLITE_INTEGER && kind != Kind::Text && kind != Kind::Real) {
      takeInteger(c, ints[c]);
    } else {
      takeOther(c, cells[c], types[c]);
    }
  }
}

// The hot loop of every load (10 million rows of 6 cells for a kernel
// summary). A row whose integer columns all hold integers in range goes
// column kind by column kind with no per-cell dispatch, each value stored at
// its row in memory sized ahead; any other row, and any row with a cell to
// complain about, goes through takeInOrder() (which then names the first
// bad cell).
void ColumnLoad::take(sqlite3_value** cells, const unsigned char* types, const sqlite3_int64* ints) {
  const size_t i = row_++ - chunkFirst_;
  if (i >= rows_) sizeFor(i + 1);
  for (int c : integerColumns_) {
    if (types[c] != SQLITE_INTEGER) return takeInOrder(cells, types, ints);
  }
  for (const auto& [c, out] : int64Columns_) out[i] = ints[c];
  for (const auto& [c, out] : int32Columns_) {
    const int64_t v = ints[c];
    if (v < INT32_MIN || v > INT32_MAX) return takeInOrder(cells, types, ints);
    out[i] = static_cast<int32_t>(v);
  }
  for (const auto& [c, out] : nameColumns_) {
    const uint32_t id = strings_.fromStored(ints[c]);
    if (id == kNoString) return takeInOrder(cells, types, ints);
    out[i] = id;
  }
  for (int c : otherColumns_) takeOther(c, cells[c], types[c]);
}

// Sizes every target for at least `rows` rows (doubling), and points the
// fast path at their memory again.
void ColumnLoad::sizeFor(size_t rows) {
  rows_ = std::max(rows, rows_ == 0 ? size_t{1024} : 2 * rows_);
  int64Columns_.clear();
  int32Columns_.clear();
  nameColumns_.clear();
  for (int c = 0; c < static_cast<int>(targets_.size()); ++c) {
    const Target& t = targets_[c];
    switch (t.kind) {
      case Kind::Int64: as<int64_t>(t.out).resize(rows_); int64Columns_.push_back({c, as<int64_t>(t.out).data()}); break;
      case Kind::Int32: as<int32_t>(t.out).resize(rows_); int32Columns_.push_back({c, as<int32_t>(t.out).data()}); break;
      case Kind::Name: as<uint32_t>(t.out).resize(rows_); nameColumns_.push_back({c, as<uint32_t>(t.out).data()}); break;
      case Kind::Text: as<uint32_t>(t.out).resize(rows_); break;
      case Kind::Real: as<double>(t.out).resize(rows_); break;
    }
  }
}

int ColumnLoad::takeRow(void* self, sqlite3_value** cells, const unsigned char* types, const sqlite3_int64* ints) {
  auto* load = static_cast<ColumnLoad*>(self);
  try {
    load->take(cells, types, ints);
    if (load->marks_ && (load->row_ - 1) % kRowidMarkEvery == 0) load->marks_->push_back(ints[load->targets_.size()]);
    // Go on (the row is taken, not returned), except every kYieldRows rows.
    return load->row_ % kYieldRows == 0 ? 1 : 0;
  } catch (...) {
    // Nothing may unwind through SQLite: stop the scan, rethrow in run().
    load->failure_ = std::current_exception();
    return -1;
  }
}

ColumnLoad& ColumnLoad::rowidMarks(std::vector<int64_t>& marks) {
  marks_ = &marks;
  return *this;
}

size_t ColumnLoad::run() {
  if (!db_.hasTable(table_)) return 0;
  StageTimer timer("load " + table_ + " (" + std::to_string(targets_.size()) + " columns)");
  firstRow_ = 0;
  if (marks_) marks_->clear();
  const size_t row = scan("", std::nullopt);
  checkEnds(row);
  throwEndsError();
  if (notes_) {
    countOddNames(row);
    addNotes();
  }
  return row;
}

size_t ColumnLoad::runInChunks(size_t chunkRows, const std::function<void(size_t first, size_t rows)>& chunk) {
  if (!db_.hasTable(table_)) return 0;
  StageTimer timer("scan " + table_ + " (" + std::to_string(targets_.size()) + " columns)");
  firstRow_ = 0;
  if (marks_) marks_->clear();
  // A whole number of the scan's returns (kYieldRows), where scan() ends a chunk.
  chunkRows_ = std::max<size_t>(1, (chunkRows + kYieldRows - 1) / kYieldRows) * kYieldRows;
  chunk_ = &chunk;
  struct Reset {  // the load is run()'s again, whatever happens
    ColumnLoad* load;
    ~Reset() {
      load->chunk_ = nullptr;
      load->chunkRows_ = 0;
      load->chunkFirst_ = 0;
    }
  } reset{this};
  const size_t row = scan("", std::nullopt);
  throwEndsError();
  if (notes_) addNotes();
  return row;
}

void ColumnLoad::resizeTargets(size_t rows) {
  for (const Target& t : targets_) {
    switch (t.kind) {
      case Kind::Int64: as<int64_t>(t.out).resize(rows); break;
      case Kind::Int32: as<int32_t>(t.out).resize(rows); break;
      case Kind::Name:
      case Kind::Text: as<uint32_t>(t.out).resize(rows); break;
      case Kind::Real: as<double>(t.out).resize(rows); break;
    }
  }
}

void ColumnLoad::endChunk() {
  const size_t rows = row_ - chunkFirst_;
  if (rows == 0) return;
  resizeTargets(rows);  // within their capacity: the fast path's pointers stay
  checkEnds(rows);
  if (notes_) countOddNames(rows);
  (*chunk_)(chunkFirst_, rows);
  chunkFirst_ = row_;
  resizeTargets(rows_);
}

size_t ColumnLoad::runRange(int64_t firstRowid, int64_t lastRowid, size_t firstRow, size_t expectedRows) {
  if (!db_.hasTable(table_) || lastRowid < firstRowid) return 0;
  firstRow_ = firstRow;
  marks_ = nullptr;
  return scan("rowid BETWEEN " + std::to_string(firstRowid) + " AND " + std::to_string(lastRowid) + " AND ",
              expectedRows);
}

// One scan in rowid order that returns (almost) no rows: the WHERE clause
// hands every row's cells to takeRow(), so the table is read in few
// sqlite3_step calls, with no per-row return from SQLite's VDBE and no
// sqlite3_column_* call per cell (in WebAssembly, re-entering sqlite3_step
// per row cost more than decoding the row).
size_t ColumnLoad::scan(const std::string& where, std::optional<size_t> expectedRows) {
  const std::vector<std::string> present = db_.columnsOf(table_);
  size_t expected = expectedRows ? *expectedRows : db_.rowBound(table_, present.size());
  if (chunk_) expected = std::min(expected, chunkRows_);
  std::string sql = std::string("SELECT 1 FROM \"") + table_ + "\" WHERE " + where + kSinkName + "(";
  for (size_t i = 0; i < targets_.size(); ++i) {
    const Target& t = targets_[i];
    const bool has = std::find(present.begin(), present.end(), t.column) != present.end();
    if (!has && t.null != Null::Allowed && t.null != Null::Noted) {
      throw Error(db_.path() + ": table " + table_ + " has no column " + t.column);
    }
    sql += i ? ", " : "";
    sql += has ? "\"" + std::string(t.column) + "\"" : "NULL";
  }
  if (marks_) sql += ", rowid";  // the sink's last argument (takeRow)
  sql += ") ORDER BY rowid";

  hasStringIds_ = db_.hasTable("StringIds");
  row_ = 0;
  chunkFirst_ = 0;
  failure_ = nullptr;
  badStart_.clear();
  badEnd_.clear();
  badOrder_.clear();
  durationSum_ = 0;
  oddSeen_.assign(targets_.size(), {});

  integerColumns_.clear();
  otherColumns_.clear();
  for (int c = 0; c < static_cast<int>(targets_.size()); ++c) {
    const Kind kind = targets_[c].kind;
    if (kind == Kind::Text || kind == Kind::Real) otherColumns_.push_back(c);
    else integerColumns_.push_back(c);
  }
  for (Target& t : targets_) {
    t.nulls = 0;
    switch (t.kind) {
      case Kind::Int64: as<int64_t>(t.out).clear(); break;
      case Kind::Int32: as<int32_t>(t.out).clear(); break;
      case Kind::Name:
      case Kind::Text: as<uint32_t>(t.out).clear(); break;
      case Kind::Real: as<double>(t.out).clear(); break;
    }
  }
  rows_ = 0;
  sizeFor(expected);
  const size_t arguments = targets_.size() + (marks_ ? 1 : 0);
  types_.assign(arguments, 0);
  ints_.assign(arguments, 0);
  sink_ = {&ColumnLoad::takeRow, this, static_cast<int>(arguments), types_.data(), ints_.data()};
  sqlite3* db = db_.handle();
  if (sqlite3_create_function_v2(db, kSinkName, sink_.count, SQLITE_UTF8 | SQLITE_DIRECTONLY, &sink_,
                                 asys_row_sink, nullptr, nullptr, nullptr) != SQLITE_OK) {
    db_.fail("cannot read table " + table_);
  }
  // The function's user data is this load: take the function away with it.
  struct Unregister {
    sqlite3* db;
    int count;
    ~Unregister() { sqlite3_create_function_v2(db, kSinkName, count, SQLITE_UTF8, nullptr, nullptr, nullptr, nullptr, nullptr); }
  } unregister{db, sink_.count};
  struct Statement {  // finalized however the scan ends (a chunk's error too)
    sqlite3_stmt* st = nullptr;
    ~Statement() { sqlite3_finalize(st); }
  } statement;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &statement.st, nullptr) != SQLITE_OK) {
    db_.fail("cannot read table " + table_);
  }
  int rc;
  while ((rc = sqlite3_step(statement.st)) == SQLITE_ROW) {
    // The scan returns every kYieldRows rows, so a chunk ends exactly full.
    if (chunk_ && row_ - chunkFirst_ >= chunkRows_) endChunk();
  }
  if (failure_) std::rethrow_exception(failure_);
  if (rc != SQLITE_DONE) db_.fail("cannot read table " + table_);
  if (chunk_) {
    endChunk();
    for (const Target& t : targets_) {
      switch (t.kind) {
        case Kind::Int64: fit(as<int64_t>(t.out), 0, true); break;
        case Kind::Int32: fit(as<int32_t>(t.out), 0, true); break;
        case Kind::Name:
        case Kind::Text: fit(as<uint32_t>(t.out), 0, true); break;
        case Kind::Real: fit(as<double>(t.out), 0, true); break;
      }
    }
    return row_;
  }
  // Down to the rows read; rowids with gaps reserved too much: give it back.
  const size_t row = row_;
  const bool give = rows_ > 2 * row;
  for (const Target& t : targets_) {
    switch (t.kind) {
      case Kind::Int64: fit(as<int64_t>(t.out), row, give); break;
      case Kind::Int32: fit(as<int32_t>(t.out), row, give); break;
      case Kind::Name:
      case Kind::Text: fit(as<uint32_t>(t.out), row, give); break;
      case Kind::Real: fit(as<double>(t.out), row, give); break;
    }
  }
  return row;
}

namespace {

std::string rowsText(size_t n) { return n == 1 ? "1 row" : std::to_string(n) + " rows"; }

}  // namespace

void ColumnLoad::OddSeen::add(int64_t storedId) {
  if (rows++ == 0) first = storedId;
  else more = more || storedId != first;
}

std::string ColumnLoad::OddSeen::ids() const {
  return "StringIds id " + std::to_string(first) + (more ? ", ..." : "");
}

// Only when StringIds has odd texts (rare: most reports cost no pass at all).
void ColumnLoad::countOddNames(size_t rows) {
  const std::vector<StringPool::OddText>& odd = strings_.oddTexts();
  if (odd.empty()) return;
  std::unordered_map<uint32_t, const StringPool::OddText*> byId;
  for (const StringPool::OddText& o : odd) byId.emplace(o.id, &o);
  for (size_t c = 0; c < targets_.size(); ++c) {
    const Target& t = targets_[c];
    if (t.kind != Kind::Name) continue;
    const std::vector<uint32_t>& ids = as<uint32_t>(t.out);
    for (size_t i = 0; i < rows; ++i) {
      auto it = byId.find(ids[i]);
      if (it == byId.end()) continue;
      if (it->second->notUtf8) oddSeen_[c].first.add(it->second->storedId);
      if (it->second->nul) oddSeen_[c].second.add(it->second->storedId);
    }
  }
}

// After a scan: only Noted columns holding NULL, and name columns with odd
// texts (countOddNames).
void ColumnLoad::addNotes() const {
  for (const Target& t : targets_) {
    if (t.null != Null::Noted || t.nulls == 0) continue;
    std::string what = t.column;  // "deviceId" reads as "no device"
    if (what.size() > 2 && what.compare(what.size() - 2, 2, "Id") == 0) what.resize(what.size() - 2);
    notes_->add(table_, table_ + ": " + rowsText(t.nulls) + (t.nulls == 1 ? " has" : " have") + " a NULL " +
                            t.column + ", read as no " + what);
  }
  for (size_t c = 0; c < targets_.size(); ++c) {
    const auto& [notUtf8, nul] = oddSeen_[c];
    const std::string where = table_ + ": the " + std::string(targets_[c].column) + " of ";
    if (notUtf8.rows) {
      notes_->add(table_, where + rowsText(notUtf8.rows) + " is not UTF-8 (" + notUtf8.ids() +
                              "): written as stored, shown with U+FFFD in the viewer");
    }
    if (nul.rows) notes_->add(table_, where + rowsText(nul.rows) + " holds a NUL character (" + nul.ids() + "): kept whole");
  }
}

void ColumnLoad::checkEnds(size_t rows) {
  const std::vector<int64_t>* start = nullptr;
  const std::vector<int64_t>* end = nullptr;
  for (const Target& t : targets_) {
    if (t.kind != Kind::Int64) continue;
    if (std::string_view(t.column) == "start") start = &as<int64_t>(t.out);
    if (std::string_view(t.column) == "end") end = &as<int64_t>(t.out);
  }
  if (!start && !end) return;
  // Times within kTimeLimit; durations that add up to under 2^59 ns (18
  // years) per table, so sixteen tables' totals still add in int64. Both are
  // far past a real capture, and the fuzzer found both overflows (a span from
  // -7.5e18 to 1.7e18; two 4e18 spans summed).
  constexpr int64_t kDurationSumLimit = int64_t{1} << 59;
  const auto where = [&](size_t i) {
    return db_.path() + ": table " + table_ + ", row " + std::to_string(chunkFirst_ + i + 1) + ": ";
  };
  const auto firstPastLimit = [&](const std::vector<int64_t>* times, const char* column, std::string& bad) {
    for (size_t i = 0; times && bad.empty() && i < rows; ++i) {
      const int64_t t = (*times)[i];
      if (t != kNoValue && !withinTimeLimit(t)) bad = where(i) + column + " " + std::to_string(t) + kPastTimeLimit;
    }
  };
  firstPastLimit(start, "start", badStart_);
  firstPastLimit(end, "end", badEnd_);
  // A time past the limit is the error thrown, whatever follows it; and
  // only times within it may be subtracted (both under 2^62 in magnitude).
  if (!start || !end || !badStart_.empty() || !badEnd_.empty()) return;
  for (size_t i = 0; badOrder_.empty() && i < rows; ++i) {
    const int64_t e = (*end)[i], s = (*start)[i];
    if (e == kNoValue || s == kNoValue) continue;
    if (e < s) {
      badOrder_ = where(i) + "end " + std::to_string(e) + " is before start " + std::to_string(s);
      break;
    }
    const int64_t duration = e - s;
    if (duration >= kDurationSumLimit - durationSum_) {  // the sum reaches the limit; added unsigned, it cannot wrap
      badOrder_ = db_.path() + ": table " + table_ + ": the durations of rows 1 to " + std::to_string(chunkFirst_ + i + 1) +
                  " already add up to " + std::to_string(uint64_t(durationSum_) + uint64_t(duration)) +
                  " ns, more than the 2^59 ns (18 years) one table may hold";
      break;
    }
    durationSum_ += duration;
  }
}

// A start past the limit first, then an end past it, then the first row
// whose end is before its start or whose duration takes the sum past its
// limit: the order one pass over the whole table finds them in.
void ColumnLoad::throwEndsError() const {
  for (const std::string* bad : {&badStart_, &badEnd_, &badOrder_})
    if (!bad->empty()) throw Error(*bad);
}

}  // namespace asys
