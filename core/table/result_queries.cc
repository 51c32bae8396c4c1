#include "core/table/result_queries.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "core/base/error.h"
#include "core/table/writers.h"

namespace asys {

namespace {

// Rows of a view closer than this are read as one run (a trace reads its
// report's rows in blocks of 1024: a gap costs less than a second read).
constexpr uint32_t kRunGap = 256;

char lowerAscii(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

std::string lowered(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = lowerAscii(c);
  return out;
}

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && isSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && isSpace(s.back())) s.remove_suffix(1);
  return s;
}

// The query as a number's display is searched: without spaces and the
// viewer's digit group separators (U+202F, U+2009, U+00A0).
std::string withoutSeparators(std::string_view q) {
  std::string out;
  for (size_t i = 0; i < q.size(); ++i) {
    if (isSpace(q[i])) continue;
    const std::string_view rest = q.substr(i);
    if (rest.starts_with("\u202f") || rest.starts_with("\u2009")) {
      i += 2;
      continue;
    }
    if (rest.starts_with("\u00a0")) {
      i += 1;
      continue;
    }
    out += q[i];
  }
  return out;
}

bool numberLike(std::string_view q) {
  return !q.empty() && std::all_of(q.begin(), q.end(), [](char c) {
    return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e';
  });
}

// Calls fn(chunk, firstRow) over the rows `rows` (in that order) of `t`, in
// pages of kChunkRows, or over the rows of `range` when `rows` is nullopt.
template <typename Fn>
void forRows(const Table& t, const std::optional<std::vector<uint32_t>>& rows, RowRange range, Fn&& fn) {
  if (!rows) {
    forEachChunk(t, fn, kChunkRows, range.first, range.count);
    return;
  }
  for (size_t at = 0; at < rows->size(); at += kChunkRows) {
    const size_t n = std::min(kChunkRows, rows->size() - at);
    fn(rowsOf(t, std::span<const uint32_t>(rows->data() + at, n)), at);
  }
}

}  // namespace

Table rowsOf(const Table& t, std::span<const uint32_t> rows) {
  const size_t count = t.rowCount();
  for (uint32_t r : rows) {
    if (r >= count) throw Error("row " + std::to_string(r) + " is past the result's " + std::to_string(count) + " rows");
  }
  Table out = t.emptyLike();
  if (!t.isView()) {
    for (uint32_t r : rows) out.appendRowOf(t, r);
    return out;
  }
  // A view: read the rows asked for in ascending runs, then place them.
  std::vector<uint32_t> sorted(rows.begin(), rows.end());
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  Table gathered = t.emptyLike(), part = t.emptyLike();
  for (size_t i = 0; i < sorted.size();) {
    size_t j = i + 1;
    while (j < sorted.size() && sorted[j] - sorted[j - 1] <= kRunGap) ++j;
    const uint32_t first = sorted[i];
    t.copyRows(first, sorted[j - 1] - first + 1, part);
    for (size_t k = i; k < j; ++k) gathered.appendRowOf(part, sorted[k] - first);
    i = j;
  }
  for (uint32_t r : rows) {
    const size_t at = static_cast<size_t>(std::lower_bound(sorted.begin(), sorted.end(), r) - sorted.begin());
    out.appendRowOf(gathered, at);
  }
  return out;
}

std::optional<std::vector<uint8_t>> searchRows(const Table& t, std::string_view query, RowRange range,
                                               const ShownTimes& times) {
  const std::string q = lowered(trimmed(query));
  if (q.empty()) return std::nullopt;
  const size_t first = std::min(range.first, t.rowCount());
  std::vector<uint8_t> mask(std::min(range.count, t.rowCount() - first), 0);
  if (q.find('\0') != std::string::npos) return mask;
  const bool dash = q == "-";
  const std::string qn = withoutSeparators(q);
  const bool numbers = numberLike(qn);
  const size_t cols = t.columns().size();
  std::vector<uint8_t> sinceZero(cols, 0);
  for (size_t c : times.columns) {
    if (c < cols && t.columns()[c].kind == CellKind::Int) sinceZero[c] = 1;
  }
  std::string cell;
  forEachChunk(t, [&](const Table& chunk, size_t firstRow) {
    // Each distinct text of the chunk is tested once: -1 not yet, 0 no, 1 yes.
    std::vector<int8_t> textHit(chunk.textPool().size(), -1);
    for (size_t r = 0; r < chunk.rowCount(); ++r) {
      bool hit = false;
      for (size_t c = 0; c < cols && !hit; ++c) {
        if (chunk.columns()[c].kind == CellKind::Text) {
          if (chunk.isMissing(r, c)) {
            hit = dash;
            continue;
          }
          int8_t& known = textHit[chunk.textIdAt(r, c)];
          if (known < 0) known = lowered(chunk.textAt(r, c)).find(q) != std::string::npos ? 1 : 0;
          hit = known == 1;
        } else if (numbers) {
          cell.clear();
          int64_t shown = 0;
          if (sinceZero[c] && !chunk.isMissing(r, c) && !__builtin_sub_overflow(chunk.intAt(r, c), times.zero, &shown)) {
            cell = std::to_string(shown);
          } else {
            appendPlainCell(cell, chunk, r, c);
          }
          hit = cell.find(qn) != std::string::npos;
        }
      }
      if (hit) mask[firstRow - first + r] = 1;
    }
  }, kChunkRows, first, mask.size());
  return mask;
}

KeyTotals keyTotals(const Table& t, size_t keyCol, std::optional<size_t> valueCol, RowRange range) {
  if (keyCol >= t.columns().size() || (valueCol && *valueCol >= t.columns().size())) {
    throw Error("the result has no such column");
  }
  KeyTotals out;
  std::unordered_map<std::string, size_t> index;
  std::string key;
  const bool textValue = valueCol && t.columns()[*valueCol].kind == CellKind::Text;
  forEachChunk(t, [&](const Table& chunk, size_t) {
    for (size_t r = 0; r < chunk.rowCount(); ++r) {
      key.clear();
      appendPlainCell(key, chunk, r, keyCol);  // a key: the text, a number's plain display, or "-"
      auto [it, fresh] = index.try_emplace(key, out.keys.size());
      if (fresh) {
        out.keys.push_back(key);
        out.values.push_back(0);
      }
      double add = 1;
      if (valueCol) {
        const size_t v = *valueCol;
        add = textValue || chunk.isMissing(r, v) ? 0
              : chunk.columns()[v].kind == CellKind::Int ? static_cast<double>(chunk.intAt(r, v))
                                                        : chunk.decimalAt(r, v);
      }
      out.values[it->second] += add;
    }
  }, kChunkRows, range.first, range.count);
  return out;
}

std::vector<uint32_t> rowsWithKeys(const Table& t, size_t keyCol, const std::vector<std::string>& keys,
                                   RowRange range) {
  if (keyCol >= t.columns().size()) throw Error("the result has no such column");
  const std::unordered_set<std::string> want(keys.begin(), keys.end());
  std::vector<uint32_t> out;
  std::string key;
  forEachChunk(t, [&](const Table& chunk, size_t firstRow) {
    for (size_t r = 0; r < chunk.rowCount(); ++r) {
      key.clear();
      appendPlainCell(key, chunk, r, keyCol);
      if (want.count(key)) out.push_back(static_cast<uint32_t>(firstRow + r));
    }
  }, kChunkRows, range.first, range.count);
  return out;
}

std::vector<ColumnTotal> columnTotals(const Table& t, const std::vector<size_t>& cols,
                                      const std::optional<std::vector<uint32_t>>& rows, std::string_view summaryRow,
                                      RowRange range) {
  std::vector<ColumnTotal> out;
  std::vector<__int128> exact;
  for (size_t c : cols) {
    if (c >= t.columns().size() || t.columns()[c].kind == CellKind::Text) continue;
    out.push_back({c, t.columns()[c].kind == CellKind::Int, "", 0});
  }
  exact.assign(out.size(), 0);
  size_t firstText = t.columns().size();
  for (size_t c = 0; c < t.columns().size(); ++c) {
    if (t.columns()[c].kind == CellKind::Text) {
      firstText = c;
      break;
    }
  }
  const bool skipSummary = !summaryRow.empty() && firstText < t.columns().size();
  forRows(t, rows, range, [&](const Table& chunk, size_t) {
    for (size_t r = 0; r < chunk.rowCount(); ++r) {
      if (skipSummary && !chunk.isMissing(r, firstText) && chunk.textAt(r, firstText) == summaryRow) continue;
      for (size_t i = 0; i < out.size(); ++i) {
        const size_t c = out[i].col;
        if (chunk.isMissing(r, c)) continue;
        if (out[i].exact) exact[i] += chunk.intAt(r, c);
        else out[i].value += chunk.decimalAt(r, c);
      }
    }
  });
  for (size_t i = 0; i < out.size(); ++i) {
    if (!out[i].exact) continue;
    __int128 v = exact[i];
    const bool negative = v < 0;
    unsigned __int128 a = negative ? static_cast<unsigned __int128>(-(v + 1)) + 1 : static_cast<unsigned __int128>(v);
    std::string digits;
    do {
      digits += static_cast<char>('0' + static_cast<int>(a % 10));
      a /= 10;
    } while (a != 0);
    if (negative) digits += '-';
    out[i].digits.assign(digits.rbegin(), digits.rend());
  }
  return out;
}

std::optional<size_t> rowOfEvent(const Table& t, size_t slot, EventTable table, uint32_t index) {
  if (slot >= t.eventNames().size() || table == EventTable::None) return std::nullopt;
  auto find = [&](const Table& chunk) -> std::optional<size_t> {
    const std::vector<EventTable>& tables = chunk.eventTables(slot);
    const std::vector<uint32_t>& rows = chunk.eventIndexes(slot);
    for (size_t r = 0; r < rows.size(); ++r)
      if (rows[r] == index && tables[r] == table) return r;
    return std::nullopt;
  };
  if (!t.isView()) return find(t);
  Table chunk = t.emptyLike();
  const size_t rows = t.rowCount();
  for (size_t at = 0; at < rows; at += kChunkRows) {
    t.copyColumn(0, at, std::min(kChunkRows, rows - at), chunk);
    if (auto r = find(chunk)) return at + *r;
  }
  return std::nullopt;
}

}  // namespace asys
