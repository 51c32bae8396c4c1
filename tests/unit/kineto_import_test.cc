// The Kineto importer against the real traces of shared/data/real/kineto:
// counts against MANIFEST.md (numbers copied from it, not from the program),
// the Qwen H100 kernel summary against TraceLens's own kernel_summary.csv,
// the DLRM ranks as one report with a collective checked against the JSON by
// hand, the text helpers, and one clear error per malformed input.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <zlib.h>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/cli/cli.h"
#include "core/import/importer.h"
#include "core/import/kineto_names.h"
#include "core/report/report.h"
#include "core/writer/report_writer.h"
#include "tests/unit/csv_rows.h"

namespace fs = std::filesystem;

namespace {

const std::string kData = ASYS_REAL_DATA_DIR;

fs::path tempDir() { return fs::temp_directory_path() / ("asys-kineto-test-" + std::to_string(::getpid())); }

std::string tempPath(const std::string& name) {
  static std::atomic<int> counter{0};
  fs::create_directories(tempDir());
  return (tempDir() / (std::to_string(counter++) + "-" + name)).string();
}

class RemoveTempDir : public testing::Environment {
 public:
  void TearDown() override {
    std::error_code ignored;
    fs::remove_all(tempDir(), ignored);
  }
};
testing::Environment* const kRemoveTempDir = testing::AddGlobalTestEnvironment(new RemoveTempDir);

// Imports through the ReportWriter directly, as importReports does.
std::string importToTemp(const std::vector<std::string>& inputs) {
  const std::string out = tempPath("report.asysrep");
  asys::ReportWriter writer(out, out);
  asys::importKineto(inputs, writer);
  writer.finish();
  return out;
}

class Db {
 public:
  explicit Db(const std::string& path) {
    if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
      ADD_FAILURE() << "cannot open " << path;
    }
  }
  ~Db() { sqlite3_close(db_); }
  int64_t integer(const std::string& sql) {
    auto rows = query(sql);
    return rows.empty() || rows[0].empty() ? INT64_MIN : std::stoll(rows[0][0]);
  }
  std::string text(const std::string& sql) {
    auto rows = query(sql);
    return rows.empty() || rows[0].empty() ? "" : rows[0][0];
  }
  std::vector<std::vector<std::string>> query(const std::string& sql) {
    std::vector<std::vector<std::string>> rows;
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &st, nullptr) != SQLITE_OK) {
      ADD_FAILURE() << sql << ": " << sqlite3_errmsg(db_);
      return rows;
    }
    while (sqlite3_step(st) == SQLITE_ROW) {
      std::vector<std::string> row;
      for (int i = 0; i < sqlite3_column_count(st); ++i) {
        const unsigned char* t = sqlite3_column_text(st, i);
        row.push_back(t ? reinterpret_cast<const char*>(t) : "NULL");
      }
      rows.push_back(std::move(row));
    }
    sqlite3_finalize(st);
    return rows;
  }

 private:
  sqlite3* db_ = nullptr;
};

// ---------------------------------------------------------------------------
// Every real Kineto file: counts from MANIFEST.md.

struct ManifestCounts {
  std::string path;  // under shared/data/real
  int64_t kernels, ncclKernels, runtime, driver, memcpy, memset, cpuOps, userAnnotations,
      gpuUserAnnotations, python, memoryEvents;
  std::string devices;  // "GPU device ids with activity", comma-separated
};

// The Kineto entries of MANIFEST.md, read at test registration, so that every
// Kineto file it lists is imported (files held back from this checkout are
// skipped; present, they are tested too). Each "#### `data/real/kineto/...`"
// section has lines such as "GPU kernels 245 (...); NCCL/RCCL kernels 8".
std::vector<ManifestCounts> readManifest() {
  std::vector<ManifestCounts> out;
  std::ifstream in(kData + "/MANIFEST.md");
  if (!in) return out;
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  auto number = [](const std::string& section, const char* pattern) -> int64_t {
    std::smatch m;
    if (!std::regex_search(section, m, std::regex(pattern))) return -1;
    std::string digits;
    for (char c : m[1].str()) {
      if (c != ',') digits += c;
    }
    return std::stoll(digits);
  };
  const std::string marker = "\n#### `data/real/";
  for (size_t at = text.find(marker); at != std::string::npos;) {
    const size_t next = text.find(marker, at + 1);
    const std::string section = text.substr(at, next == std::string::npos ? std::string::npos : next - at);
    at = next;
    const size_t begin = marker.size(), end = section.find('`', begin);
    const std::string path = section.substr(begin, end - begin);
    if (path.rfind("kineto/", 0) != 0 || path.size() < 8 || path.substr(path.size() - 8) != ".json.gz") continue;
    ManifestCounts m;
    m.path = path;
    m.kernels = number(section, R"(GPU kernels ([\d,]+))");
    m.ncclKernels = number(section, R"(NCCL/RCCL kernels ([\d,]+))");
    m.runtime = number(section, R"(runtime events ([\d,]+))");
    m.driver = number(section, R"(driver events ([\d,]+))");
    m.memcpy = number(section, R"(; memcpy ([\d,]+))");
    m.memset = number(section, R"(; memset ([\d,]+))");
    m.cpuOps = number(section, R"(CPU ops ([\d,]+))");
    m.userAnnotations = number(section, R"(user annotations \(record_function\) ([\d,]+))");
    m.gpuUserAnnotations = number(section, R"(GPU user annotations ([\d,]+))");
    m.python = number(section, R"(python_function ([\d,]+))");
    m.memoryEvents = number(section, R"(`\[memory\]` events ([\d,]+))");
    std::smatch d;
    if (std::regex_search(section, d, std::regex(R"(device ids with activity: \[([\d, ]*)\])"))) {
      for (char c : d[1].str()) {
        if (c != ' ') m.devices += c;
      }
    }
    out.push_back(m);
  }
  return out;
}

// The same numbers copied from MANIFEST.md by hand: a check of readManifest.
const ManifestCounts kManifest[] = {
    {"kineto/param/dlrm_kineto/worker0_step_12.1694128201545.pt.trace.json.gz", 245, 8, 525, 0, 16, 0, 1633, 40, 0, 0, 0, "0"},
    {"kineto/param/dlrm_kineto/worker1_step_12.1694128201556.pt.trace.json.gz", 310, 8, 527, 0, 16, 0, 1633, 40, 0, 0, 0, "1"},
    {"kineto/param/dlrm_kineto/worker2_step_12.1694128201554.pt.trace.json.gz", 246, 8, 513, 0, 16, 0, 1633, 40, 0, 0, 0, "2"},
    {"kineto/param/dlrm_kineto/worker3_step_12.1694128201557.pt.trace.json.gz", 315, 8, 541, 0, 16, 6, 1633, 40, 0, 0, 0, "3"},
    {"kineto/hta/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz", 14, 0, 21, 0, 2, 0, 70, 3, 2, 0, 0, "2"},
    {"kineto/hta/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz", 79, 0, 361, 0, 16, 3, 359, 8, 0, 0, 0, "0"},
    {"kineto/hta/df_index_resolver/df_index_resolver.json.gz", 19370, 2020, 42373, 0, 2040, 880, 56680, 2035, 0, 0, 28010, "1"},
    {"kineto/hta/nccl_parser_config/nccl_data.json.gz", 2700, 21, 8740, 0, 960, 114, 14346, 42, 30, 0, 0, "0"},
    {"kineto/hta/ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz", 4350, 0, 15329, 0, 1600, 145, 23910, 70, 15, 0, 0, "0"},
    {"kineto/hta/trace_diff/control/control.json.gz", 8568, 60, 24692, 0, 228, 654, 40506, 288, 0, 0, 0, "3"},
    {"kineto/hta/trace_filter/sampled_rank-0.json.gz", 1154, 10, 1204, 0, 40, 10, 2329, 73, 0, 0, 0, "0"},
    {"kineto/hta/trace_filter/sampled_rank-1.json.gz", 1104, 10, 1154, 0, 40, 10, 2302, 65, 0, 0, 0, "1"},
    {"kineto/hta/with_gpu_user_annotation/step_based_trace_2543932.json.gz", 130, 0, 180, 0, 10, 0, 643, 10, 10, 0, 0, "0"},
    {"kineto/tracelens/h100/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz", 1465, 0, 1921, 1, 1, 241, 4186, 1, 1, 4262, 2450, "0"},
    {"kineto/tracelens/inference/sglang_decode/sglang_Qwen3-8B_decode.json.gz", 555, 0, 29, 0, 3, 0, 61, 2, 0, 821, 0, "9"},
    {"kineto/tracelens/mi300/resnet_act_checkpoint.json.gz", 2995, 17, 3100, 0, 550, 108, 8004, 24, 21, 34405, 0, "2"},
    {"kineto/tracelens/unit_tests_nv/moe/moe_01_many_experts_few_tokens.json.gz", 36, 0, 70, 9, 0, 0, 141, 6, 6, 0, 0, "0"},
    {"kineto/tracelens/unit_tests_nv/moe/moe_05_large_capacity.json.gz", 42, 0, 76, 9, 0, 0, 141, 6, 6, 0, 0, "0"},
    {"kineto/kineto-tb_plugin/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz", 8772, 0, 11923, 0, 12, 312, 23646, 0, 0, 0, 12838, "0"},
};

void PrintTo(const ManifestCounts& m, std::ostream* os) { *os << m.path; }

class RealKinetoFile : public testing::TestWithParam<ManifestCounts> {};

TEST_P(RealKinetoFile, CountsMatchTheManifest) {
  const ManifestCounts& m = GetParam();
  const std::string input = kData + "/" + m.path;
  if (!fs::exists(input)) GTEST_SKIP() << input << " is not in this checkout";
  const std::string report = importToTemp({input});
  ASSERT_NO_THROW(asys::Report::open(report));  // a valid asysrep
  Db db(report);
  EXPECT_EQ(db.integer("SELECT count(*) FROM HGGC_KERNEL"), m.kernels);
  EXPECT_EQ(db.integer("SELECT count(*) FROM HGGC_KERNEL k JOIN StringIds s ON s.id = k.demangledName "
                       "WHERE s.value LIKE '%nccl%'"),
            m.ncclKernels);
  EXPECT_EQ(db.integer("SELECT count(*) FROM HGGC_API WHERE eventClass = 0"), m.runtime);
  EXPECT_EQ(db.integer("SELECT count(*) FROM HGGC_API WHERE eventClass = 1"), m.driver);
  EXPECT_EQ(db.integer("SELECT count(*) FROM HGGC_MEMCPY"), m.memcpy);
  EXPECT_EQ(db.integer("SELECT count(*) FROM HGGC_MEMSET"), m.memset);
  EXPECT_EQ(db.integer("SELECT count(*) FROM HGTX_EVENTS WHERE eventType = 59 AND category = 2"), m.cpuOps);
  EXPECT_EQ(db.integer("SELECT count(*) FROM HGTX_EVENTS WHERE eventType = 59 AND category = 1"), m.userAnnotations);
  EXPECT_EQ(db.integer("SELECT count(*) FROM HGTX_EVENTS WHERE eventType = 60 AND category = 4"),
            m.gpuUserAnnotations);
  EXPECT_EQ(db.integer("SELECT count(*) FROM HGTX_EVENTS WHERE eventType = 59 AND category = 3"), m.python);
  EXPECT_EQ(db.integer("SELECT count(*) FROM PPU_MEMORY_USAGE_EVENTS"), m.memoryEvents);
  EXPECT_EQ(db.text("SELECT group_concat(d, ',') FROM (SELECT DISTINCT deviceId AS d FROM ("
                    "SELECT deviceId FROM HGGC_KERNEL UNION SELECT deviceId FROM HGGC_MEMCPY UNION "
                    "SELECT deviceId FROM HGGC_MEMSET) ORDER BY d)"),
            m.devices);
  // One process per file; every kernel and API call belongs to it.
  EXPECT_EQ(db.integer("SELECT count(*) FROM PROCESSES"), 1);
  EXPECT_EQ(db.integer("SELECT count(*) FROM HGGC_KERNEL WHERE globalPid NOT IN (SELECT globalPid FROM PROCESSES)"), 0);
  EXPECT_EQ(db.integer("SELECT count(*) FROM HGGC_API WHERE (globalTid >> 24) << 24 NOT IN "
                       "(SELECT globalPid FROM PROCESSES)"),
            0);
  // Each NCCL kernel whose launch is in the trace gets a PCCL operator range.
  EXPECT_LE(db.integer("SELECT count(*) FROM HGTX_EVENTS WHERE category = 5"), m.ncclKernels);
  // Every device with activity has a TARGET_INFO_PPU row.
  EXPECT_EQ(db.integer("SELECT count(*) FROM (SELECT DISTINCT deviceId FROM HGGC_KERNEL) "
                       "WHERE deviceId NOT IN (SELECT id FROM TARGET_INFO_PPU)"),
            0);
  fs::remove(report);
}

std::string testName(const testing::TestParamInfo<ManifestCounts>& info) {
  std::string name = fs::path(info.param.path).filename().string();
  name = name.substr(0, name.find('.'));
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name + "_" + std::to_string(info.index);
}

INSTANTIATE_TEST_SUITE_P(Manifest, RealKinetoFile, testing::ValuesIn(readManifest()), testName);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(RealKinetoFile);

TEST(KinetoManifest, ParsedNumbersMatchTheHandCopiedOnes) {
  if (!fs::exists(kData + "/MANIFEST.md")) GTEST_SKIP();
  const std::vector<ManifestCounts> parsed = readManifest();
  for (const ManifestCounts& want : kManifest) {
    auto got = std::find_if(parsed.begin(), parsed.end(), [&](const ManifestCounts& m) { return m.path == want.path; });
    ASSERT_NE(got, parsed.end()) << want.path;
    EXPECT_EQ(got->kernels, want.kernels) << want.path;
    EXPECT_EQ(got->ncclKernels, want.ncclKernels) << want.path;
    EXPECT_EQ(got->runtime, want.runtime) << want.path;
    EXPECT_EQ(got->driver, want.driver) << want.path;
    EXPECT_EQ(got->memcpy, want.memcpy) << want.path;
    EXPECT_EQ(got->memset, want.memset) << want.path;
    EXPECT_EQ(got->cpuOps, want.cpuOps) << want.path;
    EXPECT_EQ(got->userAnnotations, want.userAnnotations) << want.path;
    EXPECT_EQ(got->gpuUserAnnotations, want.gpuUserAnnotations) << want.path;
    EXPECT_EQ(got->python, want.python) << want.path;
    EXPECT_EQ(got->memoryEvents, want.memoryEvents) << want.path;
    EXPECT_EQ(got->devices, want.devices) << want.path;
  }
}

// ---------------------------------------------------------------------------
// Exact values read from the JSON by hand.

TEST(KinetoImport, NanosecondTimestampsAreExact) {
  // rank-0.Apr_03...: the first kernel is "ts": 1712195495505582.988, "dur": 4.928
  // (a double holds 1712195495505583.0 there).
  const std::string input = kData + "/kineto/hta/ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz";
  if (!fs::exists(input)) GTEST_SKIP();
  Db db(importToTemp({input}));
  auto rows = db.query("SELECT start, end FROM HGGC_KERNEL ORDER BY rowid LIMIT 1");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0][0], "1712195495505582988");
  EXPECT_EQ(rows[0][1], "1712195495505587916");
  EXPECT_EQ(db.text("SELECT value FROM META_DATA WHERE name = 'epochOffset'"), "0");
}

TEST(KinetoImport, BaseTimeBecomesTheEpochOffset) {
  // nccl_data.json: "baseTimeNanoseconds": 1711964646000000000 after the
  // events; first kernel "ts": 4458676983543.183, "dur": 41.407 (cudnn bn_bw).
  const std::string input = kData + "/kineto/hta/nccl_parser_config/nccl_data.json.gz";
  if (!fs::exists(input)) GTEST_SKIP();
  Db db(importToTemp({input}));
  auto rows = db.query("SELECT start, end FROM HGGC_KERNEL ORDER BY rowid LIMIT 1");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0][0], "4458676983543183");
  EXPECT_EQ(rows[0][1], "4458676983584590");
  EXPECT_EQ(db.text("SELECT value FROM META_DATA WHERE name = 'epochOffset'"), "1711964646000000000");
  // The collective metadata is on the kernel and on record_param_comms:
  // allreduce of "Float" (NCCL 7), group "0" of ranks [0, 1], rank 0.
  EXPECT_EQ(db.integer("SELECT count(*) FROM HGTX_EVENTS WHERE category = 5"), 21);
  EXPECT_EQ(db.integer("SELECT count(*) FROM HGTX_EVENTS h JOIN StringIds s ON s.id = h.textId "
                       "WHERE s.value = 'AllReduce, p:0, c:6637568, d:7, r:0, w:2, h:" +
                       asys::kineto::fnv1aHex("0|0,1") + ", t:1, b:-'"),
            3);
}

TEST(KinetoImport, DeviceWithActivityButNoPropertiesIsListed) {
  // sglang_decode: activity on device 9, deviceProperties lists only id 0.
  const std::string input = kData + "/kineto/tracelens/inference/sglang_decode/sglang_Qwen3-8B_decode.json.gz";
  if (!fs::exists(input)) GTEST_SKIP();
  Db db(importToTemp({input}));
  EXPECT_EQ(db.text("SELECT group_concat(id, ',') FROM (SELECT id FROM TARGET_INFO_PPU ORDER BY id)"), "0,9");
  EXPECT_EQ(db.text("SELECT name FROM TARGET_INFO_PPU WHERE id = 0"), "AMD Instinct MI300X");
  EXPECT_EQ(db.integer("SELECT cuCount FROM TARGET_INFO_PPU WHERE id = 0"), 304);
  EXPECT_EQ(db.integer("SELECT totalMemory FROM TARGET_INFO_PPU WHERE id = 0"), 206141652992);
}

TEST(KinetoImport, LegacyStringTidsAndMemoryEvents) {
  // tb_plugin (PyTorch 1.9): "tid": "25738" strings, [memory] without Addr.
  const std::string input =
      kData + "/kineto/kineto-tb_plugin/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz";
  if (!fs::exists(input)) GTEST_SKIP();
  Db db(importToTemp({input}));
  EXPECT_EQ(db.integer("SELECT count(DISTINCT globalTid & 16777215) FROM HGGC_API WHERE (globalTid & 16777215) = 25738"), 1);
  // 4110 device allocations and 4110 releases on device 0; host ones on -1.
  EXPECT_EQ(db.integer("SELECT count(*) FROM PPU_MEMORY_USAGE_EVENTS WHERE deviceId = 0 AND memoryOperationType = 0"), 4110);
  EXPECT_EQ(db.integer("SELECT count(*) FROM PPU_MEMORY_USAGE_EVENTS WHERE deviceId = 0 AND memoryOperationType = 1"), 4110);
  EXPECT_EQ(db.integer("SELECT count(*) FROM PPU_MEMORY_USAGE_EVENTS WHERE deviceId = -1"), 2310 + 2308);
  EXPECT_EQ(db.integer("SELECT count(*) FROM PPU_MEMORY_USAGE_EVENTS WHERE address IS NOT NULL"), 0);
  // Legacy memcpy names: "Memcpy HtoD (Pageable -> Device)" x12.
  EXPECT_EQ(db.text("SELECT group_concat(DISTINCT o.label) FROM HGGC_MEMCPY m JOIN ENUM_HGGC_MEMCPY_OPER o "
                    "ON o.id = m.copyKind"),
            "Host-to-Device");
}

// ---------------------------------------------------------------------------
// hggc_ppu_kern_sum against TraceLens's kernel summary of the same trace.

using asys_test::column;
using asys_test::parseCsv;

TEST(KinetoImport, QwenKernelSummaryMatchesTraceLens) {
  const std::string dir = kData + "/kineto/tracelens/h100/";
  const std::string input = dir + "Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz";
  const std::string csv = dir + "Qwen_Qwen1.5-0.5B-Chat__1016005_perf_report_csvs/kernel_summary.csv";
  if (!fs::exists(input) || !fs::exists(csv)) GTEST_SKIP();

  // TraceLens: one row per (parent op, kernel, stream); summed per kernel name.
  std::ifstream in(csv);
  std::stringstream buffer;
  buffer << in.rdbuf();
  auto lens = parseCsv(buffer.str());
  ASSERT_GT(lens.size(), 1u);
  const size_t nameCol = column(lens[0], "Kernel name");
  const size_t sumCol = column(lens[0], "Kernel duration (µs)_sum");
  const size_t countCol = column(lens[0], "Kernel duration (µs)_count");
  std::map<std::string, std::pair<int64_t, double>> expected;  // name -> count, total µs
  for (size_t i = 1; i < lens.size(); ++i) {
    auto& e = expected[lens[i][nameCol]];
    e.first += std::stoll(lens[i][countCol]);
    e.second += std::stod(lens[i][sumCol]);
  }

  const std::string report = importToTemp({input});
  std::ostringstream out, err;
  ASSERT_EQ(asys::runCli({"stats", "-r", "hggc_ppu_kern_sum", "--format", "csv", report}, out, err), 0)
      << err.str();
  auto ours = parseCsv(out.str());
  ASSERT_GT(ours.size(), 1u);
  const size_t ourName = column(ours[0], "Name");
  const size_t ourTotal = column(ours[0], "Total Time (ns)");
  const size_t ourCount = column(ours[0], "Instances");
  EXPECT_EQ(ours.size() - 1, expected.size());  // 26 kernel names
  int64_t kernels = 0;
  for (size_t i = 1; i < ours.size(); ++i) {
    const std::string& name = ours[i][ourName];
    auto it = expected.find(name);
    ASSERT_NE(it, expected.end()) << "kernel not in TraceLens's summary: " << name;
    EXPECT_EQ(std::stoll(ours[i][ourCount]), it->second.first) << name;
    // TraceLens sums microseconds with 3 decimals in floating point.
    EXPECT_EQ(std::stoll(ours[i][ourTotal]), std::llround(it->second.second * 1000.0)) << name;
    kernels += std::stoll(ours[i][ourCount]);
  }
  EXPECT_EQ(kernels, 1465);
}

// ---------------------------------------------------------------------------
// The DLRM ranks together: one report, one process per rank.

std::vector<std::string> dlrmFiles() {
  std::vector<std::string> files;
  const fs::path dir = kData + "/kineto/param/dlrm_kineto";
  if (!fs::exists(dir)) return files;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().filename().string().rfind("worker", 0) == 0) files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(KinetoImport, DlrmRanksBecomeOneMultiProcessReport) {
  const std::vector<std::string> files = dlrmFiles();
  if (files.size() < 2) GTEST_SKIP() << "fewer than two DLRM rank files here";
  const std::string report = importToTemp(files);
  Db db(report);
  const int64_t ranks = static_cast<int64_t>(files.size());
  EXPECT_EQ(db.integer("SELECT count(*) FROM PROCESSES"), ranks);
  // Every file lists the host's 8 V100s; rank N runs on device N.
  EXPECT_EQ(db.integer("SELECT count(*) FROM TARGET_INFO_PPU"), 8);
  EXPECT_EQ(db.integer("SELECT count(DISTINCT deviceId) FROM HGGC_KERNEL"), ranks);
  EXPECT_EQ(db.integer("SELECT count(DISTINCT globalPid) FROM HGGC_KERNEL"), ranks);
  for (const std::string& f : files) {
    const std::string name = fs::path(f).filename().string();
    const std::string rank = name.substr(6, name.find('_') - 6);  // workerN_...
    EXPECT_EQ(db.integer("SELECT count(*) FROM PROCESSES WHERE name = 'rank " + rank + " (" + name + ")'"), 1) << name;
    // A kernel of rank N runs on device N and in rank N's process.
    EXPECT_EQ(db.integer("SELECT count(DISTINCT k.globalPid) FROM HGGC_KERNEL k JOIN PROCESSES p "
                         "ON p.globalPid = k.globalPid WHERE p.name LIKE 'rank " + rank + " %' AND k.deviceId = " + rank),
              1);
  }
  if (ranks == 8) EXPECT_EQ(db.integer("SELECT count(DISTINCT deviceId) FROM HGGC_KERNEL"), 8);
}

// The first AllReduce of the step, per rank, as read in each worker's JSON:
// kernel "ncclKernel_AllReduce_RING_LL_Sum_float(...)" ts/dur and its
// cudaLaunchKernel (same "correlation") ts/dur/pid/tid. The enclosing
// "nccl:all_reduce" annotation has "Input Dims": [[394241]], "Input type":
// ["float"]; distributedInfo world_size 8.
struct FirstAllReduce {
  const char* worker;
  int64_t kernelTs, kernelDur, correlation, launchTs, launchDur, pid, tid;
};
const FirstAllReduce kFirstAllReduce[] = {
    {"worker0_", 1694128201436304, 246, 42386, 1694128201436294, 7, 59811, 59976},
    {"worker1_", 1694128201436240, 307, 43275, 1694128201436231, 7, 59812, 59977},
    {"worker2_", 1694128201436347, 198, 42839, 1694128201436336, 8, 59813, 59987},
    {"worker3_", 1694128201436255, 291, 43753, 1694128201436245, 7, 59814, 59994},
};

TEST(KinetoImport, DlrmFirstAllReducePerRankMatchesTheJson) {
  const std::vector<std::string> files = dlrmFiles();
  if (files.size() < 2) GTEST_SKIP();
  Db db(importToTemp(files));
  int checked = 0;
  for (const FirstAllReduce& x : kFirstAllReduce) {
    auto file = std::find_if(files.begin(), files.end(), [&](const std::string& f) {
      return fs::path(f).filename().string().rfind(x.worker, 0) == 0;
    });
    if (file == files.end()) continue;
    const std::string rank = std::string(x.worker).substr(6, 1);
    // The kernel: the earliest AllReduce of this rank's device.
    auto k = db.query("SELECT k.start, k.end, k.correlationId, k.globalPid >> 24 FROM HGGC_KERNEL k "
                      "JOIN StringIds s ON s.id = k.demangledName WHERE s.value LIKE 'ncclKernel_AllReduce%' "
                      "AND k.deviceId = " + rank + " ORDER BY k.start LIMIT 1");
    ASSERT_EQ(k.size(), 1u) << x.worker;
    EXPECT_EQ(std::stoll(k[0][0]), x.kernelTs * 1000) << x.worker;
    EXPECT_EQ(std::stoll(k[0][1]), (x.kernelTs + x.kernelDur) * 1000) << x.worker;
    EXPECT_EQ(std::stoll(k[0][2]), x.correlation) << x.worker;
    EXPECT_EQ(std::stoll(k[0][3]), x.pid) << x.worker;
    // Its launch, and the PCCL operator range around it on the same thread.
    auto a = db.query("SELECT start, end, globalTid FROM HGGC_API WHERE correlationId = " +
                      std::to_string(x.correlation) + " AND globalTid >> 24 = " + std::to_string(x.pid));
    ASSERT_EQ(a.size(), 1u) << x.worker;
    EXPECT_EQ(std::stoll(a[0][0]), x.launchTs * 1000);
    EXPECT_EQ(std::stoll(a[0][1]), (x.launchTs + x.launchDur) * 1000);
    EXPECT_EQ(std::stoll(a[0][2]), (x.pid << 24) | x.tid);
    auto r = db.query("SELECT h.start, h.end, h.globalTid, s.value FROM HGTX_EVENTS h JOIN StringIds s "
                      "ON s.id = h.textId WHERE h.category = 5 AND h.globalTid = " +
                      std::to_string((x.pid << 24) | x.tid) + " AND h.start = " + std::to_string(x.launchTs * 1000));
    ASSERT_EQ(r.size(), 1u) << x.worker;
    EXPECT_EQ(std::stoll(r[0][1]), (x.launchTs + x.launchDur) * 1000);
    EXPECT_EQ(r[0][3], "AllReduce, p:0, c:394241, d:7, r:" + rank + ", w:8, h:" +
                           asys::kineto::fnv1aHex("0|0,1,2,3,4,5,6,7") + ", t:1, b:-");
    ++checked;
  }
  EXPECT_GE(checked, 2);
  // Ranks start the collective up to tens of microseconds apart but end together
  // (from the table above: starts 436240..436347 µs, ends 436545..436550 µs).
}

// ---------------------------------------------------------------------------
// Clock offsets, plain JSON, string tids: small traces written here.

std::string writeFile(const std::string& name, const std::string& content) {
  const std::string path = tempPath(name);
  std::ofstream(path, std::ios::binary) << content;
  return path;
}

std::string writeGzip(const std::string& name, const std::string& content) {
  const std::string path = tempPath(name);
  gzFile f = gzopen(path.c_str(), "wb");
  gzwrite(f, content.data(), static_cast<unsigned>(content.size()));
  gzclose(f);
  return path;
}

const char kTinyEvents[] =
    R"json({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 7, "tid": "thread A", "ts": 100.5, "dur": 2,
        "args": {"correlation": 1}},
       {"ph": "X", "cat": "kernel", "name": "void ns::k<int>(int*)", "pid": 0, "tid": 7, "ts": 103.0004, "dur": 1.0005,
        "args": {"device": 0, "stream": 7, "correlation": 1, "grid": [2, 1, 1], "block": [64, 1, 1]}})json";

TEST(KinetoImport, BaseTimesPutRanksOnOneClock) {
  // Rank 0 gives its base before the events, rank 1 after them (as older
  // Kineto versions do), 1 ms later: rank 1's times move by +1 ms.
  const std::string a = writeFile("a.json", std::string(R"({"baseTimeNanoseconds": 1000000000000, "distributedInfo": {"rank": 0}, "traceEvents": [)") +
                                                kTinyEvents + "]}");
  const std::string b = writeGzip("b.json.gz", std::string(R"({"distributedInfo": {"rank": 1}, "traceEvents": [)") + kTinyEvents +
                                                   R"(], "baseTimeNanoseconds": 1000001000000})");
  Db db(importToTemp({a, b}));
  auto k = db.query("SELECT start, end, gridX, blockX FROM HGGC_KERNEL ORDER BY rowid");
  ASSERT_EQ(k.size(), 2u);
  EXPECT_EQ(k[0][0], "103000");   // 103.0004 µs rounds to 103000 ns
  EXPECT_EQ(k[0][1], "104001");   // + 1.0005 µs -> 1001 ns (half away from zero)
  EXPECT_EQ(k[1][0], "1103000");  // the same, 1 ms later on rank 1's clock
  EXPECT_EQ(k[0][2], "2");
  EXPECT_EQ(k[0][3], "64");
  auto api = db.query("SELECT start, end FROM HGGC_API ORDER BY rowid");
  ASSERT_EQ(api.size(), 2u);
  EXPECT_EQ(api[0][0], "100500");
  EXPECT_EQ(api[1][0], "1100500");
  EXPECT_EQ(db.text("SELECT value FROM META_DATA WHERE name = 'epochOffset'"), "1000000000000");
  // String tid "thread A" became a small interned thread id.
  EXPECT_EQ(db.integer("SELECT count(*) FROM HGGC_API WHERE (globalTid & 16777215) = 15728640"), 2);
  EXPECT_EQ(db.text("SELECT group_concat(name, ';') FROM (SELECT name FROM PROCESSES ORDER BY name)"),
            "rank 0 (" + fs::path(a).filename().string() + ");rank 1 (" + fs::path(b).filename().string() + ")");
  // Both ranks used device 0 of their own host: the second gets a new id.
  EXPECT_EQ(db.text("SELECT group_concat(deviceId) FROM (SELECT deviceId FROM HGGC_KERNEL ORDER BY rowid)"), "0,1");
}

TEST(KinetoImport, ArrayFormatAndPlainJson) {
  const std::string path = writeFile("array.json", std::string("[") + kTinyEvents + "]");
  Db db(importToTemp({path}));
  EXPECT_EQ(db.integer("SELECT count(*) FROM HGGC_KERNEL"), 1);
  EXPECT_EQ(db.text("SELECT s.value FROM HGGC_KERNEL k JOIN StringIds s ON s.id = k.shortName"), "k");
  EXPECT_EQ(db.text("SELECT value FROM META_DATA WHERE name = 'epochOffset'"), "0");
}

// [memory] events get the call chain of the ranges around them on their
// thread: Python frames (file as the module) and ops, outermost first.
TEST(KinetoImport, MemoryEventsGetTheChainOfTheRangesAroundThem) {
  const std::string events = R"({"traceEvents": [
    {"ph": "i", "cat": "cpu_instant_event", "name": "[memory]", "pid": 7, "tid": 8, "ts": 115,
     "args": {"Device Type": 1, "Device Id": 0, "Addr": 4096, "Bytes": 512}},
    {"ph": "X", "cat": "python_function", "name": "app/loss.py(12): record_loss", "pid": 7, "tid": 8, "ts": 100, "dur": 50},
    {"ph": "X", "cat": "cpu_op", "name": "aten::empty_strided", "pid": 7, "tid": 8, "ts": 110, "dur": 10},
    {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 7, "tid": 8, "ts": 90, "dur": 100},
    {"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 7, "tid": 9, "ts": 100, "dur": 50},
    {"ph": "i", "cat": "cpu_instant_event", "name": "[memory]", "pid": 7, "tid": 8, "ts": 118,
     "args": {"Device Type": 1, "Device Id": 0, "Addr": 8192, "Bytes": 256}},
    {"ph": "i", "cat": "cpu_instant_event", "name": "[memory]", "pid": 7, "tid": 8, "ts": 300,
     "args": {"Device Type": 1, "Device Id": 0, "Addr": 4096, "Bytes": -512}}
  ]})";
  Db db(importToTemp({writeFile("memory_chain.json", events)}));
  // Both allocations at 115 and 118 us share one chain; the release at 300 is in no range.
  EXPECT_EQ(db.text("SELECT group_concat(coalesce(callchainId, 'NULL')) FROM (SELECT callchainId FROM "
                    "PPU_MEMORY_USAGE_EVENTS ORDER BY rowid)"),
            "1,1,NULL");
  EXPECT_EQ(db.text("SELECT group_concat(c.stackDepth || ' ' || s.value || ' ' || coalesce(m.value, '-'), '; ') FROM "
                    "(SELECT * FROM CALLCHAINS ORDER BY stackDepth DESC) c JOIN StringIds s ON s.id = c.symbol "
                    "LEFT JOIN StringIds m ON m.id = c.module"),
            "2 ProfilerStep#1 -; 1 record_loss app/loss.py; 0 aten::empty_strided -");
}

// ---------------------------------------------------------------------------
// Malformed inputs: one clear line naming the file.

std::string importError(const std::vector<std::string>& inputs) {
  try {
    importToTemp(inputs);
  } catch (const asys::Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(KinetoImport, ConcatenatedGzipMembersAreOneStream) {
  // `cat a.gz b.gz` is a valid gzip file holding the two texts one after the other.
  const std::string text = std::string(R"({"traceEvents": [)") + kTinyEvents + "]}";
  const std::string a = writeGzip("part1.gz", text.substr(0, 40));
  const std::string b = writeGzip("part2.gz", text.substr(40));
  std::ifstream ia(a, std::ios::binary), ib(b, std::ios::binary);
  std::string both((std::istreambuf_iterator<char>(ia)), std::istreambuf_iterator<char>());
  both.append((std::istreambuf_iterator<char>(ib)), std::istreambuf_iterator<char>());
  Db db(importToTemp({writeFile("both.json.gz", both)}));
  EXPECT_EQ(db.integer("SELECT count(*) FROM HGGC_KERNEL"), 1);
  EXPECT_EQ(db.integer("SELECT count(*) FROM HGGC_API"), 1);
}

TEST(KinetoImport, TruncatedGzipIsReported) {
  std::string json = R"({"traceEvents": [)";
  for (int i = 0; i < 2000; ++i) json += std::string(i ? "," : "") + kTinyEvents;
  json += "]}";
  const std::string whole = writeGzip("whole.json.gz", json);
  std::ifstream in(whole, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string cut = writeFile("cut.json.gz", bytes.substr(0, bytes.size() / 2));
  const std::string msg = importError({cut});
  EXPECT_EQ(msg.rfind(cut + ": truncated gzip file", 0), 0u) << msg;
  // Only the 8-byte gzip trailer missing: the JSON is whole, the file is not.
  const std::string trailer = writeFile("trailer.json.gz", bytes.substr(0, bytes.size() - 8));
  const std::string msg2 = importError({trailer});
  EXPECT_EQ(msg2.rfind(trailer + ": truncated gzip file", 0), 0u) << msg2;
  // Corrupt deflate data.
  std::string bad = bytes;
  for (size_t i = 20; i < 60 && i < bad.size(); ++i) bad[i] = static_cast<char>(0xFF);
  const std::string corrupt = writeFile("corrupt.json.gz", bad);
  const std::string msg3 = importError({corrupt});
  EXPECT_EQ(msg3.rfind(corrupt + ": corrupt gzip data", 0), 0u) << msg3;
}

TEST(KinetoImport, JsonThatIsNotATraceIsReported) {
  const std::string object = writeFile("object.json", R"({"a":1})");
  EXPECT_EQ(importError({object}), object + ": not a Kineto trace (no \"traceEvents\" array)");
  const std::string numbers = writeFile("numbers.json", "[1,2]");
  EXPECT_EQ(importError({numbers}), numbers + ": not a Kineto trace (trace event 0 is not a JSON object)");
  const std::string empty = writeFile("empty.json", "  \n");
  EXPECT_EQ(importError({empty}), empty + ": not a Kineto trace (empty)");
  const std::string wrong = writeFile("wrong.json", R"({"traceEvents": {"ph": "X"}})");
  EXPECT_EQ(importError({wrong}), wrong + ": not a Kineto trace (\"traceEvents\" is not an array)");
}

TEST(KinetoImport, JsonSyntaxErrorsGiveTheByteOffset) {
  const std::string text = std::string(R"({"traceEvents": [)") + kTinyEvents + "]}";
  const std::string truncated = writeFile("truncated.json", text.substr(0, 120));
  EXPECT_EQ(importError({truncated}).rfind(truncated + ": truncated JSON: the text ends at byte 120", 0), 0u)
      << importError({truncated});
  // A stray comma at byte 29: {"traceEvents": [{"ph": "X",, ...
  const std::string broken = writeFile("broken.json", R"({"traceEvents": [{"ph": "X",, "cat": "kernel"}]})");
  EXPECT_EQ(importError({broken}),
            broken + ": invalid JSON at byte 28: Missing a name for object member.");
  const std::string gz = writeGzip("broken.json.gz", R"({"traceEvents": [{"ph": "X",, "cat": "kernel"}]})");
  EXPECT_EQ(importError({gz}),
            gz + ": invalid JSON at byte 28 of the decompressed JSON: Missing a name for object member.");
  const std::string missing = tempPath("missing.json");
  EXPECT_EQ(importError({missing}).rfind(missing + ": cannot open", 0), 0u);
}

// ---------------------------------------------------------------------------
// Text helpers.

TEST(KinetoNames, PythonFrames) {
  using asys::kineto::parsePythonFrame;
  auto frame = [](std::string_view name) {
    const auto f = parsePythonFrame(name);
    return std::string(f.file) + "|" + std::string(f.function);
  };
  EXPECT_EQ(frame("torch/nn/modules/module.py(1501): _call_impl"), "torch/nn/modules/module.py|_call_impl");
  EXPECT_EQ(frame("<string>(1): <module>"), "<string>|<module>");
  EXPECT_EQ(frame("<built-in method embedding of type object at 0x7d6b>"), "|<built-in method embedding of type object at 0x7d6b>");
  EXPECT_EQ(frame("nn.Module: Linear_0"), "|nn.Module: Linear_0");
  EXPECT_EQ(frame("f(x): y"), "|f(x): y");  // not a line number
}

TEST(KinetoNames, KernelShortNames) {
  using asys::kineto::kernelShortName;
  EXPECT_EQ(kernelShortName("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
                            "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, "
                            "at::detail::Array<char*, 1>)"),
            "vectorized_elementwise_kernel");
  EXPECT_EQ(kernelShortName("void at::native::(anonymous namespace)::CatArrayBatchedCopy_aligned16_contig<at::native::"
                            "(anonymous namespace)::OpaqueType<4u>, unsigned int, 1, 128, 1>(int, unsigned int)"),
            "CatArrayBatchedCopy_aligned16_contig");
  EXPECT_EQ(kernelShortName("ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)"),
            "ncclKernel_AllReduce_RING_LL_Sum_float");
  EXPECT_EQ(kernelShortName("nvjet_sm103_tst_8x64_64x16_4x1_v_bz_TNN"), "nvjet_sm103_tst_8x64_64x16_4x1_v_bz_TNN");
  EXPECT_EQ(kernelShortName("void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_64x64_16x6_nn_align4>"
                            "(cutlass_80_tensorop_s1688gemm_64x64_16x6_nn_align4::Params)"),
            "Kernel");
  EXPECT_EQ(kernelShortName("void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<"
                            "at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() "
                            "const::{lambda()#7}::operator()() const::{lambda(float)#1}>(at::TensorIteratorBase&, "
                            "at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() "
                            "const::{lambda()#7}::operator()() const::{lambda(float)#1} const&)::{lambda(int)#1}>(int, "
                            "at::native::gpu_kernel_impl_nocast<int>)"),
            "elementwise_kernel");
}

TEST(KinetoNames, MemcpyAndMemsetKinds) {
  using namespace asys::kineto;
  CopyKinds k = parseMemcpyName("Memcpy HtoD (Pageable -> Device)");
  EXPECT_EQ(k.copy, kCopyHtoD);
  EXPECT_EQ(k.src, kMemPageable);
  EXPECT_EQ(k.dst, kMemDevice);
  k = parseMemcpyName("Memcpy DtoH (Device -> Pinned)");
  EXPECT_EQ(k.copy, kCopyDtoH);
  EXPECT_EQ(k.dst, kMemPinned);
  k = parseMemcpyName("Memcpy HtoD (Host -> Device)");  // ROCm
  EXPECT_EQ(k.src, kMemHost);
  EXPECT_EQ(parseMemcpyName("Memcpy PtoP (Device -> Device)").copy, kCopyPtoP);
  EXPECT_EQ(parseMemcpyName("Memcpy").copy, kCopyUnknown);
  EXPECT_EQ(parseMemsetName("Memset (Device)"), kMemDevice);
  EXPECT_EQ(parseMemsetName("Memset"), kMemUnknown);
}

TEST(KinetoNames, NcclDataTypesAndCollectives) {
  using namespace asys::kineto;
  EXPECT_EQ(ncclDataType("Char"), 0);
  EXPECT_EQ(ncclDataType("Byte"), 1);
  EXPECT_EQ(ncclDataType("Int"), 2);
  EXPECT_EQ(ncclDataType("Long"), 4);
  EXPECT_EQ(ncclDataType("Half"), 6);
  EXPECT_EQ(ncclDataType("Float"), 7);
  EXPECT_EQ(ncclDataType("Double"), 8);
  EXPECT_EQ(ncclDataType("BFloat16"), 9);
  EXPECT_EQ(ncclDataType("c10::BFloat16"), 9);
  EXPECT_EQ(ncclDataType("long int"), 4);
  EXPECT_EQ(ncclDataType("int8_t"), 0);
  EXPECT_EQ(ncclDataType("uint64_t"), 5);
  EXPECT_EQ(ncclDataType("__nv_bfloat16"), 9);
  EXPECT_EQ(ncclDataType("TensorList"), -1);
  EXPECT_EQ(collectiveOpName("allreduce"), "AllReduce");
  EXPECT_EQ(collectiveOpName("nccl:all_to_all"), "AllToAll");
  EXPECT_EQ(collectiveOpName("_allgather_base"), "AllGather");
  EXPECT_EQ(collectiveOpName("reduce_scatter_tensor_coalesced"), "ReduceScatter");
  EXPECT_EQ(collectiveOpName("broadcast"), "Broadcast");
  EXPECT_EQ(kernelCollective("ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)"),
            "SendRecv");
  EXPECT_EQ(kernelCollective("ncclDevKernel_Generic(ncclDevKernelArgsStorage<4096ul>)"), "Generic");
  EXPECT_EQ(kernelTypeSuffix("ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)"), "float");
  EXPECT_EQ(normalizeRanks("[0, 1, 12]"), "0,1,12");
  EXPECT_EQ(fnv1aHex(""), "cbf29ce484222325");
}

TEST(KinetoNames, MicrosecondsToNanosecondsExactly) {
  using asys::kineto::microsToNanos;
  auto ns = [](const char* t) {
    int64_t v = 0;
    EXPECT_TRUE(microsToNanos(t, std::strlen(t), v)) << t;
    return v;
  };
  EXPECT_EQ(ns("1694128201436304"), 1694128201436304000);
  EXPECT_EQ(ns("1712195495505582.988"), 1712195495505582988);
  EXPECT_EQ(ns("4.928"), 4928);
  EXPECT_EQ(ns("68.0"), 68000);
  EXPECT_EQ(ns("0.0005"), 1);    // half a nanosecond rounds away from zero
  EXPECT_EQ(ns("0.00049"), 0);
  EXPECT_EQ(ns("-1.5"), -1500);
  EXPECT_EQ(ns("1.5e3"), 1500000);
  int64_t v = 0;
  EXPECT_FALSE(microsToNanos("NaN", 3, v));
}

}  // namespace

// A cpu_op's recorded shapes, types and scalar values go beside its name, in
// HGTX_EVENTS.argsId, as the operator recognisers read them; its name stays
// the trace's (the other rules see "aten::mm" as before). An op without
// "Input Dims" has no arguments; all-empty Concrete Inputs are left out.
TEST(KinetoImport, CpuOpShapesAreRecordedBesideTheName) {
  const std::string path = writeFile("shapes.json", R"({"traceEvents": [
    {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 7, "tid": 7, "ts": 10, "dur": 5,
     "args": {"Input Dims": [[8944, 1024], [1024, 2816]], "Input type": ["c10::BFloat16", "c10::BFloat16"],
              "Concrete Inputs": ["", ""], "External id": 3}},
    {"ph": "X", "cat": "cpu_op", "name": "aten::_scaled_dot_product_flash_attention", "pid": 7, "tid": 7, "ts": 20, "dur": 5,
     "args": {"Input Dims": [[16, 16, 559, 64], [], []], "Input type": ["c10::BFloat16", "Scalar", "Scalar"],
              "Concrete Inputs": ["", "0.", "True"]}},
    {"ph": "X", "cat": "cpu_op", "name": "aten::empty", "pid": 7, "tid": 7, "ts": 30, "dur": 5, "args": {}},
    {"ph": "X", "cat": "user_annotation", "name": "step", "pid": 7, "tid": 7, "ts": 0, "dur": 50,
     "args": {"Input Dims": [[1]]}}
  ]})");
  Db db(importToTemp({path}));
  const auto rows = db.query(
      "SELECT n.value, a.value FROM HGTX_EVENTS e JOIN StringIds n ON n.id = e.textId "
      "LEFT JOIN StringIds a ON a.id = e.argsId WHERE e.eventType = 59 ORDER BY e.start");
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"step", "NULL"}));  // not a cpu_op
  EXPECT_EQ(rows[1], (std::vector<std::string>{"aten::mm",
                                               "sizes = [[8944, 1024], [1024, 2816]], types = [c10::BFloat16, c10::BFloat16]"}));
  EXPECT_EQ(rows[2], (std::vector<std::string>{"aten::_scaled_dot_product_flash_attention",
                                               "sizes = [[16, 16, 559, 64], [], []], types = [c10::BFloat16, Scalar, "
                                               "Scalar], values = [, 0., True]"}));
  EXPECT_EQ(rows[3], (std::vector<std::string>{"aten::empty", "NULL"}));
}
