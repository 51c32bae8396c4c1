// sniffFormat: what a file is, from its content only (never its name).
//   SQLite header  -> the tables decide: META_DATA format=asysrep is an asysrep
//                     report; StringIds plus an Nsight Systems table is an nsys
//                     export; anything else is Unknown.
//   "NVIDIA Tegra Profiler Report" -> an .nsys-rep / .qdrep container.
//   1f 8b (gzip) or a first non-space byte '{' -> a Kineto (Chrome trace) JSON.
#include <sqlite3.h>

#include <cstring>
#include <fstream>
#include <string>

#include "core/import/importer.h"
#include "core/report/sqlite_db.h"

namespace asys {

namespace {

// The container header of .nsys-rep (and the older .qdrep) files.
constexpr char kNsysRepMagic[] = "NVIDIA Tegra Profiler Report";

bool isNsysTable(const std::string& name) {
  if (name.rfind("CUPTI_ACTIVITY_KIND_", 0) == 0) return true;
  if (name == "NVTX_EVENTS" || name == "EXPORT_META_DATA" || name == "META_DATA_EXPORT") return true;
  // TARGET_INFO_GPU, TARGET_INFO_CUDA_*, TARGET_INFO_SESSION_START_TIME, ...;
  // asysrep's own TARGET_INFO_PPU* tables do not count.
  return name.rfind("TARGET_INFO_", 0) == 0 && name.find("PPU") == std::string::npos;
}

InputFormat sniffSqlite(const std::string& path) {
  const std::string uri = sqliteUri(path, "?mode=ro&immutable=1");
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(uri.c_str(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr) != SQLITE_OK) {
    sqlite3_close(db);
    return InputFormat::Unknown;
  }
  bool stringIds = false, nsysTable = false, metaData = false;
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v2(db, "SELECT name FROM sqlite_master WHERE type IN ('table','view')", -1, &st,
                         nullptr) == SQLITE_OK) {
    while (sqlite3_step(st) == SQLITE_ROW) {
      const unsigned char* p = sqlite3_column_text(st, 0);
      if (p == nullptr) continue;
      const std::string name(reinterpret_cast<const char*>(p));
      if (name == "StringIds") stringIds = true;
      else if (name == "META_DATA") metaData = true;
      else if (isNsysTable(name)) nsysTable = true;
    }
  }
  sqlite3_finalize(st);
  bool asysrep = false;
  if (metaData && sqlite3_prepare_v2(db, "SELECT value FROM META_DATA WHERE name = 'format'", -1, &st,
                                     nullptr) == SQLITE_OK) {
    while (sqlite3_step(st) == SQLITE_ROW) {
      const unsigned char* p = sqlite3_column_text(st, 0);
      if (p != nullptr && std::strcmp(reinterpret_cast<const char*>(p), "asysrep") == 0) asysrep = true;
    }
    sqlite3_finalize(st);
  }
  sqlite3_close(db);
  if (asysrep) return InputFormat::Asysrep;
  if (stringIds && nsysTable) return InputFormat::NsysSqlite;
  return InputFormat::Unknown;
}

}  // namespace

InputFormat sniffFormat(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return InputFormat::Unknown;
  char head[4096] = {};
  in.read(head, sizeof head);
  const size_t got = static_cast<size_t>(in.gcount());
  in.close();

  if (got >= 16 && std::memcmp(head, "SQLite format 3\0", 16) == 0) return sniffSqlite(path);
  const size_t magic = sizeof kNsysRepMagic - 1;
  if (got >= magic && std::memcmp(head, kNsysRepMagic, magic) == 0) return InputFormat::NsysRep;
  if (got >= 2 && static_cast<unsigned char>(head[0]) == 0x1f && static_cast<unsigned char>(head[1]) == 0x8b) {
    return InputFormat::KinetoJson;
  }
  size_t i = 0;
  if (got >= 3 && std::memcmp(head, "\xEF\xBB\xBF", 3) == 0) i = 3;  // UTF-8 byte order mark
  for (; i < got; ++i) {
    const char c = head[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
    return c == '{' ? InputFormat::KinetoJson : InputFormat::Unknown;
  }
  return InputFormat::Unknown;  // empty, or only white space at the start
}

}  // namespace asys
