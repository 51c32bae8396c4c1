#include "core/report/column_loader.h"

#include <sqlite3.h>

#include <algorithm>
#include <cmath>

#include "core/base/error.h"
#include "core/report/report.h"
#include "core/report/sqlite_db.h"

namespace asys {

ColumnLoad::ColumnLoad(SqliteDb& db, StringPool& strings, std::string table)
    : db_(db), strings_(strings), table_(std::move(table)) {}

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
ColumnLoad& ColumnLoad::text(const char* column, std::vector<uint32_t>& out) {
  return add(column, Kind::Text, Null::Allowed, &out);
}
ColumnLoad& ColumnLoad::real(const char* column, std::vector<double>& out) {
  return add(column, Kind::Real, Null::Allowed, &out);
}

namespace {

// A cell's value as the error message quotes it, cut to a readable length.
std::string quoted(sqlite3_stmt* st, int col) {
  switch (sqlite3_column_type(st, col)) {
    case SQLITE_NULL: return "NULL";
    case SQLITE_BLOB: return "a BLOB of " + std::to_string(sqlite3_column_bytes(st, col)) + " bytes";
    default: {
      std::string v(reinterpret_cast<const char*>(sqlite3_column_text(st, col)),
                    static_cast<size_t>(sqlite3_column_bytes(st, col)));
      if (v.size() > 40) v = v.substr(0, 37) + "...";
      return "'" + v + "'";
    }
  }
}

template <typename T>
std::vector<T>& as(void* p) {
  return *static_cast<std::vector<T>*>(p);
}

}  // namespace

size_t ColumnLoad::run() {
  if (!db_.hasTable(table_)) return 0;
  const std::vector<std::string> present = db_.columnsOf(table_);
  std::string sql = "SELECT ";
  for (size_t i = 0; i < targets_.size(); ++i) {
    const Target& t = targets_[i];
    const bool has = std::find(present.begin(), present.end(), t.column) != present.end();
    if (!has && t.null == Null::Error) {
      throw Error(db_.path() + ": table " + table_ + " has no column " + t.column);
    }
    sql += i ? ", " : "";
    sql += has ? "\"" + std::string(t.column) + "\"" : "NULL";
  }
  sql += " FROM \"" + table_ + "\" ORDER BY rowid";

  const size_t expected = db_.rowBound(table_, present.size());
  for (const Target& t : targets_) {
    switch (t.kind) {
      case Kind::Int64: as<int64_t>(t.out).reserve(expected); break;
      case Kind::Int32: as<int32_t>(t.out).reserve(expected); break;
      case Kind::Name:
      case Kind::Text: as<uint32_t>(t.out).reserve(expected); break;
      case Kind::Real: as<double>(t.out).reserve(expected); break;
    }
  }

  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v2(db_.handle(), sql.c_str(), -1, &st, nullptr) != SQLITE_OK) {
    db_.fail("cannot read table " + table_);
  }
  struct Finalize {
    sqlite3_stmt* st;
    ~Finalize() { sqlite3_finalize(st); }
  } finalize{st};

  size_t row = 0;
  auto bad = [&](int col, const std::string& why) {
    throw Error(db_.path() + ": table " + table_ + ", column " + targets_[col].column + ", row " +
                std::to_string(row) + ": " + why);
  };
  // An integer cell: INTEGER, or a REAL with no fraction (some writers store
  // floats); TEXT and BLOB are not numbers (SQLite's INTEGER affinity already
  // turned numeric text into integers on insert).
  auto integer = [&](int col, int type) -> int64_t {
    if (type == SQLITE_INTEGER) return sqlite3_column_int64(st, col);
    if (type == SQLITE_FLOAT) {
      const double d = sqlite3_column_double(st, col);
      if (std::floor(d) == d && std::fabs(d) < 9.2e18) return static_cast<int64_t>(d);
    }
    bad(col, quoted(st, col) + " is not an integer");
    return 0;
  };

  const int n = static_cast<int>(targets_.size());
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    ++row;
    for (int c = 0; c < n; ++c) {
      const Target& t = targets_[c];
      const int type = sqlite3_column_type(st, c);
      if (type == SQLITE_NULL && t.null == Null::Error) bad(c, "NULL where a value is required");
      switch (t.kind) {
        case Kind::Int64:
          as<int64_t>(t.out).push_back(type == SQLITE_NULL ? kNoValue : integer(c, type));
          break;
        case Kind::Int32: {
          int64_t v = type == SQLITE_NULL ? -1 : integer(c, type);
          if (v < INT32_MIN || v > INT32_MAX) bad(c, std::to_string(v) + " is out of range");
          as<int32_t>(t.out).push_back(static_cast<int32_t>(v));
          break;
        }
        case Kind::Name: {
          uint32_t id = kNoString;
          if (type != SQLITE_NULL) {
            const int64_t stored = integer(c, type);
            id = strings_.fromStored(stored);
            if (id == kNoString) {
              bad(c, "string id " + std::to_string(stored) +
                         (db_.hasTable("StringIds") ? " is not in StringIds" : ", but the report has no StringIds table"));
            }
          }
          as<uint32_t>(t.out).push_back(id);
          break;
        }
        case Kind::Text: {
          uint32_t id = kNoString;
          if (type != SQLITE_NULL) {
            const unsigned char* p = sqlite3_column_text(st, c);
            id = strings_.intern({reinterpret_cast<const char*>(p), static_cast<size_t>(sqlite3_column_bytes(st, c))});
          }
          as<uint32_t>(t.out).push_back(id);
          break;
        }
        case Kind::Real:
          if (type == SQLITE_TEXT || type == SQLITE_BLOB) bad(c, quoted(st, c) + " is not a number");
          as<double>(t.out).push_back(type == SQLITE_NULL ? std::nan("") : sqlite3_column_double(st, c));
          break;
      }
    }
  }
  if (rc != SQLITE_DONE) db_.fail("cannot read table " + table_);
  if (expected > 2 * row) {
    // Rowids with gaps: give back what the reservation overestimated.
    for (const Target& t : targets_) {
      switch (t.kind) {
        case Kind::Int64: as<int64_t>(t.out).shrink_to_fit(); break;
        case Kind::Int32: as<int32_t>(t.out).shrink_to_fit(); break;
        case Kind::Name:
        case Kind::Text: as<uint32_t>(t.out).shrink_to_fit(); break;
        case Kind::Real: as<double>(t.out).shrink_to_fit(); break;
      }
    }
  }
  return row;
}

}  // namespace asys
