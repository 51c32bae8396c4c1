// The CREATE TABLE statements the writer makes from the tables' descriptors
// (core/report/asysrep_tables.h) are, byte for byte, the ones asysrep v1
// reports have always been written with: kExpected is that text, copied out
// of the hand-written core/writer/asysrep_schema.cc the descriptors replaced,
// and kept apart from them on purpose. A report written now holds exactly
// these (sqlite_master), and every table and column of the contract
// (/work/shared/spec/asysrep-format-v1.md) is declared as it says.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "core/writer/asysrep_schema.h"
#include "core/writer/report_writer.h"

namespace {

namespace fs = std::filesystem;

const char* const kExpected[] = {
    "CREATE TABLE META_DATA (name TEXT PRIMARY KEY, value TEXT)",
    "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE PROCESSES (globalPid INTEGER PRIMARY KEY, pid INTEGER, name TEXT)",
    "CREATE TABLE ThreadNames (globalTid INTEGER, nameId INTEGER, priority INTEGER)",
    "CREATE TABLE TARGET_INFO_PPU (id INTEGER PRIMARY KEY, name TEXT, busLocation TEXT, "
    "hostName TEXT, uuid TEXT, computeMajor INTEGER, computeMinor INTEGER, ceCount INTEGER, "
    "cuCount INTEGER, totalMemory INTEGER, cuClock INTEGER, memoryClock INTEGER, "
    "peakFlopsFp32 REAL, peakFlopsFp16 REAL, peakFlopsBf16 REAL, peakFlopsFp8 REAL, "
    "peakFlopsInt8 REAL, hbmBandwidth REAL)",
    "CREATE TABLE HGGC_API (start INTEGER, end INTEGER, eventClass INTEGER, globalTid INTEGER, "
    "correlationId INTEGER, nameId INTEGER, returnValue INTEGER, callchainId INTEGER)",
    "CREATE TABLE HGGC_KERNEL (start INTEGER, end INTEGER, deviceId INTEGER, contextId INTEGER, "
    "streamId INTEGER, correlationId INTEGER, globalPid INTEGER, demangledName INTEGER, "
    "shortName INTEGER, mangledName INTEGER, gridX INTEGER, gridY INTEGER, gridZ INTEGER, "
    "blockX INTEGER, blockY INTEGER, blockZ INTEGER, registersPerThread INTEGER, "
    "staticSharedMemory INTEGER, dynamicSharedMemory INTEGER, graphNodeId INTEGER, "
    "graphId INTEGER)",
    "CREATE TABLE HGGC_MEMCPY (start INTEGER, end INTEGER, deviceId INTEGER, contextId INTEGER, "
    "streamId INTEGER, correlationId INTEGER, globalPid INTEGER, bytes INTEGER, "
    "copyKind INTEGER, srcKind INTEGER, dstKind INTEGER, srcDeviceId INTEGER, "
    "dstDeviceId INTEGER, graphNodeId INTEGER, graphId INTEGER)",
    "CREATE TABLE HGGC_MEMSET (start INTEGER, end INTEGER, deviceId INTEGER, contextId INTEGER, "
    "streamId INTEGER, correlationId INTEGER, globalPid INTEGER, value INTEGER, bytes INTEGER, "
    "memKind INTEGER, graphNodeId INTEGER, graphId INTEGER)",
    "CREATE TABLE ENUM_HGGC_MEMCPY_OPER (id INTEGER PRIMARY KEY, name TEXT, label TEXT)",
    "CREATE TABLE ENUM_HGGC_MEM_KIND (id INTEGER PRIMARY KEY, name TEXT, label TEXT)",
    "CREATE TABLE HGGC_GRAPH_NODE_EVENTS (start INTEGER, end INTEGER, globalTid INTEGER, "
    "nameId INTEGER, graphNodeId INTEGER, originalGraphNodeId INTEGER, graphId INTEGER)",
    "CREATE TABLE HGTX_EVENTS (start INTEGER, end INTEGER, eventType INTEGER, rangeId INTEGER, "
    "category INTEGER, color INTEGER, text TEXT, globalTid INTEGER, endGlobalTid INTEGER, "
    "textId INTEGER, domainId INTEGER, argsId INTEGER)",
    "CREATE TABLE OSRT_API (start INTEGER, end INTEGER, eventClass INTEGER, globalTid INTEGER, "
    "nameId INTEGER, returnValue INTEGER, nestingLevel INTEGER, callchainId INTEGER)",
    "CREATE TABLE CALLCHAINS (id INTEGER, stackDepth INTEGER, symbol INTEGER, module INTEGER, "
    "unresolved INTEGER)",
    "CREATE TABLE PPU_MEMORY_USAGE_EVENTS (start INTEGER, globalPid INTEGER, globalTid INTEGER, "
    "deviceId INTEGER, contextId INTEGER, eventId INTEGER, address INTEGER, bytes INTEGER, "
    "memKind INTEGER, memoryOperationType INTEGER, accessFlags INTEGER, correlationId INTEGER, "
    "callchainId INTEGER)",
    "CREATE TABLE TARGET_INFO_PPU_METRICS (metricId INTEGER PRIMARY KEY, metricName TEXT, "
    "unit TEXT)",
    "CREATE TABLE PPU_METRICS (deviceId INTEGER, start INTEGER, duration INTEGER, "
    "metricId INTEGER, value REAL)",
    "CREATE TABLE PCCL_STAGE_EVENTS (start INTEGER, end INTEGER, globalTid INTEGER, "
    "deviceId INTEGER, channelId INTEGER, channelType TEXT, nameId INTEGER)",
};

std::vector<std::string> expected() { return {std::begin(kExpected), std::end(kExpected)}; }

TEST(AsysrepSchema, GeneratedStatementsAreTheFormatsText) {
  EXPECT_EQ(asys::schemaStatements(), expected());
}

TEST(AsysrepSchema, AWrittenReportHoldsExactlyThem) {
  const std::string path = (fs::temp_directory_path() / ("asys-schema-" + std::to_string(::getpid()))).string();
  fs::remove(path);
  asys::writeReportFile(path, [](asys::ReportWriter&) {});
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db, "SELECT sql FROM sqlite_master WHERE type = 'table' ORDER BY rowid", -1, &st, nullptr),
            SQLITE_OK);
  std::vector<std::string> stored;
  while (sqlite3_step(st) == SQLITE_ROW) stored.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)));
  sqlite3_finalize(st);
  sqlite3_close(db);
  fs::remove(path);
  EXPECT_EQ(stored, expected());
}

TEST(AsysrepSchema, InsertHasOneParameterPerColumn) {
  EXPECT_EQ(asys::insertStatement(asys::asysTable(asys::AsysTable::PROCESSES)), "INSERT INTO PROCESSES VALUES (?,?,?)");
  EXPECT_EQ(asys::insertStatement(asys::asysTable(asys::AsysTable::HGGC_KERNEL)),
            "INSERT INTO HGGC_KERNEL VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
}

// The contract's table of tables: `| \`T\` | \`a TYPE, b, ...\` | notes |`, a
// column without a type being INTEGER. Every table of it is a descriptor's
// with these columns, in this order, declared so; the descriptors add only
// the project's columns (docs/asysrep-format.md, "A column the project adds").
TEST(AsysrepSchema, DescriptorsDeclareTheContractsTables) {
  std::ifstream in(std::string(ASYS_SPEC_DIR) + "/asysrep-format-v1.md");
  if (!in) GTEST_SKIP() << "no " << ASYS_SPEC_DIR << "/asysrep-format-v1.md";
  std::map<std::string, std::vector<std::string>> spec;  // table -> "name TYPE"
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("| `", 0) != 0) continue;
    const size_t nameEnd = line.find('`', 3);
    const size_t colsStart = line.find("| `", nameEnd);
    if (nameEnd == std::string::npos || colsStart == std::string::npos) continue;
    const size_t colsEnd = line.find('`', colsStart + 3);
    std::string cols = line.substr(colsStart + 3, colsEnd - colsStart - 3);
    std::vector<std::string>& out = spec[line.substr(3, nameEnd - 3)];
    for (size_t at = 0; at <= cols.size();) {
      size_t comma = cols.find(", ", at);
      if (comma == std::string::npos) comma = cols.size();
      std::string c = cols.substr(at, comma - at);
      out.push_back(c.find(' ') == std::string::npos ? c + " INTEGER" : c);
      at = comma + 2;
    }
  }
  ASSERT_EQ(spec.size(), asys::kAsysrepTableCount);
  const std::map<std::string, std::vector<std::string>> projectColumns = {{"HGTX_EVENTS", {"argsId INTEGER"}}};
  for (const asys::AsysTableInfo& t : asys::kAsysrepTables) {
    ASSERT_TRUE(spec.count(t.name)) << t.name;
    std::vector<std::string> ours;
    for (size_t c = 0; c < t.columnCount; ++c) ours.push_back(std::string(t.columns[c].name) + " " + t.columns[c].sql);
    std::vector<std::string> want = spec[t.name];
    if (projectColumns.count(t.name)) {
      for (const std::string& c : projectColumns.at(t.name)) want.push_back(c);
    }
    EXPECT_EQ(ours, want) << t.name;
  }
}

}  // namespace
