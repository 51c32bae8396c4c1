#pragma once
// The SQL text of asysrep format version 1
// (/work/shared/spec/asysrep-format-v1.md), made from the tables' descriptors
// (core/report/asysrep_tables.h): the CREATE TABLE statements, in the
// contract's order, and the INSERT of each table.
#include <string>
#include <vector>

#include "core/report/asysrep_tables.h"

namespace asys {

// "CREATE TABLE T (a INTEGER, b TEXT)": every column, its declaration as
// the descriptor spells it.
std::string createStatement(const AsysTableInfo& table);
// Every table's, in the contract's order (what a new report is made of).
const std::vector<std::string>& schemaStatements();
// "INSERT INTO T VALUES (?,?)": one parameter per column, in their order.
std::string insertStatement(const AsysTableInfo& table);

}  // namespace asys
