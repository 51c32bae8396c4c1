// importNsysSqlite: an `nsys export --type sqlite` database into asysrep.
//
// The export is ATTACHed read-only to the report's own connection and every
// table is copied with one INSERT ... SELECT, mapping columns by name: the
// columns an export lacks (older schema versions) become NULL, tables it
// lacks (lazy exports omit empty ones) are skipped, tables asys has no use
// for are ignored. Names stay the source's own (StringIds is copied with its
// ids). docs/import-nsys.md describes the mapping table by table.
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/import/importer.h"
#include "core/import/nsys_source.h"
#include "core/report/asysrep_tables.h"
#include "core/writer/report_writer.h"

namespace asys {

namespace {

using nsys::Source;

// CUDA memcpy kinds and memory kinds as the 2024-2026 exports list them in
// ENUM_CUDA_MEMCPY_OPER / ENUM_CUDA_MEM_KIND. Exports of nsys 2.x and older
// have no enum tables but use the same numbering (their HtoD copies are
// srcKind 1 / dstKind 2: pinned to device).
struct EnumRow {
  int32_t id;
  const char* name;
  const char* label;
};

const EnumRow kMemcpyOper[] = {
    {0, "CUDA_MEMCPY_KIND_UNKNOWN", "Unknown"},
    {1, "CUDA_MEMCPY_KIND_HTOD", "Host-to-Device"},
    {2, "CUDA_MEMCPY_KIND_DTOH", "Device-to-Host"},
    {3, "CUDA_MEMCPY_KIND_HTOA", "Host-to-Array"},
    {4, "CUDA_MEMCPY_KIND_ATOH", "Array-to-Host"},
    {5, "CUDA_MEMCPY_KIND_ATOA", "Array-to-Array"},
    {6, "CUDA_MEMCPY_KIND_ATOD", "Array-to-Device"},
    {7, "CUDA_MEMCPY_KIND_DTOA", "Device-to-Array"},
    {8, "CUDA_MEMCPY_KIND_DTOD", "Device-to-Device"},
    {9, "CUDA_MEMCPY_KIND_HTOH", "Host-to-Host"},
    {10, "CUDA_MEMCPY_KIND_PTOP", "Peer-to-Peer"},
    {11, "CUDA_MEMCPY_KIND_UVM_HTOD", "Unified Host-to-Device"},
    {12, "CUDA_MEMCPY_KIND_UVM_DTOH", "Unified Device-to-Host"},
    {13, "CUDA_MEMCPY_KIND_UVM_DTOD", "Unified Device-to-Device"},
};

const EnumRow kMemKind[] = {
    {0, "CUDA_MEMOPR_MEMORY_KIND_PAGEABLE", "Pageable"},
    {1, "CUDA_MEMOPR_MEMORY_KIND_PINNED", "Pinned"},
    {2, "CUDA_MEMOPR_MEMORY_KIND_DEVICE", "Device"},
    {3, "CUDA_MEMOPR_MEMORY_KIND_ARRAY", "Array"},
    {4, "CUDA_MEMOPR_MEMORY_KIND_MANAGED", "Managed"},
    {5, "CUDA_MEMOPR_MEMORY_KIND_DEVICE_STATIC", "Device Static"},
    {6, "CUDA_MEMOPR_MEMORY_KIND_MANAGED_STATIC", "Managed Static"},
    {7, "CUDA_MEMOPR_MEMORY_KIND_UNKNOWN", "Unknown"},
};

// nsys event classes used when a table has no eventClass column.
constexpr int kEventClassCudaRuntime = 0;
constexpr int kEventClassCudaDriver = 1;
constexpr int kEventClassOsRuntime = 27;

const char* const kRuntime = "CUPTI_ACTIVITY_KIND_RUNTIME";
const char* const kDriver = "CUPTI_ACTIVITY_KIND_DRIVER";  // not written by current nsys; accepted
const char* const kCudaChains = "CUDA_CALLCHAINS";
const char* const kOsrtChains = "OSRT_CALLCHAINS";

std::string str(int64_t v) { return std::to_string(v); }

void copyStrings(Source& src) {
  src.require("StringIds", "id,value");
  src.exec("INSERT OR IGNORE INTO main.StringIds (id, value) SELECT id, value FROM " + Source::ref("StringIds") +
           " WHERE id IS NOT NULL AND value IS NOT NULL");
  src.out().adoptStringIds();
}

void copyEnum(Source& src, const char* from, const char* to, const EnumRow* fallback, size_t n, bool memcpy) {
  if (src.hasRows(from) && src.hasColumn(from, "id")) {
    src.exec(std::string("INSERT OR IGNORE INTO main.") + to + " (id, name, label) SELECT e.id, " +
             src.col(from, "name", "e") + ", " + src.col(from, "label", "e") + " FROM " + Source::ref(from) +
             " e WHERE e.id IS NOT NULL");
    return;
  }
  for (size_t i = 0; i < n; ++i) {
    if (memcpy) src.out().memcpyKind(fallback[i].id, fallback[i].name, fallback[i].label);
    else src.out().memKind(fallback[i].id, fallback[i].name, fallback[i].label);
  }
}

// How the call stacks of CUDA API calls and OS runtime calls become one
// CALLCHAINS id space.
struct Callchains {
  bool cuda = false, osrt = false;
  int64_t cudaShift = 0;   // added to HGGC API callchainId (see cudaShift())
  int64_t osrtOffset = 0;  // added to OSRT chain ids (after the CUDA ones)

  // SQL for the asysrep callchainId of a row of `table` aliased `a`: NULL
  // unless the chain exists.
  std::string cudaRef(const Source& src, const std::string& table, const std::string& a) const {
    if (!cuda || !src.hasColumn(table, "callchainId")) return "NULL";
    const std::string id = "(" + a + ".callchainId + " + str(cudaShift) + ")";
    return "CASE WHEN " + id + " IN (SELECT id FROM temp.asys_cuda_chain) THEN " + id + " END";
  }
  std::string osrtRef(const Source& src, const std::string& table, const std::string& a) const {
    if (!osrt || !src.hasColumn(table, "callchainId")) return "NULL";
    return "CASE WHEN " + a + ".callchainId IN (SELECT id FROM temp.asys_osrt_chain) THEN " + a +
           ".callchainId + " + str(osrtOffset) + " END";
  }
};

// Exports of nsys 2021 number the API side's callchainId from 0 and the
// chains in CUDA_CALLCHAINS from 1 (chain k+1 holds the stack of the call
// with callchainId k). The call's own function is one of its frames, so the
// offset that matches more calls to a frame of their own name is the one.
int64_t cudaShift(Source& src) {
  if (!src.hasColumn(kRuntime, "callchainId") || !src.hasColumn(kRuntime, "nameId") ||
      !src.hasColumn(kCudaChains, "symbol")) {
    return 0;
  }
  auto matches = [&](int shift) {
    return src
        .integer("SELECT count(*) FROM " + Source::ref(kRuntime) +
                 " r WHERE r.callchainId IS NOT NULL AND EXISTS (SELECT 1 FROM " + Source::ref(kCudaChains) +
                 " c WHERE c.id = r.callchainId + " + str(shift) + " AND c.symbol = r.nameId)")
        .value_or(0);
  };
  return matches(1) > matches(0) ? 1 : 0;
}

Callchains copyCallchains(Source& src) {
  Callchains c;
  const std::string cols = "stackDepth, symbol, module, unresolved";
  auto select = [&](const char* table, const std::string& offset) {
    return "SELECT k.id + " + offset + ", k.stackDepth, " + src.col(table, "symbol", "k") + ", " +
           src.col(table, "module", "k") + ", " + src.col(table, "unresolved", "k") + " FROM " +
           Source::ref(table) + " k WHERE k.id IS NOT NULL ORDER BY k.id, k.stackDepth";
  };
  if (src.hasRows(kCudaChains)) {
    src.require(kCudaChains, "id,stackDepth");
    c.cuda = true;
    c.cudaShift = cudaShift(src);
    src.exec("CREATE TEMP TABLE asys_cuda_chain (id INTEGER PRIMARY KEY)");
    src.exec("INSERT OR IGNORE INTO temp.asys_cuda_chain SELECT id FROM " + Source::ref(kCudaChains) +
             " WHERE id IS NOT NULL");
    src.exec("INSERT INTO main.CALLCHAINS (id, " + cols + ") " + select(kCudaChains, "0"));
    c.osrtOffset = src.integer("SELECT max(id) + 1 FROM temp.asys_cuda_chain").value_or(0);
  }
  if (src.hasRows(kOsrtChains)) {
    src.require(kOsrtChains, "id,stackDepth");
    c.osrt = true;
    src.exec("CREATE TEMP TABLE asys_osrt_chain (id INTEGER PRIMARY KEY)");
    src.exec("INSERT OR IGNORE INTO temp.asys_osrt_chain SELECT id FROM " + Source::ref(kOsrtChains) +
             " WHERE id IS NOT NULL");
    src.exec("INSERT INTO main.CALLCHAINS (id, " + cols + ") " + select(kOsrtChains, str(c.osrtOffset)));
  }
  return c;
}

void copyApi(Source& src, const char* table, int defaultClass, const Callchains& chains) {
  if (!src.has(table)) return;
  src.require(table, "start,end,nameId");
  const std::string t = table;
  src.exec("INSERT INTO main.HGGC_API (start, end, eventClass, globalTid, correlationId, nameId, returnValue, "
           "callchainId) SELECT a.start, a.end, " +
           src.col(t, "eventClass", "a", str(defaultClass)) + ", " + src.globalId(t, "globalTid", "a") + ", " +
           src.col(t, "correlationId", "a") + ", a.nameId, " + src.col(t, "returnValue", "a") + ", " +
           chains.cudaRef(src, t, "a") + " FROM " + Source::ref(t) + " a");
}

void copyOsrt(Source& src, const Callchains& chains) {
  const std::string t = "OSRT_API";
  if (!src.has(t)) return;
  src.require(t, "start,end,nameId");
  src.exec("INSERT INTO main.OSRT_API (start, end, eventClass, globalTid, nameId, returnValue, nestingLevel, "
           "callchainId) SELECT o.start, o.end, " +
           src.col(t, "eventClass", "o", str(kEventClassOsRuntime)) + ", " + src.globalId(t, "globalTid", "o") +
           ", o.nameId, " + src.col(t, "returnValue", "o") + ", " + src.col(t, "nestingLevel", "o") + ", " +
           chains.osrtRef(src, t, "o") + " FROM " + Source::ref(t) + " o");
}

// `a.c1, a.c2, ...` for the columns, NULL where the table lacks one.
std::string columnList(const Source& src, const std::string& table, const std::vector<std::string>& columns) {
  std::string sql;
  for (const std::string& c : columns) {
    if (!sql.empty()) sql += ", ";
    sql += c == "globalPid" || c == "globalTid" ? src.globalId(table, c, "a") : src.col(table, c, "a");
  }
  return sql;
}

std::string joined(const std::vector<std::string>& columns) {
  std::string s;
  for (const std::string& c : columns) s += (s.empty() ? "" : ", ") + c;
  return s;
}

// A table whose asysrep columns have the same names as nsys's: every column
// of its descriptor (core/report/asysrep_tables.h), NULL where the export
// lacks it (Source::col).
void copySameNames(Source& src, const char* from, AsysTable to, const char* required) {
  if (!src.has(from)) return;
  src.require(from, required);
  const AsysTableInfo& table = asysTable(to);
  std::vector<std::string> columns;
  for (size_t c = 0; c < table.columnCount; ++c) columns.emplace_back(table.columns[c].name);
  src.exec(std::string("INSERT INTO main.") + table.name + " (" + joined(columns) + ") SELECT " +
           columnList(src, from, columns) + " FROM " + Source::ref(from) + " a");
}

void copyDeviceActivity(Source& src) {
  copySameNames(src, "CUPTI_ACTIVITY_KIND_KERNEL", AsysTable::HGGC_KERNEL, "start,end");
  copySameNames(src, "CUPTI_ACTIVITY_KIND_MEMCPY", AsysTable::HGGC_MEMCPY, "start,end");
  copySameNames(src, "CUPTI_ACTIVITY_KIND_MEMSET", AsysTable::HGGC_MEMSET, "start,end");
  copySameNames(src, "CUDA_GRAPH_NODE_EVENTS", AsysTable::HGGC_GRAPH_NODE_EVENTS, "start");
}

void copyNvtx(Source& src) {
  const std::string t = "NVTX_EVENTS";
  if (!src.has(t)) return;
  src.require(t, "start,eventType");
  const std::vector<std::string> columns = {"start", "end", "eventType", "rangeId", "category", "color", "text",
                                            "globalTid", "endGlobalTid", "textId", "domainId"};
  std::string select;
  for (const std::string& c : columns) {
    if (!select.empty()) select += ", ";
    select += c == "globalTid" || c == "endGlobalTid" ? src.globalId(t, c, "a") : src.col(t, c, "a");
  }
  src.exec("INSERT INTO main.HGTX_EVENTS (" + joined(columns) + ") SELECT " + select + " FROM " + Source::ref(t) +
           " a");
}

// CUDA_GPU_MEMORY_USAGE_EVENTS has no thread and no call stack of its own:
// both come from the API call with the same correlationId in the same
// process (preferring a row that has a call stack).
void copyMemoryUsage(Source& src) {
  const std::string t = "CUDA_GPU_MEMORY_USAGE_EVENTS";
  if (!src.hasRows(t)) return;
  src.require(t, "start,globalPid,memoryOperationType");
  src.exec("CREATE TEMP TABLE asys_api_corr AS SELECT correlationId AS c, globalTid AS t, callchainId AS k "
           "FROM main.HGGC_API WHERE correlationId IS NOT NULL AND correlationId <> 0");
  src.exec("CREATE INDEX temp.asys_api_corr_c ON asys_api_corr (c)");
  const std::string pid = "(" + src.globalId(t, "globalPid", "m") + " >> 24)";
  auto fromApi = [&](const char* what) -> std::string {
    if (!src.hasColumn(t, "correlationId")) return "NULL";
    return std::string("(SELECT a.") + what + " FROM temp.asys_api_corr a WHERE a.c = m.correlationId AND (a.t >> 24) = " +
           pid + " ORDER BY a.k IS NULL LIMIT 1)";
  };
  src.exec("INSERT INTO main.PPU_MEMORY_USAGE_EVENTS (start, globalPid, globalTid, deviceId, contextId, eventId, "
           "address, bytes, memKind, memoryOperationType, accessFlags, correlationId, callchainId) SELECT m.start, " +
           src.globalId(t, "globalPid", "m") + ", " + fromApi("t") + ", " + src.col(t, "deviceId", "m") + ", " +
           src.col(t, "contextId", "m") + ", ROW_NUMBER() OVER (ORDER BY m.start, m.rowid), " +
           src.col(t, "address", "m") + ", " + src.col(t, "bytes", "m") + ", " + src.col(t, "memKind", "m") +
           ", m.memoryOperationType, NULL, " + src.col(t, "correlationId", "m") + ", " + fromApi("k") + " FROM " +
           Source::ref(t) + " m ORDER BY m.start, m.rowid");
  src.exec("DROP TABLE temp.asys_api_corr");
}

// GPU_METRICS samples: the GPU is the low byte of typeId (the metric set of
// one GPU); metric ids are per type, so each distinct metric name gets one
// asysrep metricId. A sample lasts until the next sample of the same GPU and
// metric (the last one has no duration).
void copyMetrics(Source& src) {
  const std::string info = "TARGET_INFO_GPU_METRICS", samples = "GPU_METRICS";
  if (!src.hasRows(info) || !src.hasRows(samples)) return;
  src.require(info, "typeId,metricId,metricName");
  src.require(samples, "timestamp,typeId,metricId,value");
  src.exec("CREATE TEMP TABLE asys_metric_name (id INTEGER PRIMARY KEY, name TEXT UNIQUE)");
  src.exec("INSERT OR IGNORE INTO temp.asys_metric_name (name) SELECT metricName FROM " + Source::ref(info) +
           " WHERE metricName IS NOT NULL ORDER BY metricId, rowid");
  // "SMs Active [Throughput %]": the unit is the bracketed tail.
  src.exec("INSERT INTO main.TARGET_INFO_PPU_METRICS (metricId, metricName, unit) SELECT id, name, "
           "CASE WHEN instr(name, '[') > 0 AND name LIKE '%]' THEN "
           "substr(name, instr(name, '[') + 1, length(name) - instr(name, '[') - 1) END "
           "FROM temp.asys_metric_name ORDER BY id");
  src.exec("CREATE TEMP TABLE asys_metric_map (typeId INTEGER, metricId INTEGER, id INTEGER, "
           "PRIMARY KEY (typeId, metricId))");
  src.exec("INSERT OR IGNORE INTO temp.asys_metric_map SELECT i.typeId, i.metricId, n.id FROM " + Source::ref(info) +
           " i JOIN temp.asys_metric_name n ON n.name = i.metricName");
  src.exec("INSERT INTO main.PPU_METRICS (deviceId, start, duration, metricId, value) SELECT g.typeId & 255, "
           "g.timestamp, LEAD(g.timestamp) OVER (PARTITION BY g.typeId, g.metricId ORDER BY g.timestamp) - "
           "g.timestamp, m.id, g.value FROM " +
           Source::ref(samples) +
           " g JOIN temp.asys_metric_map m ON m.typeId = g.typeId AND m.metricId = g.metricId "
           "ORDER BY g.timestamp, g.typeId & 255, m.id");
  src.exec("DROP TABLE temp.asys_metric_map");
  src.exec("DROP TABLE temp.asys_metric_name");
}

// TARGET_INFO_GPU (and, in exports of nsys 2021, TARGET_INFO_CUDA_GPU) as
// TARGET_INFO_PPU. Only CUDA devices: a display adapter that nsys lists with
// no multiprocessors and compute capability 0 (Windows) is left out.
void copyDevices(Source& src, const std::string& hostName) {
  const std::string host = hostName.empty() ? "NULL" : nsys::sqlText(hostName);
  const std::string insert =
      "INSERT OR IGNORE INTO main.TARGET_INFO_PPU (id, name, busLocation, hostName, uuid, computeMajor, "
      "computeMinor, ceCount, cuCount, totalMemory, cuClock, memoryClock, peakFlopsFp32, peakFlopsFp16, "
      "peakFlopsBf16, peakFlopsFp8, peakFlopsInt8, hbmBandwidth) ";
  const std::string noPeaks = "NULL, NULL, NULL, NULL, NULL, NULL";  // memoryClock and peak FLOP/s
  const std::string gpu = "TARGET_INFO_GPU", cudaGpu = "TARGET_INFO_CUDA_GPU";
  if (src.hasColumn(gpu, "id")) {
    src.exec(insert + "SELECT g.id, " + src.col(gpu, "name", "g") + ", " + src.col(gpu, "busLocation", "g") + ", " +
             host + ", " + src.col(gpu, "uuid", "g") + ", " + src.col(gpu, "computeMajor", "g") + ", " +
             src.col(gpu, "computeMinor", "g") + ", " + src.col(gpu, "asyncEngines", "g") + ", " +
             src.col(gpu, "smCount", "g") + ", " + src.col(gpu, "totalMemory", "g") + ", " +
             src.col(gpu, "clockRate", "g") + ", " + noPeaks + ", " + src.col(gpu, "memoryBandwidth", "g") +
             " FROM " + Source::ref(gpu) + " g WHERE g.id IS NOT NULL AND NOT (" + src.col(gpu, "smCount", "g") +
             " IS 0 AND " + src.col(gpu, "computeMajor", "g") + " IS 0) ORDER BY g.id");
    return;
  }
  // nsys 2021: TARGET_INFO_GPU (deviceId, name, busLocation) plus
  // TARGET_INFO_CUDA_GPU (one row per device and process; clock in kHz,
  // bandwidth in kB/s).
  const bool oldGpu = src.hasColumn(gpu, "deviceId");
  if (src.hasColumn(cudaGpu, "deviceId")) {
    const std::string busFromCuda =
        "CASE WHEN " + src.col(cudaGpu, "pciBusId", "c") + " LIKE '<%' THEN NULL ELSE " +
        src.col(cudaGpu, "pciBusId", "c") + " END";
    const std::string join = oldGpu ? " LEFT JOIN " + Source::ref(gpu) + " g ON g.deviceId = c.deviceId" : "";
    const std::string name = oldGpu ? "COALESCE(g.name, " + src.col(cudaGpu, "name", "c") + ")"
                                    : src.col(cudaGpu, "name", "c");
    const std::string bus = oldGpu ? "COALESCE(" + src.col(gpu, "busLocation", "g") + ", " + busFromCuda + ")"
                                   : busFromCuda;
    src.exec(insert + "SELECT c.deviceId, " + name + ", " + bus + ", " + host + ", NULL, " +
             src.col(cudaGpu, "computeCapabilityMajor", "c") + ", " + src.col(cudaGpu, "computeCapabilityMinor", "c") +
             ", " + src.col(cudaGpu, "numMemcpyEngines", "c") + ", " + src.col(cudaGpu, "numMultiprocessors", "c") +
             ", " + src.col(cudaGpu, "globalMemorySize", "c") + ", " + src.col(cudaGpu, "coreClockRate", "c") +
             " * 1000, " + noPeaks + ", " + src.col(cudaGpu, "globalMemoryBandwidth", "c") + " * 1000 FROM " +
             Source::ref(cudaGpu) + " c" + join + " WHERE c.rowid IN (SELECT min(rowid) FROM " +
             Source::ref(cudaGpu) + " GROUP BY deviceId) ORDER BY c.deviceId");
  }
  if (oldGpu) {
    src.exec(insert + "SELECT g.deviceId, " + src.col(gpu, "name", "g") + ", " + src.col(gpu, "busLocation", "g") +
             ", " + host + ", NULL, NULL, NULL, NULL, NULL, NULL, NULL, " + noPeaks + ", NULL FROM " +
             Source::ref(gpu) + " g WHERE g.deviceId IS NOT NULL ORDER BY g.deviceId");
  }
}

void copyProcessesAndThreads(Source& src) {
  const std::string mask = std::to_string(nsys::kGlobalIdMask);
  if (src.has("PROCESSES")) {
    src.require("PROCESSES", "globalPid");
    src.exec("INSERT OR IGNORE INTO main.PROCESSES (globalPid, pid, name) SELECT " +
             src.globalId("PROCESSES", "globalPid", "p") + ", " +
             src.col("PROCESSES", "pid", "p", "((p.globalPid & " + mask + ") >> 24)") + ", " +
             src.col("PROCESSES", "name", "p") + " FROM " + Source::ref("PROCESSES") + " p ORDER BY p.rowid");
  }
  if (src.has("ThreadNames")) {
    src.require("ThreadNames", "globalTid,nameId");
    src.exec("INSERT INTO main.ThreadNames (globalTid, nameId, priority) SELECT " +
             src.globalId("ThreadNames", "globalTid", "t") + ", t.nameId, " + src.col("ThreadNames", "priority", "t") +
             " FROM " + Source::ref("ThreadNames") + " t");
    if (!src.has("PROCESSES")) {
      // No process table (nsys 2021): a process is named by its main thread
      // (the thread whose id is the process id).
      src.exec("INSERT OR IGNORE INTO main.PROCESSES (globalPid, pid, name) SELECT t.globalTid & ~16777215, "
               "(t.globalTid >> 24) & 16777215, s.value FROM main.ThreadNames t LEFT JOIN main.StringIds s "
               "ON s.id = t.nameId WHERE ((t.globalTid >> 24) & 16777215) = (t.globalTid & 16777215) "
               "ORDER BY t.rowid");
    }
  }
}

struct Capture {
  std::string hostName;
  std::optional<int64_t> start, end;
};

bool parseInt(const std::string& s, int64_t& v) {
  if (s.empty()) return false;
  size_t used = 0;
  try {
    v = std::stoll(s, &used);
  } catch (...) {
    return false;
  }
  return used == s.size();
}

Capture readCapture(Source& src, const std::map<std::string, std::string>& exportMeta) {
  Capture c;
  if (src.hasColumn("TARGET_INFO_SYSTEM_ENV", "name") && src.hasColumn("TARGET_INFO_SYSTEM_ENV", "value")) {
    c.hostName = src.text("SELECT value FROM " + Source::ref("TARGET_INFO_SYSTEM_ENV") +
                          " WHERE name = 'Hostname' AND value <> '' LIMIT 1")
                     .value_or("");
  }
  if (c.hostName.empty()) {
    auto capture = src.nameValues("META_DATA_CAPTURE");
    if (auto it = capture.find("DEVICE_DISPLAY_NAME"); it != capture.end()) c.hostName = it->second;
  }
  // A time-window cut of an export (nsys-ai's fixtures) says which window.
  if (auto it = exportMeta.find("DERIVED_WINDOW_NS"); it != exportMeta.end()) {
    const size_t dash = it->second.find('-', 1);
    int64_t a = 0, b = 0;
    if (dash != std::string::npos && parseInt(it->second.substr(0, dash), a) &&
        parseInt(it->second.substr(dash + 1), b)) {
      c.start = a;
      c.end = b;
      return c;
    }
  }
  if (src.hasColumn("ANALYSIS_DETAILS", "startTime") && src.hasColumn("ANALYSIS_DETAILS", "stopTime")) {
    c.start = src.integer("SELECT min(startTime) FROM " + Source::ref("ANALYSIS_DETAILS"));
    c.end = src.integer("SELECT max(stopTime) FROM " + Source::ref("ANALYSIS_DETAILS"));
    if (c.start && c.end) return c;
  }
  // No session record (nsys 2021): the span of the imported events.
  std::string starts, ends;
  for (const char* t : {"HGGC_API", "HGGC_KERNEL", "HGGC_MEMCPY", "HGGC_MEMSET", "HGTX_EVENTS", "OSRT_API"}) {
    starts += std::string(starts.empty() ? "" : " UNION ALL ") + "SELECT min(start) AS v FROM main." + t;
    ends += std::string(ends.empty() ? "" : " UNION ALL ") + "SELECT max(end) AS v FROM main." + t;
  }
  c.start = src.integer("SELECT min(v) FROM (" + starts + ")");
  c.end = src.integer("SELECT max(v) FROM (" + ends + ")");
  return c;
}

// The session as Nsight Systems' Analysis Summary shows it. epochOffset
// (report time + epochOffset = ns since the Unix epoch, as Kineto imports
// write it): TARGET_INFO_SESSION_START_TIME's utcEpochNs is the wall clock
// at ANALYSIS_DETAILS' startTime. system.NAME: the target system's entries
// a profiling engineer asks for first (OS, CPU, drivers, environment).
void writeSession(Source& src, ReportWriter& out) {
  if (src.hasColumn("TARGET_INFO_SESSION_START_TIME", "utcEpochNs") && src.hasColumn("ANALYSIS_DETAILS", "startTime")) {
    const auto utc = src.integer("SELECT utcEpochNs FROM " + Source::ref("TARGET_INFO_SESSION_START_TIME") +
                                 " WHERE utcEpochNs IS NOT NULL LIMIT 1");
    const auto start = src.integer("SELECT min(startTime) FROM " + Source::ref("ANALYSIS_DETAILS"));
    int64_t offset = 0;
    if (utc && start && *utc > 0 && !__builtin_sub_overflow(*utc, *start, &offset)) {
      out.metaData("epochOffset", std::to_string(offset));
    }
  }
  if (!src.hasColumn("TARGET_INFO_SYSTEM_ENV", "name") || !src.hasColumn("TARGET_INFO_SYSTEM_ENV", "value")) return;
  const std::map<std::string, std::string> env = src.nameValues("TARGET_INFO_SYSTEM_ENV");
  for (const char* name : {"OsDescription", "SoftwareReleaseVersion", "CpuDescription", "CpuCores", "CpuArchitecture",
                           "NvDriverVersion", "CudaDriverVersion", "DeviceEnvironment"}) {
    if (auto it = env.find(name); it != env.end() && !it->second.empty()) {
      out.metaData((std::string("system.") + name).c_str(), it->second);
    }
  }
}

}  // namespace

void importNsysSqlite(const std::string& input, ReportWriter& out) {
  Source src(out, input);
  if (!src.has("StringIds")) {
    throw Error(input + ": not an Nsight Systems SQLite export (no StringIds table)");
  }
  std::map<std::string, std::string> exportMeta = src.nameValues("META_DATA_EXPORT");  // nsys 2024+ (schema 3.x)
  for (auto& [name, value] : src.nameValues("EXPORT_META_DATA")) exportMeta.emplace(name, value);  // schema 2.x

  copyStrings(src);
  copyEnum(src, "ENUM_CUDA_MEMCPY_OPER", "ENUM_HGGC_MEMCPY_OPER", kMemcpyOper, std::size(kMemcpyOper), true);
  copyEnum(src, "ENUM_CUDA_MEM_KIND", "ENUM_HGGC_MEM_KIND", kMemKind, std::size(kMemKind), false);
  const Callchains chains = copyCallchains(src);
  copyApi(src, kRuntime, kEventClassCudaRuntime, chains);
  copyApi(src, kDriver, kEventClassCudaDriver, chains);
  copyOsrt(src, chains);
  copyDeviceActivity(src);
  copyNvtx(src);
  copyMemoryUsage(src);
  copyMetrics(src);
  copyProcessesAndThreads(src);

  const Capture capture = readCapture(src, exportMeta);
  copyDevices(src, capture.hostName);

  auto meta = [&](const char* key) -> std::string {
    auto it = exportMeta.find(key);
    return it == exportMeta.end() ? std::string() : it->second;
  };
  const std::string version = meta("EXPORT_PRODUCT_VERSION");
  out.metaData("format", "asysrep");
  out.metaData("formatVersion", "1");
  if (!capture.hostName.empty()) out.metaData("hostName", capture.hostName);
  if (capture.start) out.metaData("captureStart", std::to_string(*capture.start));
  if (capture.end) out.metaData("captureEnd", std::to_string(*capture.end));
  out.metaData("generator",
               "asys import (Nsight Systems SQLite, " + (version.empty() ? std::string("version unknown") : version) + ")");
  out.metaData("importedFrom", input);
  if (!meta("EXPORT_SCHEMA_VERSION").empty()) out.metaData("nsysExportSchema", meta("EXPORT_SCHEMA_VERSION"));
  writeSession(src, out);
  out.detach(nsys::kSchema);
}

}  // namespace asys
