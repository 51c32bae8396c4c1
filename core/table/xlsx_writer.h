#pragma once
// A rule's table as an XLSX workbook, written by libxlsxwriter: one sheet
// named after the rule, the CSV's header row, Int and Decimal1 cells as
// numbers, every text cell (one starting with '=', '+', '-' or '@' too) and
// every "-" cell as a string, never a formula.
#include <string>

#include "core/table/table.h"

namespace asys {

// The workbook's bytes. Throws Error naming the problem (a table with more
// rows than a sheet holds, a text cell longer than a cell holds).
std::string xlsxBytes(const Table& t, const std::string& sheetName);

}  // namespace asys
