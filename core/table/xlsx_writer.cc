#include "core/table/xlsx_writer.h"

#include <xlsxwriter.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/base/error.h"

namespace asys {

namespace {

// Excel's limits: a sheet's rows (the header is one) and a sheet name's length.
constexpr size_t kMaxSheetRows = LXW_ROW_MAX;
constexpr size_t kMaxSheetName = LXW_SHEETNAME_MAX;
// The largest integer a double (an XLSX number) holds exactly.
constexpr int64_t kExactInDouble = int64_t{1} << 53;

// A temporary file of its own, removed on every way out: libxlsxwriter
// writes a workbook to a file name only (1.1.4 has no memory output).
struct TempFile {
  std::string path;
  TempFile() {
    path = (std::filesystem::temp_directory_path() / "asys-XXXXXX.xlsx").string();
    const int fd = mkstemps(path.data(), 5);
    if (fd < 0) throw Error("xlsx: cannot create a temporary file in " + std::filesystem::temp_directory_path().string());
    close(fd);
  }
  ~TempFile() { std::remove(path.c_str()); }
};

void check(lxw_error e, const std::string& what) {
  if (e != LXW_NO_ERROR) throw Error("xlsx: " + what + ": " + lxw_strerror(e));
}

}  // namespace

void writeXlsx(const Table& t, const std::string& sheetName, std::ostream& out) {
  const size_t rows = t.rowCount();
  if (rows + 1 > kMaxSheetRows) {
    throw Error("xlsx: " + std::to_string(rows) + " rows do not fit a sheet (at most " +
                std::to_string(kMaxSheetRows - 1) + " besides the header): use --format csv");
  }
  TempFile file;
  // constant_memory: rows go to the file as they are written (a trace's
  // million rows never sit in memory twice); cells are written row by row.
  lxw_workbook_options options{};
  options.constant_memory = LXW_TRUE;
  lxw_workbook* book = workbook_new_opt(file.path.c_str(), &options);
  if (!book) throw Error("xlsx: cannot create " + file.path);
  struct Closer {
    lxw_workbook* book;
    ~Closer() {
      if (book) workbook_close(book);
    }
  } closer{book};
  const std::string name = sheetName.substr(0, kMaxSheetName);
  lxw_worksheet* sheet = workbook_add_worksheet(book, name.c_str());
  if (!sheet) throw Error("xlsx: cannot add the sheet '" + name + "'");
  lxw_format* bold = workbook_add_format(book);
  format_set_bold(bold);
  lxw_format* oneDecimal = workbook_add_format(book);
  format_set_num_format(oneDecimal, "0.0");

  const auto& cols = t.columns();
  check(worksheet_write_string(sheet, 0, 0, "Row#", bold), "header");
  for (size_t c = 0; c < cols.size(); ++c) {
    check(worksheet_write_string(sheet, 0, static_cast<lxw_col_t>(c + 1), cols[c].header().c_str(), bold), "header");
  }
  std::string text;
  forEachChunk(t, [&](const Table& chunk, size_t firstRow) {
    for (size_t r = 0; r < chunk.rowCount(); ++r) {
      const size_t number = firstRow + r + 1;
      const auto row = static_cast<lxw_row_t>(number);
      check(worksheet_write_number(sheet, row, 0, static_cast<double>(number), nullptr), "Row#");
      for (size_t c = 0; c < cols.size(); ++c) {
        const auto col = static_cast<lxw_col_t>(c + 1);
        lxw_error e = LXW_NO_ERROR;
        if (chunk.isMissing(r, c)) {
          e = worksheet_write_string(sheet, row, col, "-", nullptr);
        } else if (cols[c].kind == CellKind::Int) {
          const int64_t v = chunk.intAt(r, c);
          // A double would round it (epoch nanoseconds): the exact digits as text.
          if (v > kExactInDouble || v < -kExactInDouble) {
            e = worksheet_write_string(sheet, row, col, std::to_string(v).c_str(), nullptr);
          } else {
            e = worksheet_write_number(sheet, row, col, static_cast<double>(v), nullptr);
          }
        } else if (cols[c].kind == CellKind::Decimal1) {
          e = worksheet_write_number(sheet, row, col, chunk.decimalAt(r, c), oneDecimal);
        } else {
          text.assign(chunk.textAt(r, c));
          e = worksheet_write_string(sheet, row, col, text.c_str(), nullptr);
        }
        if (e != LXW_NO_ERROR) check(e, "row " + std::to_string(number) + ", column '" + cols[c].header() + "'");
      }
    }
  });
  closer.book = nullptr;
  check(workbook_close(book), "writing " + file.path);

  // The workbook's bytes to `out` through the file's buffer, never whole in memory.
  std::ifstream in(file.path, std::ios::binary);
  if (!in || !(out << in.rdbuf())) throw Error("xlsx: cannot read back " + file.path);
}

std::string xlsxBytes(const Table& t, const std::string& sheetName) {
  std::ostringstream bytes;
  writeXlsx(t, sheetName, bytes);
  return std::move(bytes).str();
}

}  // namespace asys
