#include "core/table/writers.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <ostream>

#include "core/base/error.h"
#include "core/base/json.h"

namespace asys {

OutputFormat parseOutputFormat(const std::string& name) {
  if (name == "csv") return OutputFormat::Csv;
  if (name == "json") return OutputFormat::Json;
  if (name == "column") return OutputFormat::Column;
  if (name == "xlsx") return OutputFormat::Xlsx;
  throw Error("--format: unknown format '" + name + "' (expected csv, json, column or xlsx)");
}

std::string formatExtension(OutputFormat f) {
  switch (f) {
    case OutputFormat::Csv: return "csv";
    case OutputFormat::Json: return "json";
    case OutputFormat::Column: return "txt";
    case OutputFormat::Xlsx: return "xlsx";
  }
  return "txt";
}

void writeTable(const Table& t, OutputFormat f, std::ostream& out) {
  switch (f) {
    case OutputFormat::Csv: writeCsv(t, out); break;
    case OutputFormat::Json: writeJson(t, out); break;
    case OutputFormat::Column: writeColumn(t, out); break;
    case OutputFormat::Xlsx: throw Error("xlsx is a binary workbook: write it with xlsxBytes");
  }
}

namespace {

std::string decimal1(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

// The same text as "%.1f" for a value already rounded to one decimal, made
// from its integer tenths without printf (a trace prints millions of them).
void appendDecimal1(std::string& out, double v) {
  if (!(std::fabs(v) < 1e15)) {
    out += decimal1(v);
    return;
  }
  const long long tenths = std::llround(v * 10);
  if (tenths < 0 || (tenths == 0 && std::signbit(v))) out += '-';
  const unsigned long long a = tenths < 0 ? 0ull - static_cast<unsigned long long>(tenths) : tenths;
  char tmp[24];
  auto [p, ec] = std::to_chars(tmp, tmp + sizeof tmp, a / 10);
  out.append(tmp, p);
  out += '.';
  out += static_cast<char>('0' + a % 10);
}

// `"text"` with inner quotes doubled, appended in runs between quotes.
void appendQuoted(std::string& out, std::string_view text) {
  out += '"';
  for (size_t q; (q = text.find('"')) != std::string_view::npos; text.remove_prefix(q + 1)) {
    out.append(text.data(), q + 1);
    out += '"';
  }
  out.append(text.data(), text.size());
  out += '"';
}


}  // namespace

void appendDecimal1Text(std::string& out, double v) { appendDecimal1(out, v); }

std::string plainCell(const Table& t, size_t row, size_t col) {
  std::string out;
  appendPlainCell(out, t, row, col);
  return out;
}

void appendPlainCell(std::string& out, const Table& t, size_t row, size_t col) {
  if (t.isMissing(row, col)) {
    out += '-';
    return;
  }
  switch (t.columns()[col].kind) {
    case CellKind::Int: {
      char tmp[24];
      auto [p, ec] = std::to_chars(tmp, tmp + sizeof tmp, t.intAt(row, col));
      out.append(tmp, p);
      break;
    }
    case CellKind::Decimal1: appendDecimal1(out, t.decimalAt(row, col)); break;
    case CellKind::Text: out += t.textAt(row, col); break;
  }
}

void writeCsv(const Table& t, std::ostream& out) { writeCsvRows(t, 0, SIZE_MAX, true, out); }

void writeCsvRows(const Table& t, size_t first, size_t count, bool header, std::ostream& out) {
  // Formats into a buffer with to_chars and writes it in large blocks: a
  // trace of millions of rows must not cost one stream call per cell.
  std::string buf;
  buf.reserve(1 << 20);
  auto flush = [&](bool force) {
    if (force || buf.size() > (1 << 20) - 4096) {
      out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
      buf.clear();
    }
  };
  auto appendInt = [&](int64_t v) {
    char tmp[24];
    auto [p, ec] = std::to_chars(tmp, tmp + sizeof tmp, v);
    buf.append(tmp, p);
  };
  if (header) {
    buf += "Row#,";
    for (const auto& c : t.columns()) {
      buf += c.header();
      buf += ',';
    }
    buf += '\n';
  }
  const size_t cols = t.columns().size();
  forEachChunk(t, [&](const Table& chunk, size_t firstRow) {
    for (size_t r = 0; r < chunk.rowCount(); ++r) {
      appendInt(static_cast<int64_t>(firstRow + r + 1));
      buf += ',';
      for (size_t c = 0; c < cols; ++c) {
        if (chunk.isMissing(r, c)) {
          buf += "\"-\"";
        } else {
          switch (chunk.columns()[c].kind) {
            case CellKind::Int: appendInt(chunk.intAt(r, c)); break;
            case CellKind::Decimal1: appendDecimal1(buf, chunk.decimalAt(r, c)); break;
            case CellKind::Text: appendQuoted(buf, chunk.textAt(r, c)); break;
          }
        }
        buf += ',';
      }
      buf += '\n';
      flush(false);
    }
  }, kChunkRows, first, count, ChunkTexts::Appended);  // each text read once, by its cell
  flush(true);
}

void writeJson(const Table& t, std::ostream& out) {
  // An array of row objects keyed by the CSV header, numbers as numbers.
  out << "[\n";
  const size_t cols = t.columns().size(), rows = t.rowCount();
  std::vector<std::string> keys;
  for (const auto& c : t.columns()) keys.push_back(jsonQuote(c.header()));
  forEachChunk(t, [&](const Table& chunk, size_t firstRow) {
    for (size_t r = 0; r < chunk.rowCount(); ++r) {
      out << "  {\"Row#\": " << firstRow + r + 1;
      for (size_t c = 0; c < cols; ++c) {
        out << ", " << keys[c] << ": ";
        if (chunk.isMissing(r, c)) out << "\"-\"";
        else if (chunk.columns()[c].kind == CellKind::Text) out << jsonQuote(chunk.textAt(r, c));
        else out << plainCell(chunk, r, c);
      }
      out << (firstRow + r + 1 < rows ? "},\n" : "}\n");
    }
  });
  out << "]\n";
}

namespace {
// Display width in terminal cells: count UTF-8 lead bytes, not bytes.
size_t displayWidth(std::string_view s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}
}  // namespace

void writeColumn(const Table& t, std::ostream& out) {
  // nsys-style: header, a dashed rule, numbers right-aligned, text left.
  // Two passes over the rows, a chunk at a time: the widths, then the lines.
  const size_t cols = t.columns().size() + 1;
  std::vector<std::string> header(cols);
  header[0] = "Row#";
  for (size_t c = 1; c < cols; ++c) header[c] = t.columns()[c - 1].header();
  std::vector<size_t> width(cols, 0);
  for (size_t c = 0; c < cols; ++c) width[c] = displayWidth(header[c]);
  std::vector<std::string> cells(cols);
  auto rowCells = [&](const Table& chunk, size_t r, size_t row) {
    cells[0] = std::to_string(row + 1);
    for (size_t c = 1; c < cols; ++c) cells[c] = plainCell(chunk, r, c - 1);
  };
  forEachChunk(t, [&](const Table& chunk, size_t firstRow) {
    for (size_t r = 0; r < chunk.rowCount(); ++r) {
      rowCells(chunk, r, firstRow + r);
      for (size_t c = 0; c < cols; ++c) width[c] = std::max(width[c], displayWidth(cells[c]));
    }
  });
  auto rightAligned = [&](size_t c) { return c == 0 || t.columns()[c - 1].kind != CellKind::Text; };
  auto writeLine = [&](const std::vector<std::string>& line, bool isHeader) {
    std::string text;
    for (size_t c = 0; c < cols; ++c) {
      std::string pad(width[c] - displayWidth(line[c]), ' ');
      bool last = c + 1 == cols;
      if (rightAligned(c) && !isHeader) text += pad + line[c];
      else text += line[c] + (last ? "" : pad);
      if (!last) text += "  ";
    }
    while (!text.empty() && text.back() == ' ') text.pop_back();
    out << text << '\n';
  };
  writeLine(header, true);
  std::string rule;
  for (size_t c = 0; c < cols; ++c) rule += std::string(width[c], '-') + (c + 1 < cols ? "  " : "");
  out << rule << '\n';
  forEachChunk(t, [&](const Table& chunk, size_t firstRow) {
    for (size_t r = 0; r < chunk.rowCount(); ++r) {
      rowCells(chunk, r, firstRow + r);
      writeLine(cells, false);
    }
  });
}

}  // namespace asys
