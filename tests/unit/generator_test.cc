// The synthetic report generator (core/gen), checked with plain SQL through
// the sqlite3 C API, independently of the engine's reader.
#include "core/gen/generator.h"

#include <cxxabi.h>
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "core/base/error.h"

namespace {

const char* const kContractTables[] = {
    "META_DATA",
    "StringIds",
    "PROCESSES",
    "ThreadNames",
    "TARGET_INFO_PPU",
    "HGGC_API",
    "HGGC_KERNEL",
    "HGGC_MEMCPY",
    "HGGC_MEMSET",
    "ENUM_HGGC_MEMCPY_OPER",
    "ENUM_HGGC_MEM_KIND",
    "HGGC_GRAPH_NODE_EVENTS",
    "HGTX_EVENTS",
    "OSRT_API",
    "CALLCHAINS",
    "PPU_MEMORY_USAGE_EVENTS",
    "TARGET_INFO_PPU_METRICS",
    "PPU_METRICS",
    "PCCL_STAGE_EVENTS",
};

// A unique temporary path per test (tests may run in parallel processes).
std::string tempPath(const std::string& tag) {
  const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return ::testing::TempDir() + "asys_gen_" + info->name() + "_" + tag + "_" +
         std::to_string(getpid()) + ".asysrep";
}

std::string generate(const std::string& tag, uint64_t seed = 1, const std::string& profile = "base",
                     double scale = 1.0) {
  asys::GenOptions o;
  o.seed = seed;
  o.profile = profile;
  o.scale = scale;
  const std::string path = tempPath(tag);
  asys::generateReport(o, path);
  return path;
}

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

class Db {
 public:
  explicit Db(const std::string& path) {
    if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
      ADD_FAILURE() << "cannot open " << path;
    }
  }
  ~Db() { sqlite3_close(db_); }

  // Runs `sql` and calls `row` with the statement for every result row.
  template <typename F>
  void each(const std::string& sql, F row) {
    sqlite3_stmt* st = nullptr;
    ASSERT_EQ(sqlite3_prepare_v2(db_, sql.c_str(), -1, &st, nullptr), SQLITE_OK)
        << sql << ": " << sqlite3_errmsg(db_);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) row(st);
    EXPECT_EQ(rc, SQLITE_DONE) << sql << ": " << sqlite3_errmsg(db_);
    sqlite3_finalize(st);
  }
  int64_t scalar(const std::string& sql) {
    int64_t v = -1;
    each(sql, [&](sqlite3_stmt* st) { v = sqlite3_column_int64(st, 0); });
    return v;
  }
  std::string text(const std::string& sql) {
    std::string v;
    each(sql, [&](sqlite3_stmt* st) {
      const unsigned char* t = sqlite3_column_text(st, 0);
      v = t == nullptr ? "" : reinterpret_cast<const char*>(t);
    });
    return v;
  }

 private:
  sqlite3* db_ = nullptr;
};

TEST(Generator, EveryContractTableExistsAndHasRows) {
  const std::string path = generate("r");
  Db db(path);
  for (const char* table : kContractTables) {
    EXPECT_EQ(
        db.scalar(std::string("SELECT count(*) FROM sqlite_master WHERE type='table' AND name='") +
                  table + "'"),
        1)
        << table;
    EXPECT_GT(db.scalar(std::string("SELECT count(*) FROM ") + table), 0) << table;
  }
  // No indexes beyond the contract's primary keys (META_DATA's TEXT key).
  EXPECT_EQ(
      db.scalar("SELECT count(*) FROM sqlite_master WHERE type='index' AND tbl_name<>'META_DATA'"),
      0);
  std::remove(path.c_str());
}

TEST(Generator, MetaDataNamesTheFormat) {
  const std::string path = generate("r");
  Db db(path);
  EXPECT_EQ(db.text("SELECT value FROM META_DATA WHERE name='format'"), "asysrep");
  EXPECT_EQ(db.text("SELECT value FROM META_DATA WHERE name='formatVersion'"), "1");
  EXPECT_FALSE(db.text("SELECT value FROM META_DATA WHERE name='hostName'").empty());
  EXPECT_FALSE(db.text("SELECT value FROM META_DATA WHERE name='generator'").empty());
  const int64_t captureEnd =
      std::stoll(db.text("SELECT value FROM META_DATA WHERE name='captureEnd'"));
  EXPECT_EQ(db.text("SELECT value FROM META_DATA WHERE name='captureStart'"), "0");
  EXPECT_GE(captureEnd, db.scalar("SELECT max(end) FROM HGGC_KERNEL"));
  EXPECT_GE(captureEnd, db.scalar("SELECT max(end) FROM HGGC_API"));
  std::remove(path.c_str());
}

TEST(Generator, ScaleOneIsASmallDemo) {
  const std::string path = generate("r");
  Db db(path);
  const int64_t kernels = db.scalar("SELECT count(*) FROM HGGC_KERNEL");
  EXPECT_GE(kernels, 2000);
  EXPECT_LE(kernels, 5000);
  EXPECT_EQ(db.scalar("SELECT count(*) FROM TARGET_INFO_PPU WHERE name='PPU-ZW810E'"), 4);
  EXPECT_EQ(db.scalar("SELECT count(DISTINCT deviceId) FROM HGGC_KERNEL"), 4);
  EXPECT_EQ(db.scalar("SELECT count(*) FROM PROCESSES"), 2);
  EXPECT_GE(db.scalar("SELECT count(*) FROM ThreadNames"), 6);
  // Every timestamp is an integer and every interval is half-open and non-empty.
  for (const char* table :
       {"HGGC_API", "HGGC_KERNEL", "HGGC_MEMCPY", "HGGC_MEMSET", "OSRT_API", "PCCL_STAGE_EVENTS"}) {
    EXPECT_EQ(db.scalar(std::string("SELECT count(*) FROM ") + table +
                        " WHERE typeof(start)<>'integer' OR typeof(end)<>'integer' OR end<=start"),
              0)
        << table;
  }
  // Thread ids carry their process id in bits 24-47.
  EXPECT_EQ(db.scalar("SELECT count(*) FROM ThreadNames WHERE (globalTid>>24) NOT IN "
                      "(SELECT globalPid>>24 FROM PROCESSES)"),
            0);
  std::remove(path.c_str());
}

TEST(Generator, DeviceActivityLinksToALaunchInTheSameProcess) {
  const std::string path = generate("r");
  Db db(path);
  for (const char* table : {"HGGC_KERNEL", "HGGC_MEMCPY", "HGGC_MEMSET"}) {
    EXPECT_EQ(db.scalar(std::string("SELECT count(*) FROM ") + table +
                        " k WHERE NOT EXISTS (SELECT 1 FROM HGGC_API a WHERE "
                        "a.correlationId=k.correlationId AND (a.globalTid>>24)=(k.globalPid>>24))"),
              0)
        << table;
  }
  // Correlation ids are unique per process among the API calls.
  EXPECT_EQ(db.scalar("SELECT count(*) FROM (SELECT 1 FROM HGGC_API GROUP BY globalTid>>24, "
                      "correlationId HAVING count(*)>1)"),
            0);
  // Mostly queued behind earlier work, a few start before the launch returns.
  const int64_t early = db.scalar(
      "SELECT count(*) FROM HGGC_KERNEL k JOIN HGGC_API a ON a.correlationId=k.correlationId AND "
      "(a.globalTid>>24)=(k.globalPid>>24) WHERE k.start<a.end");
  const int64_t all = db.scalar("SELECT count(*) FROM HGGC_KERNEL");
  EXPECT_GT(early, 0);
  EXPECT_LT(early * 5, all);
  std::remove(path.c_str());
}

TEST(Generator, GraphLaunchRunsSeveralKernels) {
  const std::string path = generate("r");
  Db db(path);
  const int64_t maxKernels = db.scalar(
      "SELECT max(c) FROM (SELECT count(*) c FROM HGGC_KERNEL k JOIN HGGC_API a ON "
      "a.correlationId=k.correlationId AND (a.globalTid>>24)=(k.globalPid>>24) JOIN StringIds s "
      "ON s.id=a.nameId WHERE s.value='hgGraphLaunch' AND k.graphId IS NOT NULL "
      "GROUP BY k.globalPid, k.correlationId)");
  EXPECT_GE(maxKernels, 3);
  // Every graph kernel's node was instantiated from a node created on the host.
  EXPECT_EQ(
      db.scalar("SELECT count(*) FROM HGGC_KERNEL k WHERE k.graphNodeId IS NOT NULL AND NOT "
                "EXISTS (SELECT 1 FROM HGGC_GRAPH_NODE_EVENTS g JOIN HGGC_GRAPH_NODE_EVENTS o "
                "ON o.graphNodeId=g.originalGraphNodeId AND (o.globalTid>>24)=(g.globalTid>>24) "
                "WHERE g.graphNodeId=k.graphNodeId AND g.graphId=k.graphId AND "
                "(g.globalTid>>24)=(k.globalPid>>24))"),
      0);
  std::remove(path.c_str());
}

TEST(Generator, PushPopRangesNestPerThread) {
  const std::string path = generate("r");
  Db db(path);
  int64_t currentTid = -1, checked = 0, bad = 0;
  std::vector<int64_t> stackEnds;
  db.each(
      "SELECT globalTid, start, end FROM HGTX_EVENTS WHERE eventType=59 "
      "ORDER BY globalTid, start, end DESC",
      [&](sqlite3_stmt* st) {
        const int64_t tid = sqlite3_column_int64(st, 0);
        const int64_t start = sqlite3_column_int64(st, 1);
        const int64_t end = sqlite3_column_int64(st, 2);
        if (tid != currentTid) {
          currentTid = tid;
          stackEnds.clear();
        }
        while (!stackEnds.empty() && stackEnds.back() <= start) stackEnds.pop_back();
        if (!stackEnds.empty() && end > stackEnds.back()) ++bad;  // overlaps its parent
        if (end <= start) ++bad;
        stackEnds.push_back(end);
        ++checked;
      });
  EXPECT_GT(checked, 1000);
  EXPECT_EQ(bad, 0);
  // Operator records in the documented formats are present.
  for (const char* pattern :
       {"aten::mm, op_id = %, sizes = [[512, 2048], [2048, %]], input_op_ids = [(%,0), (%,0)]",
        "ACBLAS:GemmEx,t,n,%", "DeepGemm:GroupedNoPad,data_type:bf16,groups:%",
        "MoE:M_%_E%_H%_In%_topk%", "AllReduce, p:0, c:%, d:9, r:%, w:4, h:%, t:1, b:0x%/0x%",
        "TorchFunction: torch.ops.aten.mm.default | arg_type=torch.Tensor, dtype=torch.float32, "
        "device=cuda:0, shape=(100, 100), requires_grad=False | %"}) {
    const std::string p = pattern;
    EXPECT_GT(db.scalar("SELECT count(*) FROM HGTX_EVENTS e LEFT JOIN StringIds s ON s.id=e.textId "
                        "WHERE coalesce(e.text, s.value) LIKE '" +
                        p + "'"),
              0)
        << p;
  }
  // A named domain, ranges in it, start/end ranges (one ended on another
  // thread, one never closed) and marks.
  EXPECT_GT(
      db.scalar("SELECT count(*) FROM HGTX_EVENTS WHERE eventType=75 AND domainId IS NOT NULL"), 0);
  EXPECT_GT(
      db.scalar("SELECT count(*) FROM HGTX_EVENTS WHERE eventType=59 AND domainId IS NOT NULL"), 0);
  EXPECT_GT(
      db.scalar("SELECT count(*) FROM HGTX_EVENTS WHERE eventType=60 AND endGlobalTid IS NOT NULL "
                "AND endGlobalTid<>globalTid"),
      0);
  EXPECT_EQ(db.scalar("SELECT count(*) FROM HGTX_EVENTS WHERE eventType=60 AND end IS NULL"), 1);
  EXPECT_GT(db.scalar("SELECT count(*) FROM HGTX_EVENTS WHERE eventType=34"), 0);
  std::remove(path.c_str());
}

TEST(Generator, MemoryReleasesMatchEarlierAllocations) {
  const std::string path = generate("r");
  Db db(path);
  std::map<std::tuple<int64_t, int64_t, int64_t>, int> live;
  int64_t releases = 0, unmatched = 0, allocations = 0;
  db.each(
      "SELECT globalPid, deviceId, address, memoryOperationType FROM PPU_MEMORY_USAGE_EVENTS "
      "ORDER BY start, eventId",
      [&](sqlite3_stmt* st) {
        const auto key = std::make_tuple(sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1),
                                         sqlite3_column_int64(st, 2));
        if (sqlite3_column_int64(st, 3) == 0) {
          ++live[key];
          ++allocations;
        } else {
          ++releases;
          if (live[key] == 0) {
            ++unmatched;
          } else {
            --live[key];
          }
        }
      });
  EXPECT_GT(releases, 0);
  EXPECT_EQ(unmatched, 0);
  EXPECT_GT(allocations, releases);  // some memory is never released
  EXPECT_EQ(db.scalar("SELECT count(*) - count(DISTINCT eventId) FROM PPU_MEMORY_USAGE_EVENTS"), 0);
  // Allocation call chains resolve to frames with library or Python modules.
  EXPECT_EQ(
      db.scalar(
          "SELECT count(*) FROM PPU_MEMORY_USAGE_EVENTS m WHERE m.memoryOperationType=0 AND "
          "NOT EXISTS (SELECT 1 FROM CALLCHAINS c WHERE c.id=m.callchainId AND c.stackDepth=0)"),
      0);
  EXPECT_GT(db.scalar("SELECT count(*) FROM CALLCHAINS c JOIN StringIds s ON s.id=c.module "
                      "WHERE s.value LIKE '%.py'"),
            0);
  EXPECT_GT(db.scalar("SELECT count(*) FROM CALLCHAINS c JOIN StringIds s ON s.id=c.module "
                      "WHERE s.value LIKE '%libacblas.so'"),
            0);
  std::remove(path.c_str());
}

TEST(Generator, KernelNamesAreConsistent) {
  const std::string path = generate("r");
  Db db(path);
  int64_t checked = 0;
  db.each(
      "SELECT DISTINCT d.value, s.value, m.value FROM HGGC_KERNEL k JOIN StringIds d ON "
      "d.id=k.demangledName JOIN StringIds s ON s.id=k.shortName JOIN StringIds m ON "
      "m.id=k.mangledName",
      [&](sqlite3_stmt* st) {
        const std::string demangled = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
        const std::string shortName = reinterpret_cast<const char*>(sqlite3_column_text(st, 1));
        const std::string mangled = reinterpret_cast<const char*>(sqlite3_column_text(st, 2));
        EXPECT_NE(demangled.find(shortName), std::string::npos) << demangled;
        if (mangled.rfind("_Z", 0) == 0) {
          int status = 0;
          char* out = abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status);
          ASSERT_EQ(status, 0) << mangled;
          EXPECT_EQ(std::string(out), demangled) << mangled;
          std::free(out);
        } else {
          EXPECT_EQ(mangled, demangled);  // extern "C"
        }
        ++checked;
      });
  EXPECT_GE(checked, 20);
  std::remove(path.c_str());
}

TEST(Generator, CollectivesEndTogetherOnAllDevices) {
  const std::string path = generate("r");
  Db db(path);
  std::vector<std::tuple<int64_t, int64_t, int64_t>> comm;  // end, start, device
  db.each(
      "SELECT k.end, k.start, k.deviceId FROM HGGC_KERNEL k JOIN StringIds s ON "
      "s.id=k.shortName WHERE s.value LIKE 'pcclKernel%' ORDER BY k.end",
      [&](sqlite3_stmt* st) {
        comm.emplace_back(sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1),
                          sqlite3_column_int64(st, 2));
      });
  ASSERT_FALSE(comm.empty());
  ASSERT_EQ(comm.size() % 4, 0u);
  int64_t maxStartSkew = 0;
  for (size_t i = 0; i < comm.size(); i += 4) {
    int64_t lo = INT64_MAX, hi = 0, sLo = INT64_MAX, sHi = 0, mask = 0;
    for (size_t j = i; j < i + 4; ++j) {
      lo = std::min(lo, std::get<0>(comm[j]));
      hi = std::max(hi, std::get<0>(comm[j]));
      sLo = std::min(sLo, std::get<1>(comm[j]));
      sHi = std::max(sHi, std::get<1>(comm[j]));
      mask |= int64_t{1} << std::get<2>(comm[j]);
    }
    EXPECT_EQ(mask, 0xF);
    EXPECT_LT(hi - lo, 10000);  // ends agree within a few microseconds
    maxStartSkew = std::max(maxStartSkew, sHi - sLo);
  }
  EXPECT_GT(maxStartSkew, 100000);  // starts differ (ranks arrive at different times)
  std::remove(path.c_str());
}

TEST(Generator, SameSeedSameBytesOtherSeedOtherBytes) {
  const std::string a = generate("a", 7);
  const std::string b = generate("b", 7);
  const std::string c = generate("c", 8);
  const std::string bytesA = readFile(a);
  EXPECT_FALSE(bytesA.empty());
  EXPECT_TRUE(bytesA == readFile(b));
  EXPECT_FALSE(bytesA == readFile(c));
  std::remove(a.c_str());
  std::remove(b.c_str());
  std::remove(c.c_str());
}

TEST(Generator, SlowProfileHasLongerGemmsAndSameStructure) {
  const std::string base = generate("base", 3, "base");
  const std::string slow = generate("slow", 3, "slow");
  const std::string gemmTime =
      "SELECT sum(k.end-k.start) FROM HGGC_KERNEL k JOIN StringIds s ON s.id=k.shortName "
      "WHERE s.value LIKE 'gemm%' OR s.value LIKE 'grouped_gemm%'";
  Db b(base), s(slow);
  const int64_t baseGemm = b.scalar(gemmTime);
  const int64_t slowGemm = s.scalar(gemmTime);
  EXPECT_GT(slowGemm, baseGemm);
  EXPECT_GT(slowGemm, baseGemm * 11 / 10);
  for (const char* table : {"HGGC_KERNEL", "HGGC_API", "HGTX_EVENTS", "HGGC_MEMCPY"}) {
    EXPECT_EQ(b.scalar(std::string("SELECT count(*) FROM ") + table),
              s.scalar(std::string("SELECT count(*) FROM ") + table))
        << table;
  }
  std::remove(base.c_str());
  std::remove(slow.c_str());
}

TEST(Generator, KernelCountGrowsWithScale) {
  const std::string one = generate("one", 1, "base", 1.0);
  const std::string three = generate("three", 1, "base", 3.0);
  Db a(one), b(three);
  const int64_t k1 = a.scalar("SELECT count(*) FROM HGGC_KERNEL");
  const int64_t k3 = b.scalar("SELECT count(*) FROM HGGC_KERNEL");
  EXPECT_GT(k3, k1 * 29 / 10);
  EXPECT_LT(k3, k1 * 31 / 10);
  std::remove(one.c_str());
  std::remove(three.c_str());
}

TEST(Generator, ErrorsNameTheFile) {
  asys::GenOptions o;
  const std::string missingDir =
      ::testing::TempDir() + "asys_no_such_dir_" + std::to_string(getpid()) + "/out.asysrep";
  try {
    asys::generateReport(o, missingDir);
    FAIL() << "expected an error";
  } catch (const asys::Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find(missingDir), std::string::npos) << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  }
  o.profile = "fast";
  EXPECT_THROW(asys::generateReport(o, tempPath("x")), asys::Error);
  o.profile = "base";
  o.scale = 0;
  EXPECT_THROW(asys::generateReport(o, tempPath("x")), asys::Error);
}

}  // namespace
