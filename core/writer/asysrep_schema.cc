// Table definitions of asysrep v1, from the descriptors. Column names and
// declared types follow the contract; columns the contract leaves untyped
// are INTEGER (ids, times, counts). No indexes beyond the contract's primary
// keys. tests/unit/asysrep_schema_test.cc holds the text these must make,
// written out apart from the descriptors.
#include "core/writer/asysrep_schema.h"

namespace asys {

std::string createStatement(const AsysTableInfo& table) {
  std::string sql = std::string("CREATE TABLE ") + table.name + " (";
  for (size_t c = 0; c < table.columnCount; ++c) {
    if (c > 0) sql += ", ";
    sql += table.columns[c].name;
    sql += ' ';
    sql += table.columns[c].sql;
  }
  return sql + ")";
}

const std::vector<std::string>& schemaStatements() {
  static const std::vector<std::string> statements = [] {
    std::vector<std::string> s;
    for (const AsysTableInfo& t : kAsysrepTables) s.push_back(createStatement(t));
    return s;
  }();
  return statements;
}

std::string insertStatement(const AsysTableInfo& table) {
  std::string sql = std::string("INSERT INTO ") + table.name + " VALUES (";
  for (size_t c = 0; c < table.columnCount; ++c) sql += c > 0 ? ",?" : "?";
  return sql + ")";
}

}  // namespace asys
