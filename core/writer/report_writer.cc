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

const char* const kInsertSql[] = {
    "INSERT INTO META_DATA VALUES (?,?)",
    "INSERT INTO StringIds VALUES (?,?)",
    "INSERT INTO PROCESSES VALUES (?,?,?)",
    "INSERT INTO ThreadNames VALUES (?,?,?)",
    "INSERT INTO TARGET_INFO_PPU VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
    "INSERT INTO ENUM_HGGC_MEMCPY_OPER VALUES (?,?,?)",
    "INSERT INTO ENUM_HGGC_MEM_KIND VALUES (?,?,?)",
    "INSERT INTO TARGET_INFO_PPU_METRICS VALUES (?,?,?)",
    "INSERT INTO CALLCHAINS VALUES (?,?,?,?,?)",
    "INSERT INTO HGGC_API VALUES (?,?,?,?,?,?,?,?)",
    "INSERT INTO OSRT_API VALUES (?,?,?,?,?,?,?,?)",
    "INSERT INTO HGGC_KERNEL VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
    "INSERT INTO HGGC_MEMCPY VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
    "INSERT INTO HGGC_MEMSET VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
    "INSERT INTO HGGC_GRAPH_NODE_EVENTS VALUES (?,?,?,?,?,?,?)",
    "INSERT INTO HGTX_EVENTS VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
    "INSERT INTO PPU_MEMORY_USAGE_EVENTS VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
    "INSERT INTO PPU_METRICS VALUES (?,?,?,?,?)",
    "INSERT INTO PCCL_STAGE_EVENTS VALUES (?,?,?,?,?,?,?)",
    "UPDATE PPU_MEMORY_USAGE_EVENTS SET callchainId = ? WHERE rowid = ?",
};

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
  static_assert(sizeof(kInsertSql) / sizeof(kInsertSql[0]) == kStmtCount);
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
  for (int i = 0; i < kStmtCount; ++i) {
    if (sqlite3_prepare_v3(db_, kInsertSql[i], -1, SQLITE_PREPARE_PERSISTENT, &stmts_[i],
                           nullptr) != SQLITE_OK) {
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

void ReportWriter::step(Stmt s) {
  sqlite3_stmt* st = stmts_[s];
  if (sqlite3_step(st) != SQLITE_DONE) {
    sqlite3_reset(st);
    fail("cannot write report");
  }
  sqlite3_reset(st);
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
  sqlite3_stmt* st = stmts_[kString];
  sqlite3_bind_int64(st, 1, id);
  sqlite3_bind_text(st, 2, s.data(), static_cast<int>(s.size()), SQLITE_STATIC);
  step(kString);
  return id;
}

void ReportWriter::metaData(const char* name, const std::string& value) {
  sqlite3_stmt* st = stmts_[kMeta];
  bindText(st, 1, name);
  bindText(st, 2, value.c_str());
  step(kMeta);
}

void ReportWriter::process(int64_t globalPid, int64_t pid, const char* name) {
  sqlite3_stmt* st = stmts_[kProcess];
  bindInt(st, 1, globalPid);
  bindInt(st, 2, pid);
  bindText(st, 3, name);
  step(kProcess);
}

void ReportWriter::threadName(int64_t globalTid, uint32_t nameId, int32_t priority) {
  sqlite3_stmt* st = stmts_[kThread];
  bindInt(st, 1, globalTid);
  bindInt(st, 2, nameId);
  bindInt(st, 3, priority);
  step(kThread);
}

void ReportWriter::device(const DeviceInfoRow& d) {
  sqlite3_stmt* st = stmts_[kDevice];
  bindInt(st, 1, d.id);
  bindText(st, 2, d.name.c_str());
  bindText(st, 3, d.busLocation.c_str());
  bindText(st, 4, d.hostName.c_str());
  bindText(st, 5, d.uuid.c_str());
  bindInt(st, 6, d.computeMajor);
  bindInt(st, 7, d.computeMinor);
  bindInt(st, 8, d.ceCount);
  bindInt(st, 9, d.cuCount);
  bindInt(st, 10, d.totalMemory);
  bindInt(st, 11, d.cuClock);
  bindInt(st, 12, d.memoryClock);
  sqlite3_bind_double(st, 13, d.peakFlopsFp32);
  sqlite3_bind_double(st, 14, d.peakFlopsFp16);
  sqlite3_bind_double(st, 15, d.peakFlopsBf16);
  sqlite3_bind_double(st, 16, d.peakFlopsFp8);
  sqlite3_bind_double(st, 17, d.peakFlopsInt8);
  sqlite3_bind_double(st, 18, d.hbmBandwidth);
  step(kDevice);
}

void ReportWriter::memcpyKind(int32_t id, const char* name, const char* label) {
  sqlite3_stmt* st = stmts_[kCopyKind];
  bindInt(st, 1, id);
  bindText(st, 2, name);
  bindText(st, 3, label);
  step(kCopyKind);
}

void ReportWriter::memKind(int32_t id, const char* name, const char* label) {
  sqlite3_stmt* st = stmts_[kMemKind];
  bindInt(st, 1, id);
  bindText(st, 2, name);
  bindText(st, 3, label);
  step(kMemKind);
}

void ReportWriter::metricInfo(int32_t metricId, const char* name, const char* unit) {
  sqlite3_stmt* st = stmts_[kMetricInfo];
  bindInt(st, 1, metricId);
  bindText(st, 2, name);
  bindText(st, 3, unit);
  step(kMetricInfo);
}

void ReportWriter::callchainFrame(int64_t id, int32_t depth, uint32_t symbol, uint32_t module,
                                  int32_t unresolved) {
  sqlite3_stmt* st = stmts_[kCallchain];
  bindInt(st, 1, id);
  bindInt(st, 2, depth);
  bindInt(st, 3, symbol);
  bindInt(st, 4, module);
  bindInt(st, 5, unresolved);
  step(kCallchain);
}

void ReportWriter::api(const ApiRow& r) {
  sqlite3_stmt* st = stmts_[kApi];
  bindInt(st, 1, r.start);
  bindInt(st, 2, r.end);
  bindInt(st, 3, r.eventClass);
  bindInt(st, 4, r.globalTid);
  bindInt(st, 5, r.correlationId);
  bindInt(st, 6, r.nameId);
  bindInt(st, 7, r.returnValue);
  bindInt(st, 8, r.callchainId);
  step(kApi);
}

void ReportWriter::osrt(const OsrtRow& r) {
  sqlite3_stmt* st = stmts_[kOsrt];
  bindInt(st, 1, r.start);
  bindInt(st, 2, r.end);
  bindInt(st, 3, r.eventClass);
  bindInt(st, 4, r.globalTid);
  bindInt(st, 5, r.nameId);
  bindInt(st, 6, r.returnValue);
  bindInt(st, 7, r.nestingLevel);
  bindInt(st, 8, r.callchainId);
  step(kOsrt);
}

void ReportWriter::kernel(const KernelRow& r) {
  sqlite3_stmt* st = stmts_[kKernel];
  bindInt(st, 1, r.start);
  bindInt(st, 2, r.end);
  bindInt(st, 3, r.deviceId);
  bindInt(st, 4, r.contextId);
  bindInt(st, 5, r.streamId);
  bindInt(st, 6, r.correlationId);
  bindInt(st, 7, r.globalPid);
  bindInt(st, 8, r.demangledName);
  bindInt(st, 9, r.shortName);
  bindInt(st, 10, r.mangledName);
  bindInt(st, 11, r.gridX);
  bindInt(st, 12, r.gridY);
  bindInt(st, 13, r.gridZ);
  bindInt(st, 14, r.blockX);
  bindInt(st, 15, r.blockY);
  bindInt(st, 16, r.blockZ);
  bindInt(st, 17, r.registersPerThread);
  bindInt(st, 18, r.staticSharedMemory);
  bindInt(st, 19, r.dynamicSharedMemory);
  bindInt(st, 20, r.graphNodeId);
  bindInt(st, 21, r.graphId);
  step(kKernel);
}

void ReportWriter::memcpy(const MemcpyRow& r) {
  sqlite3_stmt* st = stmts_[kMemcpy];
  bindInt(st, 1, r.start);
  bindInt(st, 2, r.end);
  bindInt(st, 3, r.deviceId);
  bindInt(st, 4, r.contextId);
  bindInt(st, 5, r.streamId);
  bindInt(st, 6, r.correlationId);
  bindInt(st, 7, r.globalPid);
  bindInt(st, 8, r.bytes);
  bindInt(st, 9, r.copyKind);
  bindInt(st, 10, r.srcKind);
  bindInt(st, 11, r.dstKind);
  bindInt(st, 12, r.srcDeviceId);
  bindInt(st, 13, r.dstDeviceId);
  sqlite3_bind_null(st, 14);
  sqlite3_bind_null(st, 15);
  step(kMemcpy);
}

void ReportWriter::memset(const MemsetRow& r) {
  sqlite3_stmt* st = stmts_[kMemset];
  bindInt(st, 1, r.start);
  bindInt(st, 2, r.end);
  bindInt(st, 3, r.deviceId);
  bindInt(st, 4, r.contextId);
  bindInt(st, 5, r.streamId);
  bindInt(st, 6, r.correlationId);
  bindInt(st, 7, r.globalPid);
  bindInt(st, 8, r.value);
  bindInt(st, 9, r.bytes);
  bindInt(st, 10, r.memKind);
  sqlite3_bind_null(st, 11);
  sqlite3_bind_null(st, 12);
  step(kMemset);
}

void ReportWriter::graphNode(const GraphNodeRow& r) {
  sqlite3_stmt* st = stmts_[kGraphNode];
  bindInt(st, 1, r.start);
  bindInt(st, 2, r.end);
  bindInt(st, 3, r.globalTid);
  bindInt(st, 4, r.nameId);
  bindInt(st, 5, r.graphNodeId);
  bindInt(st, 6, r.originalGraphNodeId);
  bindInt(st, 7, r.graphId);
  step(kGraphNode);
}

void ReportWriter::hgtx(const HgtxRow& r) {
  sqlite3_stmt* st = stmts_[kHgtx];
  bindInt(st, 1, r.start);
  bindInt(st, 2, r.end);
  bindInt(st, 3, r.eventType);
  bindInt(st, 4, r.rangeId);
  bindInt(st, 5, r.category);
  bindInt(st, 6, r.color);
  bindText(st, 7, r.text);
  bindInt(st, 8, r.globalTid);
  bindInt(st, 9, r.endGlobalTid);
  bindInt(st, 10, r.textId);
  bindInt(st, 11, r.domainId);
  bindInt(st, 12, r.argsId);
  step(kHgtx);
}

void ReportWriter::memoryEvent(const MemoryEventRow& r) {
  sqlite3_stmt* st = stmts_[kMemEvent];
  bindInt(st, 1, r.start);
  bindInt(st, 2, r.globalPid);
  bindInt(st, 3, r.globalTid);
  bindInt(st, 4, r.deviceId);
  bindInt(st, 5, r.contextId);
  bindInt(st, 6, r.eventId);
  bindInt(st, 7, r.address);
  bindInt(st, 8, r.bytes);
  bindInt(st, 9, r.memKind);
  bindInt(st, 10, r.memoryOperationType);
  bindInt(st, 11, r.accessFlags);
  bindInt(st, 12, r.correlationId);
  bindInt(st, 13, r.callchainId);
  step(kMemEvent);
}

void ReportWriter::metric(int32_t deviceId, int64_t start, int64_t duration, int32_t metricId,
                          double value) {
  sqlite3_stmt* st = stmts_[kMetric];
  bindInt(st, 1, deviceId);
  bindInt(st, 2, start);
  bindInt(st, 3, duration);
  bindInt(st, 4, metricId);
  sqlite3_bind_double(st, 5, value);
  step(kMetric);
}

void ReportWriter::pcclStage(int64_t start, int64_t end, int64_t globalTid, int32_t deviceId,
                             int32_t channelId, const char* channelType, uint32_t nameId) {
  sqlite3_stmt* st = stmts_[kPcclStage];
  bindInt(st, 1, start);
  bindInt(st, 2, end);
  bindInt(st, 3, globalTid);
  bindInt(st, 4, deviceId);
  bindInt(st, 5, channelId);
  bindText(st, 6, channelType);
  bindInt(st, 7, nameId);
  step(kPcclStage);
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
