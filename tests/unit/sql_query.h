#pragma once
// Plain SQL over a report file through the sqlite3 C API, for tests that
// check reports independently of the engine's reader (rank reports, merged
// reports).
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/unit/temp_report.h"

namespace asys::test {

class SqlFile {
 public:
  explicit SqlFile(const std::string& path, bool writable = false) : path_(path) {
    const int flags = writable ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY;
    if (sqlite3_open_v2(path.c_str(), &db_, flags, nullptr) != SQLITE_OK) ADD_FAILURE() << "cannot open " << path;
  }
  ~SqlFile() { sqlite3_close(db_); }
  SqlFile(const SqlFile&) = delete;
  SqlFile& operator=(const SqlFile&) = delete;

  // Calls `row` with the statement for every result row.
  template <typename F>
  void each(const std::string& sql, F row) {
    sqlite3_stmt* st = nullptr;
    ASSERT_EQ(sqlite3_prepare_v2(db_, sql.c_str(), -1, &st, nullptr), SQLITE_OK)
        << path_ << ": " << sql << ": " << sqlite3_errmsg(db_);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) row(st);
    EXPECT_EQ(rc, SQLITE_DONE) << path_ << ": " << sql << ": " << sqlite3_errmsg(db_);
    sqlite3_finalize(st);
  }
  int64_t scalar(const std::string& sql) {
    int64_t v = -1;
    each(sql, [&](sqlite3_stmt* st) { v = sqlite3_column_int64(st, 0); });
    return v;
  }
  std::string text(const std::string& sql) {
    std::string v;
    each(sql, [&](sqlite3_stmt* st) { v = textOf(st, 0); });
    return v;
  }
  std::vector<int64_t> integers(const std::string& sql) {
    std::vector<int64_t> v;
    each(sql, [&](sqlite3_stmt* st) { v.push_back(sqlite3_column_int64(st, 0)); });
    return v;
  }
  void exec(const std::string& sql) {
    char* error = nullptr;
    EXPECT_EQ(sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error), SQLITE_OK) << sql << ": " << (error ? error : "");
    sqlite3_free(error);
  }

  static std::string textOf(sqlite3_stmt* st, int col) {
    const unsigned char* t = sqlite3_column_text(st, col);
    return t == nullptr ? "" : reinterpret_cast<const char*>(t);
  }

 private:
  std::string path_;
  sqlite3* db_ = nullptr;
};

// Runs `sql` (one or more statements) on the report at `path`, made if absent.
inline void execSql(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  char* err = nullptr;
  EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err), SQLITE_OK) << (err ? err : "");
  sqlite3_free(err);
  sqlite3_close(db);
}

// A report made from SQL for a test: TempDir()/asys_<prefix>_<name>_<pid>.asysrep
// (removed first), its path. `prefix` names the test file, `name` the case.
inline std::string reportFromSql(const std::string& prefix, const std::string& sql, const std::string& name) {
  const std::string path = freshTempPath(prefix + "_" + name);
  execSql(path, sql);
  return path;
}

// A copy of the report `from` at `to`, changed by `sql` (a test's variant
// of a shared fixture: rows deleted, columns set); its path.
inline std::string editedCopy(const std::string& from, const std::string& to, const std::string& sql) {
  std::filesystem::copy_file(from, to, std::filesystem::copy_options::overwrite_existing);
  execSql(to, sql);
  return to;
}

}  // namespace asys::test
