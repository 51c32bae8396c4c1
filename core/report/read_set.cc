#include "core/report/read_set.h"

#include <sqlite3.h>

#include <algorithm>
#include <cstring>

#include "core/report/sqlite_db.h"

namespace asys {

namespace {

// sqlite3_set_authorizer's callback: allows everything, records SQLITE_READ.
int recordRead(void* self, int action, const char* table, const char* column, const char*, const char*) {
  if (action == SQLITE_READ) static_cast<ReadSet*>(self)->add(table, column);
  return SQLITE_OK;
}

}  // namespace

ReadSet::ReadSet(SqliteDb& db) : db_(db) { sqlite3_set_authorizer(db_.handle(), recordRead, this); }

ReadSet::~ReadSet() { sqlite3_set_authorizer(db_.handle(), nullptr, nullptr); }

void ReadSet::add(const char* table, const char* column) {
  if (!table || !column || !*column) return;
  // The schema and the pragmas' tables (the file's size): not the report's data.
  if (std::strncmp(table, "sqlite_", 7) == 0 || std::strncmp(table, "pragma_", 7) == 0) return;
  if (std::strcmp(column, "ROWID") == 0) return;
  auto t = std::find_if(tables_.begin(), tables_.end(), [&](const auto& e) { return e.first == table; });
  if (t == tables_.end()) t = tables_.insert(tables_.end(), {table, {}});
  if (std::find(t->second.begin(), t->second.end(), column) == t->second.end()) t->second.emplace_back(column);
}

}  // namespace asys
