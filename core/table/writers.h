#pragma once
// Render a rule's table: CSV exactly per docs/output-conventions, JSON, or an
// aligned text table for a console.
#include <iosfwd>
#include <string>

#include "core/table/table.h"

namespace asys {

enum class OutputFormat { Csv, Json, Column, Xlsx };

// Parses "csv" | "json" | "column" | "xlsx"; throws Error naming the value
// otherwise. Xlsx is a binary workbook (xlsx_writer.h), which writeTable
// does not write: the CLI writes it to files and redirected output, and on
// a console falls back to column, as the manual says.
OutputFormat parseOutputFormat(const std::string& name);
std::string formatExtension(OutputFormat f);

// Csv, Json or Column (Xlsx: an Error pointing at xlsxBytes).
void writeTable(const Table& t, OutputFormat f, std::ostream& out);
void writeCsv(const Table& t, std::ostream& out);
// Rows [first, first + count) as writeCsv writes them (Row# counting from
// first + 1), after the header line when `header`: a CSV written in parts,
// each part's bytes the same as the whole's (the viewer's export).
void writeCsvRows(const Table& t, size_t first, size_t count, bool header, std::ostream& out);
void writeJson(const Table& t, std::ostream& out);
void writeColumn(const Table& t, std::ostream& out);

// Cell text without CSV quoting ("-" for a missing cell).
std::string plainCell(const Table& t, size_t row, size_t col);
// The same, appended to `out` (no allocation per cell).
void appendPlainCell(std::string& out, const Table& t, size_t row, size_t col);
// A Decimal1 cell's text ("%.1f" of a value rounded to one decimal), appended.
void appendDecimal1Text(std::string& out, double v);

}  // namespace asys
