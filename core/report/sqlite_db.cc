#include "core/report/sqlite_db.h"

#include <sqlite3.h>

#include <algorithm>

#include "core/base/error.h"
#include "core/report/block_vfs.h"
#include "core/report/report.h"

namespace asys {

std::string sqliteUri(const std::string& path, const char* query) {
  std::string uri = path.rfind('/', 0) == 0 ? "file://" : "file:";
  for (char c : path) {
    if (c == '?' || c == '#' || c == '%') {
      char buf[4];
      snprintf(buf, sizeof buf, "%%%02X", static_cast<unsigned char>(c));
      uri += buf;
    } else {
      uri += c;
    }
  }
  if (query != nullptr) uri += query;
  return uri;
}

SqliteDb::SqliteDb(const std::string& path) : path_(path) {
  const std::string uri = sqliteUri(path, "?immutable=1");
  int rc = sqlite3_open_v2(uri.c_str(), &db_, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, blockVfsName());
  if (rc != SQLITE_OK) {
    std::string msg = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    sqlite3_close(db_);
    db_ = nullptr;
    throw Error(path + ": cannot open: " + msg);
  }
  // Pages straight from the block cache's memory (xFetch), not copied into
  // SQLite's page cache: the VFS maps nothing, so any size is safe.
  sqlite3_exec(db_, "PRAGMA mmap_size = 9223372036854775807", nullptr, nullptr, nullptr);
}

SqliteDb::~SqliteDb() { sqlite3_close(db_); }

void SqliteDb::fail(const std::string& what) const {
  throw Error(path_ + ": " + what + ": " + sqlite3_errmsg(db_));
}

bool SqliteDb::hasTable(std::string_view table) {
  Statement st(*this, "SELECT 1 FROM sqlite_master WHERE type IN ('table','view') AND name = '" +
                          std::string(table) + "'");
  return st.step();
}

size_t SqliteDb::rowBound(std::string_view table, size_t columns) {
  // Two subqueries: SQLite answers a lone min() or max() by one descent, but
  // min() and max() in one SELECT by a scan of the whole table.
  const std::string t = "\"" + std::string(table) + "\"";
  Statement st(*this, "SELECT (SELECT min(rowid) FROM " + t + "), (SELECT max(rowid) FROM " + t + ")");
  if (!st.step() || st.isNull(0)) return 0;
  const int64_t lo = st.int64(0), hi = st.int64(1);
  Statement pages(*this, "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()");
  const int64_t bytes = pages.step() ? pages.int64(0) : 0;
  // A row takes at least a 2-byte cell pointer, its length, rowid and header
  // length (1 byte each) and one byte per column.
  const int64_t most = bytes / static_cast<int64_t>(5 + columns);
  // A damaged b-tree may answer a max below the min (found by fuzzing):
  // then there is no bound to trust.
  if (lo < 0 || hi < lo || hi - lo >= most) return 0;
  return static_cast<size_t>(hi - lo + 1);
}

std::vector<std::string> SqliteDb::columnsOf(std::string_view table) {
  std::vector<std::string> out;
  Statement st(*this, "PRAGMA table_info(\"" + std::string(table) + "\")");
  while (st.step()) out.emplace_back(st.text(1));
  return out;
}

std::string SqliteDb::selectColumns(std::string_view table, const std::vector<std::string>& columns) {
  std::vector<std::string> present = columnsOf(table);
  std::string sql = "SELECT ";
  for (size_t i = 0; i < columns.size(); ++i) {
    if (i) sql += ", ";
    bool has = std::find(present.begin(), present.end(), columns[i]) != present.end();
    sql += has ? "\"" + columns[i] + "\"" : "NULL";
  }
  sql += " FROM \"" + std::string(table) + "\"";
  return sql;
}

Statement::Statement(SqliteDb& db, const std::string& sql) : db_(db) {
  if (sqlite3_prepare_v2(db.handle(), sql.c_str(), -1, &stmt_, nullptr) != SQLITE_OK) {
    db.fail("cannot read (" + sql.substr(0, 60) + ")");
  }
}

Statement::~Statement() { sqlite3_finalize(stmt_); }

bool Statement::step() {
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  db_.fail("read failed");
}

bool Statement::isNull(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }

int64_t Statement::int64(int col) const {
  // NULL reads as 0 in SQLite: only then is the type worth asking for.
  int64_t v = sqlite3_column_int64(stmt_, col);
  return v == 0 && isNull(col) ? kNoValue : v;
}

double Statement::real(int col) const { return sqlite3_column_double(stmt_, col); }

std::string_view Statement::text(int col) const {
  const unsigned char* p = sqlite3_column_text(stmt_, col);
  if (!p) return {};
  return {reinterpret_cast<const char*>(p), static_cast<size_t>(sqlite3_column_bytes(stmt_, col))};
}

}  // namespace asys
