#include "core/compare/compare.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <unordered_map>

#include "core/analysis/stats.h"
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

// What one report contributes: its table, each row's match key, and the
// report's PPU name for tables without a device column.
struct Side {
  Table table;
  std::vector<std::string> keys;
  std::string deviceName;
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

Side sideOf(const CompareSpec& spec, RuleContext& ctx) {
  Side s{spec.side(ctx), {}, reportDeviceName(ctx)};
  std::vector<size_t> keyCols;  // the columns the rule declares as its key
  for (size_t c = 0; c < s.table.columns().size(); ++c)
    if (s.table.columns()[c].role == ColumnRole::Key) keyCols.push_back(c);
  if (keyCols.empty()) throw std::logic_error("a compared table declares no key column");
  s.keys.reserve(s.table.rowCount());
  for (size_t r = 0; r < s.table.rowCount(); ++r) {
    std::string key;
    for (size_t i = 0; i < keyCols.size(); ++i) {
      if (i) key += '\x1f';  // a separator no name contains
      key += plainCell(s.table, r, keyCols[i]);
    }
    s.keys.push_back(std::move(key));
  }
  return s;
}

constexpr size_t kAbsent = static_cast<size_t>(-1);
const std::string kDash = "-";

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

}  // namespace

std::vector<ColumnSpec> compareColumns(const CompareSpec& spec) {
  std::vector<ColumnSpec> out;
  if (spec.deviceName) out.push_back({"Device Name", "", CellKind::Text, "PPU Device name"});
  for (const CompareValue& v : spec.values) {
    const ColumnSpec& from = sideColumn(spec, v.from);
    out.push_back({v.name.empty() ? from.name : v.name, from.unit, CellKind::Text, v.help.empty() ? from.help : v.help});
    if (!v.ratio.empty()) out.push_back({v.ratio, "", CellKind::Decimal1, v.ratioHelp});
  }
  const ColumnSpec& shown = sideColumn(spec, spec.shownKey);
  out.push_back({"Base " + spec.shownLabel, "", shown.kind, spec.shownHelp + " in base report"});
  out.push_back({"Target " + spec.shownLabel, "", shown.kind, spec.shownHelp + " in target report"});
  return out;
}

Table compareTables(const CompareSpec& spec, RuleContext& baseCtx, RuleContext& targetCtx, bool matchedOnly) {
  const Side base = sideOf(spec, baseCtx);
  const Side target = sideOf(spec, targetCtx);
  const std::vector<ColumnSpec>& sideCols = base.table.columns();

  // Rows: every key of either side once (the first row of a repeated key).
  std::unordered_map<std::string_view, size_t> targetRow;
  for (size_t r = 0; r < target.keys.size(); ++r) targetRow.try_emplace(target.keys[r], r);
  std::unordered_map<std::string_view, size_t> baseRow;
  struct Pair {
    size_t b, t;
    const std::string* key;
  };
  std::vector<Pair> pairs;
  for (size_t r = 0; r < base.keys.size(); ++r) {
    if (!baseRow.try_emplace(base.keys[r], r).second) continue;
    auto it = targetRow.find(base.keys[r]);
    pairs.push_back({r, it == targetRow.end() ? kAbsent : it->second, &base.keys[r]});
  }
  for (size_t r = 0; r < target.keys.size(); ++r) {
    if (baseRow.count(target.keys[r]) || targetRow.at(target.keys[r]) != r) continue;
    pairs.push_back({kAbsent, r, &target.keys[r]});
  }
  if (matchedOnly) {
    std::erase_if(pairs, [](const Pair& p) { return p.b == kAbsent || p.t == kAbsent; });
  }

  // The larger of the two shares, descending; ties by key.
  const size_t shareCol = columnIndex(sideCols, spec.share);
  auto share = [&](const Pair& p) {
    double best = -1, v = 0;
    int64_t i = 0;
    bool isInt = false;
    if (numberAt(base.table, p.b, shareCol, v, i, isInt)) best = std::max(best, v);
    if (numberAt(target.table, p.t, shareCol, v, i, isInt)) best = std::max(best, v);
    return best;
  };
  std::stable_sort(pairs.begin(), pairs.end(), [&](const Pair& a, const Pair& b) {
    const double sa = share(a), sb = share(b);
    if (sa != sb) return sa > sb;
    return *a.key < *b.key;
  });

  std::vector<size_t> valueCols;
  for (const CompareValue& v : spec.values) valueCols.push_back(columnIndex(sideCols, v.from));
  const size_t shownCol = columnIndex(sideCols, spec.shownKey);
  const bool rowDevice = std::any_of(sideCols.begin(), sideCols.end(), [](const ColumnSpec& c) {
    return c.name == "Device Name";
  });

  Table out(compareColumns(spec));
  for (const Pair& p : pairs) {
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
    for (size_t i = 0; i < spec.values.size(); ++i) {
      out.setText(col++, pairText(base, p.b, target, p.t, valueCols[i]));
      if (spec.values[i].ratio.empty()) continue;
      double bv = 0, tv = 0;
      int64_t bi = 0, ti = 0;
      bool bInt = false, tInt = false;
      const bool both = numberAt(base.table, p.b, valueCols[i], bv, bi, bInt) &&
                        numberAt(target.table, p.t, valueCols[i], tv, ti, tInt);
      if (both && tv != 0) {
        // Integers exactly (half away from zero), decimals through doubles.
        out.setDecimal(col, bInt && tInt ? ratio1(bi, ti) : std::round(bv / tv * 10) / 10);
      }
      ++col;
    }
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
