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
#include <utility>
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

// HGTX_EVENTS columns, as bits, one per column of its descriptor that the
// reader loads: what a scan of the table reads (Report::scanHgtx).
namespace hcol {
ASYS_COLUMN_BITS(HGTX_EVENTS)
// What a scan reads unless asked for more: a range's time, type, threads,
// domain and name (not its rangeId).
inline constexpr uint32_t ranges = all & ~rangeId;
// argsId, read by hand as hgtx() reads it (a project column: a table without
// it gives none); not a descriptor column, so a bit past them.
static_assert(count < 31, "room for the args bit");
inline constexpr uint32_t args = 1u << count;
}  // namespace hcol

// HGTX_EVENTS, as its descriptor loads it; nameId is `textId`, or the text
// of `text` where textId is NULL (by hand: one name per text however each
// row stores it), and argsId is by hand too.
struct HgtxEvents {
  ASYSREP_HGTX_EVENTS(ASYS_LOADED_VECTOR)
  // `argsId` (a project column): the arguments an importer recorded with a
  // range (a PyTorch cpu_op's shapes); empty when the table has no such column.
  std::vector<uint32_t> argsId;
  size_t size() const { return start.size(); }
};

// HGGC_MEMCPY and HGGC_MEMSET in one shape: HGGC_MEMCPY's loaded columns;
// a memset reads its memKind into srcKind (its descriptor's As) and has
// copyKind = dstKind = kNoValue. The kinds stay int64 (kNoValue for NULL),
// which their consumers test, not the descriptor's Int32 (NULL as -1).
struct MemoryOps {
  ASYSREP_HGGC_MEMCPY(ASYS_LOADED_VECTOR)
  size_t size() const { return start.size(); }
};

// MemoryOps' columns, as bits (a memset's memKind is srcKind), for a reader
// that keeps a few of them (Report::readMemoryOps).
namespace ocol {
ASYS_COLUMN_BITS(HGGC_MEMCPY)
}  // namespace ocol

// HGGC_GRAPH_NODE_EVENTS: graph nodes created on host threads.
struct GraphNodeEvents {
  ASYSREP_HGGC_GRAPH_NODE_EVENTS(ASYS_LOADED_VECTOR)
  size_t size() const { return start.size(); }
};

// PPU_METRICS joined with TARGET_INFO_PPU_METRICS: the loaded columns, and
// by hand, for the sample's metricId, its name and unit (interned).
struct MetricSamples {
  ASYSREP_PPU_METRICS(ASYS_LOADED_VECTOR)
  std::vector<uint32_t> nameId, unitId;
  size_t size() const { return start.size(); }
};

// PCCL_STAGE_EVENTS; channelId stays int64 (NULL is kNoValue, which the
// stage summary tests), channelType is interned as channelTypeId.
struct PcclStages {
  ASYSREP_PCCL_STAGE_EVENTS(ASYS_LOADED_VECTOR)
  size_t size() const { return start.size(); }
};

// PPU_MEMORY_USAGE_EVENTS: device memory allocations and releases. Columns
// as bits, like the kernels': the summary needs 9 of the 11. The descriptor
// names memoryOperationType `operation`; contextId and accessFlags stay
// int64 (NULL is kNoValue, which the detail tests).
constexpr int32_t kMemoryAllocation = 0, kMemoryRelease = 1;  // memoryOperationType
namespace mcol {
ASYS_COLUMN_BITS(PPU_MEMORY_USAGE_EVENTS)
// what pairing and grouping read
inline constexpr uint32_t pairing = start | globalPid | globalTid | deviceId | eventId | address | bytes | operation |
                                    callchainId;
}  // namespace mcol
struct MemoryUsageEvents {
  ASYSREP_PPU_MEMORY_USAGE_EVENTS(ASYS_LOADED_VECTOR)
  size_t rows = 0;  // every loaded column has this many entries
  size_t size() const { return rows; }
};

// CALLCHAINS: one row per frame; depth (stackDepth) 0 is the innermost
// frame (the one that called the allocator), larger depths its callers up to
// the root. symbol and module are kNoString when NULL.
struct CallchainFrames {
  ASYSREP_CALLCHAINS(ASYS_LOADED_VECTOR)
  size_t size() const { return id.size(); }
};

// TARGET_INFO_PPU and PROCESSES: a few rows each, read row by row into a
// struct of their loaded columns (integers kNoValue when NULL). Device's
// reals are its peak FLOP/s per data type and HBM bytes/s (the utilisation
// estimates): 0 when the report does not say (NULL, absent column, or not
// positive).
struct Device {
  ASYSREP_TARGET_INFO_PPU(ASYS_READ_ROW_FIELD)
};

struct Process {
  ASYSREP_PROCESSES(ASYS_READ_ROW_FIELD)
};

// What the viewer shows once a report is open.
struct ReportSummary {
  std::string path, hostName, generator;
  int64_t captureStart = kNoValue, captureEnd = kNoValue;
  std::vector<std::string> tables;  // asysrep tables present with rows
  // META_DATA's other entries (epochOffset, importedFrom, system.*), as stored.
  std::vector<std::pair<std::string, std::string>> meta;
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
  // Every row of HGGC_KERNEL's `columns` (kcol bits), a chunk of rows at a
  // time, for a rule that folds them into what it keeps instead of holding
  // the columns (ColumnLoad::runInChunks): `chunk(rows, first)` is given the
  // table's rows [first, first + rows.size()) in rowid order, checked and
  // noted as kernels() loads them, and they are not kept. Columns loaded
  // already, or a plan for later rules (planKernelColumns) still to load,
  // are loaded as kernels() loads them and handed over whole, as one chunk.
  // Returns the table's rows. `keep` (kcol bits): columns loaded in the
  // same scan, as kernels() loads them, for a rule that reads them by row
  // after (a second scan of ten million rows costs seconds); they are in
  // the chunks too.
  using KernelChunk = std::function<void(const Kernels& rows, size_t first)>;
  size_t forEachKernelChunk(uint32_t columns, const KernelChunk& chunk, uint32_t keep = 0);
  // The same for HGGC_API (acol bits).
  using ApiChunk = std::function<void(const ApiCalls& rows, size_t first)>;
  size_t forEachHggcApiChunk(uint32_t columns, const ApiChunk& chunk);
  const HgtxEvents& hgtx() { return *sharedHgtx(); }
  bool hgtxLoaded() const { return hgtx_ != nullptr; }
  // The same, shared: a view keeps the events it reads alive after releaseHgtx().
  std::shared_ptr<const HgtxEvents> sharedHgtx();
  // HGTX_EVENTS in one scan, in rowid order, never held whole (60 bytes an
  // event): onChunk(firstEvent, chunk) gets the events a chunk of rows at a
  // time, chunk row j being event firstEvent + j (indices as in hgtx()),
  // with the `columns` (hcol bits; by default start, end, eventType,
  // globalTid, endGlobalTid, domainId and nameId), the others empty, and
  // argsId only with hcol::args. Read and checked as hgtx() reads and checks them (the same
  // descriptor). When the events are loaded already, they are the one chunk,
  // every column in it (core/report/hgtx_scan.cc).
  // `inlineTexts`: the names stored inline (HGTX_EVENTS' text, not textId)
  // are interned there, their ids tagged (StringPool::kOverlayBit), not in
  // strings(): for a reader that keeps few of them (the association's choice
  // of ranges for the operators) and reads them back by event after
  // (hgtxTexts). Loaded events have every name in strings() already.
  using HgtxChunk = std::function<void(size_t firstEvent, const HgtxEvents& chunk)>;
  void scanHgtx(uint32_t columns, const HgtxChunk& onChunk, StringPool* inlineTexts = nullptr);
  // The inline texts (HGTX_EVENTS' text) of `events` (indices as in
  // hgtx(), after a scanHgtx with `inlineTexts`, which notes where the
  // table's blocks of rows are), read again from the file and interned:
  // ids[k] is events[k]'s text (kNoString where NULL). Rows are read a
  // block of ColumnLoad::kRowidMarkEvery at a time, each block once. With
  // `pool`: interned there, the ids tagged (StringPool::kOverlayBit), not
  // in strings() (a view that reads a page's names and keeps none).
  std::vector<uint32_t> hgtxTexts(const std::vector<uint32_t>& events, StringPool* pool = nullptr);
  void scanHgtx(const HgtxChunk& onChunk) { scanHgtx(hcol::ranges, onChunk); }
  // The names of HGTX_EVENTS' domains, (pid, domainId) -> name id (the
  // last creation in rowid order wins, the name read as hgtx() reads it),
  // by a query of the domain creations alone: for a reader that chooses
  // ranges as a scan finds them (chooseRanges) and met a range before the
  // row that names its domain. The loaded events' domains when they are
  // loaded; the query is made once a report.
  const std::map<std::pair<int64_t, int64_t>, uint32_t>& hgtxDomainNames();
  // The same where they are known without a query (the events loaded, or
  // hgtxDomainNames asked before), else null.
  const std::map<std::pair<int64_t, int64_t>, uint32_t>* knownHgtxDomainNames() const {
    if (hgtx_) return &hgtxDomains_;
    return queriedDomains_ ? &*queriedDomains_ : nullptr;
  }
  const GraphNodeEvents& graphNodes();
  const MemoryOps& memcpys();
  const MemoryOps& memsets();
  // HGGC_MEMSET (`memset`) or HGGC_MEMCPY read now, every column checked and
  // noted as memsets() and memcpys() load them (the same errors and
  // warnings), but only the `columns` (ocol bits) kept, the others empty,
  // and not held by the report: for a caller that reads a few columns and
  // gives them back soon (the activity list: 6 of 13, 44 of 100 bytes a
  // memcpy). Read a chunk at a time, so the columns not kept are never held whole.
  MemoryOps readMemoryOps(bool memset, uint32_t columns);
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
  bool memoryOpsLoaded() const { return memcpys_.has_value() || memsets_.has_value(); }
  void releaseMemoryOps() {  // HGGC_MEMCPY and HGGC_MEMSET
    memcpys_.reset();
    memsets_.reset();
  }
  void releaseMetrics() { metrics_.reset(); }
  void releasePcclStages() { pcclStages_.reset(); }
  // Whether the names (StringIds, and the texts interned since) are loaded:
  // until they are, nothing outside the report holds one of its name ids.
  bool stringsLoaded() const { return stringsLoaded_; }
  // Gives back everything read since the report was opened, the names too:
  // a later call reads them again, and the same calls in the same order give
  // the same ids. For a caller that has copied what it keeps and holds
  // nothing of the report (a compare rule's side: core/rules/compare.cc).
  // Ids, references and views taken before are invalid.
  void releaseAll();

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
  RowMarks kernelMarks_, hggcApiMarks_, hgtxMarks_;
  // A scan of `load` (its targets added) in chunks of `chunkRows`
  // (ColumnLoad::runInChunks), noting the table's `marks` if it is its
  // first (none: null marks).
  size_t scanInChunks(ColumnLoad& load, RowMarks* marks, size_t chunkRows,
                      const std::function<void(size_t, size_t)>& chunk);
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
  // The same by hgtxDomainNames' query, made once a report: in the browser
  // each query of HGTX_EVENTS reads about all of its part of the file.
  std::optional<std::map<std::pair<int64_t, int64_t>, uint32_t>> queriedDomains_;
};

}  // namespace asys
