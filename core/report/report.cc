#include "core/report/report.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>

#include "core/base/error.h"
#include "core/base/text.h"
#include "core/report/column_loader.h"
#include "core/report/read_set.h"
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

namespace {

// A META_DATA time (captureStart, captureEnd): an integer number of ns, all
// of the text (std::stoll threw std::invalid_argument past every catch
// for a text that is not one: found by fuzzing).
int64_t metaTime(const std::string& path, std::string_view name, const std::string& value) {
  int64_t v = 0;
  if (!parseInt64(value, v)) {
    throw Error(path + ": META_DATA " + std::string(name) + " '" + value + "' is not a time in nanoseconds");
  }
  if (!withinTimeLimit(v)) {
    throw Error(path + ": META_DATA " + std::string(name) + " " + value + kPastTimeLimit);
  }
  return v;
}

}  // namespace

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
      else if (name == "captureStart" && !value.empty()) r->summary_.captureStart = metaTime(path, name, value);
      else if (name == "captureEnd" && !value.empty()) r->summary_.captureEnd = metaTime(path, name, value);
      else if (name != "captureStart" && name != "captureEnd") r->summary_.meta.emplace_back(name, std::move(value));
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

std::unique_ptr<ReadSet> Report::recordReads() { return std::make_unique<ReadSet>(*db_); }

std::vector<std::string> Report::notesOn(const std::vector<std::string>& tables) const {
  std::vector<std::string> out;
  for (const auto& [table, text] : notes_.items)
    if (std::find(tables.begin(), tables.end(), table) != tables.end()) out.push_back(text);
  return out;
}

bool Report::hasData(std::string_view table) const {
  for (const auto& t : summary_.tables)
    if (t == table) return true;
  return false;
}

uint64_t Report::rowEstimate(const std::string& table) const {
  if (!hasData(table)) return 0;
  Statement st(*db_, "SELECT max(rowid) FROM \"" + table + "\"");
  return st.step() && !st.isNull(0) && st.int64(0) > 0 ? static_cast<uint64_t>(st.int64(0)) : 0;
}

void Report::loadStrings() {
  if (!stringsError_.empty()) throw Error(stringsError_);
  if (stringsLoaded_) return;
  stringsLoaded_ = true;
  if (!db_->hasTable("StringIds")) return;
  {
    Statement st(*db_, "SELECT max(id), count(*) FROM StringIds");
    if (st.step() && !st.isNull(0)) strings_.reserveStored(st.int64(0), static_cast<size_t>(st.int64(1)));
  }
  // Names are text: a BLOB is a broken report, not a name. (Text holding a
  // NUL is a name: Nsight Systems stores environment blocks so.)
  Statement st(*db_, "SELECT id, value, typeof(value) = 'blob' FROM StringIds");
  while (st.step()) {
    const std::string_view value = st.text(1);
    if (st.int64(2)) {
      stringsError_ = db_->path() + ": table StringIds, id " + std::to_string(st.int64(0)) + ": the value is a BLOB, not text";
      throw Error(stringsError_);
    }
    strings_.addStored(st.int64(0), value);
  }
}

StringPool& Report::strings() {
  loadStrings();
  return strings_;
}

namespace {

// The `want` columns (acol bits) of an API table as targets of `columnLoad`,
// into `into`, as HGGC_API's descriptor says.
void addApiTargets(ColumnLoad& columnLoad, ApiCalls& into, uint32_t want) {
  namespace bits = acol;
  ASYSREP_HGGC_API(ASYS_LOADED_TARGET)
}

// Empties the columns of `want` (acol bits) and gives back their memory.
void dropApiColumns(ApiCalls& into, uint32_t want) {
  namespace bits = acol;
  ASYSREP_HGGC_API(ASYS_LOADED_DROP)
}

}  // namespace

void Report::loadApi(const char* table, ApiCalls& a, uint32_t columns, RowMarks* marks) {
  ColumnLoad load(*db_, strings(), table, &notes_);
  // Every scan is in rowid order, so columns loaded by later calls line up.
  addApiTargets(load, a, columns);
  if (marks && !marks->read) load.rowidMarks(marks->rowids);
  a.rows = load.run();
  if (marks && !marks->read) {
    marks->rows = a.rows;
    marks->read = true;
  }
}

const ApiCalls& Report::hggcApi(uint32_t columns) {
  const uint32_t missing = columns & acol::all & ~hggcApiColumns_;
  if (missing != 0) loadApi("HGGC_API", hggcApi_, missing, &hggcApiMarks_);
  hggcApiColumns_ |= missing;
  return hggcApi_;
}

size_t Report::readRows(const char* table, const RowMarks& marks, size_t first, size_t last,
                        const std::function<void(ColumnLoad&)>& addTargets, size_t& read) {
  read = 0;
  const size_t rows = marks.rows;
  const size_t every = ColumnLoad::kRowidMarkEvery;
  last = std::min(last, rows);
  if (first >= last) return first;
  const size_t fromBlock = first / every, toBlock = (last - 1) / every + 1;
  const int64_t fromRowid = marks.rowids[fromBlock];
  const int64_t toRowid = toBlock < marks.rowids.size() ? marks.rowids[toBlock] - 1 : INT64_MAX;
  ColumnLoad load(*db_, strings(), table);
  addTargets(load);
  // Rows within one block whose rowids step by one (no row deleted, as a
  // profiler writes its tables) are read by their own rowids: a page of a
  // sorted trace, whose rows lie anywhere, costs a lookup a row, not a scan
  // of each row's block.
  if (toBlock == fromBlock + 1 && toBlock < marks.rowids.size() &&
      marks.rowids[toBlock] - fromRowid == static_cast<int64_t>(every)) {
    const size_t skip = first - fromBlock * every;
    const int64_t lo = fromRowid + static_cast<int64_t>(skip);
    read = load.runRange(lo, lo + static_cast<int64_t>(last - first) - 1, first, last - first);
    if (read != last - first) throw Error(path_ + ": table " + table + " changed while the report was open");
    return first;
  }
  const size_t expected = std::min(toBlock * every, rows) - fromBlock * every;
  read = load.runRange(fromRowid, toRowid, fromBlock * every, expected);
  // The file changed under the report (rows gone): never a shifted row.
  if (read != expected) throw Error(path_ + ": table " + table + " changed while the report was open");
  return fromBlock * every;
}

size_t Report::readHggcApiRows(size_t first, size_t last, uint32_t columns, ApiCalls& into) {
  into = ApiCalls();
  if (!hggcApiMarks_.read) hggcApi(acol::start);  // its scan marks the rows
  return readRows("HGGC_API", hggcApiMarks_, first, last,
                  [&](ColumnLoad& load) { addApiTargets(load, into, columns & acol::all); }, into.rows);
}

namespace {

// The rows a chunk of forEachKernelChunk and forEachHggcApiChunk holds: a
// few MiB of columns, and few enough calls of a rule's fold per scan.
constexpr size_t kScanChunkRows = 65536;

}  // namespace

size_t Report::scanInChunks(ColumnLoad& load, RowMarks* marks, size_t chunkRows,
                            const std::function<void(size_t, size_t)>& chunk) {
  const bool marking = marks && !marks->read;
  if (marking) load.rowidMarks(marks->rowids);
  const size_t n = load.runInChunks(chunkRows, chunk);
  if (marking) {
    marks->rows = n;
    marks->read = true;
  }
  return n;
}

size_t Report::forEachHggcApiChunk(uint32_t columns, const ApiChunk& chunk) {
  columns &= acol::all;
  if ((columns & ~hggcApiColumns_) == 0) {
    chunk(hggcApi_, 0);
    return hggcApi_.size();
  }
  ApiCalls rows;
  ColumnLoad load(*db_, strings(), "HGGC_API", &notes_);
  addApiTargets(load, rows, columns);
  return scanInChunks(load, &hggcApiMarks_, kScanChunkRows, [&](size_t first, size_t count) {
    rows.rows = count;
    chunk(rows, first);
  });
}

const ApiCalls& Report::osrtApi() {
  if (!osrtApi_) {
    osrtApi_.emplace();
    loadApi("OSRT_API", *osrtApi_, acol::all);
  }
  return *osrtApi_;
}

namespace {

// Empties the columns of `want` (kcol bits) and gives back their memory.
void dropKernelColumns(Kernels& into, uint32_t want) {
  namespace bits = kcol;
  ASYSREP_HGGC_KERNEL(ASYS_LOADED_DROP)
}

}  // namespace

const Kernels& Report::kernels(uint32_t columns) {
  const uint32_t asked = columns & kcol::all & ~kernelColumns_;
  if (asked == 0) return kernels_;
  if (!db_->hasTable("HGGC_KERNEL")) {
    kernelColumns_ |= asked;
    return kernels_;
  }
  const uint32_t planned = asked | (kernelPlan_ & ~kernelColumns_);  // one scan for all of them
  try {
    loadKernelColumns(planned);
  } catch (...) {
    // A planned column the rule did not ask for must not fail it (a bad
    // cell there, or no memory for all of them): try what it asked for.
    if (planned == asked) throw;
    loadKernelColumns(asked);
  }
  return kernels_;
}

namespace {

// The `want` columns (kcol bits) of HGGC_KERNEL as targets of `columnLoad`,
// into `into`, as its descriptor says (name, cell, NULL policy), in the
// table's order.
void addKernelTargets(ColumnLoad& columnLoad, Kernels& into, uint32_t want) {
  namespace bits = kcol;
  ASYSREP_HGGC_KERNEL(ASYS_LOADED_TARGET)
}

}  // namespace

void Report::loadKernelColumns(uint32_t bits) {
  Kernels& k = kernels_;
  ColumnLoad load(*db_, strings(), "HGGC_KERNEL", &notes_);
  // Every scan is in rowid order, so columns loaded by later calls line up.
  addKernelTargets(load, k, bits);
  // The first scan notes where the rows are, for readKernelRows.
  if (!kernelMarks_.read) load.rowidMarks(kernelMarks_.rowids);
  try {
    k.rows = load.run();
    if (!kernelMarks_.read) kernelMarks_.rows = k.rows;
    kernelMarks_.read = true;
  } catch (...) {
    // A failed load (a bad cell, or no memory left) leaves these columns
    // unloaded and their memory free: the next rule fails the same way, not
    // on the rows read before the bad one, and after running out of memory
    // a rule that needs fewer columns may still run.
    dropKernelColumns(k, bits);
    throw;
  }
  kernelColumns_ |= bits;
}

size_t Report::forEachKernelChunk(uint32_t columns, const KernelChunk& chunk, uint32_t keep) {
  keep &= kcol::all & ~kernelColumns_;
  columns = (columns | keep) & kcol::all;
  if ((columns & ~kernelColumns_) == 0 || (kernelPlan_ & ~kernelColumns_) != 0) {
    const Kernels& k = kernels(columns);
    chunk(k, 0);
    return k.size();
  }
  Kernels rows;
  ColumnLoad load(*db_, strings(), "HGGC_KERNEL", &notes_);
  addKernelTargets(load, rows, columns);
  if (keep != 0) {
    // Room for the rows the table says it has, so the kept columns never
    // grow by copying.
    namespace bits = kcol;
    const uint32_t want = keep;
    const size_t rows = static_cast<size_t>(rowEstimate("HGGC_KERNEL"));
    Kernels& into = kernels_;
    ASYSREP_HGGC_KERNEL(ASYS_LOADED_RESERVE)
  }
  try {
    const size_t n = scanInChunks(load, &kernelMarks_, kScanChunkRows, [&](size_t first, size_t count) {
      rows.rows = count;
      if (keep != 0) {
        namespace bits = kcol;
        const uint32_t want = keep;
        const Kernels& from = rows;
        Kernels& into = kernels_;
        ASYSREP_HGGC_KERNEL(ASYS_LOADED_APPEND)
      }
      chunk(rows, first);
    });
    if (keep != 0) {
      kernels_.rows = n;
      kernelColumns_ |= keep;
    }
    return n;
  } catch (...) {
    // As a failed load: the kept columns unloaded and their memory free.
    dropKernelColumns(kernels_, keep);
    throw;
  }
}

size_t Report::readKernelRows(size_t first, size_t last, uint32_t columns, Kernels& into) {
  dropKernelColumns(into, kcol::all);
  if (!kernelMarks_.read) kernels(kcol::start);  // its scan marks the rows
  return readRows("HGGC_KERNEL", kernelMarks_, first, last,
                  [&](ColumnLoad& load) { addKernelTargets(load, into, columns & kcol::all); }, into.rows);
}

void Report::releaseKernelColumns(uint32_t columns) {
  const uint32_t bits = columns & kernelColumns_;
  dropKernelColumns(kernels_, bits);
  kernelColumns_ &= ~bits;
  if (kernelColumns_ == 0) kernels_.rows = 0;
}

void Report::releaseHggcApiColumns(uint32_t columns) {
  const uint32_t bits = columns & hggcApiColumns_;
  dropApiColumns(hggcApi_, bits);
  hggcApiColumns_ &= ~bits;
  if (hggcApiColumns_ == 0) hggcApi_.rows = 0;
}

void Report::releaseHgtx() {
  hgtx_.reset();
  hgtxDomains_.clear();
}

void Report::releaseAll() {
  // Every member that holds loaded rows or name ids; the file, its summary,
  // the notes (texts), the kernel plan and the row marks (rowids) stay.
  strings_.release();
  stringsLoaded_ = false;
  hggcApi_ = ApiCalls();
  hggcApiColumns_ = 0;
  osrtApi_.reset();
  kernels_ = Kernels();
  kernelColumns_ = 0;
  releaseHgtx();
  graphNodes_.reset();
  releaseMemoryOps();
  memcpyKindLabels_.reset();
  memKindLabels_.reset();
  threadNames_.reset();
  releaseMetrics();
  releasePcclStages();
  memoryUsage_ = MemoryUsageEvents();
  memoryColumns_ = 0;
  callchains_.reset();
  devices_.reset();
  processes_.reset();
}

std::shared_ptr<const HgtxEvents> Report::sharedHgtx() {
  if (hgtx_) return hgtx_;
  // Built aside and kept only once complete: a load that fails (a bad cell)
  // leaves the table unloaded, so the next rule fails the same way instead
  // of running on the rows read before the bad one.
  HgtxEvents h;
  std::map<std::pair<int64_t, int64_t>, uint32_t> domains;
  // A range's name is in `textId` or inline in `text`: either way one id per
  // text, so "forward" is one name however each row stores it.
  std::vector<uint32_t> inlineText;
  const std::vector<std::string> columns = db_->hasTable("HGTX_EVENTS") ? db_->columnsOf("HGTX_EVENTS")
                                                                          : std::vector<std::string>{};
  const bool args = std::find(columns.begin(), columns.end(), "argsId") != columns.end();
  ColumnLoad columnLoad(*db_, strings(), "HGTX_EVENTS", &notes_);
  HgtxEvents& into = h;
  ASYSREP_HGTX_EVENTS(ASYS_WHOLE_TARGET)
  columnLoad.text("text", inlineText);
  if (args) columnLoad.name("argsId", h.argsId);
  columnLoad.run();
  for (size_t i = 0; i < h.size(); ++i) {
    if (h.nameId[i] == kNoString) h.nameId[i] = inlineText[i];
    if (h.eventType[i] == kHgtxDomainCreate && h.domainId[i] != kNoValue) {
      domains[{pidOf(h.globalTid[i]), h.domainId[i]}] = h.nameId[i];
    }
  }
  hgtxDomains_ = std::move(domains);
  hgtx_ = std::make_shared<const HgtxEvents>(std::move(h));
  return hgtx_;
}

uint32_t Report::hgtxDomainName(int64_t globalTid, int64_t domainId) {
  hgtx();
  if (domainId == kNoValue) return kNoString;
  auto it = hgtxDomains_.find({pidOf(globalTid), domainId});
  return it == hgtxDomains_.end() ? kNoString : it->second;
}

const GraphNodeEvents& Report::graphNodes() {
  if (graphNodes_) return *graphNodes_;
  GraphNodeEvents into;  // kept only once complete (see hgtx())
  ColumnLoad columnLoad(*db_, strings(), "HGGC_GRAPH_NODE_EVENTS", &notes_);
  ASYSREP_HGGC_GRAPH_NODE_EVENTS(ASYS_WHOLE_TARGET)
  columnLoad.run();
  graphNodes_ = std::move(into);
  return *graphNodes_;
}

namespace {

// A row struct's cell `col` (ASYS_READ_ROW_CELL). A real in a row table is a
// rate (TARGET_INFO_PPU's peak FLOP/s and bandwidth): NULL, not positive,
// not a number or absurd (>= 1e30) says nothing and reads as 0.
void readRowCell(const Statement& st, int col, int64_t& out) { out = st.int64(col); }
void readRowCell(const Statement& st, int col, std::string& out) { out = st.text(col); }
void readRowCell(const Statement& st, int col, double& out) {
  const double v = st.real(col);
  out = v > 0 && v < 1e30 ? v : 0.0;
}

}  // namespace

const std::vector<Device>& Report::devices() {
  if (devices_) return *devices_;
  if (!db_->hasTable("TARGET_INFO_PPU")) return devices_.emplace();
  std::vector<Device> devices;  // kept only once complete (see hgtx())
  Statement st(*db_, db_->selectColumns("TARGET_INFO_PPU", {ASYSREP_TARGET_INFO_PPU(ASYS_READ_ROW_COLUMN)}) +
                         " ORDER BY id");
  while (st.step()) {
    Device& row = devices.emplace_back();
    int col = 0;
    ASYSREP_TARGET_INFO_PPU(ASYS_READ_ROW_CELL)
  }
  devices_ = std::move(devices);
  return *devices_;
}

const std::vector<Process>& Report::processes() {
  if (processes_) return *processes_;
  if (!db_->hasTable("PROCESSES")) return processes_.emplace();
  std::vector<Process> processes;  // kept only once complete (see hgtx())
  Statement st(*db_, db_->selectColumns("PROCESSES", {ASYSREP_PROCESSES(ASYS_READ_ROW_COLUMN)}) + " ORDER BY pid");
  while (st.step()) {
    Process& row = processes.emplace_back();
    int col = 0;
    ASYSREP_PROCESSES(ASYS_READ_ROW_CELL)
  }
  processes_ = std::move(processes);
  return *processes_;
}

}  // namespace asys
