#pragma once
// The in-memory report model: one columnar struct per asysrep table, each read
// from SQLite once, on first use, into plain vectors (no per-row objects).
// Every name is a uint32 id into one string pool, one id per distinct text;
// kNoString marks SQL NULL. A cell of the wrong type is an Error naming the
// table, column and row (core/report/column_loader.h).
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/base/string_pool.h"
#include "core/report/column_loader.h"
#include "core/report/loaded_columns.h"

namespace asys {

class ReadSet;
class SqliteDb;

constexpr int64_t kNoValue = INT64_MIN;  // SQL NULL in an integer column

// A report's times lie within +-2^62 ns (146 years) of its clock's zero, so
// any two of them, of any tables, differ by less than 2^63: the loads and the
// META_DATA reader refuse a time past it (far beyond any real capture).
constexpr int64_t kTimeLimit = int64_t{1} << 62;
inline bool withinTimeLimit(int64_t t) { return t >= -kTimeLimit && t < kTimeLimit; }
// What their errors say of such a time, after it.
constexpr const char* kPastTimeLimit = " is further than 2^62 ns (146 years) from the clock's zero";

inline int64_t pidOf(int64_t globalTid) { return (globalTid >> 24) & 0xFFFFFF; }
inline int64_t tidOf(int64_t globalTid) { return globalTid & 0xFFFFFF; }

// HGGC_API and OSRT_API: calls on host threads. The columns are the ones
// HGGC_API's descriptor loads (core/report/asysrep_tables.h); OSRT_API is read
// into the same shape.
struct ApiCalls {
  ASYSREP_HGGC_API(ASYS_LOADED_VECTOR)
  size_t rows = 0;  // every loaded column has this many entries
  size_t size() const { return rows; }
};

// HGGC_API columns, as bits, like the kernels': the HGTX association reads
// the 4 that link a call to its activities and its thread, not its name.
namespace acol {
ASYS_COLUMN_BITS(HGGC_API)
inline constexpr uint32_t links = start | end | globalTid | correlationId;
}  // namespace acol

// HGGC_KERNEL columns, as bits, one per column of its descriptor: a rule
// loads only the columns it reads, so a summary of 10 million kernels
// decodes 6 columns, not 21.
namespace kcol {
ASYS_COLUMN_BITS(HGGC_KERNEL)
inline constexpr uint32_t time = start | end;
inline constexpr uint32_t names = demangledName | shortName | mangledName;
inline constexpr uint32_t launcher = correlationId | globalPid;
inline constexpr uint32_t place = deviceId | contextId | streamId;
inline constexpr uint32_t grid = gridX | gridY | gridZ | blockX | blockY | blockZ;
}  // namespace kcol

// One vector per column of HGGC_KERNEL's descriptor, in its order; a vector
// is empty until its column is loaded.
struct Kernels {
  ASYSREP_HGGC_KERNEL(ASYS_LOADED_VECTOR)
  size_t rows = 0;  // every loaded column has this many entries
  size_t size() const { return rows; }
};

enum HgtxEventType : int32_t {
  kHgtxMark = 34,
  kHgtxPushPop = 59,
  kHgtxStartEnd = 60,
  kHgtxDomainCreate = 75,
};

struct HgtxEvents {
  std::vector<int64_t> start, end, globalTid, endGlobalTid, rangeId, domainId;
  std::vector<int32_t> eventType;
  std::vector<uint32_t> nameId;  // `text` or `textId`, whichever is set
  // `argsId` (a project column): the arguments an importer recorded with a
  // range (a PyTorch cpu_op's shapes); empty when the table has no such column.
  std::vector<uint32_t> argsId;
  size_t size() const { return start.size(); }
};

// HGGC_MEMCPY and HGGC_MEMSET in one shape (memset: copyKind = kNoValue,
// srcKind = memKind, dstKind = kNoValue).
struct MemoryOps {
  std::vector<int64_t> start, end, correlationId, globalPid, bytes, copyKind, srcKind, dstKind;
  std::vector<int64_t> graphNodeId, graphId;
  std::vector<int32_t> deviceId, contextId, streamId;
  size_t size() const { return start.size(); }
};

// HGGC_GRAPH_NODE_EVENTS: graph nodes created on host threads.
struct GraphNodeEvents {
  std::vector<int64_t> start, end, globalTid, graphNodeId, originalGraphNodeId, graphId;
  size_t size() const { return start.size(); }
};

// PPU_METRICS joined with TARGET_INFO_PPU_METRICS (names and units interned).
struct MetricSamples {
  std::vector<int64_t> start, duration;
  std::vector<int32_t> deviceId;
  std::vector<uint32_t> nameId, unitId;
  std::vector<double> value;
  size_t size() const { return start.size(); }
};

struct PcclStages {
  std::vector<int64_t> start, end, globalTid, channelId;
  std::vector<int32_t> deviceId;
  std::vector<uint32_t> nameId, channelTypeId;
  size_t size() const { return start.size(); }
};

// PPU_MEMORY_USAGE_EVENTS: device memory allocations and releases. Columns
// as bits, like the kernels': the summary needs 9 of the 11.
constexpr int32_t kMemoryAllocation = 0, kMemoryRelease = 1;  // memoryOperationType
namespace mcol {
enum : uint32_t {
  start = 1u << 0, globalPid = 1u << 1, globalTid = 1u << 2, deviceId = 1u << 3, contextId = 1u << 4,
  eventId = 1u << 5, address = 1u << 6, bytes = 1u << 7, operation = 1u << 8, accessFlags = 1u << 9,
  callchainId = 1u << 10,
  all = (1u << 11) - 1,
  // what pairing and grouping read
  pairing = start | globalPid | globalTid | deviceId | eventId | address | bytes | operation | callchainId,
};
}  // namespace mcol
struct MemoryUsageEvents {
  std::vector<int64_t> start, globalPid, globalTid, eventId, address, bytes, contextId, accessFlags, callchainId;
  std::vector<int32_t> deviceId;   // NULL reads as -1 (no PPU)
  std::vector<int32_t> operation;  // memoryOperationType; NULL reads as -1
  size_t rows = 0;  // every loaded column has this many entries
  size_t size() const { return rows; }
};

// CALLCHAINS: one row per frame; depth 0 is the innermost frame (the one that
// called the allocator), larger depths its callers up to the root.
struct CallchainFrames {
  std::vector<int64_t> id;
  std::vector<int32_t> depth;
  std::vector<uint32_t> symbol, module;  // kNoString when NULL
  size_t size() const { return id.size(); }
};

struct Device {
  int64_t id = 0;
  std::string name, busLocation, hostName, uuid;
  int64_t computeMajor = kNoValue, computeMinor = kNoValue, ceCount = kNoValue, cuCount = kNoValue;
  int64_t totalMemory = kNoValue, cuClock = kNoValue, memoryClock = kNoValue;
  // Peak FLOP/s per data type and HBM bytes/s (the utilisation estimates);
  // 0 when the report does not say (NULL, absent column, or not positive).
  double peakFlopsFp32 = 0, peakFlopsFp16 = 0, peakFlopsBf16 = 0, peakFlopsFp8 = 0, peakFlopsInt8 = 0;
  double hbmBandwidth = 0;
};

struct Process {
  int64_t globalPid = 0, pid = 0;
  std::string name;
};

// What the viewer shows once a report is open.
struct ReportSummary {
  std::string path, hostName, generator;
  int64_t captureStart = kNoValue, captureEnd = kNoValue;
  std::vector<std::string> tables;  // asysrep tables present with rows
};

class Report {
 public:
  // Opens and validates: an SQLite file whose META_DATA says format=asysrep
  // and a formatVersion this engine reads. Throws Error with one line naming
  // the file and the problem.
  static std::unique_ptr<Report> open(const std::string& path);
  ~Report();

  const std::string& path() const { return path_; }
  // The name messages use for this report: a foreign input imported into a
  // temporary asysrep is opened from the temporary file but named as given.
  void setDisplayPath(const std::string& path) { path_ = summary_.path = path; }
  const ReportSummary& summary() const { return summary_; }
  bool hasData(std::string_view table) const;  // present and not empty
  // The rows of `table` as its largest rowid says (no scan: a table
  // written and never deleted from holds that many); 0 when absent.
  uint64_t rowEstimate(const std::string& table) const;

  StringPool& strings();
  // The HGGC API calls with at least the `columns` (acol bits) loaded.
  const ApiCalls& hggcApi(uint32_t columns = acol::all);
  const ApiCalls& osrtApi();
  // The kernels with at least the `columns` (kcol bits) loaded; the other
  // vectors may be empty until a later call asks for them.
  const Kernels& kernels(uint32_t columns = kcol::all);
  // HGGC_KERNEL columns (kcol bits) read along with the first ones a rule
  // asks for, so that rules run later on this report find them loaded and
  // the table is read from the file once. The CLI plans every column when it
  // runs several rules that read kernels; the viewer, which cannot know the
  // next rule, always does (docs/big-reports.md).
  void planKernelColumns(uint32_t columns) { kernelPlan_ = columns & kcol::all; }
  // The kcol bits loaded now (a view that may read them where they are).
  uint32_t loadedKernelColumns() const { return kernelColumns_; }
  uint32_t plannedKernelColumns() const { return kernelPlan_; }
  // The acol bits of HGGC_API loaded now.
  uint32_t loadedHggcApiColumns() const { return hggcApiColumns_; }
  // HGGC_KERNEL rows from `first` to `last` - 1 (positions in rowid order,
  // as in kernels()), read now from the file into `into`: its `columns`
  // (kcol bits), from a row at or before `first` (the start of a block of
  // ColumnLoad::kRowidMarkEvery rows), which the call returns: `into` row j
  // is kernel (returned + j). What a view reads a page at a time instead of
  // loading the table's columns whole. Cells are checked as by kernels().
  size_t readKernelRows(size_t first, size_t last, uint32_t columns, Kernels& into);
  // The same for HGGC_API (acol bits), positions as in hggcApi().
  size_t readHggcApiRows(size_t first, size_t last, uint32_t columns, ApiCalls& into);
  const HgtxEvents& hgtx() { return *sharedHgtx(); }
  bool hgtxLoaded() const { return hgtx_ != nullptr; }
  // The same, shared: a view keeps the events it reads alive after releaseHgtx().
  std::shared_ptr<const HgtxEvents> sharedHgtx();
  // HGTX_EVENTS in one scan, in rowid order, never held whole (60 bytes an
  // event): onChunk(firstEvent, chunk) gets the events a chunk of rows at a
  // time, chunk row j being event firstEvent + j (indices as in hgtx()),
  // with start, end, eventType, globalTid, endGlobalTid, domainId and nameId
  // (rangeId and argsId empty). Checked as hgtx() checks them. When the
  // events are loaded already, they are the one chunk (core/report/hgtx_scan.cc).
  void scanHgtx(const std::function<void(size_t firstEvent, const HgtxEvents& chunk)>& onChunk);
  const GraphNodeEvents& graphNodes();
  const MemoryOps& memcpys();
  const MemoryOps& memsets();
  // ENUM_HGGC_MEMCPY_OPER / ENUM_HGGC_MEM_KIND: id -> label (interned).
  const std::unordered_map<int64_t, uint32_t>& memcpyKindLabels();
  const std::unordered_map<int64_t, uint32_t>& memKindLabels();
  const MetricSamples& metrics() { return *sharedMetrics(); }
  // The same, shared: a result that is a view keeps the samples it reads
  // alive after releaseMetrics() (the timeline's).
  std::shared_ptr<const MetricSamples> sharedMetrics();
  const PcclStages& pcclStages();
  // The memory events with at least the `columns` (mcol bits) loaded.
  const MemoryUsageEvents& memoryUsage(uint32_t columns = mcol::all);
  const CallchainFrames& callchains();
  // ThreadNames: globalTid -> name id.
  const std::unordered_map<int64_t, uint32_t>& threadNames();
  const std::vector<Device>& devices();
  const std::vector<Process>& processes();
  // The name of a range's domain (kNoString when unnamed). Domain ids are
  // per process, as in Nsight Systems: two processes may both call their own
  // domain 1.
  uint32_t hgtxDomainName(int64_t globalTid, int64_t domainId);

  // Give back the memory of loaded columns and tables; a later call loads
  // them again from the file. The timeline releases what it read once its
  // tracks hold it, so the next family of tracks has the room (a 2 GB
  // WebAssembly heap holds the tracks of ~30 M events, not those and every
  // table they came from). References to them taken before are invalid.
  void releaseKernelColumns(uint32_t columns);   // kcol bits
  void releaseHggcApiColumns(uint32_t columns);  // acol bits
  void releaseHgtx();
  void releaseOsrtApi() { osrtApi_.reset(); }
  void releaseMemoryOps() {  // HGGC_MEMCPY and HGGC_MEMSET
    memcpys_.reset();
    memsets_.reset();
  }
  void releaseMetrics() { metrics_.reset(); }
  void releasePcclStages() { pcclStages_.reset(); }

  // What the loads so far tolerated and noted (ColumnLoad::Notes) in any of
  // `tables`: a rule's warnings about the data it read.
  std::vector<std::string> notesOn(const std::vector<std::string>& tables) const;

  // The tables and columns read from the file while the returned ReadSet
  // lives (core/report/read_set.h): `asys stats --print-reads`.
  std::unique_ptr<ReadSet> recordReads();

 private:
  Report() = default;
  void loadStrings();
  void loadKernelColumns(uint32_t columns);
  // Loads the `columns` (acol bits) of `table` into `a` in one scan.
  struct RowMarks;
  void loadApi(const char* table, ApiCalls& a, uint32_t columns, RowMarks* marks = nullptr);
  MemoryOps loadMemoryOps(bool memset);
  std::unordered_map<int64_t, uint32_t> loadEnumLabels(const char* table);

  std::string path_;
  std::unique_ptr<SqliteDb> db_;
  ReportSummary summary_;
  bool stringsLoaded_ = false;
  std::string stringsError_;  // why StringIds could not be read: every later use fails the same way
  StringPool strings_;
  ColumnLoad::Notes notes_;
  ApiCalls hggcApi_;
  uint32_t hggcApiColumns_ = 0;  // acol bits loaded so far
  std::optional<ApiCalls> osrtApi_;
  Kernels kernels_;
  uint32_t kernelColumns_ = 0;  // kcol bits loaded so far
  uint32_t kernelPlan_ = 0;     // kcol bits to load with any scan
  // The rowid of every ColumnLoad::kRowidMarkEvery-th row of a table, taken
  // by its first scan: where readKernelRows and readHggcApiRows find rows.
  // `rows`: the table's rows at that scan, kept when its columns are released.
  struct RowMarks {
    std::vector<int64_t> rowids;
    size_t rows = 0;
    bool read = false;
  };
  RowMarks kernelMarks_, hggcApiMarks_;
  // Rows [first, last) of `table`, by `marks`, into the targets
  // `addTargets` puts on the load; `read` is set to the rows read.
  size_t readRows(const char* table, const RowMarks& marks, size_t first, size_t last,
                  const std::function<void(ColumnLoad&)>& addTargets, size_t& read);
  std::shared_ptr<const HgtxEvents> hgtx_;
  std::optional<GraphNodeEvents> graphNodes_;
  std::optional<MemoryOps> memcpys_, memsets_;
  std::optional<std::unordered_map<int64_t, uint32_t>> memcpyKindLabels_, memKindLabels_, threadNames_;
  std::shared_ptr<const MetricSamples> metrics_;
  std::optional<PcclStages> pcclStages_;
  MemoryUsageEvents memoryUsage_;
  uint32_t memoryColumns_ = 0;  // mcol bits loaded so far
  std::optional<CallchainFrames> callchains_;
  std::optional<std::vector<Device>> devices_;
  std::optional<std::vector<Process>> processes_;
  // (pid, domainId) -> name id; built with hgtx_.
  std::map<std::pair<int64_t, int64_t>, uint32_t> hgtxDomains_;
};

}  // namespace asys
