#include "core/report/report.h"

#include <cstdio>
#include <cstring>
#include <fstream>

#include "core/base/error.h"
#include "core/report/sqlite_db.h"

namespace asys {

namespace {

constexpr int kReadableFormatVersion = 1;

// Every table of asysrep-format-v1, for the summary's "which data it has".
const char* const kKnownTables[] = {
    "HGGC_API", "HGGC_KERNEL", "HGGC_MEMCPY", "HGGC_MEMSET", "HGGC_GRAPH_NODE_EVENTS",
    "HGTX_EVENTS", "OSRT_API", "CALLCHAINS", "PPU_MEMORY_USAGE_EVENTS", "PPU_METRICS",
    "PCCL_STAGE_EVENTS", "TARGET_INFO_PPU", "PROCESSES", "ThreadNames"};

uint32_t be(const unsigned char* p, int n) {
  uint32_t v = 0;
  for (int i = 0; i < n; ++i) v = (v << 8) | p[i];
  return v;
}

// Checks the file before SQLite sees it, so a foreign or cut file gets a
// message that says so instead of SQLite's "file is not a database".
void checkSqliteFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path + ": cannot open: " + std::strerror(errno));
  unsigned char header[100] = {};
  in.read(reinterpret_cast<char*>(header), sizeof header);
  std::streamsize got = in.gcount();
  if (got < 16 || std::memcmp(header, "SQLite format 3\0", 16) != 0) {
    throw Error(path + ": not an asysrep report (not an SQLite database)");
  }
  if (got < 100) throw Error(path + ": truncated report (" + std::to_string(got) + " bytes)");
  uint32_t pageSize = be(header + 16, 2);
  if (pageSize == 1) pageSize = 65536;
  bool pageCountValid = be(header + 24, 4) == be(header + 92, 4);
  uint64_t pageCount = be(header + 28, 4);
  in.seekg(0, std::ios::end);
  uint64_t size = static_cast<uint64_t>(in.tellg());
  if (pageCountValid && pageCount > 0 && size < pageCount * pageSize) {
    throw Error(path + ": truncated report (" + std::to_string(size) + " of " +
                std::to_string(pageCount * pageSize) + " bytes)");
  }
}

}  // namespace

Report::~Report() = default;

std::unique_ptr<Report> Report::open(const std::string& path) {
  checkSqliteFile(path);
  std::unique_ptr<Report> r(new Report());
  r->path_ = path;
  r->db_ = std::make_unique<SqliteDb>(path);
  SqliteDb& db = *r->db_;
  if (!db.hasTable("META_DATA")) {
    throw Error(path + ": not an asysrep report (SQLite database without a META_DATA table)");
  }
  std::string format, version;
  {
    Statement st(db, "SELECT name, value FROM META_DATA");
    while (st.step()) {
      std::string_view name = st.text(0);
      std::string value(st.text(1));
      if (name == "format") format = value;
      else if (name == "formatVersion") version = value;
      else if (name == "hostName") r->summary_.hostName = value;
      else if (name == "generator") r->summary_.generator = value;
      else if (name == "captureStart" && !value.empty()) r->summary_.captureStart = std::stoll(value);
      else if (name == "captureEnd" && !value.empty()) r->summary_.captureEnd = std::stoll(value);
    }
  }
  if (format != "asysrep") {
    throw Error(path + ": not an asysrep report (META_DATA format is '" + format + "', expected 'asysrep')");
  }
  int v = 0;
  if (version.empty() || std::sscanf(version.c_str(), "%d", &v) != 1 || v < 1) {
    throw Error(path + ": asysrep report without a valid META_DATA formatVersion ('" + version + "')");
  }
  if (v > kReadableFormatVersion) {
    throw Error(path + ": asysrep format version " + version + " is newer than this build reads (" +
                std::to_string(kReadableFormatVersion) + ")");
  }
  r->summary_.path = path;
  for (const char* t : kKnownTables) {
    if (db.hasTable(t)) {
      Statement st(db, std::string("SELECT 1 FROM \"") + t + "\" LIMIT 1");
      if (st.step()) r->summary_.tables.emplace_back(t);
    }
  }
  return r;
}

bool Report::hasData(std::string_view table) const {
  for (const auto& t : summary_.tables)
    if (t == table) return true;
  return false;
}

void Report::loadStrings() {
  if (stringsLoaded_) return;
  stringsLoaded_ = true;
  if (!db_->hasTable("StringIds")) return;
  {
    Statement st(*db_, "SELECT max(id) FROM StringIds");
    if (st.step() && !st.isNull(0)) strings_.reserveIds(static_cast<size_t>(st.int64(0)));
  }
  Statement st(*db_, "SELECT id, value FROM StringIds");
  while (st.step()) strings_.setId(static_cast<uint32_t>(st.int64(0)), st.text(1));
}

StringPool& Report::strings() {
  loadStrings();
  return strings_;
}

namespace {
uint32_t nameIdOf(int64_t v) { return v == kNoValue ? kNoString : static_cast<uint32_t>(v); }
int32_t i32(int64_t v) { return v == kNoValue ? -1 : static_cast<int32_t>(v); }
}  // namespace

ApiCalls Report::loadApi(const char* table) {
  ApiCalls a;
  if (!db_->hasTable(table)) return a;
  const size_t n = db_->countRows(table);
  for (auto* v : {&a.start, &a.end, &a.globalTid, &a.correlationId, &a.returnValue}) v->reserve(n);
  a.nameId.reserve(n);
  Statement st(*db_, db_->selectColumns(table, {"start", "end", "globalTid", "correlationId", "nameId", "returnValue"}));
  while (st.step()) {
    a.start.push_back(st.int64(0));
    a.end.push_back(st.int64(1));
    a.globalTid.push_back(st.int64(2));
    a.correlationId.push_back(st.int64(3));
    a.nameId.push_back(nameIdOf(st.int64(4)));
    a.returnValue.push_back(st.int64(5));
  }
  return a;
}

const ApiCalls& Report::hggcApi() {
  if (!hggcApi_) hggcApi_ = loadApi("HGGC_API");
  return *hggcApi_;
}

const ApiCalls& Report::osrtApi() {
  if (!osrtApi_) osrtApi_ = loadApi("OSRT_API");
  return *osrtApi_;
}

const Kernels& Report::kernels(uint32_t columns) {
  uint32_t missing = columns & kcol::all & ~kernelColumns_;
  if (missing == 0 || !db_->hasTable("HGGC_KERNEL")) {
    kernelColumns_ |= missing;
    return kernels_;
  }
  static const char* const kNames[kcol::count] = {
      "start", "end", "deviceId", "contextId", "streamId", "correlationId", "globalPid", "demangledName",
      "shortName", "mangledName", "gridX", "gridY", "gridZ", "blockX", "blockY", "blockZ",
      "registersPerThread", "staticSharedMemory", "dynamicSharedMemory", "graphNodeId", "graphId"};
  Kernels& k = kernels_;
  // Where each column goes: 64-bit, 32-bit or a name id.
  std::vector<int64_t>* i64[kcol::count] = {&k.start, &k.end, nullptr, nullptr, nullptr, &k.correlationId,
                                            &k.globalPid};
  i64[19] = &k.graphNodeId;
  i64[20] = &k.graphId;
  std::vector<int32_t>* i32s[kcol::count] = {nullptr, nullptr, &k.deviceId, &k.contextId, &k.streamId};
  std::vector<int32_t>* launch[] = {&k.gridX, &k.gridY, &k.gridZ, &k.blockX, &k.blockY, &k.blockZ,
                                    &k.registersPerThread, &k.staticSharedMemory, &k.dynamicSharedMemory};
  for (int c = 10; c <= 18; ++c) i32s[c] = launch[c - 10];
  std::vector<uint32_t>* ids[kcol::count] = {};
  ids[7] = &k.demangledName;
  ids[8] = &k.shortName;
  ids[9] = &k.mangledName;

  std::vector<int> wanted;
  std::vector<std::string> sqlNames;
  for (int c = 0; c < static_cast<int>(kcol::count); ++c) {
    if (missing & (1u << c)) {
      wanted.push_back(c);
      sqlNames.emplace_back(kNames[c]);
    }
  }
  const size_t n = db_->countRows("HGGC_KERNEL");
  for (int c : wanted) {
    if (i64[c]) i64[c]->reserve(n);
    if (i32s[c]) i32s[c]->reserve(n);
    if (ids[c]) ids[c]->reserve(n);
  }
  // Table order (rowid) in every scan, so columns loaded later line up.
  Statement st(*db_, db_->selectColumns("HGGC_KERNEL", sqlNames) + " ORDER BY rowid");
  const int m = static_cast<int>(wanted.size());
  size_t rows = 0;
  while (st.step()) {
    ++rows;
    for (int j = 0; j < m; ++j) {
      const int c = wanted[j];
      const int64_t v = st.int64(j);
      if (i64[c]) i64[c]->push_back(v);
      else if (i32s[c]) i32s[c]->push_back(i32(v));
      else ids[c]->push_back(nameIdOf(v));
    }
  }
  k.rows = rows;
  kernelColumns_ |= missing;
  return k;
}

const HgtxEvents& Report::hgtx() {
  if (hgtx_) return *hgtx_;
  hgtx_.emplace();
  HgtxEvents& h = *hgtx_;
  if (!db_->hasTable("HGTX_EVENTS")) return h;
  StringPool& pool = strings();
  Statement st(*db_, db_->selectColumns("HGTX_EVENTS",
      {"start", "end", "eventType", "rangeId", "globalTid", "endGlobalTid", "domainId", "textId", "text"}));
  while (st.step()) {
    h.start.push_back(st.int64(0));
    h.end.push_back(st.int64(1));
    h.eventType.push_back(i32(st.int64(2)));
    h.rangeId.push_back(st.int64(3));
    h.globalTid.push_back(st.int64(4));
    h.endGlobalTid.push_back(st.int64(5));
    h.domainId.push_back(st.int64(6));
    uint32_t name = nameIdOf(st.int64(7));
    if (name == kNoString && !st.isNull(8)) name = pool.intern(st.text(8));
    h.nameId.push_back(name);
  }
  return h;
}

const std::unordered_map<int64_t, uint32_t>& Report::hgtxDomains() {
  if (hgtxDomains_) return *hgtxDomains_;
  hgtxDomains_.emplace();
  const HgtxEvents& h = hgtx();
  for (size_t i = 0; i < h.size(); ++i) {
    if (h.eventType[i] == kHgtxDomainCreate && h.domainId[i] != kNoValue) {
      (*hgtxDomains_)[h.domainId[i]] = h.nameId[i];
    }
  }
  return *hgtxDomains_;
}

const std::vector<Device>& Report::devices() {
  if (devices_) return *devices_;
  devices_.emplace();
  if (!db_->hasTable("TARGET_INFO_PPU")) return *devices_;
  Statement st(*db_, db_->selectColumns("TARGET_INFO_PPU",
      {"id", "name", "busLocation", "hostName", "uuid", "computeMajor", "computeMinor", "ceCount",
       "cuCount", "totalMemory", "cuClock", "memoryClock"}) + " ORDER BY id");
  while (st.step()) {
    Device d;
    d.id = st.int64(0);
    d.name = st.text(1);
    d.busLocation = st.text(2);
    d.hostName = st.text(3);
    d.uuid = st.text(4);
    d.computeMajor = st.int64(5);
    d.computeMinor = st.int64(6);
    d.ceCount = st.int64(7);
    d.cuCount = st.int64(8);
    d.totalMemory = st.int64(9);
    d.cuClock = st.int64(10);
    d.memoryClock = st.int64(11);
    devices_->push_back(std::move(d));
  }
  return *devices_;
}

const std::vector<Process>& Report::processes() {
  if (processes_) return *processes_;
  processes_.emplace();
  if (!db_->hasTable("PROCESSES")) return *processes_;
  Statement st(*db_, db_->selectColumns("PROCESSES", {"globalPid", "pid", "name"}) + " ORDER BY pid");
  while (st.step()) processes_->push_back({st.int64(0), st.int64(1), std::string(st.text(2))});
  return *processes_;
}

}  // namespace asys
