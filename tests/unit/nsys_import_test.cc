// The Nsight Systems SQLite importer (core/import): every real export of
// shared/data/real/nsys-sqlite imported and checked with plain SQL against the
// counts of shared/data/real/MANIFEST.md, rule results compared with totals
// computed by plain SQL on the original export, the schema variants and
// quirks on hand-made exports, format sniffing, and the errors.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "tests/unit/cli_run.h"
#include "core/base/error.h"
#include "core/cli/cli.h"
#include "core/import/importer.h"
#include "core/report/report.h"
#include "core/writer/report_writer.h"

namespace fs = std::filesystem;

namespace {

const fs::path kRealData = ASYS_REAL_DATA_DIR;
const fs::path kGolden = ASYS_GOLDEN_DIR;

#define REQUIRE_REAL_DATA()                                                                            \
  do {                                                                                                 \
    if (!fs::is_directory(kRealData / "nsys-sqlite")) {                                               \
      GTEST_SKIP() << "real data folder " << kRealData.string()                                        \
                   << " is absent (CI checks out shared/ beside the repository); skipping";            \
    }                                                                                                  \
  } while (0)

// A fresh directory per test, removed with everything in it.
class TempDir {
 public:
  TempDir() {
    std::string pattern = ::testing::TempDir() + "asys_nsys_XXXXXX";
    std::vector<char> buf(pattern.begin(), pattern.end());
    buf.push_back('\0');
    if (mkdtemp(buf.data()) == nullptr) ADD_FAILURE() << "mkdtemp failed";
    path_ = buf.data();
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  const fs::path& path() const { return path_; }
  size_t entries() const {
    return static_cast<size_t>(std::distance(fs::directory_iterator(path_), fs::directory_iterator()));
  }

 private:
  fs::path path_;
};

// Plain SQL through the sqlite3 C API, independent of the engine.
class Db {
 public:
  explicit Db(const std::string& path, bool write = false) : path_(path) {
    const int flags = write ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY;
    if (sqlite3_open_v2(path.c_str(), &db_, flags, nullptr) != SQLITE_OK) ADD_FAILURE() << "cannot open " << path;
  }
  ~Db() { sqlite3_close(db_); }
  Db(const Db&) = delete;
  Db& operator=(const Db&) = delete;

  void exec(const std::string& sql) {
    char* msg = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &msg) != SQLITE_OK) {
      ADD_FAILURE() << path_ << ": " << (msg ? msg : "?") << " in " << sql.substr(0, 200);
    }
    sqlite3_free(msg);
  }
  bool hasTable(const std::string& t) {
    return integer("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '" + t + "'") > 0;
  }
  // The first column of the first row; NULL and no row read as -1.
  int64_t integer(const std::string& sql) {
    int64_t v = -1;
    each(sql, [&](sqlite3_stmt* st) {
      if (sqlite3_column_type(st, 0) != SQLITE_NULL) v = sqlite3_column_int64(st, 0);
    });
    return v;
  }
  std::vector<std::vector<std::string>> rows(const std::string& sql) {
    std::vector<std::vector<std::string>> out;
    each(sql, [&](sqlite3_stmt* st) {
      std::vector<std::string> row;
      for (int i = 0; i < sqlite3_column_count(st); ++i) {
        const unsigned char* p = sqlite3_column_text(st, i);
        row.emplace_back(p ? std::string(reinterpret_cast<const char*>(p), sqlite3_column_bytes(st, i)) : "NULL");
      }
      out.push_back(std::move(row));
    });
    return out;
  }
  template <typename F>
  void each(const std::string& sql, F row) {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &st, nullptr) != SQLITE_OK) {
      ADD_FAILURE() << path_ << ": " << sqlite3_errmsg(db_) << " in " << sql;
      return;
    }
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) row(st);
    if (rc != SQLITE_DONE) ADD_FAILURE() << path_ << ": " << sqlite3_errmsg(db_) << " in " << sql;
    sqlite3_finalize(st);
  }

 private:
  std::string path_;
  sqlite3* db_ = nullptr;
};

std::string readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void writeFile(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

// The hand-made export of the golden tests, built into `path`.
void buildFixture(const std::string& path, const std::string& extraSql = "") {
  Db db(path, true);
  db.exec("PRAGMA synchronous = OFF; BEGIN; " + readFile(kGolden / "fixtures" / "import_nsys.sql") + extraSql +
          "; COMMIT;");
}

using asys::test::cli;
using CliResult = asys::test::CliRun;

std::string importError(const std::vector<std::string>& inputs, const std::string& out) {
  try {
    asys::importReports(inputs, out);
  } catch (const asys::Error& e) {
    return e.what();
  }
  return "(no error)";
}

// One CSV line of the engine's writer: quoted text with "" for a quote,
// a trailing comma after the last field.
std::vector<std::string> csvFields(const std::string& line) {
  std::vector<std::string> f;
  std::string cur;
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        cur += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        cur += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      f.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) f.push_back(cur);
  return f;
}

// ---------------------------------------------------------------------------
// MANIFEST.md: what each real export holds.

struct Manifest {
  int64_t kernels = -1, runtime = -1, memcpy = -1, memset = -1, nvtx = -1, nccl = -1;
  int64_t memoryEvents = 0, osrt = 0, cudaCallchains = 0, osrtCallchains = 0;
  int64_t runtimeWithCallchain = -1;    // "(with callchainId: N)", when stated
  std::map<int, int64_t> nvtxByType;    // eventType -> count
  std::string kernelMs, spanMs;         // "48.000": sum of kernel durations, time span
};

int64_t number(const std::string& s) {
  std::string digits;
  for (char c : s)
    if (c != ',') digits += c;
  return std::stoll(digits);
}

std::optional<int64_t> find(const std::string& text, const std::string& pattern) {
  std::smatch m;
  if (std::regex_search(text, m, std::regex(pattern))) return number(m[1]);
  return std::nullopt;
}

// The "#### `data/real/nsys-sqlite/...`" sections, by path relative to data/real.
std::map<std::string, Manifest> readManifest() {
  std::map<std::string, Manifest> out;
  std::ifstream in(kRealData / "MANIFEST.md");
  std::string line;
  Manifest* cur = nullptr;
  const std::regex heading(R"(^#### `data/real/(nsys-sqlite/[^`]+)`)");
  const std::map<std::string, int> nvtxTypes = {{"push/pop range", 59}, {"start/end range", 60}, {"mark", 34},
                                                {"domain create", 75}, {"thread name", 39}, {"category", 33}};
  while (std::getline(in, line)) {
    std::smatch m;
    if (line.rfind("#", 0) == 0) {
      cur = std::regex_search(line, m, heading) ? &out[m[1]] : nullptr;
      continue;
    }
    if (cur == nullptr) continue;
    if (line.rfind("- GPU kernels ", 0) == 0) {
      cur->kernels = *find(line, R"(GPU kernels ([\d,]+))");
      cur->nccl = find(line, R"(NCCL kernels ([\d,]+))").value_or(-1);
      if (std::regex_search(line, m, std::regex(R"(sum of durations ([\d,]+\.\d+) ms)"))) cur->kernelMs = m[1];
    } else if (line.rfind("- CUDA runtime API events ", 0) == 0) {
      cur->runtime = *find(line, R"(API events ([\d,]+))");
      cur->memcpy = find(line, R"(; memcpy ([\d,]+))").value_or(-1);
      cur->memset = find(line, R"(; memset ([\d,]+))").value_or(-1);
      cur->runtimeWithCallchain = find(line, R"(with callchainId: ([\d,]+))").value_or(-1);
    } else if (line.rfind("- NVTX events ", 0) == 0) {
      cur->nvtx = *find(line, R"(NVTX events ([\d,]+))");
      for (const auto& [label, type] : nvtxTypes) {
        if (auto n = find(line, label + R"(: ([\d,]+))")) cur->nvtxByType[type] = *n;
      }
    } else if (line.rfind("- other tables: ", 0) == 0) {
      cur->memoryEvents = find(line, R"(CUDA_GPU_MEMORY_USAGE_EVENTS ([\d,]+))").value_or(0);
      cur->osrt = find(line, R"(OSRT_API ([\d,]+))").value_or(0);
      cur->cudaCallchains = find(line, R"(CUDA_CALLCHAINS ([\d,]+))").value_or(0);
      cur->osrtCallchains = find(line, R"(OSRT_CALLCHAINS ([\d,]+))").value_or(0);
    } else if (line.rfind("- time span ", 0) == 0) {
      if (std::regex_search(line, m, std::regex(R"(time span ([\d,]+\.\d+) ms)"))) cur->spanMs = m[1];
    }
  }
  return out;
}

// Every export in the folder (the acceptance set may add more), by path
// relative to data/real.
std::vector<std::string> realExports() {
  std::vector<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(kRealData / "nsys-sqlite")) {
    if (e.is_regular_file() && e.path().extension() == ".sqlite") {
      out.push_back(fs::relative(e.path(), kRealData).generic_string());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string ms3(int64_t ns) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f", static_cast<double>(ns) / 1e6);
  std::string s = buf;
  // MANIFEST writes thousands with commas: 7,316.617
  const size_t dot = s.find('.');
  for (int i = static_cast<int>(dot) - 3; i > 0; i -= 3) s.insert(static_cast<size_t>(i), ",");
  return s;
}

// ---------------------------------------------------------------------------

TEST(NsysManifest, ParsesTheNumbersOfTheKnownExports) {
  REQUIRE_REAL_DATA();
  const auto manifest = readManifest();
  // kernels, runtime, memcpy, memset, push/pop ranges, domains, NCCL kernels, memory events
  const std::map<std::string, std::vector<int64_t>> known = {
      {"nsys-sqlite/extrap/concurrent.s1_profile1.sqlite", {12, 184, 30, 17, 76, 1, 0, 60}},
      {"nsys-sqlite/extrap/ex-gpu.s10.sqlite", {6, 36, 0, 0, 0, 0, 0, 0}},
      {"nsys-sqlite/fuser/report1.sqlite", {18, 990, 3, 3, 13513, 0, 0, 0}},
      {"nsys-sqlite/fuser/report2.sqlite", {19, 975, 1, 1, 1054, 0, 0, 0}},
      {"nsys-sqlite/nsys-ai/h100_2gpu_1s.sqlite", {3442, 5796, 904, 22, 16782, 0, 0, 0}},
      {"nsys-sqlite/pipit/perlmutter-cloverleaf-cuda.sqlite", {1312, 3048, 279, 0, 0, 0, 0, 0}},
  };
  for (const auto& [file, want] : known) {
    SCOPED_TRACE(file);
    auto it = manifest.find(file);
    ASSERT_NE(it, manifest.end());
    const Manifest& m = it->second;
    auto type = [&](int t) { return m.nvtxByType.count(t) ? m.nvtxByType.at(t) : 0; };
    EXPECT_EQ((std::vector<int64_t>{m.kernels, m.runtime, m.memcpy, m.memset, type(59), type(75), m.nccl,
                                    m.memoryEvents}),
              want);
  }
  EXPECT_EQ(manifest.at("nsys-sqlite/extrap/ex-gpu.s10.sqlite").runtimeWithCallchain, 18);
  EXPECT_EQ(manifest.at("nsys-sqlite/extrap/ex-gpu.s10.sqlite").cudaCallchains, 148);
  EXPECT_EQ(manifest.at("nsys-sqlite/pipit/perlmutter-cloverleaf-cuda.sqlite").osrtCallchains, 8930);
  EXPECT_EQ(manifest.at("nsys-sqlite/extrap/concurrent.s1_profile1.sqlite").spanMs, "535.134");
}

TEST(NsysRealExports, EveryExportImportsWithTheManifestCounts) {
  REQUIRE_REAL_DATA();
  const auto manifest = readManifest();
  const auto files = realExports();
  ASSERT_FALSE(files.empty());
  TempDir dir;
  for (const std::string& file : files) {
    SCOPED_TRACE(file);
    auto it = manifest.find(file);
    ASSERT_NE(it, manifest.end()) << "no MANIFEST.md section for " << file;
    const Manifest& m = it->second;
    const std::string in = (kRealData / file).string();
    const std::string out = dir.file(fs::path(file).stem().string() + ".asysrep");
    ASSERT_EQ(asys::sniffFormat(in), asys::InputFormat::NsysSqlite);
    asys::importReports({in}, out);
    EXPECT_EQ(asys::sniffFormat(out), asys::InputFormat::Asysrep);
    EXPECT_NO_THROW(asys::Report::open(out));

    Db r(out), src(in);
    EXPECT_EQ(r.integer("SELECT count(*) FROM HGGC_KERNEL"), m.kernels);
    EXPECT_EQ(r.integer("SELECT count(*) FROM HGGC_API"), m.runtime);
    EXPECT_EQ(r.integer("SELECT count(*) FROM HGGC_MEMCPY"), m.memcpy);
    EXPECT_EQ(r.integer("SELECT count(*) FROM HGGC_MEMSET"), m.memset);
    EXPECT_EQ(r.integer("SELECT count(*) FROM HGTX_EVENTS"), m.nvtx);
    for (const auto& [type, n] : m.nvtxByType) {
      EXPECT_EQ(r.integer("SELECT count(*) FROM HGTX_EVENTS WHERE eventType = " + std::to_string(type)), n)
          << "NVTX eventType " << type;
    }
    EXPECT_EQ(r.integer("SELECT count(*) FROM HGGC_KERNEL k JOIN StringIds s ON s.id = k.demangledName "
                        "WHERE s.value LIKE '%nccl%'"),
              m.nccl);
    EXPECT_EQ(r.integer("SELECT count(*) FROM PPU_MEMORY_USAGE_EVENTS"), m.memoryEvents);
    EXPECT_EQ(r.integer("SELECT count(*) FROM OSRT_API"), m.osrt);
    EXPECT_EQ(r.integer("SELECT count(*) FROM CALLCHAINS"), m.cudaCallchains + m.osrtCallchains);
    if (m.runtimeWithCallchain >= 0) {
      EXPECT_EQ(r.integer("SELECT count(callchainId) FROM HGGC_API"), m.runtimeWithCallchain);
    }
    if (!m.kernelMs.empty()) {
      EXPECT_EQ(ms3(r.integer("SELECT total(end - start) FROM HGGC_KERNEL")), m.kernelMs);
    }
    if (!m.spanMs.empty()) {
      std::string starts, ends;
      for (const char* t : {"HGGC_KERNEL", "HGGC_API", "HGGC_MEMCPY", "HGGC_MEMSET", "HGTX_EVENTS", "OSRT_API"}) {
        starts += std::string(starts.empty() ? "" : " UNION ALL ") + "SELECT min(start) AS v FROM " + t;
        ends += std::string(ends.empty() ? "" : " UNION ALL ") + "SELECT max(end) AS v FROM " + t;
      }
      EXPECT_EQ(ms3(r.integer("SELECT (SELECT max(v) FROM (" + ends + ")) - (SELECT min(v) FROM (" + starts + "))")),
                m.spanMs);
    }

    // Independent of the manifest: the original export, by plain SQL.
    EXPECT_EQ(r.integer("SELECT count(*) FROM StringIds"), src.integer("SELECT count(*) FROM StringIds"));
    EXPECT_EQ(r.rows("SELECT format, v FROM (SELECT name AS format, value AS v FROM META_DATA) "
                     "WHERE format IN ('format', 'formatVersion') ORDER BY format"),
              (std::vector<std::vector<std::string>>{{"format", "asysrep"}, {"formatVersion", "1"}}));
    if (src.hasTable("CUDA_GPU_MEMORY_USAGE_EVENTS")) {
      EXPECT_EQ(r.rows("SELECT memoryOperationType, memKind, count(*), sum(bytes) FROM PPU_MEMORY_USAGE_EVENTS "
                       "GROUP BY 1, 2 ORDER BY 1, 2"),
                src.rows("SELECT memoryOperationType, memKind, count(*), sum(bytes) FROM "
                         "CUDA_GPU_MEMORY_USAGE_EVENTS GROUP BY 1, 2 ORDER BY 1, 2"));
    }
    if (src.hasTable("CUPTI_ACTIVITY_KIND_MEMCPY")) {
      EXPECT_EQ(r.rows("SELECT copyKind, count(*), sum(bytes) FROM HGGC_MEMCPY GROUP BY 1 ORDER BY 1"),
                src.rows("SELECT copyKind, count(*), sum(bytes) FROM CUPTI_ACTIVITY_KIND_MEMCPY GROUP BY 1 ORDER BY 1"));
    }
    // Serialized ids keep bits 0-47 only (pid << 24 | tid).
    EXPECT_EQ(r.integer("SELECT count(*) FROM HGGC_API WHERE globalTid >= 281474976710656"), 0);
    EXPECT_EQ(r.integer("SELECT count(*) FROM HGGC_KERNEL WHERE globalPid >= 281474976710656 OR "
                        "globalPid & 16777215 <> 0"),
              0);
  }
}

// Per-name totals of a summary rule's CSV against the same totals by plain
// SQL on the original export: count, sum, min, max, truncated average.
using Totals = std::map<std::string, std::tuple<int64_t, int64_t, int64_t, int64_t, int64_t>>;

Totals totalsFromCsv(const std::string& csv) {
  Totals t;
  std::istringstream in(csv);
  std::string line;
  std::getline(in, line);  // header
  EXPECT_EQ(csvFields(line).size(), 10u) << line;
  while (std::getline(in, line)) {
    const auto f = csvFields(line);
    if (f.size() != 10) {
      ADD_FAILURE() << "bad line: " << line;
      continue;
    }
    // Row#, Time (%), Total, Instances, Avg, Med, Min, Max, StdDev, Name
    t[f[9]] = {std::stoll(f[3]), std::stoll(f[2]), std::stoll(f[6]), std::stoll(f[7]), std::stoll(f[4])};
  }
  return t;
}

Totals totalsFromSql(Db& db, const std::string& table, const std::string& nameColumn) {
  Totals t;
  for (const auto& row : db.rows("SELECT s.value, count(*), sum(x.end - x.start), min(x.end - x.start), "
                                 "max(x.end - x.start) FROM " + table + " x JOIN StringIds s ON s.id = x." +
                                 nameColumn + " GROUP BY s.value")) {
    const int64_t n = std::stoll(row[1]), sum = std::stoll(row[2]);
    t[row[0]] = {n, sum, std::stoll(row[3]), std::stoll(row[4]), sum / n};
  }
  return t;
}

TEST(NsysRealExports, KernelAndApiSummariesMatchPlainSqlOnTheExport) {
  REQUIRE_REAL_DATA();
  TempDir tmp;
  ASSERT_EQ(setenv("TMPDIR", tmp.path().c_str(), 1), 0);
  for (const std::string& file : realExports()) {
    SCOPED_TRACE(file);
    const std::string in = (kRealData / file).string();
    Db src(in);
    // asys stats straight on the export (imported into a temporary asysrep).
    CliResult k = cli({"stats", "-r", "hggc_ppu_kern_sum", in});
    ASSERT_EQ(k.status, 0) << k.err;
    EXPECT_EQ(k.err, "");
    const Totals kernels = totalsFromCsv(k.out);
    EXPECT_EQ(kernels, totalsFromSql(src, "CUPTI_ACTIVITY_KIND_KERNEL", "demangledName"));
    EXPECT_FALSE(kernels.empty());

    CliResult a = cli({"stats", "-r", "hggc_api_sum", in});
    ASSERT_EQ(a.status, 0) << a.err;
    EXPECT_EQ(totalsFromCsv(a.out), totalsFromSql(src, "CUPTI_ACTIVITY_KIND_RUNTIME", "nameId"));
  }
  unsetenv("TMPDIR");
  EXPECT_EQ(tmp.entries(), 0u) << "temporary reports left behind in " << tmp.path();
}

TEST(NsysRealExports, OldCallchainNumberingIsMatchedToItsCalls) {
  REQUIRE_REAL_DATA();
  // ex-gpu.s10 (nsys 2021): the API's callchainId k is chain k+1 of
  // CUDA_CALLCHAINS. Every call with a stack must get the chain that holds a
  // frame of its own name, and the OS runtime chains must not collide.
  TempDir dir;
  const std::string in = (kRealData / "nsys-sqlite/extrap/ex-gpu.s10.sqlite").string();
  const std::string out = dir.file("ex-gpu.asysrep");
  asys::importReports({in}, out);
  Db r(out);
  EXPECT_EQ(r.integer("SELECT count(*) FROM HGGC_API a WHERE a.callchainId IS NOT NULL AND EXISTS "
                      "(SELECT 1 FROM CALLCHAINS c WHERE c.id = a.callchainId AND c.symbol = a.nameId)"),
            18);
  EXPECT_EQ(r.integer("SELECT count(DISTINCT id) FROM CALLCHAINS"), 18 + 257);
  EXPECT_EQ(r.integer("SELECT count(*) FROM OSRT_API o WHERE o.callchainId IS NOT NULL AND NOT EXISTS "
                      "(SELECT 1 FROM CALLCHAINS c WHERE c.id = o.callchainId)"),
            0);
  EXPECT_EQ(r.integer("SELECT count(callchainId) FROM OSRT_API"), 257);  // 1031 rows say 0: no stack
  // Names are kept as stored, with and without the _v3020 suffix.
  EXPECT_EQ(r.integer("SELECT count(*) FROM HGGC_API a JOIN StringIds s ON s.id = a.nameId "
                      "WHERE s.value = 'cudaMalloc_v3020'"),
            4);
  EXPECT_EQ(r.integer("SELECT count(*) FROM HGGC_API a JOIN StringIds s ON s.id = a.nameId "
                      "WHERE s.value = 'cudaMalloc'"),
            4);
  // No PROCESSES table in that export: processes are named by their main thread.
  EXPECT_EQ(r.rows("SELECT pid, name FROM PROCESSES WHERE globalPid = (SELECT globalPid FROM HGGC_KERNEL LIMIT 1)"),
            (std::vector<std::vector<std::string>>{{"868881", "ex-gpu"}}));
  // TARGET_INFO_CUDA_GPU: clock in kHz, bandwidth in kB/s.
  EXPECT_EQ(r.rows("SELECT id, name, busLocation, cuCount, cuClock, CAST(hbmBandwidth AS INTEGER), ceCount "
                   "FROM TARGET_INFO_PPU WHERE id = 0"),
            (std::vector<std::vector<std::string>>{
                {"0", "A100-PCIE-40GB", "0000:99:00.0", "108", "1410000000", "1555200000000", "3"}}));
}

TEST(NsysRealExports, VariantsOfTheRealExports) {
  REQUIRE_REAL_DATA();
  TempDir dir;
  auto import = [&](const std::string& file) {
    const std::string out = dir.file(fs::path(file).stem().string() + ".asysrep");
    asys::importReports({(kRealData / file).string()}, out);
    return out;
  };
  {
    // nsys 2022.1 on Windows: EXPORT_META_DATA, no enum tables, a non-UTF-8
    // byte in EXPORT_USER, two display adapters that are not CUDA devices.
    Db r(import("nsys-sqlite/extrap/concurrent.s1_profile1.sqlite"));
    EXPECT_EQ(r.rows("SELECT value FROM META_DATA WHERE name = 'generator'"),
              (std::vector<std::vector<std::string>>{{"asys import (Nsight Systems SQLite, 2022.1.1.61)"}}));
    EXPECT_EQ(r.rows("SELECT id, name FROM TARGET_INFO_PPU"),
              (std::vector<std::vector<std::string>>{{"0", "GeForce GTX 1060 with Max-Q Design"}}));
    EXPECT_EQ(r.rows("SELECT label FROM ENUM_HGGC_MEMCPY_OPER WHERE id IN (1, 2) ORDER BY id"),
              (std::vector<std::vector<std::string>>{{"Host-to-Device"}, {"Device-to-Host"}}));
    EXPECT_EQ(r.rows("SELECT label FROM ENUM_HGGC_MEM_KIND WHERE id IN (1, 2) ORDER BY id"),
              (std::vector<std::vector<std::string>>{{"Pinned"}, {"Device"}}));
    EXPECT_EQ(r.rows("SELECT text, domainId FROM HGTX_EVENTS WHERE eventType = 75"),
              (std::vector<std::vector<std::string>>{{"de.tu-darmstadt.parallel.extra_prof", "1"}}));
    EXPECT_FALSE(r.hasTable("EXTRAP_GPU_IDLE"));
  }
  {
    // A time-window cut: the capture is the window named in META_DATA_EXPORT.
    Db r(import("nsys-sqlite/nsys-ai/h100_2gpu_1s.sqlite"));
    EXPECT_EQ(r.rows("SELECT name, value FROM META_DATA WHERE name IN ('captureStart', 'captureEnd', 'hostName') "
                     "ORDER BY name"),
              (std::vector<std::vector<std::string>>{
                  {"captureEnd", "156330248986"}, {"captureStart", "155330248986"}, {"hostName", "modal"}}));
    EXPECT_EQ(r.integer("SELECT count(*) FROM TARGET_INFO_PPU"), 0);  // TARGET_INFO_GPU absent
    EXPECT_EQ(r.integer("SELECT count(DISTINCT globalPid) FROM HGGC_KERNEL"), 2);
  }
  {
    // Lazy export without NVTX_EVENTS and CUPTI_ACTIVITY_KIND_MEMSET.
    Db r(import("nsys-sqlite/pipit/perlmutter-cloverleaf-cuda.sqlite"));
    EXPECT_EQ(r.integer("SELECT count(*) FROM HGTX_EVENTS"), 0);
    EXPECT_EQ(r.integer("SELECT count(*) FROM TARGET_INFO_PPU"), 4);
    EXPECT_EQ(r.rows("SELECT value FROM META_DATA WHERE name = 'hostName'"),
              (std::vector<std::vector<std::string>>{{"nid008553"}}));
  }
}

TEST(NsysRealExports, NsysRepIsRejectedWithTheExportCommand) {
  REQUIRE_REAL_DATA();
  const std::string rep = (kRealData / "other/nsys-rep/fuser/report1.nsys-rep").string();
  if (!fs::exists(rep)) GTEST_SKIP() << rep << " is absent";
  EXPECT_EQ(asys::sniffFormat(rep), asys::InputFormat::NsysRep);
  TempDir dir;
  EXPECT_EQ(importError({rep}, dir.file("x.asysrep")),
            rep + ": an Nsight Systems .nsys-rep report; export it first with `nsys export --type sqlite " + rep + "`");
  CliResult r = cli({"stats", "-r", "hggc_ppu_kern_sum", rep});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("export it first with `nsys export --type sqlite"), std::string::npos) << r.err;
  EXPECT_EQ(dir.entries(), 0u);
}

// ---------------------------------------------------------------------------
// The hand-made export of tests/golden/fixtures/import_nsys.sql (no real data needed).

TEST(NsysFixture, MapsEveryTableOfTheExport) {
  TempDir dir;
  const std::string in = dir.file("export.sqlite"), out = dir.file("out.asysrep");
  buildFixture(in);
  ASSERT_EQ(asys::sniffFormat(in), asys::InputFormat::NsysSqlite);
  CliResult c = cli({"import", in, "-o", out});
  ASSERT_EQ(c.status, 0) << c.err;
  EXPECT_EQ(c.out + c.err, "");
  Db r(out);
  using Rows = std::vector<std::vector<std::string>>;
  // pid << 24 | tid, without nsys's VM id in the top byte.
  EXPECT_EQ(r.rows("SELECT eventClass, globalTid, correlationId, callchainId FROM HGGC_API ORDER BY start"),
            (Rows{{"0", "1677721700", "5", "1"},
                  {"0", "1677721701", "1", "NULL"},
                  {"0", "1677721701", "2", "NULL"},
                  {"1", "1677721701", "3", "NULL"},
                  {"0", "1677721700", "4", "NULL"},
                  {"0", "3355443400", "1", "NULL"}}));
  EXPECT_EQ(r.rows("SELECT globalPid, mangledName, graphNodeId, graphId FROM HGGC_KERNEL ORDER BY start"),
            (Rows{{"1677721600", "6", "NULL", "NULL"},
                  {"1677721600", "6", "NULL", "NULL"},
                  {"1677721600", "NULL", "NULL", "NULL"},
                  {"3355443200", "6", "7", "3"}}));
  // CUDA chain 1 as is; OSRT chain 1 after the CUDA ids (1 + 2); callchainId 0 = none.
  EXPECT_EQ(r.rows("SELECT id, stackDepth, symbol, module FROM CALLCHAINS ORDER BY id, stackDepth"),
            (Rows{{"1", "0", "14", "12"}, {"1", "1", "10", "11"}, {"3", "0", "16", "17"}}));
  EXPECT_EQ(r.rows("SELECT eventClass, callchainId FROM OSRT_API ORDER BY start"),
            (Rows{{"27", "3"}, {"27", "NULL"}}));
  // The allocation takes its thread and call stack from cudaMalloc (corr 5).
  EXPECT_EQ(r.rows("SELECT eventId, globalPid, globalTid, memoryOperationType, bytes, memKind, correlationId, "
                   "callchainId FROM PPU_MEMORY_USAGE_EVENTS ORDER BY eventId"),
            (Rows{{"1", "1677721600", "1677721700", "0", "1048576", "2", "5", "1"},
                  {"2", "1677721600", "NULL", "1", "1048576", "2", "0", "NULL"}}));
  EXPECT_EQ(r.rows("SELECT eventType, text, textId, domainId, category, color, globalTid, endGlobalTid FROM "
                   "HGTX_EVENTS WHERE eventType IN (34, 60, 75) ORDER BY start"),
            (Rows{{"75", "pccl", "NULL", "1", "NULL", "NULL", "1677721701", "NULL"},
                  {"60", "NULL", "13", "1", "NULL", "NULL", "1677721700", "1677721701"},
                  {"34", "checkpoint", "NULL", "0", "NULL", "NULL", "1677721700", "NULL"}}));
  EXPECT_EQ(r.integer("SELECT color FROM HGTX_EVENTS WHERE text = 'forward'"), 4278255360);
  EXPECT_EQ(r.rows("SELECT globalTid, nameId, graphNodeId, originalGraphNodeId, graphId FROM "
                   "HGGC_GRAPH_NODE_EVENTS ORDER BY start"),
            (Rows{{"3355443400", "15", "5", "NULL", "NULL"}, {"3355443400", "15", "7", "5", "NULL"}}));
  EXPECT_EQ(r.rows("SELECT id, hostName, CAST(hbmBandwidth AS INTEGER), peakFlopsFp32, memoryClock FROM "
                   "TARGET_INFO_PPU ORDER BY id"),
            (Rows{{"0", "gpu-node-7", "3352320000000", "NULL", "NULL"},
                  {"1", "gpu-node-7", "3352320000000", "NULL", "NULL"}}));
  EXPECT_EQ(r.rows("SELECT * FROM TARGET_INFO_PPU_METRICS ORDER BY metricId"),
            (Rows{{"1", "SMs Active [Throughput %]", "Throughput %"},
                  {"2", "DRAM Bandwidth [Throughput %]", "Throughput %"}}));
  EXPECT_EQ(r.integer("SELECT count(*) FROM PPU_METRICS"), 7);
  EXPECT_EQ(r.integer("SELECT count(*) FROM ENUM_HGGC_MEMCPY_OPER"), 3);  // the export's own table
  EXPECT_EQ(r.integer("SELECT count(*) FROM ENUM_HGGC_MEM_KIND"), 8);     // supplied
  EXPECT_EQ(r.rows("SELECT globalPid, pid, name FROM PROCESSES ORDER BY pid"),
            (Rows{{"1677721600", "100", "python3"}, {"3355443200", "200", "worker"}}));
  // The session's clock: the capture started (startTime 1000) at utcEpochNs
  // 1700000000000001000, so report time + 1700000000000000000 is epoch ns.
  // The system entries as the export has them, the empty one left out.
  EXPECT_EQ(r.rows("SELECT name, value FROM META_DATA ORDER BY name"),
            (Rows{{"captureEnd", "11000"},
                  {"captureStart", "1000"},
                  {"epochOffset", "1700000000000000000"},
                  {"format", "asysrep"},
                  {"formatVersion", "1"},
                  {"generator", "asys import (Nsight Systems SQLite, 2025.1.1.110)"},
                  {"hostName", "gpu-node-7"},
                  {"importedFrom", in},
                  {"nsysExportSchema", "3.17.1"},
                  {"system.CpuCores", "64"},
                  {"system.DeviceEnvironment", "SHELL=/bin/bash;CUDA_VISIBLE_DEVICES=0,1;"},
                  {"system.OsDescription", "Ubuntu 22.04.4 LTS"}}));
  EXPECT_FALSE(r.hasTable("EXTRA_TOOL_RESULTS"));
  EXPECT_FALSE(fs::exists(out + ".partial"));
}

TEST(NsysFixture, Nsys2021CallchainNumberingIsShifted) {
  // As in ex-gpu.s10: the call says callchainId 0 and its stack is chain 1
  // (the chain whose frames include the call's own function).
  TempDir dir;
  const std::string in = dir.file("export.sqlite"), out = dir.file("out.asysrep");
  buildFixture(in, "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET callchainId = 0 WHERE callchainId = 1;");
  asys::importReports({in}, out);
  Db r(out);
  EXPECT_EQ(r.integer("SELECT callchainId FROM HGGC_API WHERE correlationId = 5"), 1);
  EXPECT_EQ(r.integer("SELECT callchainId FROM PPU_MEMORY_USAGE_EVENTS WHERE memoryOperationType = 0"), 1);
}

TEST(NsysFixture, Nsys2021SchemaVariant) {
  // Exports of nsys 2.x and older: EXPORT_META_DATA instead of
  // META_DATA_EXPORT, no enum tables, kernels without mangledName and
  // graphId, TARGET_INFO_GPU keyed by deviceId with the CUDA properties in
  // TARGET_INFO_CUDA_GPU, OSRT_API with correlationId, no PROCESSES.
  TempDir dir;
  const std::string in = dir.file("old.sqlite"), out = dir.file("out.asysrep");
  {
    Db db(in, true);
    db.exec(R"(
      CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
      INSERT INTO StringIds VALUES (1, 'k(int)'), (2, 'k'), (3, 'cudaLaunchKernel_v7000'), (4, 'app'), (5, 'read');
      CREATE TABLE EXPORT_META_DATA (name TEXT, value TEXT);
      INSERT INTO EXPORT_META_DATA VALUES ('EXPORT_PRODUCT_VERSION', '2021.1.1.66'), ('EXPORT_SCHEMA_VERSION', '2.1.0');
      CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER, deviceId INTEGER, contextId INTEGER,
        streamId INTEGER, correlationId INTEGER, globalPid INTEGER, demangledName INTEGER, shortName INTEGER,
        registersPerThread INTEGER, gridX INTEGER, gridY INTEGER, gridZ INTEGER, blockX INTEGER, blockY INTEGER,
        blockZ INTEGER, staticSharedMemory INTEGER, dynamicSharedMemory INTEGER, graphNodeId INTEGER);
      INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (100, 150, 0, 1, 7, 1, 281474993487872, 1, 2, 8, 1, 1, 1, 32, 1, 1, 0, 0, NULL);
      CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER, end INTEGER, eventClass INTEGER, globalTid INTEGER,
        correlationId INTEGER, nameId INTEGER, returnValue INTEGER);
      INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (90, 95, 0, 281474993487873, 1, 3, 0);
      CREATE TABLE OSRT_API (start INTEGER, end INTEGER, eventClass INTEGER, globalTid INTEGER, correlationId INTEGER,
        nameId INTEGER, returnValue INTEGER, nestingLevel INTEGER, callchainId INTEGER);
      INSERT INTO OSRT_API VALUES (10, 20, 27, 281474993487873, 0, 5, 0, 0, 0);
      CREATE TABLE ThreadNames (nameId INTEGER, priority INTEGER, globalTid INTEGER);
      INSERT INTO ThreadNames VALUES (4, 20, 281474993487873);
      CREATE TABLE TARGET_INFO_GPU (vmId INTEGER, deviceId INTEGER, name TEXT, busLocation TEXT, isDiscrete INTEGER);
      INSERT INTO TARGET_INFO_GPU VALUES (281474976710656, 0, 'A100-PCIE-40GB', '0000:99:00.0', 1);
      CREATE TABLE TARGET_INFO_CUDA_GPU (vmId INTEGER, name TEXT, pciBusId TEXT, globalMemoryBandwidth INTEGER,
        globalMemorySize INTEGER, coreClockRate INTEGER, numMemcpyEngines INTEGER, numMultiprocessors INTEGER,
        computeCapabilityMajor INTEGER, computeCapabilityMinor INTEGER, deviceId INTEGER, pid INTEGER);
      INSERT INTO TARGET_INFO_CUDA_GPU VALUES
        (281474976710656, 'A100-PCIE-40GB', '<UNKNOWN_BUS_ID>', 1555200000, 42505273344, 1410000, 3, 108, 8, 0, 0, 1),
        (281474976710656, 'A100-PCIE-40GB', '<UNKNOWN_BUS_ID>', 1555200000, 42505273344, 1410000, 3, 108, 8, 0, 0, 2);
    )");
  }
  ASSERT_EQ(asys::sniffFormat(in), asys::InputFormat::NsysSqlite);
  asys::importReports({in}, out);
  Db r(out);
  using Rows = std::vector<std::vector<std::string>>;
  EXPECT_EQ(r.rows("SELECT globalPid, demangledName, shortName, mangledName, graphId FROM HGGC_KERNEL"),
            (Rows{{"16777216", "1", "2", "NULL", "NULL"}}));
  EXPECT_EQ(r.rows("SELECT id, name, busLocation, computeMajor, ceCount, cuCount, totalMemory, cuClock, "
                   "CAST(hbmBandwidth AS INTEGER) FROM TARGET_INFO_PPU"),
            (Rows{{"0", "A100-PCIE-40GB", "0000:99:00.0", "8", "3", "108", "42505273344", "1410000000",
                   "1555200000000"}}));
  EXPECT_EQ(r.rows("SELECT globalPid, pid, name FROM PROCESSES"), (Rows{{"16777216", "1", "app"}}));
  EXPECT_EQ(r.rows("SELECT callchainId FROM OSRT_API"), (Rows{{"NULL"}}));
  EXPECT_EQ(r.integer("SELECT count(*) FROM ENUM_HGGC_MEMCPY_OPER"), 14);
  EXPECT_EQ(r.rows("SELECT value FROM META_DATA WHERE name IN ('generator', 'captureStart', 'captureEnd') "
                   "ORDER BY name"),
            (Rows{{"150"}, {"10"}, {"asys import (Nsight Systems SQLite, 2021.1.1.66)"}}));
}

TEST(NsysFixture, StatsOnTheExportLeavesNothingBehind) {
  TempDir work, tmp;
  const std::string in = work.file("export.sqlite");
  buildFixture(in);
  auto report = asys::openAnyReport({in}, tmp.path().string());
  EXPECT_EQ(tmp.entries(), 0u);
  EXPECT_EQ(report->path(), in);  // messages name the file the user gave
  EXPECT_EQ(report->kernels().size(), 4u);
  EXPECT_EQ(report->summary().generator, "asys import (Nsight Systems SQLite, 2025.1.1.110)");
  CliResult c = cli({"stats", "-r", "pccl_stage_sum", in});
  EXPECT_EQ(c.status, 1);
  EXPECT_NE(c.err.find(in + " does not contain"), std::string::npos) << c.err;
}

TEST(NsysFixture, ImportWritesOnlyTheReport) {
  TempDir dir;
  const std::string in = dir.file("export.sqlite"), out = dir.file("out.asysrep");
  buildFixture(in);
  ASSERT_EQ(cli({"import", in, "-o", out}).status, 0);
  CliResult again = cli({"import", in, "-o", out});
  EXPECT_EQ(again.status, 1);
  EXPECT_EQ(again.err, "asys import: " + out + " exists (use -f true to overwrite)\n");
  EXPECT_EQ(cli({"import", in, "-o", out, "-f", "true"}).status, 0);
  EXPECT_EQ(dir.entries(), 2u);  // export.sqlite and out.asysrep, no .partial
  // One export per report.
  EXPECT_EQ(importError({in, in}, dir.file("two.asysrep")),
            "an Nsight Systems export is imported on its own: give one .sqlite file per report, got 2");
}

// ---------------------------------------------------------------------------
// Malformed inputs: one clear line each.

TEST(NsysErrors, SqliteOfAnotherProgram) {
  TempDir dir;
  const std::string in = dir.file("places.sqlite");
  {
    Db db(in, true);
    db.exec("CREATE TABLE moz_places (id INTEGER PRIMARY KEY, url TEXT); INSERT INTO moz_places VALUES (1, 'x');");
  }
  EXPECT_EQ(asys::sniffFormat(in), asys::InputFormat::Unknown);
  const std::string want =
      in + ": not a report asys can read (asysrep, Nsight Systems SQLite export, PyTorch/Kineto trace JSON)";
  EXPECT_EQ(importError({in}, dir.file("out.asysrep")), want);
  CliResult c = cli({"import", in, "-o", dir.file("out.asysrep")});
  EXPECT_EQ(c.status, 1);
  EXPECT_EQ(c.err, "asys import: " + want + "\n");
  CliResult s = cli({"stats", "-r", "hggc_api_sum", in});
  EXPECT_EQ(s.status, 1);
  EXPECT_EQ(s.err, "asys stats: " + want + "\n");
  EXPECT_FALSE(fs::exists(dir.file("out.asysrep")));
}

TEST(NsysErrors, TruncatedExport) {
  TempDir dir;
  const std::string in = dir.file("export.sqlite");
  buildFixture(in);
  const auto size = fs::file_size(in);
  fs::resize_file(in, size / 2);
  const std::string e = importError({in}, dir.file("out.asysrep"));
  EXPECT_EQ(e.rfind(in + ": truncated SQLite file (", 0), 0u) << e;
  EXPECT_FALSE(fs::exists(dir.file("out.asysrep")));
  EXPECT_FALSE(fs::exists(dir.file("out.asysrep.partial")));
}

TEST(NsysErrors, ExportWithoutTheColumnsOfAnEventTable) {
  TempDir dir;
  const std::string in = dir.file("odd.sqlite");
  {
    Db db(in, true);
    db.exec("CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);"
            "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (begin INTEGER, finish INTEGER);");
  }
  EXPECT_EQ(asys::sniffFormat(in), asys::InputFormat::NsysSqlite);
  EXPECT_EQ(importError({in}, dir.file("out.asysrep")),
            in + ": table CUPTI_ACTIVITY_KIND_KERNEL has no column 'start' (not an Nsight Systems export layout "
                 "asys knows)");
  EXPECT_FALSE(fs::exists(dir.file("out.asysrep.partial")));
}

TEST(NsysErrors, MissingInputAndMixedFormats) {
  TempDir dir;
  const std::string absent = dir.file("absent.sqlite");
  EXPECT_EQ(importError({absent}, dir.file("out.asysrep")), absent + ": cannot open: No such file or directory");
  const std::string in = dir.file("export.sqlite"), json = dir.file("trace.json");
  buildFixture(in);
  writeFile(json, "{\"traceEvents\": []}");
  EXPECT_EQ(importError({in, json}, dir.file("out.asysrep")),
            json + " is a PyTorch/Kineto trace but " + in + " is an Nsight Systems SQLite export: give inputs of one format");
}

// ---------------------------------------------------------------------------
// Sniffing: by content, whatever the file is called.

TEST(Sniff, RecognisesEachFormatByContent) {
  TempDir dir;
  const std::string asysrep = dir.file("a.json");  // names are ignored
  {
    asys::ReportWriter w(asysrep, asysrep);
    w.metaData("format", "asysrep");
    w.metaData("formatVersion", "1");
    w.finish();
  }
  EXPECT_EQ(asys::sniffFormat(asysrep), asys::InputFormat::Asysrep);

  const std::string nsys = dir.file("b.asysrep");
  buildFixture(nsys);
  EXPECT_EQ(asys::sniffFormat(nsys), asys::InputFormat::NsysSqlite);

  const std::string gz = dir.file("c.sqlite");
  writeFile(gz, std::string("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03", 10));
  EXPECT_EQ(asys::sniffFormat(gz), asys::InputFormat::KinetoJson);

  const std::string json = dir.file("d.txt");
  writeFile(json, "\n  \t{\"schemaVersion\": 1, \"traceEvents\": []}");
  EXPECT_EQ(asys::sniffFormat(json), asys::InputFormat::KinetoJson);

  const std::string text = dir.file("e.json");
  writeFile(text, "this is a plain text file, not a trace\n");
  EXPECT_EQ(asys::sniffFormat(text), asys::InputFormat::Unknown);

  const std::string rep = dir.file("f.sqlite");
  writeFile(rep, std::string("NVIDIA Tegra Profiler Report 2025@1@1@110\x0a\x0b", 43));
  EXPECT_EQ(asys::sniffFormat(rep), asys::InputFormat::NsysRep);

  const std::string empty = dir.file("g");
  writeFile(empty, "");
  EXPECT_EQ(asys::sniffFormat(empty), asys::InputFormat::Unknown);
  EXPECT_EQ(asys::sniffFormat(dir.file("absent")), asys::InputFormat::Unknown);

  // An asysrep-shaped database that says it is something else.
  const std::string other = dir.file("h.asysrep");
  {
    Db db(other, true);
    db.exec("CREATE TABLE META_DATA (name TEXT PRIMARY KEY, value TEXT); INSERT INTO META_DATA VALUES "
            "('format', 'other'); CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);"
            "CREATE TABLE TARGET_INFO_PPU (id INTEGER PRIMARY KEY, name TEXT);");
  }
  EXPECT_EQ(asys::sniffFormat(other), asys::InputFormat::Unknown);
}

TEST(Sniff, RealFiles) {
  REQUIRE_REAL_DATA();
  for (const std::string& f : realExports()) {
    EXPECT_EQ(asys::sniffFormat((kRealData / f).string()), asys::InputFormat::NsysSqlite) << f;
  }
  for (const auto& e : fs::recursive_directory_iterator(kRealData / "kineto")) {
    if (e.is_regular_file() && e.path().extension() == ".gz") {
      EXPECT_EQ(asys::sniffFormat(e.path().string()), asys::InputFormat::KinetoJson) << e.path();
    }
  }
  EXPECT_EQ(asys::sniffFormat((kRealData / "MANIFEST.md").string()), asys::InputFormat::Unknown);
}

}  // namespace
