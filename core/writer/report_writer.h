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

struct sqlite3;
struct sqlite3_stmt;

namespace asys {

constexpr int64_t kNull = INT64_MIN;  // written as SQL NULL
// The same for the narrower columns: an INT32 field that holds kNull32 and a
// string-id field that holds kNoStringId (ids start at 1) are written as NULL.
constexpr int32_t kNull32 = INT32_MIN;
constexpr uint32_t kNoStringId = 0;

struct ApiRow {
  int64_t start, end;
  int32_t eventClass;
  int64_t globalTid, correlationId;
  uint32_t nameId;
  int64_t returnValue;
  int64_t callchainId = kNull;
};

struct OsrtRow {
  int64_t start, end;
  int32_t eventClass;
  int64_t globalTid;
  uint32_t nameId;
  int64_t returnValue;
  int32_t nestingLevel;
  int64_t callchainId = kNull;
};

struct KernelRow {
  int64_t start, end;
  int32_t deviceId, contextId, streamId;
  int64_t correlationId, globalPid;
  uint32_t demangledName, shortName, mangledName;
  int32_t gridX, gridY, gridZ, blockX, blockY, blockZ;
  int32_t registersPerThread, staticSharedMemory, dynamicSharedMemory;
  int64_t graphNodeId = kNull, graphId = kNull;
};

struct MemcpyRow {
  int64_t start, end;
  int32_t deviceId, contextId, streamId;
  int64_t correlationId, globalPid, bytes;
  int32_t copyKind, srcKind, dstKind;
  int64_t srcDeviceId = kNull, dstDeviceId = kNull;
};

struct MemsetRow {
  int64_t start, end;
  int32_t deviceId, contextId, streamId;
  int64_t correlationId, globalPid;
  int32_t value;
  int64_t bytes;
  int32_t memKind;
};

struct GraphNodeRow {
  int64_t start, end, globalTid;
  uint32_t nameId;
  int64_t graphNodeId, originalGraphNodeId, graphId;
};

struct HgtxRow {
  int64_t start, end;  // end kNull = never closed
  int32_t eventType;
  int64_t rangeId = kNull, category = kNull, color = kNull;
  const char* text = nullptr;  // inline text, or nullptr
  int64_t globalTid, endGlobalTid = kNull;
  int64_t textId = kNull, domainId = kNull;
  // A project column: the arguments an importer recorded with the range (a
  // PyTorch cpu_op's "sizes = [...], types = [...]"), a StringIds id.
  int64_t argsId = kNull;
};

struct MemoryEventRow {
  int64_t start, globalPid, globalTid;
  int32_t deviceId, contextId;
  int64_t eventId, address, bytes;
  int32_t memKind, memoryOperationType, accessFlags;
  int64_t correlationId, callchainId;
};

struct DeviceInfoRow {
  int64_t id;
  std::string name, busLocation, hostName, uuid;
  int64_t computeMajor, computeMinor, ceCount, cuCount, totalMemory, cuClock, memoryClock;
  double peakFlopsFp32, peakFlopsFp16, peakFlopsBf16, peakFlopsFp8, peakFlopsInt8, hbmBandwidth;
};

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
  enum Stmt {
    kMeta,
    kString,
    kProcess,
    kThread,
    kDevice,
    kCopyKind,
    kMemKind,
    kMetricInfo,
    kCallchain,
    kApi,
    kOsrt,
    kKernel,
    kMemcpy,
    kMemset,
    kGraphNode,
    kHgtx,
    kMemEvent,
    kMetric,
    kPcclStage,
    kMemEventChain,
    kStmtCount
  };
  [[noreturn]] void fail(const char* what);
  void exec(const char* sql);
  void step(Stmt s);

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
