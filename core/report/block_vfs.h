#pragma once
// The SQLite VFS reports are read through: the platform's own VFS (unix
// natively; in WebAssembly the same over Emscripten's file system, where a
// dropped File is mounted with WORKERFS) that counts the reads of a
// read-only database and, in ReadAhead mode, answers them from a BlockCache
// (core/report/block_cache.h). There SQLite's memory-mapped page interface
// (xFetch) hands out pages inside the cached blocks, so a page is copied
// once, from the file into a block, and the report is never copied whole:
// memory holds the blocks (80 MiB at most, block_vfs.cc) and the columns the
// rules load. docs/big-reports.md has the figures.
//
// Other files (journals, temporary and writable databases) go to the
// platform VFS untouched.
#include <cstdint>

namespace asys {

// The VFS's name for sqlite3_open_v2; registers it on first use (not as the
// default).
const char* blockVfsName();

// How reports opened from now on are read:
//   Direct    : each SQLite read goes to the file (a pread of the page cache
//               natively: ~1 us, cheaper than reading ahead, because the
//               tables of a report are interleaved page by page and a block
//               holds every table's pages);
//   ReadAhead : through a BlockCache (a FileReaderSync call costs ~0.6 ms,
//               so one large read beats the pages it holds).
// Natively Direct, in WebAssembly ReadAhead.
enum class ReadMode { Direct, ReadAhead };
void setReportReadMode(ReadMode mode);
ReadMode reportReadMode();

// Reads of report files from the platform file system since the process
// started: how many, and their bytes. A test counts these to see that a
// table already loaded is not read again.
struct FileReads {
  uint64_t reads = 0;
  uint64_t bytes = 0;
};
FileReads blockVfsReads();

}  // namespace asys
