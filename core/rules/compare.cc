#include "core/rules/compare.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/analysis/stats.h"
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

constexpr size_t kAbsent = static_cast<size_t>(-1);
const std::string kDash = "-";

constexpr uint32_t kNoRow = 0xFFFFFFFFu;

// What one report contributes: its table, each row's match key (and, for
// side blocks, the key of each level: a prefix of its Key columns), and the
// report's PPU name for tables without a device column. A key is an id in
// the pool both sides share (Keys), so that one text is one id on either
// side and a row costs 4 bytes, not a string of its own.
struct Side {
  Table table;
  std::vector<uint32_t> keys;                    // by row
  std::vector<std::vector<uint32_t>> levelKeys;  // [level][row]
  std::vector<std::vector<uint32_t>> levelRow;   // [level][key id]: its first row, kNoRow (ids of this side's time)
  std::string deviceName;
};

// Each key id's first row among `rowKeys` (a row's key id by row), kNoRow
// for an id none of them has; `idCount` ids.
std::vector<uint32_t> firstRowByKey(const std::vector<uint32_t>& rowKeys, size_t idCount) {
  std::vector<uint32_t> first(idCount, kNoRow);
  for (size_t r = rowKeys.size(); r-- > 0;) first[rowKeys[r]] = static_cast<uint32_t>(r);
  return first;
}

// The keys of both sides.
struct Keys {
  StringPool pool;
  std::string text;  // the one being joined, reused
};

// The name of the first selected PPU in TARGET_INFO_PPU, "-" when none.
std::string reportDeviceName(RuleContext& ctx) {
  const auto selected = ctx.options.idList("device");
  for (const Device& d : ctx.report.devices()) {
    if (selected && std::find(selected->begin(), selected->end(), d.id) == selected->end()) continue;
    if (!d.name.empty()) return d.name;
  }
  return "-";
}

uint32_t joinedKey(Keys& keys, const Table& t, size_t row, const std::vector<size_t>& keyCols, size_t count) {
  keys.text.clear();
  for (size_t i = 0; i < count; ++i) {
    if (i) keys.text += '\x1f';  // a separator no name contains
    keys.text += plainCell(t, row, keyCols[i]);
  }
  return keys.pool.intern(keys.text);
}

Side sideOf(const CompareSpec& spec, RuleContext& ctx, Keys& keys) {
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
  Side s{spec.side(ctx), {}, {}, {}, reportDeviceName(ctx)};
  s.table.materialize();  // matched cell by cell
  if (release) report.releaseAll();
  std::vector<size_t> keyCols;  // the columns the rule declares as its key
  for (size_t c = 0; c < s.table.columns().size(); ++c)
    if (s.table.columns()[c].role == ColumnRole::Key) keyCols.push_back(c);
  if (keyCols.empty()) throw std::logic_error("a compared table declares no key column");
  const size_t rows = s.table.rowCount();
  s.keys.reserve(rows);
  for (size_t r = 0; r < rows; ++r) s.keys.push_back(joinedKey(keys, s.table, r, keyCols, keyCols.size()));
  s.levelKeys.resize(spec.levels.size());
  s.levelRow.resize(spec.levels.size());
  for (size_t l = 0; l < spec.levels.size(); ++l) {
    for (size_t r = 0; r < rows; ++r) s.levelKeys[l].push_back(joinedKey(keys, s.table, r, keyCols, spec.levels[l].keys));
  }
  for (size_t l = 0; l < spec.levels.size(); ++l) s.levelRow[l] = firstRowByKey(s.levelKeys[l], keys.pool.size());
  return s;
}

// "base / target"; a side without the row or the value is "-", and a cell
// that has neither is "-" alone.
std::string pairText(const Side& b, size_t br, const Side& t, size_t tr, size_t col) {
  const std::string bv = br == kAbsent ? "-" : plainCell(b.table, br, col);
  const std::string tv = tr == kAbsent ? "-" : plainCell(t.table, tr, col);
  if (bv == "-" && tv == "-") return "-";
  return bv + " / " + tv;
}

bool numberAt(const Table& t, size_t row, size_t col, double& out, int64_t& asInt, bool& isInt) {
  if (row == kAbsent || t.isMissing(row, col)) return false;
  const CellKind kind = t.columns()[col].kind;
  if (kind == CellKind::Text) return false;
  isInt = kind == CellKind::Int;
  asInt = isInt ? t.intAt(row, col) : 0;
  out = isInt ? static_cast<double>(asInt) : t.decimalAt(row, col);
  return true;
}

// base / target with one decimal; unset ("-") when a side is missing or the target is zero.
void setRatio(Table& out, size_t col, const Side& base, size_t br, const Side& target, size_t tr, size_t from) {
  double bv = 0, tv = 0;
  int64_t bi = 0, ti = 0;
  bool bInt = false, tInt = false;
  const bool both = numberAt(base.table, br, from, bv, bi, bInt) && numberAt(target.table, tr, from, tv, ti, tInt);
  if (both && tv != 0) {
    // Integers exactly (half away from zero), decimals through doubles.
    out.setDecimal(col, bInt && tInt ? ratio1(bi, ti) : std::round(bv / tv * 10) / 10);
  }
}

// A cell copied from a side table as it is ("-" when absent).
void copyCell(Table& out, size_t col, const Side& s, size_t row, size_t from) {
  if (row == kAbsent || s.table.isMissing(row, from)) return;
  switch (s.table.columns()[from].kind) {
    case CellKind::Int: out.setInt(col, s.table.intAt(row, from)); break;
    case CellKind::Decimal1: out.setDecimal(col, s.table.decimalAt(row, from)); break;
    case CellKind::Text: out.setText(col, s.table.textAt(row, from)); break;
  }
}

struct Pair {
  size_t b, t;
  uint32_t key;  // in Keys' pool
};

// Every key of either side once (the first row of a repeated key).
std::vector<Pair> matchRows(const Side& base, const Side& target, size_t keyCount, bool matchedOnly) {
  const std::vector<uint32_t> targetRow = firstRowByKey(target.keys, keyCount);
  std::vector<uint32_t> baseRow(keyCount, kNoRow);  // by key id: its first row, as the walk finds it
  std::vector<Pair> pairs;
  for (size_t r = 0; r < base.keys.size(); ++r) {
    const uint32_t k = base.keys[r];
    if (baseRow[k] != kNoRow) continue;
    baseRow[k] = static_cast<uint32_t>(r);
    pairs.push_back({r, targetRow[k] == kNoRow ? kAbsent : targetRow[k], k});
  }
  for (size_t r = 0; r < target.keys.size(); ++r) {
    const uint32_t k = target.keys[r];
    if (baseRow[k] != kNoRow || targetRow[k] != r) continue;
    pairs.push_back({kAbsent, r, k});
  }
  if (matchedOnly) std::erase_if(pairs, [](const Pair& p) { return p.b == kAbsent || p.t == kAbsent; });
  return pairs;
}

// The larger of two sides' values of a share column; -1 when neither has one.
double largerShare(const Side& base, size_t br, const Side& target, size_t tr, size_t col) {
  double best = -1, v = 0;
  int64_t i = 0;
  bool isInt = false;
  if (numberAt(base.table, br, col, v, i, isInt)) best = std::max(best, v);
  if (numberAt(target.table, tr, col, v, i, isInt)) best = std::max(best, v);
  return best;
}

// The row of a side that holds level `l` of a pair's key: the side's own
// row, else its first row with the same prefix.
size_t levelRowOf(const Side& s, size_t own, const Side& keySide, size_t keyRow, size_t l) {
  if (own != kAbsent) return own;
  const uint32_t key = keySide.levelKeys[l][keyRow];
  // A key first made by the other side, after this one: none of this side's rows.
  if (key >= s.levelRow[l].size() || s.levelRow[l][key] == kNoRow) return kAbsent;
  return s.levelRow[l][key];
}

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
  Keys keys;
  const Side base = sideOf(spec, baseCtx, keys);
  const Side target = sideOf(spec, targetCtx, keys);
  const std::vector<ColumnSpec>& sideCols = base.table.columns();
  std::vector<Pair> pairs = matchRows(base, target, keys.pool.size(), matchedOnly);
  const bool blocks = !spec.levels.empty();

  // Pinned first; then the larger of the two shares, descending (level by
  // level for side blocks); ties by key.
  std::vector<size_t> shareCols;
  if (blocks) {
    for (const CompareLevel& l : spec.levels) shareCols.push_back(columnIndex(sideCols, l.share));
  } else {
    shareCols.push_back(columnIndex(sideCols, spec.share));
  }
  auto shares = [&](const Pair& p) {
    std::vector<double> out;
    for (size_t l = 0; l < shareCols.size(); ++l) {
      size_t br = p.b, tr = p.t;
      if (blocks) {
        br = p.b != kAbsent ? p.b : levelRowOf(base, kAbsent, target, p.t, l);
        tr = p.t != kAbsent ? p.t : levelRowOf(target, kAbsent, base, p.b, l);
      }
      out.push_back(largerShare(base, br, target, tr, shareCols[l]));
    }
    return out;
  };
  struct Ordered {
    Pair pair;
    bool pinned;
    std::vector<double> shares;
  };
  std::vector<Ordered> ordered;
  for (const Pair& p : pairs)
    ordered.push_back({p, !spec.pinnedKey.empty() && keys.pool.get(p.key) == spec.pinnedKey, shares(p)});
  std::stable_sort(ordered.begin(), ordered.end(), [&](const Ordered& a, const Ordered& b) {
    if (a.pinned != b.pinned) return a.pinned;
    if (a.shares != b.shares) return a.shares > b.shares;
    return keys.pool.get(a.pair.key) < keys.pool.get(b.pair.key);
  });

  Table out(compareColumns(spec));
  std::vector<size_t> sharedCols;
  for (const std::string& k : spec.sharedKeys) sharedCols.push_back(columnIndex(sideCols, k));
  const bool rowDevice = std::any_of(sideCols.begin(), sideCols.end(), [](const ColumnSpec& c) {
    return c.name == "Device Name";
  });
  for (const Ordered& o : ordered) {
    const Pair& p = o.pair;
    size_t col = 0;
    if (spec.deviceName) {
      if (rowDevice) {
        out.setText(col++, pairText(base, p.b, target, p.t, columnIndex(sideCols, "Device Name")));
      } else {
        const std::string& b = p.b == kAbsent ? kDash : base.deviceName;
        const std::string& t = p.t == kAbsent ? kDash : target.deviceName;
        out.setText(col++, b == kDash && t == kDash ? kDash : b + " / " + t);
      }
    }
    for (size_t k : sharedCols) {
      if (p.b != kAbsent) copyCell(out, col, base, p.b, k);
      else copyCell(out, col, target, p.t, k);
      ++col;
    }
    if (blocks) {
      for (int side = 0; side < 2; ++side) {
        const Side& s = side == 0 ? base : target;
        const size_t own = side == 0 ? p.b : p.t;
        const Side& other = side == 0 ? target : base;
        const size_t otherRow = side == 0 ? p.t : p.b;
        for (size_t l = 0; l < spec.levels.size(); ++l) {
          const size_t row = levelRowOf(s, own, other, otherRow, l);
          for (const CompareValue& v : spec.levels[l].columns) copyCell(out, col++, s, row, columnIndex(sideCols, v.from));
        }
      }
      for (const CompareValue& r : spec.ratios) setRatio(out, col++, base, p.b, target, p.t, columnIndex(sideCols, r.from));
      out.endRow();
      continue;
    }
    for (const CompareValue& v : spec.values) {
      const size_t from = columnIndex(sideCols, v.from);
      out.setText(col++, pairText(base, p.b, target, p.t, from));
      if (v.ratio.empty()) continue;
      setRatio(out, col++, base, p.b, target, p.t, from);
    }
    const size_t shownCol = columnIndex(sideCols, spec.shownKey);
    auto shown = [&](const Side& s, size_t row) {
      if (row == kAbsent || s.table.isMissing(row, shownCol)) return;
      if (sideCols[shownCol].kind == CellKind::Int) out.setInt(col, s.table.intAt(row, shownCol));
      else out.setText(col, plainCell(s.table, row, shownCol));
    };
    shown(base, p.b);
    ++col;
    shown(target, p.t);
    out.endRow();
  }
  for (const auto& w : base.table.warnings()) out.addWarning("base: " + w);
  for (const auto& w : target.table.warnings()) out.addWarning("target: " + w);
  return out;
}

}  // namespace asys
