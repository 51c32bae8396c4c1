#include "core/writer/report_writer.h"

#include <sqlite3.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "core/base/error.h"
#include "core/report/sqlite_db.h"
#include "core/writer/asysrep_schema.h"

namespace asys {
namespace {

// The statement that is not an INSERT of a whole row, after them in stmts_.
const char* const kMemEventChainSql = "UPDATE PPU_MEMORY_USAGE_EVENTS SET callchainId = ? WHERE rowid = ?";

inline void bindInt(sqlite3_stmt* s, int i, int64_t v) {
  if (v == kNull) {
    sqlite3_bind_null(s, i);
  } else {
    sqlite3_bind_int64(s, i, v);
  }
}

inline void bindInt(sqlite3_stmt* s, int i, int32_t v) {
  bindInt(s, i, v == kNull32 ? kNull : static_cast<int64_t>(v));
}

// String ids (StringIds starts at 1).
inline void bindInt(sqlite3_stmt* s, int i, uint32_t v) {
  bindInt(s, i, v == kNoStringId ? kNull : static_cast<int64_t>(v));
}

inline void bindText(sqlite3_stmt* s, int i, const char* text) {
  if (text == nullptr) {
    sqlite3_bind_null(s, i);
  } else {
    // The statement is stepped before the caller's buffer changes.
    sqlite3_bind_text(s, i, text, -1, SQLITE_STATIC);
  }
}

// Text of a known length (it may hold a NUL).
inline void bindText(sqlite3_stmt* s, int i, std::string_view text) {
  sqlite3_bind_text(s, i, text.data(), static_cast<int>(text.size()), SQLITE_STATIC);
}

// Binds a row's cells to the parameters 1, 2, ... of its INSERT, each by its
// field's type (the cell of its descriptor): NULL for the field's NULL value.
struct Binder {
  sqlite3_stmt* st;
  int i = 0;
  void operator()(int64_t v) { bindInt(st, ++i, v); }
  void operator()(int32_t v) { bindInt(st, ++i, v); }
  void operator()(uint32_t v) { bindInt(st, ++i, v); }
  void operator()(const char* v) { bindText(st, ++i, v); }
  void operator()(const std::string& v) { bindText(st, ++i, v.c_str()); }
  void operator()(std::string_view v) { bindText(st, ++i, v); }
  void operator()(double v) { sqlite3_bind_double(st, ++i, v); }
};

std::string quoteSql(const std::string& s) {
  std::string q = "'";
  for (char c : s) {
    q += c;
    if (c == '\'') q += '\'';
  }
  return q + "'";
}

}  // namespace

ReportWriter::ReportWriter(const std::string& path, const std::string& displayPath)
    : path_(displayPath) {
  // URI filenames so that importers can ATTACH their source read-only.
  if (sqlite3_open_v2(sqliteUri(path, nullptr).c_str(), &db_,
                      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX |
                          SQLITE_OPEN_URI,
                      nullptr) != SQLITE_OK) {
    fail("cannot create report");
  }
  exec("PRAGMA page_size=4096");
  exec("PRAGMA journal_mode=OFF");
  exec("PRAGMA synchronous=OFF");
  exec("PRAGMA locking_mode=EXCLUSIVE");
  exec("PRAGMA temp_store=MEMORY");
  exec("PRAGMA cache_size=-65536");
  exec("BEGIN");
  for (const std::string& create : schemaStatements()) exec(create.c_str());
  for (size_t i = 0; i < kStmtCount; ++i) {
    const std::string sql = i < kAsysrepTableCount ? insertStatement(kAsysrepTables[i]) : kMemEventChainSql;
    if (sqlite3_prepare_v3(db_, sql.c_str(), -1, SQLITE_PREPARE_PERSISTENT, &stmts_[i], nullptr) != SQLITE_OK) {
      fail("cannot prepare report tables");
    }
  }
}

ReportWriter::~ReportWriter() {
  for (sqlite3_stmt*& s : stmts_) {
    if (s != nullptr) sqlite3_finalize(s);
    s = nullptr;
  }
  if (db_ != nullptr) sqlite3_close(db_);
}

void ReportWriter::fail(const char* what) {
  std::string msg = std::string(what) + " '" + path_ + "'";
  if (db_ != nullptr) {
    msg += ": ";
    msg += sqlite3_errmsg(db_);
  }
  throw Error(msg);
}

void ReportWriter::exec(const char* sql) {
  if (sqlite3_exec(db_, sql, nullptr, nullptr, nullptr) != SQLITE_OK) fail("cannot write report");
}

void ReportWriter::step(size_t s) {
  sqlite3_stmt* st = stmts_[s];
  if (sqlite3_step(st) != SQLITE_DONE) {
    sqlite3_reset(st);
    fail("cannot write report");
  }
  sqlite3_reset(st);
}

// The one bind loop: every table's row is bound the same way, field by field
// in the table's order (ASYS_WRITER_ROW in report_writer.h).
template <typename Row>
void ReportWriter::insert(const Row& r) {
  const size_t s = static_cast<size_t>(Row::kTable);
  r.forEachCell(Binder{stmts_[s]});
  step(s);
}

uint32_t ReportWriter::intern(std::string_view s) {
  auto it = strings_.find(std::string(s));
  if (it != strings_.end()) return it->second;
  // SQLite refuses a text over its length limit (10^9 bytes), and the cell
  // would be left NULL: name the text instead (a trace can hold anything).
  const auto limit = static_cast<size_t>(sqlite3_limit(db_, SQLITE_LIMIT_LENGTH, -1));
  if (s.size() >= limit) {
    throw Error("cannot write report '" + path_ + "': a name of " + std::to_string(s.size()) +
                " bytes is longer than an SQLite text may be (" + std::to_string(limit) + " bytes); it starts '" +
                std::string(s.substr(0, 40)) + "'");
  }
  const uint32_t id = nextStringId_++;
  strings_.emplace(std::string(s), id);
  insert(StringIdRow{id, s});
  return id;
}

void ReportWriter::metaData(const char* name, const std::string& value) { insert(MetaDataRow{name, value.c_str()}); }

void ReportWriter::process(int64_t globalPid, int64_t pid, const char* name) {
  insert(ProcessRow{globalPid, pid, name});
}

void ReportWriter::threadName(int64_t globalTid, uint32_t nameId, int32_t priority) {
  insert(ThreadNameRow{globalTid, nameId, priority});
}

void ReportWriter::device(const DeviceInfoRow& d) { insert(d); }

void ReportWriter::memcpyKind(int32_t id, const char* name, const char* label) {
  insert(MemcpyKindRow{id, name, label});
}

void ReportWriter::memKind(int32_t id, const char* name, const char* label) { insert(MemKindRow{id, name, label}); }

void ReportWriter::metricInfo(int32_t metricId, const char* name, const char* unit) {
  insert(MetricInfoRow{metricId, name, unit});
}

void ReportWriter::callchainFrame(int64_t id, int32_t depth, uint32_t symbol, uint32_t module,
                                  int32_t unresolved) {
  insert(CallchainFrameRow{id, depth, symbol, module, unresolved});
}

void ReportWriter::api(const ApiRow& r) { insert(r); }
void ReportWriter::osrt(const OsrtRow& r) { insert(r); }
void ReportWriter::kernel(const KernelRow& r) { insert(r); }
void ReportWriter::memcpy(const MemcpyRow& r) { insert(r); }
void ReportWriter::memset(const MemsetRow& r) { insert(r); }
void ReportWriter::graphNode(const GraphNodeRow& r) { insert(r); }
void ReportWriter::hgtx(const HgtxRow& r) { insert(r); }
void ReportWriter::memoryEvent(const MemoryEventRow& r) { insert(r); }

void ReportWriter::metric(int32_t deviceId, int64_t start, int64_t duration, int32_t metricId,
                          double value) {
  insert(MetricRow{deviceId, start, duration, metricId, value});
}

void ReportWriter::pcclStage(int64_t start, int64_t end, int64_t globalTid, int32_t deviceId,
                             int32_t channelId, const char* channelType, uint32_t nameId) {
  insert(PcclStageRow{start, end, globalTid, deviceId, channelId, channelType, nameId});
}

void ReportWriter::execSql(const std::string& sql) { exec(sql.c_str()); }

std::vector<int64_t> ReportWriter::queryIntegers(const std::string& sql) {
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &st, nullptr) != SQLITE_OK) fail("cannot read back from report");
  std::vector<int64_t> values;
  const int columns = sqlite3_column_count(st);
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    for (int c = 0; c < columns; ++c) {
      values.push_back(sqlite3_column_type(st, c) == SQLITE_NULL ? kNull : sqlite3_column_int64(st, c));
    }
  }
  sqlite3_finalize(st);
  if (rc != SQLITE_DONE) fail("cannot read back from report");
  return values;
}

void ReportWriter::memoryEventCallchain(int64_t rowid, int64_t callchainId) {
  sqlite3_stmt* st = stmts_[kMemEventChain];
  bindInt(st, 1, callchainId);
  bindInt(st, 2, rowid);
  step(kMemEventChain);
}

void ReportWriter::attachReadOnly(const std::string& path, const std::string& schema) {
  exec("COMMIT");
  const std::string sql =
      "ATTACH DATABASE " + quoteSql(sqliteUri(path, "?mode=ro&immutable=1")) + " AS \"" + schema + "\"";
  const bool ok = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK;
  const std::string why = ok ? "" : sqlite3_errmsg(db_);
  exec("BEGIN");
  if (!ok) throw Error(path + ": cannot open: " + why);
}

void ReportWriter::detach(const std::string& schema) {
  exec("COMMIT");
  exec(("DETACH DATABASE \"" + schema + "\"").c_str());
  exec("BEGIN");
}

void ReportWriter::adoptStringIds() {
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v2(db_, "SELECT id, value FROM main.StringIds", -1, &st, nullptr) != SQLITE_OK) {
    fail("cannot read report strings");
  }
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    const int64_t id = sqlite3_column_int64(st, 0);
    const char* text = reinterpret_cast<const char*>(sqlite3_column_text(st, 1));
    const int bytes = sqlite3_column_bytes(st, 1);
    if (id >= nextStringId_) nextStringId_ = static_cast<uint32_t>(id + 1);
    if (text != nullptr) strings_.try_emplace(std::string(text, static_cast<size_t>(bytes)), static_cast<uint32_t>(id));
  }
  sqlite3_finalize(st);
  if (rc != SQLITE_DONE) fail("cannot read report strings");
}

void ReportWriter::finish() {
  for (sqlite3_stmt*& s : stmts_) {
    sqlite3_finalize(s);
    s = nullptr;
  }
  exec("COMMIT");
  if (sqlite3_close(db_) != SQLITE_OK) fail("cannot close report");
  db_ = nullptr;
}

void writeReportFile(const std::string& outPath, const std::function<void(ReportWriter&)>& fill) {
  const std::string partial = outPath + ".partial";
  std::remove(partial.c_str());
  try {
    ReportWriter w(partial, outPath);
    fill(w);
    w.finish();
  } catch (...) {
    std::remove(partial.c_str());
    throw;
  }
  if (std::rename(partial.c_str(), outPath.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    std::remove(partial.c_str());
    throw Error("cannot write report '" + outPath + "': " + reason);
  }
}

}  // namespace asys
