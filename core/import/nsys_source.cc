#include "core/import/nsys_source.h"

#include <sqlite3.h>

#include <vector>

#include "core/base/error.h"
#include "core/writer/report_writer.h"

namespace asys::nsys {

namespace {

std::string quoteIdent(const std::string& s) {
  std::string q = "\"";
  for (char c : s) {
    q += c;
    if (c == '"') q += '"';
  }
  return q + "\"";
}

std::string quoteText(const std::string& s) {
  std::string q = "'";
  for (char c : s) {
    q += c;
    if (c == '\'') q += '\'';
  }
  return q + "'";
}

// Column text as bytes: exports are read leniently (no UTF-8 check).
std::string columnText(sqlite3_stmt* st, int col) {
  const unsigned char* p = sqlite3_column_text(st, col);
  if (p == nullptr) return {};
  return std::string(reinterpret_cast<const char*>(p), static_cast<size_t>(sqlite3_column_bytes(st, col)));
}

class Query {
 public:
  Query(sqlite3* db, const std::string& sql) {
    ok_ = sqlite3_prepare_v2(db, sql.c_str(), -1, &st_, nullptr) == SQLITE_OK;
  }
  ~Query() { sqlite3_finalize(st_); }
  Query(const Query&) = delete;
  Query& operator=(const Query&) = delete;
  bool ok() const { return ok_; }
  // SQLITE_ROW, SQLITE_DONE or an error code.
  int step() { return sqlite3_step(st_); }
  sqlite3_stmt* get() { return st_; }

 private:
  sqlite3_stmt* st_ = nullptr;
  bool ok_ = false;
};

}  // namespace

Source::Source(ReportWriter& out, const std::string& input) : out_(out), input_(input) {
  out_.attachReadOnly(input_, kSchema);
  std::vector<std::string> tables;
  {
    Query q(out_.handle(), std::string("SELECT name FROM ") + kSchema +
                               ".sqlite_master WHERE type IN ('table', 'view')");
    if (!q.ok()) fail("cannot read the table list");
    int rc;
    while ((rc = q.step()) == SQLITE_ROW) tables.push_back(columnText(q.get(), 0));
    if (rc != SQLITE_DONE) fail("cannot read the table list");
  }
  for (const std::string& t : tables) {
    std::set<std::string>& cols = columns_[t];
    Query q(out_.handle(), std::string("PRAGMA ") + kSchema + ".table_info(" + quoteIdent(t) + ")");
    if (!q.ok()) fail("cannot read the columns of " + t);
    int rc;
    while ((rc = q.step()) == SQLITE_ROW) cols.insert(columnText(q.get(), 1));
    if (rc != SQLITE_DONE) fail("cannot read the columns of " + t);
  }
}

void Source::fail(const std::string& what) {
  throw Error(input_ + ": " + what + ": " + sqlite3_errmsg(out_.handle()));
}

bool Source::hasRows(const std::string& table) {
  return has(table) && integer("SELECT 1 FROM " + ref(table) + " LIMIT 1").has_value();
}

bool Source::hasColumn(const std::string& table, const std::string& column) const {
  auto it = columns_.find(table);
  return it != columns_.end() && it->second.count(column) != 0;
}

std::string Source::col(const std::string& table, const std::string& column, const std::string& alias,
                        const std::string& fallback) const {
  return hasColumn(table, column) ? alias + "." + quoteIdent(column) : fallback;
}

std::string Source::globalId(const std::string& table, const std::string& column, const std::string& alias) const {
  if (!hasColumn(table, column)) return "NULL";
  return "(" + alias + "." + quoteIdent(column) + " & " + std::to_string(kGlobalIdMask) + ")";
}

std::string Source::ref(const std::string& table) { return std::string(kSchema) + "." + quoteIdent(table); }

void Source::require(const std::string& table, const char* columns) const {
  std::string list = columns;
  size_t from = 0;
  while (from <= list.size()) {
    size_t comma = list.find(',', from);
    if (comma == std::string::npos) comma = list.size();
    const std::string c = list.substr(from, comma - from);
    if (!c.empty() && !hasColumn(table, c)) {
      throw Error(input_ + ": table " + table + " has no column '" + c +
                  "' (not an Nsight Systems export layout asys knows)");
    }
    from = comma + 1;
  }
}

void Source::exec(const std::string& sql) {
  if (sqlite3_exec(out_.handle(), sql.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK) {
    fail("cannot import");
  }
}

std::optional<int64_t> Source::integer(const std::string& sql) {
  Query q(out_.handle(), sql);
  if (!q.ok()) fail("cannot read");
  const int rc = q.step();
  if (rc == SQLITE_ROW) {
    if (sqlite3_column_type(q.get(), 0) == SQLITE_NULL) return std::nullopt;
    return sqlite3_column_int64(q.get(), 0);
  }
  if (rc != SQLITE_DONE) fail("cannot read");
  return std::nullopt;
}

std::optional<std::string> Source::text(const std::string& sql) {
  Query q(out_.handle(), sql);
  if (!q.ok()) fail("cannot read");
  const int rc = q.step();
  if (rc == SQLITE_ROW) {
    if (sqlite3_column_type(q.get(), 0) == SQLITE_NULL) return std::nullopt;
    return columnText(q.get(), 0);
  }
  if (rc != SQLITE_DONE) fail("cannot read");
  return std::nullopt;
}

std::map<std::string, std::string> Source::nameValues(const std::string& table) {
  std::map<std::string, std::string> out;
  if (!hasColumn(table, "name") || !hasColumn(table, "value")) return out;
  Query q(out_.handle(), "SELECT name, value FROM " + ref(table));
  if (!q.ok()) fail("cannot read " + table);
  int rc;
  while ((rc = q.step()) == SQLITE_ROW) out.emplace(columnText(q.get(), 0), columnText(q.get(), 1));
  if (rc != SQLITE_DONE) fail("cannot read " + table);
  return out;
}

std::string sqlText(const std::string& s) { return quoteText(s); }

}  // namespace asys::nsys
