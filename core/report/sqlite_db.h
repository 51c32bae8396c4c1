#pragma once
// A thin RAII layer over the SQLite C API: a read-only connection and a
// prepared statement that steps rows. Errors become asys::Error naming the file.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace asys {

class SqliteDb;

// A URI filename for sqlite3_open_v2 / ATTACH with SQLITE_OPEN_URI: the
// characters special in a URI are percent-escaped so any path works, and an
// absolute path gets an empty authority ("file:///x"), so a path starting
// with "//" is not read as a host name. `query` is appended ("?immutable=1").
std::string sqliteUri(const std::string& path, const char* query);

class Statement {
 public:
  Statement(SqliteDb& db, const std::string& sql);
  ~Statement();
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  bool step();  // true while a row is available
  bool isNull(int col) const;
  int64_t int64(int col) const;  // NULL reads as kNoValue
  double real(int col) const;
  std::string_view text(int col) const;  // NULL reads as ""

 private:
  SqliteDb& db_;
  sqlite3_stmt* stmt_ = nullptr;
};

class SqliteDb {
 public:
  // Opens read-only and immutable (no locks, no journal): reports are files
  // that nobody writes while we read them.
  explicit SqliteDb(const std::string& path);
  ~SqliteDb();
  SqliteDb(const SqliteDb&) = delete;
  SqliteDb& operator=(const SqliteDb&) = delete;

  bool hasTable(std::string_view table);
  // How many rows a table holds at most, for reserving vectors before a
  // load, found without reading the table (count(*) visits every page, which
  // in the browser means reading the whole file once more): the span of its
  // rowids, from two b-tree descents. 0 when the span is more rows than the
  // file could hold with `columns` columns (sparse rowids: then vectors grow).
  size_t rowBound(std::string_view table, size_t columns);
  std::vector<std::string> columnsOf(std::string_view table);
  // `SELECT a, b, ... FROM table`, with NULL for columns the table lacks, so
  // older or partial writers still load.
  std::string selectColumns(std::string_view table, const std::vector<std::string>& columns);
  [[noreturn]] void fail(const std::string& what) const;
  sqlite3* handle() { return db_; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  sqlite3* db_ = nullptr;
};

}  // namespace asys
