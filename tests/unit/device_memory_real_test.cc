// The device memory rules on real profiles of shared/data/real (skipped when
// absent), each number recomputed here another way:
// - df_index_resolver (PyTorch, 28,010 [memory] events): the JSON is read
//   with RapidJSON's DOM (not the importer's SAX path); the memory held at a
//   point is the trace's own "Total Allocated" counter minus what it held
//   before the capture; the groups come from a brute-force scan of the
//   cpu_op / user_annotation ranges around each allocation.
// - extrap concurrent.s1 (Nsight Systems, CUDA_GPU_MEMORY_USAGE_EVENTS):
//   allocated bytes and counts by plain SQL on the export.
#include <gtest/gtest.h>
#include <rapidjson/document.h>
#include <sqlite3.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "tests/unit/cli_run.h"
#include "core/cli/cli.h"
#include "core/import/importer.h"
#include "core/writer/report_writer.h"
#include "tests/unit/csv_rows.h"

namespace fs = std::filesystem;
using asys_test::column;
using asys_test::parseCsv;

namespace {

const std::string kData = ASYS_REAL_DATA_DIR;

std::string readGzip(const std::string& path) {
  gzFile f = gzopen(path.c_str(), "rb");
  std::string text;
  if (!f) return text;
  char buf[1 << 16];
  int n;
  while ((n = gzread(f, buf, sizeof buf)) > 0) text.append(buf, static_cast<size_t>(n));
  gzclose(f);
  return text;
}

std::string tempReport(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("asys-memory-real-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return (dir / name).string();
}

using asys::test::CliRun;

CliRun stats(std::vector<std::string> args) {
  args.insert(args.begin(), "stats");
  return asys::test::cli(args);
}

// Group List -> Memory Usage of one device's rows.
std::map<std::string, int64_t> usageByGroup(const std::string& csv, const std::string& device) {
  std::map<std::string, int64_t> out;
  auto rows = parseCsv(csv);
  if (rows.empty()) return out;
  const size_t dev = column(rows[0], "Device ID"), groups = column(rows[0], "Group List");
  const size_t usage = 4;  // "Memory Usage (bytes)", or "Memory Usage" for counts
  for (size_t i = 1; i < rows.size(); ++i) {
    if (rows[i][dev] == device) out[rows[i][groups]] += std::stoll(rows[i][usage]);
  }
  return out;
}

// ---------------------------------------------------------------------------

struct MemoryEvent {
  int64_t ts, index, tid, address, bytes, totalAllocated;  // ts in ns
};
struct Range {
  int64_t ts, end, order;  // ns; order = position in the file
  std::string name;
};

class DfIndexResolver : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    const std::string input = kData + "/kineto/hta/df_index_resolver/df_index_resolver.json.gz";
    if (!fs::exists(input)) return;
    rapidjson::Document d;
    d.Parse(readGzip(input).c_str());
    ASSERT_FALSE(d.HasParseError());
    int64_t order = 0;
    for (const auto& e : d["traceEvents"].GetArray()) {
      if (!e.HasMember("ts") || !e["ts"].IsInt64()) continue;  // this trace's times are whole microseconds
      const std::string name = e.HasMember("name") ? e["name"].GetString() : "";
      const std::string cat = e.HasMember("cat") && e["cat"].IsString() ? e["cat"].GetString() : "";
      const int64_t ts = e["ts"].GetInt64() * 1000;
      if (name == "[memory]") {
        const auto& a = e["args"];
        if (a["Device Id"].GetInt64() != 1) continue;  // the one PPU; -1 is host memory
        events_->push_back({ts, a["Ev Idx"].GetInt64(), e["tid"].GetInt64(), a["Addr"].GetInt64(),
                            a["Bytes"].GetInt64(), a["Total Allocated"].GetInt64()});
      } else if ((cat == "cpu_op" || cat == "user_annotation") && e["ph"] == "X") {
        (*ranges_)[e["tid"].GetInt64()].push_back({ts, ts + e["dur"].GetInt64() * 1000, order++, name});
      }
    }
    std::sort(events_->begin(), events_->end(),
              [](const MemoryEvent& a, const MemoryEvent& b) { return a.ts != b.ts ? a.ts < b.ts : a.index < b.index; });
    // The report once, through asys import.
    report_ = new std::string(tempReport("df_index_resolver.asysrep"));
    asys::ReportWriter writer(*report_, *report_);
    asys::importKineto({input}, writer);
    writer.finish();
  }
  static void TearDownTestSuite() {
    if (report_) fs::remove_all(fs::path(*report_).parent_path());
    delete report_;
    report_ = nullptr;
  }
  void SetUp() override {
    if (!report_) GTEST_SKIP() << "df_index_resolver is not in this checkout";
  }
  static std::vector<MemoryEvent>* events_;
  static std::map<int64_t, std::vector<Range>>* ranges_;
  static std::string* report_;
};
std::vector<MemoryEvent>* DfIndexResolver::events_ = new std::vector<MemoryEvent>;
std::map<int64_t, std::vector<Range>>* DfIndexResolver::ranges_ = new std::map<int64_t, std::vector<Range>>;
std::string* DfIndexResolver::report_ = nullptr;

TEST_F(DfIndexResolver, AllocatedBytesAndCountsMatchTheJson) {
  int64_t bytes = 0, count = 0;
  for (const MemoryEvent& e : *events_) {
    if (e.bytes >= 0) bytes += e.bytes, ++count;  // Kineto: a release has negative Bytes
  }
  ASSERT_EQ(events_->size(), 26770u);  // MANIFEST: 28,010 [memory], 1,240 of them host
  CliRun size = stats({"-r", "device_memory_usage_summary:usage-mode=alloc-size", *report_});
  ASSERT_EQ(size.status, 0) << size.err;
  EXPECT_EQ(size.err, "");  // every release pairs with an allocation of the capture
  int64_t total = 0;
  for (const auto& [group, b] : usageByGroup(size.out, "1")) total += b;
  EXPECT_EQ(total, bytes);
  CliRun counted = stats({"-r", "device_memory_usage_summary:usage-mode=alloc-count", *report_});
  total = 0;
  for (const auto& [group, n] : usageByGroup(counted.out, "1")) total += n;
  EXPECT_EQ(total, count);
}

// The trace's "Total Allocated" after the last event before T counts what
// the process held before the capture too (4,096,614,400 bytes here), so the
// unreleased total cannot equal it; what holds, with no release of an
// allocation from before the capture (the rule warns of none), is
// unreleased(T) = Total Allocated(T) - what was held before the first event.
TEST_F(DfIndexResolver, MemoryHeldAtAPointIsTheTracesOwnCounterMinusItsStart) {
  const MemoryEvent& first = events_->front();
  const int64_t before = first.totalAllocated - first.bytes;
  EXPECT_EQ(before, 4096614400);
  CliRun whole = stats({"-r", "device_memory_usage_summary", *report_});
  ASSERT_EQ(whole.status, 0) << whole.err;
  EXPECT_TRUE(usageByGroup(whole.out, "1").empty());  // everything allocated was released:
  EXPECT_EQ(events_->back().totalAllocated, before);  // the counter ends where it started

  // The report's times are the trace's; --filter-time counts from the capture start.
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open_v2(report_->c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  sqlite3_prepare_v2(db, "SELECT value FROM META_DATA WHERE name = 'captureStart'", -1, &st, nullptr);
  ASSERT_EQ(sqlite3_step(st), SQLITE_ROW);
  const int64_t captureStart = std::stoll(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)));
  sqlite3_finalize(st);
  sqlite3_close(db);

  const int64_t from = events_->front().ts, to = events_->back().ts;
  int checked = 0;
  for (int k = 1; k <= 9; ++k) {
    const int64_t t = from + (to - from) * k / 10;
    int64_t counter = before;
    for (const MemoryEvent& e : *events_) {
      if (e.ts < t) counter = e.totalAllocated;
    }
    CliRun held = stats({"--filter-time", "/" + std::to_string(t - captureStart), "-r", "device_memory_usage_summary", *report_});
    ASSERT_EQ(held.status, 0) << held.err;
    int64_t total = 0;
    for (const auto& [group, b] : usageByGroup(held.out, "1")) total += b;
    EXPECT_EQ(total, counter - before) << "at " << t;
    checked += total > 0;
  }
  EXPECT_GT(checked, 5);  // most cut points hold memory
}

// Groups over the imported call chains (the cpu_op / user_annotation ranges
// around each [memory] event, outermost first) against a brute-force scan of
// the JSON's ranges: "clone" needs aten::clone and, below it with
// aten::empty_like between, aten::empty_strided; "mm" any aten::mm.
TEST_F(DfIndexResolver, GroupsMatchABruteForceScanOfTheEnclosingOps) {
  std::map<std::string, int64_t> expected;
  for (const MemoryEvent& e : *events_) {
    if (e.bytes < 0) continue;
    std::vector<const Range*> around;
    for (const Range& r : (*ranges_)[e.tid]) {
      if (r.ts <= e.ts && e.ts <= r.end) around.push_back(&r);
    }
    std::sort(around.begin(), around.end(), [](const Range* a, const Range* b) {
      if (a->ts != b->ts) return a->ts < b->ts;
      return a->end != b->end ? a->end > b->end : a->order < b->order;
    });
    bool sawClone = false, clone = false, mm = false;
    for (const Range* r : around) {
      if (r->name == "aten::clone") sawClone = true;
      else if (sawClone && r->name == "aten::empty_strided") clone = true;
      if (r->name == "aten::mm") mm = true;
    }
    const std::string list = clone && mm ? "clone/mm" : clone ? "clone" : mm ? "mm" : "others";
    expected[list] += e.bytes;
  }
  ASSERT_GT(expected["clone"], 0);
  ASSERT_GT(expected["mm"], 0);
  CliRun run = stats({"-r", "device_memory_usage_summary:usage-mode=alloc-size", "--callstack-group-config",
                   "clone=aten::clone/aten::empty_strided", "--callstack-group-config", "mm=^aten::mm$", *report_});
  ASSERT_EQ(run.status, 0) << run.err;
  std::map<std::string, int64_t> got = usageByGroup(run.out, "1");
  for (auto it = expected.begin(); it != expected.end();) it = it->second == 0 ? expected.erase(it) : std::next(it);
  EXPECT_EQ(got, expected);
}

// ---------------------------------------------------------------------------

int64_t sqlInteger(sqlite3* db, const std::string& sql) {
  sqlite3_stmt* st = nullptr;
  int64_t v = -1;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
    v = sqlite3_column_int64(st, 0);
  }
  sqlite3_finalize(st);
  return v;
}

TEST(NsysDeviceMemory, ExtrapAllocationsMatchPlainSql) {
  const std::string input = kData + "/nsys-sqlite/extrap/concurrent.s1_profile1.sqlite";
  if (!fs::exists(input)) GTEST_SKIP() << input << " is not in this checkout";
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open_v2(input.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
  const int64_t bytes =
      sqlInteger(db, "SELECT sum(bytes) FROM CUDA_GPU_MEMORY_USAGE_EVENTS WHERE memoryOperationType = 0");
  const int64_t count =
      sqlInteger(db, "SELECT count(*) FROM CUDA_GPU_MEMORY_USAGE_EVENTS WHERE memoryOperationType = 0");
  // Per address, as many releases as allocations: nothing is left held.
  const int64_t unbalanced = sqlInteger(
      db, "SELECT count(*) FROM (SELECT address FROM CUDA_GPU_MEMORY_USAGE_EVENTS GROUP BY globalPid, deviceId, "
          "address HAVING sum(memoryOperationType = 0) <> sum(memoryOperationType = 1))");
  sqlite3_close(db);
  ASSERT_EQ(count, 30);
  EXPECT_EQ(unbalanced, 0);

  CliRun size = stats({"-r", "device_memory_usage_summary:usage-mode=alloc-size", input});
  ASSERT_EQ(size.status, 0) << size.err;
  auto rows = parseCsv(size.out);
  ASSERT_EQ(rows.size(), 2u) << size.out;  // one process, one device, no call stacks: "others"
  EXPECT_EQ(rows[1][column(rows[0], "Group List")], "others");
  EXPECT_EQ(std::stoll(rows[1][column(rows[0], "Memory Usage (bytes)")]), bytes);
  CliRun counted = stats({"-r", "device_memory_usage_summary:usage-mode=alloc-count", input});
  rows = parseCsv(counted.out);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(std::stoll(rows[1][4]), count);
  CliRun held = stats({"-r", "device_memory_usage_detail", input});
  ASSERT_EQ(held.status, 0) << held.err;
  EXPECT_EQ(parseCsv(held.out).size(), 1u);  // the header: nothing unreleased
  EXPECT_EQ(held.err, "");
}

}  // namespace
