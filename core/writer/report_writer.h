#pragma once
// Owns the SQLite handle of a report being generated: creates the asysrep v1
// tables, keeps one prepared INSERT per table for the whole run (one
// transaction, journal off), interns strings into StringIds, and turns every
// SQLite failure into an asys::Error naming the file.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/report/asysrep_tables.h"

struct sqlite3;
struct sqlite3_stmt;

namespace asys {

constexpr int64_t kNull = INT64_MIN;  // written as SQL NULL
// The same for the narrower columns: an INT32 field that holds kNull32 and a
// string-id field that holds kNoStringId (ids start at 1) are written as NULL.
constexpr int32_t kNull32 = INT32_MIN;
constexpr uint32_t kNoStringId = 0;

// The writer's rows: one struct per table, one field per column, named,
// typed and defaulted by the table's descriptor (core/report/asysrep_tables.h),
// in the table's order, so that positional initialisers keep working.
// forEachCell hands the fields to `f` in that order: the one bind loop of
// report_writer.cc.
#define ASYS_ROW_FIELD(name, kind, sql, id, def, load) cell::kind::Write name def;
#define ASYS_ROW_CELL(name, kind, sql, id, def, load) f(name);
#define ASYS_WRITER_ROW(Row, table)                      \
  struct Row {                                           \
    static constexpr AsysTable kTable = AsysTable::table; \
    ASYSREP_##table(ASYS_ROW_FIELD)                      \
    template <typename F>                                \
    void forEachCell(F&& f) const {                      \
      ASYSREP_##table(ASYS_ROW_CELL)                     \
    }                                                    \
  };

ASYS_WRITER_ROW(MetaDataRow, META_DATA)
ASYS_WRITER_ROW(StringIdRow, StringIds)
ASYS_WRITER_ROW(ProcessRow, PROCESSES)
ASYS_WRITER_ROW(ThreadNameRow, ThreadNames)
ASYS_WRITER_ROW(DeviceInfoRow, TARGET_INFO_PPU)
ASYS_WRITER_ROW(ApiRow, HGGC_API)
ASYS_WRITER_ROW(KernelRow, HGGC_KERNEL)
ASYS_WRITER_ROW(MemcpyRow, HGGC_MEMCPY)
ASYS_WRITER_ROW(MemsetRow, HGGC_MEMSET)
ASYS_WRITER_ROW(MemcpyKindRow, ENUM_HGGC_MEMCPY_OPER)
ASYS_WRITER_ROW(MemKindRow, ENUM_HGGC_MEM_KIND)
ASYS_WRITER_ROW(GraphNodeRow, HGGC_GRAPH_NODE_EVENTS)
ASYS_WRITER_ROW(HgtxRow, HGTX_EVENTS)  // end kNull = never closed; text nullptr = none
ASYS_WRITER_ROW(OsrtRow, OSRT_API)
ASYS_WRITER_ROW(CallchainFrameRow, CALLCHAINS)
ASYS_WRITER_ROW(MemoryEventRow, PPU_MEMORY_USAGE_EVENTS)
ASYS_WRITER_ROW(MetricInfoRow, TARGET_INFO_PPU_METRICS)
ASYS_WRITER_ROW(MetricRow, PPU_METRICS)
ASYS_WRITER_ROW(PcclStageRow, PCCL_STAGE_EVENTS)

#undef ASYS_WRITER_ROW
#undef ASYS_ROW_CELL
#undef ASYS_ROW_FIELD

class ReportWriter {
 public:
  // Creates `path` (which must not exist) with the asysrep tables and opens
  // the single write transaction. Errors name `displayPath`, the file the
  // user asked for.
  ReportWriter(const std::string& path, const std::string& displayPath);
  ~ReportWriter();
  ReportWriter(const ReportWriter&) = delete;
  ReportWriter& operator=(const ReportWriter&) = delete;

  // Id of `s` in StringIds, adding it on first use. Meant for set-up, not
  // for hot loops (it hashes the text).
  uint32_t intern(std::string_view s);

  void metaData(const char* name, const std::string& value);
  void process(int64_t globalPid, int64_t pid, const char* name);
  void threadName(int64_t globalTid, uint32_t nameId, int32_t priority);
  void device(const DeviceInfoRow& d);
  void memcpyKind(int32_t id, const char* name, const char* label);
  void memKind(int32_t id, const char* name, const char* label);
  void metricInfo(int32_t metricId, const char* name, const char* unit);
  void callchainFrame(int64_t id, int32_t depth, uint32_t symbol, uint32_t module,
                      int32_t unresolved);

  void api(const ApiRow& r);
  void osrt(const OsrtRow& r);
  void kernel(const KernelRow& r);
  void memcpy(const MemcpyRow& r);
  void memset(const MemsetRow& r);
  void graphNode(const GraphNodeRow& r);
  void hgtx(const HgtxRow& r);
  void memoryEvent(const MemoryEventRow& r);
  void metric(int32_t deviceId, int64_t start, int64_t duration, int32_t metricId, double value);
  void pcclStage(int64_t start, int64_t end, int64_t globalTid, int32_t deviceId, int32_t channelId,
                 const char* channelType, uint32_t nameId);

  // For importers that copy whole tables with SQL (INSERT ... SELECT from a
  // source ATTACHed to this connection). `sql` runs inside the write
  // transaction; a failure throws Error("cannot write report 'OUT': why").
  void execSql(const std::string& sql);
  // Reads rows of integers back from what was written (NULL as kNull), all
  // columns of a row one after the other: importers that derive one table
  // from another (call chains of memory events from the ranges around them).
  std::vector<int64_t> queryIntegers(const std::string& sql);
  // Sets the call chain of the PPU_MEMORY_USAGE_EVENTS row `rowid`.
  void memoryEventCallchain(int64_t rowid, int64_t callchainId);
  // Attaches `path` read-only and immutable (no locks, no journal) as
  // `schema`. ATTACH cannot run inside a transaction, so this commits what
  // was written so far and begins again. detach() does the same in reverse.
  void attachReadOnly(const std::string& path, const std::string& schema);
  void detach(const std::string& schema);
  // After StringIds rows were inserted with SQL (ids kept from a source):
  // learns them, so intern() reuses them and gives new strings ids after the
  // largest one.
  void adoptStringIds();
  // The connection, for prepared reads of an attached source.
  sqlite3* handle() { return db_; }

  // Commits and closes; the file is complete only after this returns.
  void finish();

 private:
  // One prepared INSERT per table, indexed by AsysTable, then the UPDATE of
  // memoryEventCallchain.
  static constexpr size_t kMemEventChain = kAsysrepTableCount;
  static constexpr size_t kStmtCount = kAsysrepTableCount + 1;
  // Binds the fields of `r` to its table's INSERT and runs it.
  template <typename Row>
  void insert(const Row& r);
  [[noreturn]] void fail(const char* what);
  void exec(const char* sql);
  void step(size_t s);

  std::string path_;
  sqlite3* db_ = nullptr;
  sqlite3_stmt* stmts_[kStmtCount] = {};
  std::unordered_map<std::string, uint32_t> strings_;
  uint32_t nextStringId_ = 1;
};

// Writes a complete report at outPath: `fill` writes into OUT.partial, which
// is renamed into place only once finished, so a failure never leaves a
// half-written report under the real name.
void writeReportFile(const std::string& outPath, const std::function<void(ReportWriter&)>& fill);

}  // namespace asys
