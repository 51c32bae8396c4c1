#include "core/rules/compare.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <type_traits>

#include "core/analysis/stats.h"
#include "core/base/deflated.h"
#include "core/base/freed_heap.h"
#include "core/base/stage_timer.h"
#include "core/base/string_pool.h"
#include "core/report/report.h"
#include "core/rules/rule.h"
#include "core/table/writers.h"

namespace asys {

namespace {

size_t columnIndex(const std::vector<ColumnSpec>& columns, const std::string& name) {
  for (size_t c = 0; c < columns.size(); ++c)
    if (columns[c].name == name) return c;
  throw std::logic_error("compare declaration names a column its side table lacks: " + name);
}

const ColumnSpec& sideColumn(const CompareSpec& spec, const std::string& name) {
  return spec.sideColumns[columnIndex(spec.sideColumns, name)];
}

constexpr uint32_t kNoRow = 0xFFFFFFFFu;  // a pair's side without the row
const std::string kDash = "-";
// A base side holding this much is packed while the target side runs.
constexpr size_t kPackFrom = size_t{1} << 20;

// The keys of both sides, and the texts of the columns they hold. A key is
// an id in this one pool, so that one text is one id on either side and a
// row costs 4 bytes, not a string of its own.
struct Keys {
  StringPool pool;
  std::string text;  // the one being joined, reused
};

// A side table's column that the compare's output reads, held without the
// table: numbers as they are, a text as an id in Keys' pool, or, for a Key
// column, as its field of the row's key (the key's text already holds it).
struct HeldColumn {
  bool held = false;
  CellKind kind = CellKind::Int;
  // Int: a value in [0, 2^32 - 1) in 4 bytes, the others kWideInt there
  // and in wideInts, their rows in wideRows (ascending): the times and
  // counts a compare reads fit, 4 bytes a row and column less at the
  // compare's peak (hgtx_ppu_proj_sum's five, 1.08 M rows at scale 2500).
  std::vector<uint32_t> ints;
  std::vector<uint32_t> wideRows;
  std::vector<int64_t> wideInts;
  std::vector<double> reals;     // Decimal1
  std::vector<uint32_t> texts;   // Text, unless keyField
  std::vector<uint8_t> missing;  // by row; empty when no cell is
  size_t keyField = SIZE_MAX;    // Text: the row key's field of this column

  static constexpr uint32_t kWideInt = UINT32_MAX;
  int64_t intAt(size_t r) const {
    const uint32_t v = ints[r];
    if (v != kWideInt) return v;
    return wideInts[std::lower_bound(wideRows.begin(), wideRows.end(), r) - wideRows.begin()];
  }
  void setInt(size_t r, int64_t v) {  // rows in ascending order
    if (v >= 0 && v < int64_t{kWideInt}) {
      ints[r] = static_cast<uint32_t>(v);
      return;
    }
    ints[r] = kWideInt;
    wideRows.push_back(static_cast<uint32_t>(r));
    wideInts.push_back(v);
  }
};

// What one report contributes: the columns the output reads (not its whole
// table: a side of hgtx_ppu_proj_sum is 16 columns, its output reads 7),
// each row's match key (and, for side blocks, the key of each level: a
// prefix of its Key columns), and the report's PPU name for tables without
// a device column.
struct Side {
  std::vector<ColumnSpec> columns;  // the side table's
  std::vector<HeldColumn> cols;     // by side column; `held` the ones read
  size_t rows = 0;
  std::vector<uint32_t> keys;                    // by row
  std::vector<std::vector<uint32_t>> levelKeys;  // [level][row]
  std::vector<std::vector<uint32_t>> levelRow;   // [level][key id]: its first row, kNoRow (ids of this side's time)
  std::string deviceName;
  std::vector<std::string> warnings;

  bool isMissing(size_t r, size_t c) const {
    const std::vector<uint8_t>& m = cols[c].missing;
    return !m.empty() && m[r] != 0;
  }
};

// Field `f` of a key joined by '\x1f'.
std::string_view keyField(std::string_view key, size_t f) {
  for (; f > 0; --f) key.remove_prefix(key.find('\x1f') + 1);
  return key.substr(0, key.find('\x1f'));
}

std::string_view textAt(const Side& s, const StringPool& pool, size_t r, size_t c) {
  const HeldColumn& h = s.cols[c];
  return h.keyField != SIZE_MAX ? keyField(pool.get(s.keys[r]), h.keyField) : pool.get(h.texts[r]);
}

// A held cell as plainCell writes it ("-" when missing).
void appendPlain(std::string& out, const Side& s, const StringPool& pool, size_t r, size_t c) {
  if (s.isMissing(r, c)) {
    out += '-';
    return;
  }
  const HeldColumn& h = s.cols[c];
  switch (h.kind) {
    case CellKind::Int: {
      char tmp[24];
      auto [p, ec] = std::to_chars(tmp, tmp + sizeof tmp, h.intAt(r));
      out.append(tmp, p);
      break;
    }
    case CellKind::Decimal1: appendDecimal1Text(out, h.reals[r]); break;
    case CellKind::Text: out += textAt(s, pool, r, c); break;
  }
}

// Each key id's first row among `rowKeys` (a row's key id by row), kNoRow
// for an id none of them has; `idCount` ids.
std::vector<uint32_t> firstRowByKey(const std::vector<uint32_t>& rowKeys, size_t idCount) {
  std::vector<uint32_t> first(idCount, kNoRow);
  for (size_t r = rowKeys.size(); r-- > 0;) first[rowKeys[r]] = static_cast<uint32_t>(r);
  return first;
}

// The name of the first selected PPU in TARGET_INFO_PPU, "-" when none.
std::string reportDeviceName(RuleContext& ctx) {
  const auto selected = ctx.options.idList("device");
  for (const Device& d : ctx.report.devices()) {
    if (selected && std::find(selected->begin(), selected->end(), d.id) == selected->end()) continue;
    if (!d.name.empty()) return d.name;
  }
  return "-";
}

// Calls fn(cells, i, r) for every row r of `t` in order, its cells being
// row i of `cells`: `t` itself when it holds its cells, else a chunk of its
// view at a time, with only column `col` filled (kAllColumns: every one),
// so that a side's view is read without being made whole (sideOf).
constexpr size_t kAllColumns = SIZE_MAX;
template <typename F>
void forEachRowOf(const Table& t, size_t col, F&& fn) {
  const size_t rows = t.rowCount();
  if (!t.isView()) {
    for (size_t r = 0; r < rows; ++r) fn(t, r, r);
    return;
  }
  constexpr size_t kChunkRows = 65536;
  Table chunk = t.emptyLike();
  for (size_t first = 0; first < rows; first += kChunkRows) {
    const size_t n = std::min(kChunkRows, rows - first);
    if (col == kAllColumns) t.copyRows(first, n, chunk);
    else t.copyColumn(col, first, n, chunk);
    for (size_t i = 0; i < n; ++i) fn(chunk, i, first + i);
  }
}

uint32_t joinedKey(Keys& keys, const Table& t, size_t row, const std::vector<size_t>& keyCols, size_t count) {
  keys.text.clear();
  for (size_t i = 0; i < count; ++i) {
    if (i) keys.text += '\x1f';  // a separator no name contains
    appendPlainCell(keys.text, t, row, keyCols[i]);
  }
  return keys.pool.intern(keys.text);
}

// Column `c` of `t` held (HeldColumn). A Key column of texts none of which
// is missing or holds the separator is read back from the key.
void holdColumn(Side& s, const Table& t, size_t c, const std::vector<size_t>& keyCols, Keys& keys) {
  HeldColumn& h = s.cols[c];
  h.held = true;
  h.kind = t.columns()[c].kind;
  const size_t rows = t.rowCount();
  // One pass for the cells and whether any is missing (the flags kept only
  // then), a second for a text column's texts when they are not the key's.
  h.missing.resize(rows);
  bool anyMissing = false;
  switch (h.kind) {
    case CellKind::Int:
      h.ints.resize(rows);
      forEachRowOf(t, c, [&](const Table& cells, size_t i, size_t r) {
        h.setInt(r, cells.intAt(i, c));
        h.missing[r] = cells.isMissing(i, c) ? 1 : 0;
      });
      break;
    case CellKind::Decimal1:
      h.reals.resize(rows);
      forEachRowOf(t, c, [&](const Table& cells, size_t i, size_t r) {
        h.reals[r] = cells.decimalAt(i, c);
        h.missing[r] = cells.isMissing(i, c) ? 1 : 0;
      });
      break;
    case CellKind::Text: {
      const size_t field = static_cast<size_t>(std::find(keyCols.begin(), keyCols.end(), c) - keyCols.begin());
      bool separator = false;
      forEachRowOf(t, c, [&](const Table& cells, size_t i, size_t r) {
        h.missing[r] = cells.isMissing(i, c) ? 1 : 0;
        if (!separator && field < keyCols.size() && !h.missing[r])
          separator = cells.textAt(i, c).find('\x1f') != std::string_view::npos;
      });
      anyMissing = std::find(h.missing.begin(), h.missing.end(), uint8_t{1}) != h.missing.end();
      if (field < keyCols.size() && !anyMissing && !separator) {
        h.keyField = field;
        break;
      }
      h.texts.resize(rows);
      forEachRowOf(t, c, [&](const Table& cells, size_t i, size_t r) {
        h.texts[r] = cells.isMissing(i, c) ? kNoString : keys.pool.intern(cells.textAt(i, c));
      });
      break;
    }
  }
  anyMissing = std::find(h.missing.begin(), h.missing.end(), uint8_t{1}) != h.missing.end();
  if (!anyMissing) std::vector<uint8_t>().swap(h.missing);
}

// The side columns a compare's output reads.
std::vector<std::string> columnsRead(const CompareSpec& spec) {
  std::vector<std::string> names = spec.sharedKeys;
  if (spec.deviceName) names.push_back("Device Name");  // when the side has one
  for (const std::string* n : {&spec.share, &spec.shownKey})
    if (!n->empty()) names.push_back(*n);
  for (const CompareValue& v : spec.values) names.push_back(v.from);
  for (const CompareLevel& l : spec.levels) {
    names.push_back(l.share);
    for (const CompareValue& v : l.columns) names.push_back(v.from);
  }
  for (const CompareValue& v : spec.ratios) names.push_back(v.from);
  return names;
}

// Each vector a side holds, in one order: packed, given back and unpacked
// alike.
template <typename F>
void forEachHeldVector(Side& s, F&& f) {
  f(s.keys);
  for (HeldColumn& h : s.cols) {
    f(h.ints);
    f(h.wideRows);
    f(h.wideInts);
    f(h.reals);
    f(h.texts);
    f(h.missing);
  }
}

// The base side while the target side runs: its keys' texts (hgtx_ppu_proj_sum's
// range names are 106 bytes on average, "aten::..., op_id = N, sizes = ...", and
// deflate to a few each), its rows' keys and its held columns, deflated in
// one stream. The texts go in id order, each as its length and its bytes, so
// that interning them again in that order gives every text its id back.
std::vector<unsigned char> packSide(Side& s, StringPool& pool) {
  Deflated d;
  const uint64_t count = pool.size();
  d.put(&count, sizeof count);
  for (uint32_t id = 0; id < count; ++id) {
    const std::string_view text = pool.get(id);
    const uint32_t n = static_cast<uint32_t>(text.size());
    d.put(&n, sizeof n);
    d.put(text.data(), n);
  }
  forEachHeldVector(s, [&](auto& v) { d.putVector(v); });
  std::vector<unsigned char> bytes = d.finish();
  pool.release();
  forEachHeldVector(s, [](auto& v) { std::decay_t<decltype(v)>().swap(v); });
  return bytes;
}

// packSide undone into `pool` (empty).
void unpackSide(const std::vector<unsigned char>& bytes, Side& s, StringPool& pool) {
  Inflated in(bytes);
  uint64_t count = 0;
  in.get(&count, sizeof count);
  std::string text;
  for (uint64_t i = 0; i < count; ++i) {
    uint32_t n = 0;
    in.get(&n, sizeof n);
    text.resize(n);
    in.get(text.data(), n);
    if (pool.intern(text) != i) throw std::logic_error("compare: a packed text came back with another id");
  }
  forEachHeldVector(s, [&](auto& v) { in.getVector(v); });
}

// What a side holds: its keys' texts (the pool's, when it is the only side
// in it) and its held columns, in bytes.
size_t heldBytes(const Side& s, const StringPool& pool) {
  size_t n = s.keys.size() * 4;
  for (uint32_t id = 0; id < pool.size(); ++id) n += pool.get(id).size();
  for (const HeldColumn& h : s.cols) n += h.ints.size() * 4 + h.wideRows.size() * 12 + h.reals.size() * 8 + h.texts.size() * 4 + h.missing.size();
  return n;
}

// A side's keys and held texts as ids of `keys.pool`. The target side is
// made against a pool of its own and renumbered into the base's once its
// table is gone (compareTables). Each level's first rows are made then too
// (levelRowsOf): they are by key id of the pool both sides share.
// `name` names its stages (ASYS_PROFILE).
Side sideOf(const CompareSpec& spec, RuleContext& ctx, Keys& keys, const std::string& name) {
  // A report that held no names, kernel or call columns nor events before its
  // side holds nothing that anyone outside this side refers to (the CLI's
  // reports, as opened): what the side read is given back once its table
  // holds its cells, so that the other side runs beside this side's rows
  // alone, not its report's names and columns. A report with a plan for
  // later rules keeps what it read (docs/result-views.md, "Compare rules").
  Report& report = ctx.report;
  const bool release = !report.stringsLoaded() && report.loadedKernelColumns() == 0 &&
                       report.loadedHggcApiColumns() == 0 && !report.hgtxLoaded() &&
                       report.plannedKernelColumns() == 0;
  Side s;
  std::optional<StageTimer> stage(std::in_place, "compare: " + name + " side's table");
  // The side's table lives only here: what the output reads of it is held
  // (HeldColumn), the rest goes with it, before the other side runs.
  Table table = spec.side(ctx);
  s.deviceName = reportDeviceName(ctx);
  // Matched cell by cell: a view that refers to the report is made whole
  // before the report is given back; one that holds what its rows are made
  // of (hgtx_ppu_proj_sum's groups) is read a chunk at a time instead, so
  // that its cells are never all held beside it.
  if (!table.viewHoldsItsRows()) table.materialize();
  if (release) report.releaseAll();
  stage.emplace("compare: " + name + " side's keys and held columns");
  s.columns = table.columns();
  std::vector<size_t> keyCols;  // the columns the rule declares as its key
  for (size_t c = 0; c < s.columns.size(); ++c)
    if (s.columns[c].role == ColumnRole::Key) keyCols.push_back(c);
  if (keyCols.empty()) throw std::logic_error("a compared table declares no key column");
  const size_t rows = s.rows = table.rowCount();
  s.keys.reserve(rows);
  forEachRowOf(table, kAllColumns, [&](const Table& cells, size_t i, size_t) {
    s.keys.push_back(joinedKey(keys, cells, i, keyCols, keyCols.size()));
  });
  s.levelKeys.resize(spec.levels.size());
  s.levelRow.resize(spec.levels.size());
  for (size_t l = 0; l < spec.levels.size(); ++l) {
    s.levelKeys[l].reserve(rows);
    forEachRowOf(table, kAllColumns, [&](const Table& cells, size_t i, size_t) {
      s.levelKeys[l].push_back(joinedKey(keys, cells, i, keyCols, spec.levels[l].keys));
    });
  }
  s.cols.resize(s.columns.size());
  for (const std::string& name : columnsRead(spec)) {
    if (name == "Device Name" && std::none_of(s.columns.begin(), s.columns.end(),
                                              [](const ColumnSpec& c) { return c.name == "Device Name"; }))
      continue;
    const size_t c = columnIndex(s.columns, name);
    if (!s.cols[c].held) holdColumn(s, table, c, keyCols, keys);
  }
  s.warnings = table.warnings();
  return s;
}

// Each level's first row by key id, for ids up to the pool's size when
// the side is done (the target's ids go on from the base's).
void levelRowsOf(Side& s, const StringPool& pool) {
  for (size_t l = 0; l < s.levelKeys.size(); ++l) s.levelRow[l] = firstRowByKey(s.levelKeys[l], pool.size());
}

// A side made against a pool of its own (`own`) renumbered into `into`:
// its texts interned there in its ids' order, so that every text gets the
// id it would have had if the side had been made against `into` (the same
// texts interned in the same order), then `own` given back.
void renumberSide(Side& s, StringPool& own, StringPool& into) {
  std::vector<uint32_t> idOf(own.size());
  for (uint32_t id = 0; id < idOf.size(); ++id) idOf[id] = into.intern(own.get(id));
  own.release();
  auto renumber = [&](std::vector<uint32_t>& ids) {
    for (uint32_t& id : ids)
      if (id != kNoString) id = idOf[id];
  };
  renumber(s.keys);
  for (std::vector<uint32_t>& level : s.levelKeys) renumber(level);
  for (HeldColumn& h : s.cols) renumber(h.texts);
}

// Everything the output's rows are made of: both sides' held columns, the
// keys, and the rows' pairs in their order. The output is a view of it
// (CompareRows): a row's cells, the "base / target" texts among them, are
// made when a page or a writer's chunk asks for it, never all at once.
struct Compared {
  Keys keys;
  Side base, target;
  struct Pair {
    uint32_t b, t;  // kNoRow: the side has no such row
    uint32_t key;   // in keys.pool
  };
  std::vector<Pair> pairs;  // in the output's order
  // Side column indexes: "Device Name" (SIZE_MAX: the report's PPU name),
  // the shared keys, the values, the shown key, each level's columns, the ratios.
  size_t deviceCol = SIZE_MAX, shownCol = SIZE_MAX;
  std::vector<size_t> sharedCols, valueCols, ratioCols;
  std::vector<std::vector<size_t>> levelCols;  // side blocks: not empty
  std::vector<uint8_t> valueRatio;  // by value: followed by its ratio
  bool deviceName = false;

  void appendRow(const Pair& p, Table& out) const;
};

// "base / target"; a side without the row or the value is "-", and a cell
// that has neither is "-" alone.
void appendPairText(std::string& out, const Compared& c, uint32_t br, uint32_t tr, size_t col) {
  out.clear();
  if (br == kNoRow) out += '-';
  else appendPlain(out, c.base, c.keys.pool, br, col);
  const size_t baseEnd = out.size();
  out += " / ";
  if (tr == kNoRow) out += '-';
  else appendPlain(out, c.target, c.keys.pool, tr, col);
  if (std::string_view(out).substr(0, baseEnd) == "-" && std::string_view(out).substr(baseEnd + 3) == "-") out = "-";
}

bool numberAt(const Side& s, uint32_t row, size_t col, double& out, int64_t& asInt, bool& isInt) {
  if (row == kNoRow || s.isMissing(row, col)) return false;
  const HeldColumn& h = s.cols[col];
  if (h.kind == CellKind::Text) return false;
  isInt = h.kind == CellKind::Int;
  asInt = isInt ? h.intAt(row) : 0;
  out = isInt ? static_cast<double>(asInt) : h.reals[row];
  return true;
}

// base / target with one decimal; unset ("-") when a side is missing or the target is zero.
void setRatio(Table& out, size_t col, const Side& base, uint32_t br, const Side& target, uint32_t tr, size_t from) {
  double bv = 0, tv = 0;
  int64_t bi = 0, ti = 0;
  bool bInt = false, tInt = false;
  const bool both = numberAt(base, br, from, bv, bi, bInt) && numberAt(target, tr, from, tv, ti, tInt);
  if (both && tv != 0) {
    // Integers exactly (half away from zero), decimals through doubles.
    out.setDecimal(col, bInt && tInt ? ratio1(bi, ti) : std::round(bv / tv * 10) / 10);
  }
}

// A cell copied from a side as it is ("-" when absent).
void copyCell(Table& out, size_t col, const Side& s, const StringPool& pool, uint32_t row, size_t from) {
  if (row == kNoRow || s.isMissing(row, from)) return;
  const HeldColumn& h = s.cols[from];
  switch (h.kind) {
    case CellKind::Int: out.setInt(col, h.intAt(row)); break;
    case CellKind::Decimal1: out.setDecimal(col, h.reals[row]); break;
    case CellKind::Text: out.setText(col, textAt(s, pool, row, from)); break;
  }
}

// Every key of either side once (the first row of a repeated key).
std::vector<Compared::Pair> matchRows(const Side& base, const Side& target, size_t keyCount, bool matchedOnly) {
  const std::vector<uint32_t> targetRow = firstRowByKey(target.keys, keyCount);
  std::vector<uint32_t> baseRow(keyCount, kNoRow);  // by key id: its first row, as the walk finds it
  std::vector<Compared::Pair> pairs;
  for (size_t r = 0; r < base.keys.size(); ++r) {
    const uint32_t k = base.keys[r];
    if (baseRow[k] != kNoRow) continue;
    baseRow[k] = static_cast<uint32_t>(r);
    pairs.push_back({static_cast<uint32_t>(r), targetRow[k], k});
  }
  for (size_t r = 0; r < target.keys.size(); ++r) {
    const uint32_t k = target.keys[r];
    if (baseRow[k] != kNoRow || targetRow[k] != r) continue;
    pairs.push_back({kNoRow, static_cast<uint32_t>(r), k});
  }
  if (matchedOnly)
    std::erase_if(pairs, [](const Compared::Pair& p) { return p.b == kNoRow || p.t == kNoRow; });
  return pairs;
}

// The larger of two sides' values of a share column; -1 when neither has one.
double largerShare(const Side& base, uint32_t br, const Side& target, uint32_t tr, size_t col) {
  double best = -1, v = 0;
  int64_t i = 0;
  bool isInt = false;
  if (numberAt(base, br, col, v, i, isInt)) best = std::max(best, v);
  if (numberAt(target, tr, col, v, i, isInt)) best = std::max(best, v);
  return best;
}

// The row of a side that holds level `l` of a pair's key: the side's own
// row, else its first row with the same prefix.
uint32_t levelRowOf(const Side& s, uint32_t own, const Side& keySide, uint32_t keyRow, size_t l) {
  if (own != kNoRow) return own;
  const uint32_t key = keySide.levelKeys[l][keyRow];
  // A key first made by the other side, after this one: none of this side's rows.
  if (key >= s.levelRow[l].size()) return kNoRow;
  return s.levelRow[l][key];
}

void Compared::appendRow(const Pair& p, Table& out) const {
  size_t col = 0;
  std::string text;
  if (deviceName) {
    if (deviceCol != SIZE_MAX) {
      appendPairText(text, *this, p.b, p.t, deviceCol);
      out.setText(col++, text);
    } else {
      const std::string& b = p.b == kNoRow ? kDash : base.deviceName;
      const std::string& t = p.t == kNoRow ? kDash : target.deviceName;
      out.setText(col++, b == kDash && t == kDash ? kDash : b + " / " + t);
    }
  }
  for (size_t k : sharedCols) {
    if (p.b != kNoRow) copyCell(out, col, base, keys.pool, p.b, k);
    else copyCell(out, col, target, keys.pool, p.t, k);
    ++col;
  }
  if (!levelCols.empty()) {
    for (int side = 0; side < 2; ++side) {
      const Side& s = side == 0 ? base : target;
      const uint32_t own = side == 0 ? p.b : p.t;
      const Side& other = side == 0 ? target : base;
      const uint32_t otherRow = side == 0 ? p.t : p.b;
      for (size_t l = 0; l < levelCols.size(); ++l) {
        const uint32_t row = levelRowOf(s, own, other, otherRow, l);
        for (size_t from : levelCols[l]) copyCell(out, col++, s, keys.pool, row, from);
      }
    }
    for (size_t from : ratioCols) setRatio(out, col++, base, p.b, target, p.t, from);
    out.endRow();
    return;
  }
  for (size_t v = 0; v < valueCols.size(); ++v) {
    appendPairText(text, *this, p.b, p.t, valueCols[v]);
    out.setText(col++, text);
    if (!valueRatio[v]) continue;
    setRatio(out, col++, base, p.b, target, p.t, valueCols[v]);
  }
  auto shown = [&](const Side& s, uint32_t row) {
    if (row == kNoRow || s.isMissing(row, shownCol)) return;
    if (s.cols[shownCol].kind == CellKind::Int) {
      out.setInt(col, s.cols[shownCol].intAt(row));
    } else {
      text.clear();
      appendPlain(text, s, keys.pool, row, shownCol);
      out.setText(col, text);
    }
  };
  shown(base, p.b);
  ++col;
  shown(target, p.t);
  out.endRow();
}

// The output's rows, made from the held sides a chunk at a time.
class CompareRows : public RowSource {
 public:
  explicit CompareRows(std::shared_ptr<const Compared> c) : c_(std::move(c)) {}
  size_t rowCount() const override { return c_->pairs.size(); }
  void appendRows(size_t first, size_t count, Table& into) override {
    for (size_t i = first; i < first + count; ++i) c_->appendRow(c_->pairs[i], into);
  }

 private:
  std::shared_ptr<const Compared> c_;
};

std::string blockName(const CompareValue& v, const ColumnSpec& from) { return v.name.empty() ? from.name : v.name; }

}  // namespace

std::vector<ColumnSpec> compareColumns(const CompareSpec& spec) {
  std::vector<ColumnSpec> out;
  if (spec.deviceName) out.push_back({"Device Name", "", CellKind::Text, "PPU Device name"});
  // Roles tell the viewer a shared key (one text for both sides) from a
  // "base / target" cell (Value) and a side's own cell (Attribute).
  for (const std::string& k : spec.sharedKeys) {
    const ColumnSpec& from = sideColumn(spec, k);
    out.push_back({from.name, from.unit, from.kind, from.help, ColumnRole::Key});
  }
  if (!spec.levels.empty()) {
    for (const char* side : {"Base", "Target"}) {
      const std::string in = side == std::string("Base") ? " in base report" : " in target report";
      for (const CompareLevel& l : spec.levels) {
        for (const CompareValue& v : l.columns) {
          const ColumnSpec& from = sideColumn(spec, v.from);
          out.push_back({std::string(side) + " " + blockName(v, from), from.unit, from.kind,
                         (v.help.empty() ? from.help : v.help) + in, ColumnRole::Attribute});
        }
      }
    }
    for (const CompareValue& r : spec.ratios) out.push_back({r.ratio, "", CellKind::Decimal1, r.ratioHelp});
    return out;
  }
  for (const CompareValue& v : spec.values) {
    const ColumnSpec& from = sideColumn(spec, v.from);
    out.push_back({v.name.empty() ? from.name : v.name, from.unit, CellKind::Text, v.help.empty() ? from.help : v.help});
    if (!v.ratio.empty()) out.push_back({v.ratio, "", CellKind::Decimal1, v.ratioHelp});
  }
  const ColumnSpec& shown = sideColumn(spec, spec.shownKey);
  out.push_back({"Base " + spec.shownLabel, "", shown.kind, spec.shownHelp + " in base report", ColumnRole::Attribute});
  out.push_back({"Target " + spec.shownLabel, "", shown.kind, spec.shownHelp + " in target report", ColumnRole::Attribute});
  return out;
}

Table compareTables(const CompareSpec& spec, RuleContext& baseCtx, RuleContext& targetCtx, bool matchedOnly) {
  auto c = std::make_shared<Compared>();
  c->deviceName = spec.deviceName;
  c->base = sideOf(spec, baseCtx, c->keys, "base");
  levelRowsOf(c->base, c->keys.pool);
  // The base side is packed while the target side runs (packSide). The
  // target's keys and held columns are made against a pool of their own
  // before the base side comes back, so that its table (hgtx_ppu_proj_sum's
  // groups, about 300 MiB at scale 2500) is gone by then: with the base
  // unpacked beside it (its 1.08 M key texts and held columns) that was
  // the compare's peak (docs/big-reports.md, projcmp21).
  std::vector<unsigned char> packed;
  if (heldBytes(c->base, c->keys.pool) >= kPackFrom) {
    packed = packSide(c->base, c->keys.pool);
    profileNote("compare: base side packed in " + std::to_string(packed.size()) + " bytes");
  }
  // What the base side's rule and table freed goes back to the system
  // before the target side's rule runs beside the packed side.
  giveBackFreedHeap();
  {
    Keys own;
    c->target = sideOf(spec, targetCtx, own, "target");
    StageTimer stage("compare: base side back, target side renumbered");
    if (!packed.empty()) {
      unpackSide(packed, c->base, c->keys.pool);
      std::vector<unsigned char>().swap(packed);
    }
    renumberSide(c->target, own.pool, c->keys.pool);
  }
  levelRowsOf(c->target, c->keys.pool);
  const Side& base = c->base;
  const Side& target = c->target;
  const std::vector<ColumnSpec>& sideCols = base.columns;
  std::vector<Compared::Pair> pairs = matchRows(base, target, c->keys.pool.size(), matchedOnly);
  const bool blocks = !spec.levels.empty();

  // Pinned first; then the larger of the two shares, descending (level by
  // level for side blocks); ties by key.
  std::vector<size_t> shareCols;
  if (blocks) {
    for (const CompareLevel& l : spec.levels) shareCols.push_back(columnIndex(sideCols, l.share));
  } else {
    shareCols.push_back(columnIndex(sideCols, spec.share));
  }
  const size_t levels = shareCols.size();
  std::vector<double> shares(pairs.size() * levels);  // [pair * levels + level]
  std::vector<uint8_t> pinned(pairs.size(), 0);
  for (size_t i = 0; i < pairs.size(); ++i) {
    const Compared::Pair& p = pairs[i];
    for (size_t l = 0; l < levels; ++l) {
      uint32_t br = p.b, tr = p.t;
      if (blocks) {
        br = p.b != kNoRow ? p.b : levelRowOf(base, kNoRow, target, p.t, l);
        tr = p.t != kNoRow ? p.t : levelRowOf(target, kNoRow, base, p.b, l);
      }
      shares[i * levels + l] = largerShare(base, br, target, tr, shareCols[l]);
    }
    pinned[i] = !spec.pinnedKey.empty() && c->keys.pool.get(p.key) == spec.pinnedKey;
  }
  std::vector<uint32_t> order(pairs.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    if (pinned[a] != pinned[b]) return pinned[a] > pinned[b];
    const double* sa = &shares[a * levels];
    const double* sb = &shares[b * levels];
    if (!std::equal(sa, sa + levels, sb)) return std::lexicographical_compare(sb, sb + levels, sa, sa + levels);
    return c->keys.pool.get(pairs[a].key) < c->keys.pool.get(pairs[b].key);
  });
  c->pairs.reserve(order.size());
  for (uint32_t i : order) c->pairs.push_back(pairs[i]);
  std::vector<Compared::Pair>().swap(pairs);
  std::vector<double>().swap(shares);

  for (const std::string& k : spec.sharedKeys) c->sharedCols.push_back(columnIndex(sideCols, k));
  if (std::any_of(sideCols.begin(), sideCols.end(), [](const ColumnSpec& col) { return col.name == "Device Name"; }))
    c->deviceCol = columnIndex(sideCols, "Device Name");
  for (const CompareValue& v : spec.values) {
    c->valueCols.push_back(columnIndex(sideCols, v.from));
    c->valueRatio.push_back(v.ratio.empty() ? 0 : 1);
  }
  if (!blocks) c->shownCol = columnIndex(sideCols, spec.shownKey);
  for (const CompareLevel& l : spec.levels) {
    c->levelCols.emplace_back();
    for (const CompareValue& v : l.columns) c->levelCols.back().push_back(columnIndex(sideCols, v.from));
  }
  for (const CompareValue& r : spec.ratios) c->ratioCols.push_back(columnIndex(sideCols, r.from));
  Table out(compareColumns(spec), std::make_shared<CompareRows>(c));
  for (const auto& w : base.warnings) out.addWarning("base: " + w);
  for (const auto& w : target.warnings) out.addWarning("target: " + w);
  return out;
}

}  // namespace asys
