#include "core/import/merge_survey.h"

#include <algorithm>

#include "core/base/error.h"
#include "core/import/importer.h"
#include "core/report/report.h"
#include "core/report/sqlite_db.h"
#include "core/import/merge_columns.h"

namespace asys {

namespace {

// Appends `item` to a comma-separated list.
void append(std::string& list, const std::string& item) {
  if (!list.empty()) list += ", ";
  list += item;
}

std::string quoted(const std::string& name) { return "\"" + name + "\""; }

// The engine's own checks (Report::open: SQLite, META_DATA format and
// version, complete file); a foreign profile gets a message naming it.
void checkOpens(const std::string& path) {
  try {
    Report::open(path);
  } catch (const Error&) {
    switch (sniffFormat(path)) {
      case InputFormat::KinetoJson:
        throw Error(path + ": a PyTorch/Kineto trace, not an asysrep report (convert it first: asys import " + path +
                    " -o OUT.asysrep)");
      case InputFormat::NsysSqlite:
        throw Error(path + ": an Nsight Systems SQLite export, not an asysrep report (convert it first: asys import " +
                    path + " -o OUT.asysrep)");
      case InputFormat::NsysRep:
        throw Error(path + ": an Nsight Systems .nsys-rep report, not an asysrep report (export it with nsys export "
                           "--type sqlite, then asys import)");
      default:
        throw;
    }
  }
}

bool has(const std::vector<std::string>& columns, const char* name) {
  return std::find(columns.begin(), columns.end(), name) != columns.end();
}

bool isSet(IdKind k) { return k == IdKind::kThread || k == IdKind::kPid || k == IdKind::kDevice; }
bool isRange(IdKind k) { return k == IdKind::kCallchain || k == IdKind::kEventId; }

void addId(IdKind kind, int64_t v, InputSurvey& s) {
  if (kind == IdKind::kThread) s.pids.push_back((v >> 24) & 0xFFFFFF);
  else if (kind == IdKind::kPid) s.pids.push_back(v);
  else if (kind == IdKind::kDevice && v >= 0) s.devices.push_back(v);  // negative: no PPU
}

IdRange& rangeOf(IdKind kind, InputSurvey& s) { return kind == IdKind::kCallchain ? s.callchains : s.eventIds; }

// `column` when it holds a number, else NULL. SQLite orders every text and
// BLOB after every number, so one comparison tells them apart (cheaper per
// row than typeof()); the copy uses the same test (report_merge.cc).
std::string numeric(const std::string& column) {
  return "CASE WHEN " + column + " <= 9223372036854775807 THEN " + column + " END";
}

// The pids, devices and id ranges of one table. One scan of min and max per
// id column settles a column holding one process or device (every rank's
// table) and every range: the max's type says whether a text or BLOB hides
// among the numbers (they sort after them). A column with several pids or
// devices, or a non-number, is read again exactly with SELECT DISTINCT over
// its numbers. The first scan aggregates raw columns, which SQLite does at
// twice the speed of expressions.
void surveyTable(SqliteDb& db, const MergeTable& table, const std::vector<std::string>& present, InputSurvey& s) {
  std::vector<const MergeColumn*> cols;
  std::string select;
  for (const MergeColumn& c : table.columns) {
    if (!has(present, c.name) || !(isSet(c.kind) || isRange(c.kind))) continue;
    const std::string q = quoted(c.name);
    append(select, "min(" + q + "), max(" + q + "), typeof(max(" + q + "))");
    cols.push_back(&c);
  }
  if (cols.empty()) return;
  std::vector<const MergeColumn*> exact;  // columns read again
  {
    Statement st(db, "SELECT " + select + " FROM " + quoted(table.name));
    if (!st.step()) return;
    for (size_t i = 0; i < cols.size(); ++i) {
      const int at = static_cast<int>(3 * i);
      if (st.isNull(at + 1)) continue;  // no values at all
      const std::string_view type = st.text(at + 2);
      const IdKind kind = cols[i]->kind;
      const int64_t lo = st.int64(at), hi = st.int64(at + 1);
      if (type != "integer" && type != "real") {
        exact.push_back(cols[i]);
      } else if (isRange(kind)) {
        rangeOf(kind, s).add(lo);
        rangeOf(kind, s).add(hi);
      } else if (kind == IdKind::kThread ? (lo >> 24) == (hi >> 24) : lo == hi) {
        addId(kind, lo, s);  // one process or device: every value between has its bits
      } else {
        exact.push_back(cols[i]);
      }
    }
  }
  // Sets are rows (SELECT DISTINCT), ranges aggregates: one query each.
  std::vector<const MergeColumn*> sets, ranges;
  std::string distinct, extremes;
  for (const MergeColumn* c : exact) {
    const std::string v = numeric(quoted(c->name));
    if (isRange(c->kind)) {
      ranges.push_back(c);
      append(extremes, "min(" + v + "), max(" + v + ")");
    } else {
      sets.push_back(c);
      append(distinct, c->kind == IdKind::kThread ? "(" + v + " >> 24) & 16777215" : v);
    }
  }
  if (!sets.empty()) {
    Statement st(db, "SELECT DISTINCT " + distinct + " FROM " + quoted(table.name));
    while (st.step()) {
      for (size_t i = 0; i < sets.size(); ++i) {
        const int at = static_cast<int>(i);
        // The pid bits were taken in SQL: add them as a pid.
        if (!st.isNull(at)) addId(sets[i]->kind == IdKind::kThread ? IdKind::kPid : sets[i]->kind, st.int64(at), s);
      }
    }
  }
  if (!ranges.empty()) {
    Statement st(db, "SELECT " + extremes + " FROM " + quoted(table.name));
    if (!st.step()) return;
    for (size_t i = 0; i < ranges.size(); ++i) {
      const int at = static_cast<int>(2 * i);
      if (st.isNull(at)) continue;
      rangeOf(ranges[i]->kind, s).add(st.int64(at));
      rangeOf(ranges[i]->kind, s).add(st.int64(at + 1));
    }
  }
}

// StringIds ids: its primary key, so min and max are one descent each.
void surveyStrings(SqliteDb& db, InputSurvey& s) {
  Statement st(db, "SELECT (SELECT min(id) FROM StringIds), (SELECT max(id) FROM StringIds)");
  if (st.step() && !st.isNull(0)) {
    s.strings.add(st.int64(0));
    s.strings.add(st.int64(1));
  }
}

void readDictionary(SqliteDb& db, const MergeTable& table, const std::vector<std::string>& present,
                    std::vector<DictionaryRow>& rows) {
  auto col = [&](size_t i) { return has(present, table.columns[i].name) ? quoted(table.columns[i].name) : "NULL"; };
  if (!has(present, table.columns[0].name)) return;  // no ids: nothing refers to its rows
  Statement st(db, "SELECT " + col(0) + ", " + col(1) + ", " + col(2) + " FROM " + quoted(table.name) + " ORDER BY rowid");
  while (st.step()) {
    if (st.isNull(0)) continue;
    DictionaryRow r{st.int64(0), std::nullopt, std::nullopt};
    if (!st.isNull(1)) r.first = std::string(st.text(1));
    if (!st.isNull(2)) r.second = std::string(st.text(2));
    rows.push_back(std::move(r));
  }
}

void sortUnique(std::vector<int64_t>& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

}  // namespace

const std::string* InputSurvey::metaValue(const std::string& name) const {
  for (const auto& [key, value] : meta)
    if (key == name) return &value;
  return nullptr;
}

InputSurvey surveyInput(const std::string& path) {
  checkOpens(path);
  InputSurvey s;
  s.path = path;
  SqliteDb db(path);
  const std::vector<MergeTable>& tables = mergeTables();
  s.columns.resize(tables.size());
  s.dictionaries.resize(tables.size());
  for (size_t t = 0; t < tables.size(); ++t) {
    const MergeTable& table = tables[t];
    if (!db.hasTable(table.name)) continue;
    s.columns[t] = db.columnsOf(table.name);
    const std::vector<std::string>& present = s.columns[t];
    switch (table.merge) {
      case TableMerge::kMeta: {
        Statement st(db, "SELECT name, value FROM META_DATA ORDER BY rowid");
        while (st.step())
          if (!st.isNull(0)) s.meta.emplace_back(std::string(st.text(0)), std::string(st.text(1)));
        break;
      }
      case TableMerge::kDictionary:
        readDictionary(db, table, present, s.dictionaries[t]);
        break;
      case TableMerge::kRows:
        if (std::string(table.name) == "StringIds") surveyStrings(db, s);
        surveyTable(db, table, present, s);
        break;
    }
  }
  sortUnique(s.pids);
  sortUnique(s.devices);
  return s;
}

int64_t kernelRowsOf(const std::string& path) {
  SqliteDb db(path);
  if (!db.hasTable("HGGC_KERNEL")) return 0;
  Statement st(db, "SELECT count(*) FROM HGGC_KERNEL");
  return st.step() ? st.int64(0) : 0;
}

}  // namespace asys
