#pragma once
// A rule's table as an XLSX workbook, written by libxlsxwriter: one sheet
// named after the rule, the CSV's header row, Int and Decimal1 cells as
// numbers, every text cell (one starting with '=', '+', '-' or '@' too) and
// every "-" cell as a string, never a formula.
#include <iosfwd>
#include <string>

#include "core/table/table.h"

namespace asys {

// Writes the workbook to `out`: libxlsxwriter's constant_memory mode writes
// the sheet to a temporary file row by row, a view's rows a chunk at a time,
// and the file is copied to `out` in blocks. Throws Error naming the problem
// (a table with more rows than a sheet holds, a text cell longer than a cell
// holds).
void writeXlsx(const Table& t, const std::string& sheetName, std::ostream& out);
// The workbook's bytes (the WebAssembly bridge's download).
std::string xlsxBytes(const Table& t, const std::string& sheetName);

}  // namespace asys
