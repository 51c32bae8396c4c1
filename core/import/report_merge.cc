#include "core/import/report_merge.h"

#include <algorithm>
#include <filesystem>

#include "core/base/error.h"
#include "core/base/stage_timer.h"
#include "core/import/merge_columns.h"
#include "core/import/merge_plan.h"
#include "core/writer/report_writer.h"

namespace asys {

namespace {

constexpr const char* kSource = "merge_input";

// Appends `item` to a comma-separated list.
void append(std::string& list, const std::string& item) {
  if (!list.empty()) list += ", ";
  list += item;
}

std::string quoted(const char* name) { return std::string("\"") + name + "\""; }

// `expr` for a number in `column`, the column as it is otherwise: a text or
// BLOB in an id column is left for the engine to reject, as it rejects it in
// the input, instead of `'soon' + 7` becoming a plausible id 7. SQLite sorts
// every text and BLOB after every number, so one comparison tells them apart
// (a typeof() test costs a function call and a string per cell).
std::string numbersOnly(const std::string& column, const std::string& expr) {
  return "CASE WHEN " + column + " <= 9223372036854775807 THEN " + expr + " ELSE " + column + " END";
}

// `column + by`; NULL stays NULL.
std::string shifted(const std::string& column, int64_t by) {
  if (by == 0) return column;
  return numbersOnly(column, column + " + " + std::to_string(by));
}

// An id looked up in the input's changes; other values (NULL, text, ids
// that keep their number) fall through unchanged.
std::string mapped(const std::string& column, const IdChanges& changes) {
  if (changes.empty()) return column;
  std::string sql = "CASE " + column;
  for (const auto& [from, to] : changes) sql += " WHEN " + std::to_string(from) + " THEN " + std::to_string(to);
  return sql + " ELSE " + column + " END";
}

// globalTid / globalPid: the pid bits (24-47) replaced, the tid bits and
// anything above kept: + (new pid - old pid) * 2^24.
std::string threadMapped(const std::string& column, const IdChanges& pids) {
  if (pids.empty()) return column;
  std::string delta = "CASE (" + column + " >> 24) & 16777215";
  for (const auto& [from, to] : pids) delta += " WHEN " + std::to_string(from) + " THEN " + std::to_string((to - from) * 16777216);
  return numbersOnly(column, column + " + " + delta + " ELSE 0 END");
}

std::string columnExpr(const MergeColumn& c, const InputPlan& p) {
  const std::string col = quoted(c.name);
  switch (c.kind) {
    case IdKind::kPlain: return col;
    case IdKind::kTime: return shifted(col, p.timeShift);
    case IdKind::kString: return shifted(col, p.stringShift);
    case IdKind::kThread: return threadMapped(col, p.pids);
    case IdKind::kPid: return mapped(col, p.pids);
    case IdKind::kDevice: return mapped(col, p.devices);
    case IdKind::kCallchain: return shifted(col, p.callchainShift);
    case IdKind::kEventId: return shifted(col, p.eventIdShift);
    case IdKind::kCopyKind: return mapped(col, p.copyKinds);
    case IdKind::kMemKind: return mapped(col, p.memKinds);
    case IdKind::kMetric: return mapped(col, p.metrics);
    case IdKind::kKernelRow: return col;  // no column's kind
  }
  return col;
}

void writeDictionary(ReportWriter& w, const MergeTable& table, const std::vector<DictionaryRow>& rows) {
  auto text = [](const std::optional<std::string>& s) { return s ? s->c_str() : nullptr; };
  for (const DictionaryRow& r : rows) {
    const auto id = static_cast<int32_t>(r.id);
    if (id != r.id) throw Error(std::string(table.name) + " id " + std::to_string(r.id) + " does not fit 32 bits");
    const IdKind kind = table.columns[0].kind;
    if (kind == IdKind::kCopyKind) w.memcpyKind(id, text(r.first), text(r.second));
    else if (kind == IdKind::kMemKind) w.memKind(id, text(r.first), text(r.second));
    else w.metricInfo(id, text(r.first), text(r.second));
  }
}

// The INSERT ... SELECT that copies table `table` (an index of
// mergeTables()) of the input attached as `schema`, renumbered by `plan`;
// empty when the input has no such table.
std::string mergeInsertSql(size_t table, const InputPlan& plan, const std::string& schema) {
  const MergeTable& t = mergeTables()[table];
  const std::vector<std::string>& present = plan.columns[table];
  if (present.empty() || t.merge != TableMerge::kRows) return "";
  std::string into, select;
  bool verbatim = present.size() == t.columns.size();  // the input's columns are the schema's, in order
  for (size_t i = 0; i < t.columns.size(); ++i) {
    const MergeColumn& c = t.columns[i];
    append(into, quoted(c.name));
    // A column the input lacks reads as NULL, as the engine reads it.
    const bool has = std::find(present.begin(), present.end(), c.name) != present.end();
    const std::string expr = has ? columnExpr(c, plan) : std::string("NULL");
    verbatim = verbatim && present[i] == c.name && expr == quoted(c.name);
    append(select, expr);
  }
  const std::string from = "\"" + schema + "\"." + quoted(t.name);
  // Nothing to renumber: SQLite copies such rows as they are stored, without
  // decoding them (its transfer optimisation), in rowid order.
  if (verbatim) return "INSERT INTO main." + quoted(t.name) + " SELECT * FROM " + from;
  // In rowid order: the engine reads tables so, and trace rules number rows so.
  return "INSERT INTO main." + quoted(t.name) + " (" + into + ") SELECT " + select + " FROM " + from + " ORDER BY rowid";
}

}  // namespace

void mergeReports(const std::vector<std::string>& inputs, const std::string& outPath) {
  std::error_code ec;
  for (const std::string& in : inputs) {
    if (std::filesystem::equivalent(in, outPath, ec)) throw Error(outPath + ": is also an input; choose another output file");
  }
  const MergePlan plan = planMerge(inputs);
  const std::vector<MergeTable>& tables = mergeTables();
  writeReportFile(outPath, [&](ReportWriter& w) {
    for (const InputPlan& input : plan.inputs) {
      StageTimer timer("merge: copy of " + input.path);
      w.attachReadOnly(input.path, kSource);
      for (size_t t = 0; t < tables.size(); ++t) {
        const std::string sql = mergeInsertSql(t, input, kSource);
        if (sql.empty()) continue;
        try {
          w.execSql(sql);
        } catch (const Error& e) {  // name the input too: its rows are at fault, or the disk
          throw Error(input.path + ": table " + tables[t].name + ": " + e.what());
        }
      }
      w.detach(kSource);
    }
    for (size_t t = 0; t < tables.size(); ++t) {
      if (tables[t].merge == TableMerge::kDictionary) writeDictionary(w, tables[t], plan.dictionaries[t]);
    }
    for (const auto& [name, value] : plan.meta) w.metaData(name.c_str(), value);
  });
}

}  // namespace asys
