#pragma once
// The small report the device row's tests share (device_row_test.cc,
// occupancy_merged_test.cc):
//   PPU 0, one context, two streams:
//     stream 7: kernel k [0, 30); memcpy HtoD Pageable -> Device [40, 50) (HGGC_MEMCPY row 0)
//     stream 8: kernel k [20, 35); memcpy DtoH Device -> Pinned [45, 60) (row 1); memset [70, 80)
//   PPU 1: stream 4: kernel k [0, 10).
// PPU 0's work: kernels [0, 35) = 35, memory [40, 60) + [70, 80) = 30, busy 65.
// Inside [25, 75): kernels [25, 35) = 10, memory [40, 60) + [70, 75) = 25, busy 35.

namespace asys::test {

inline constexpr const char* kDeviceRowReportSql = R"SQL(
CREATE TABLE META_DATA (name TEXT PRIMARY KEY, value TEXT);
INSERT INTO META_DATA VALUES ('format', 'asysrep'), ('formatVersion', '1'), ('captureStart', '0'), ('captureEnd', '100');
CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO StringIds VALUES (1, 'k');
CREATE TABLE HGGC_KERNEL (start INTEGER, end INTEGER, deviceId INTEGER, contextId INTEGER,
  streamId INTEGER, correlationId INTEGER, globalPid INTEGER, demangledName INTEGER,
  shortName INTEGER, mangledName INTEGER, gridX INTEGER, gridY INTEGER, gridZ INTEGER,
  blockX INTEGER, blockY INTEGER, blockZ INTEGER, registersPerThread INTEGER,
  staticSharedMemory INTEGER, dynamicSharedMemory INTEGER, graphNodeId INTEGER, graphId INTEGER);
INSERT INTO HGGC_KERNEL VALUES
  ( 0, 30, 0, 1, 7, 1, 1677721600, 1, 1, 1, 1, 1, 1, 32, 1, 1, 32, 0, 0, NULL, NULL),
  (20, 35, 0, 1, 8, 2, 1677721600, 1, 1, 1, 1, 1, 1, 32, 1, 1, 32, 0, 0, NULL, NULL),
  ( 0, 10, 1, 1, 4, 3, 1677721600, 1, 1, 1, 1, 1, 1, 32, 1, 1, 32, 0, 0, NULL, NULL);
CREATE TABLE HGGC_MEMCPY (start INTEGER, end INTEGER, deviceId INTEGER, contextId INTEGER,
  streamId INTEGER, correlationId INTEGER, globalPid INTEGER, bytes INTEGER,
  copyKind INTEGER, srcKind INTEGER, dstKind INTEGER, srcDeviceId INTEGER,
  dstDeviceId INTEGER, graphNodeId INTEGER, graphId INTEGER);
INSERT INTO HGGC_MEMCPY VALUES
  (40, 50, 0, 1, 7, 4, 1677721600, 1024, 1, 0, 2, NULL, NULL, NULL, NULL),
  (45, 60, 0, 1, 8, 5, 1677721600, 1024, 2, 2, 1, NULL, NULL, NULL, NULL);
CREATE TABLE HGGC_MEMSET (start INTEGER, end INTEGER, deviceId INTEGER, contextId INTEGER,
  streamId INTEGER, correlationId INTEGER, globalPid INTEGER, value INTEGER, bytes INTEGER,
  memKind INTEGER, graphNodeId INTEGER, graphId INTEGER);
INSERT INTO HGGC_MEMSET VALUES (70, 80, 0, 1, 8, 6, 1677721600, 0, 64, 2, NULL, NULL);
CREATE TABLE ENUM_HGGC_MEMCPY_OPER (id INTEGER PRIMARY KEY, name TEXT, label TEXT);
INSERT INTO ENUM_HGGC_MEMCPY_OPER VALUES (1, 'HGGC_MEMCPY_KIND_HTOD', 'Host-to-Device'), (2, 'HGGC_MEMCPY_KIND_DTOH', 'Device-to-Host');
CREATE TABLE ENUM_HGGC_MEM_KIND (id INTEGER PRIMARY KEY, name TEXT, label TEXT);
INSERT INTO ENUM_HGGC_MEM_KIND VALUES (0, 'HGGC_MEMORY_KIND_PAGEABLE', 'Pageable'), (1, 'HGGC_MEMORY_KIND_PINNED', 'Pinned'),
  (2, 'HGGC_MEMORY_KIND_DEVICE', 'Device'), (4, 'HGGC_MEMORY_KIND_MANAGED', 'Managed');
)SQL";

}  // namespace asys::test
