#include "core/report/block_vfs.h"

#include <sqlite3.h>

#include <algorithm>
#include <cstring>
#include <new>

#include "core/report/block_cache.h"

namespace asys {

namespace {

// Read sizes and the cache bound. Natively a read is a pread of the page
// cache, and small blocks keep the memory of a summary rule low (target: at
// most 0.3 x the report). In the browser a read is one FileReaderSync call
// on the dropped File, which costs ~0.6 ms whatever its size and reaches
// its best throughput (~0.6-0.9 GB/s on the project's machine) from 32 MiB
// up, so blocks are larger there (bench/README.md, docs/big-reports.md).
#ifdef __EMSCRIPTEN__
constexpr BlockCache::Limits kLimits{64 << 10, 32 << 20, 80 << 20};
#else
constexpr BlockCache::Limits kLimits{64 << 10, 4 << 20, 16 << 20};
#endif

FileReads g_reads;
#ifdef __EMSCRIPTEN__
ReadMode g_mode = ReadMode::ReadAhead;
#else
ReadMode g_mode = ReadMode::Direct;
#endif

struct BlockFile {
  sqlite3_file base;   // pMethods = &kMethods
  sqlite3_file* real;  // the platform VFS's file, stored right after this struct
  BlockCache* cache;        // null in Direct mode
  sqlite3_int64 size;
  sqlite3_int64 mmapLimit;  // SQLITE_FCNTL_MMAP_SIZE: 0 = no xFetch
};

constexpr int kRealOffset = (sizeof(BlockFile) + 7) & ~7;

BlockFile* self(sqlite3_file* f) { return reinterpret_cast<BlockFile*>(f); }

int fileClose(sqlite3_file* f) {
  BlockFile* b = self(f);
  delete b->cache;
  b->cache = nullptr;
  return b->real->pMethods->xClose(b->real);
}

bool readReal(sqlite3_file* real, void* dst, int64_t length, int64_t offset) {
  ++g_reads.reads;
  g_reads.bytes += static_cast<uint64_t>(length);
  return real->pMethods->xRead(real, dst, static_cast<int>(length), offset) == SQLITE_OK;
}

int fileRead(sqlite3_file* f, void* dst, int amount, sqlite3_int64 offset) {
  BlockFile* b = self(f);
  if (b->cache == nullptr) {
    ++g_reads.reads;
    g_reads.bytes += static_cast<uint64_t>(amount);
    return b->real->pMethods->xRead(b->real, dst, amount, offset);
  }
  try {
    const int64_t available = offset >= b->size ? 0 : std::min<int64_t>(amount, b->size - offset);
    if (available > 0 && !b->cache->copy(dst, available, offset)) return SQLITE_IOERR_READ;
    if (available < amount) {
      // SQLite's contract for a read past the end: zeros, and say so.
      std::memset(static_cast<char*>(dst) + available, 0, static_cast<size_t>(amount - available));
      return SQLITE_IOERR_SHORT_READ;
    }
    return SQLITE_OK;
  } catch (const std::bad_alloc&) {
    return SQLITE_IOERR_NOMEM;
  }
}

int fileWrite(sqlite3_file*, const void*, int, sqlite3_int64) { return SQLITE_IOERR_WRITE; }
int fileTruncate(sqlite3_file*, sqlite3_int64) { return SQLITE_IOERR_TRUNCATE; }
int fileSync(sqlite3_file*, int) { return SQLITE_OK; }

int fileSize(sqlite3_file* f, sqlite3_int64* size) {
  *size = self(f)->size;
  return SQLITE_OK;
}

int fileLock(sqlite3_file* f, int level) { return self(f)->real->pMethods->xLock(self(f)->real, level); }
int fileUnlock(sqlite3_file* f, int level) { return self(f)->real->pMethods->xUnlock(self(f)->real, level); }
int fileCheckReservedLock(sqlite3_file* f, int* out) {
  return self(f)->real->pMethods->xCheckReservedLock(self(f)->real, out);
}

int fileControl(sqlite3_file* f, int op, void* arg) {
  BlockFile* b = self(f);
  if (op == SQLITE_FCNTL_MMAP_SIZE) {
    // The pager's mmap_size: pages come from the cache's blocks, so any
    // size works; 0 turns xFetch off.
    auto* limit = static_cast<sqlite3_int64*>(arg);
    const sqlite3_int64 old = b->mmapLimit;
    if (*limit >= 0) b->mmapLimit = *limit;
    *limit = old;
    return SQLITE_OK;
  }
  return b->real->pMethods->xFileControl(b->real, op, arg);
}

int fileSectorSize(sqlite3_file* f) { return self(f)->real->pMethods->xSectorSize(self(f)->real); }
int fileDeviceCharacteristics(sqlite3_file* f) {
  return self(f)->real->pMethods->xDeviceCharacteristics(self(f)->real);
}

// No shared memory: a read-only, immutable report has no WAL index.
int fileShmMap(sqlite3_file*, int, int, int, void volatile**) { return SQLITE_IOERR_SHMMAP; }
int fileShmLock(sqlite3_file*, int, int, int) { return SQLITE_IOERR_SHMLOCK; }
void fileShmBarrier(sqlite3_file*) {}
int fileShmUnmap(sqlite3_file*, int) { return SQLITE_OK; }

int fileFetch(sqlite3_file* f, sqlite3_int64 offset, int amount, void** out) {
  BlockFile* b = self(f);
  *out = nullptr;
  if (b->cache == nullptr || b->mmapLimit <= 0 || offset + amount > b->mmapLimit) return SQLITE_OK;
  try {
    *out = const_cast<uint8_t*>(b->cache->pin(offset, amount));
  } catch (const std::bad_alloc&) {
    *out = nullptr;  // SQLite falls back to xRead, which reports the failure
  }
  return SQLITE_OK;
}

int fileUnfetch(sqlite3_file* f, sqlite3_int64, void* pointer) {
  // A null pointer asks to drop every mapping: SQLite only does so when it
  // holds none, and the blocks stay cached.
  if (pointer != nullptr && self(f)->cache != nullptr) self(f)->cache->release(pointer);
  return SQLITE_OK;
}

const sqlite3_io_methods kMethods = {
    3,
    fileClose,
    fileRead,
    fileWrite,
    fileTruncate,
    fileSync,
    fileSize,
    fileLock,
    fileUnlock,
    fileCheckReservedLock,
    fileControl,
    fileSectorSize,
    fileDeviceCharacteristics,
    fileShmMap,
    fileShmLock,
    fileShmBarrier,
    fileShmUnmap,
    fileFetch,
    fileUnfetch,
};

sqlite3_vfs* platformOf(sqlite3_vfs* vfs) { return static_cast<sqlite3_vfs*>(vfs->pAppData); }

int vfsOpen(sqlite3_vfs* vfs, sqlite3_filename name, sqlite3_file* file, int flags, int* outFlags) {
  sqlite3_vfs* platform = platformOf(vfs);
  // Only a read-only main database is cached; anything else is the platform's.
  if (!(flags & SQLITE_OPEN_MAIN_DB) || !(flags & SQLITE_OPEN_READONLY)) {
    return platform->xOpen(platform, name, file, flags, outFlags);
  }
  BlockFile* b = self(file);
  b->base.pMethods = nullptr;
  b->real = reinterpret_cast<sqlite3_file*>(reinterpret_cast<char*>(file) + kRealOffset);
  b->cache = nullptr;
  b->mmapLimit = 0;
  std::memset(b->real, 0, static_cast<size_t>(platform->szOsFile));
  int rc = platform->xOpen(platform, name, b->real, flags, outFlags);
  sqlite3_int64 size = 0;
  if (rc == SQLITE_OK) rc = b->real->pMethods->xFileSize(b->real, &size);
  b->size = size;
  if (rc == SQLITE_OK && g_mode == ReadMode::ReadAhead) {
    sqlite3_file* real = b->real;
    b->cache = new (std::nothrow) BlockCache(
        size, [real](uint8_t* dst, int64_t length, int64_t offset) { return readReal(real, dst, length, offset); },
        kLimits);
    if (b->cache == nullptr) rc = SQLITE_NOMEM;
  }
  if (rc != SQLITE_OK) {
    if (b->real->pMethods != nullptr) b->real->pMethods->xClose(b->real);
    return rc;
  }
  b->base.pMethods = &kMethods;
  return SQLITE_OK;
}

// Everything but opening is the platform's.
int vfsDelete(sqlite3_vfs* vfs, const char* name, int syncDir) {
  return platformOf(vfs)->xDelete(platformOf(vfs), name, syncDir);
}
int vfsAccess(sqlite3_vfs* vfs, const char* name, int flags, int* out) {
  return platformOf(vfs)->xAccess(platformOf(vfs), name, flags, out);
}
int vfsFullPathname(sqlite3_vfs* vfs, const char* name, int n, char* out) {
  return platformOf(vfs)->xFullPathname(platformOf(vfs), name, n, out);
}
void* vfsDlOpen(sqlite3_vfs* vfs, const char* name) { return platformOf(vfs)->xDlOpen(platformOf(vfs), name); }
void vfsDlError(sqlite3_vfs* vfs, int n, char* out) { platformOf(vfs)->xDlError(platformOf(vfs), n, out); }
void (*vfsDlSym(sqlite3_vfs* vfs, void* handle, const char* symbol))(void) {
  return platformOf(vfs)->xDlSym(platformOf(vfs), handle, symbol);
}
void vfsDlClose(sqlite3_vfs* vfs, void* handle) { platformOf(vfs)->xDlClose(platformOf(vfs), handle); }
int vfsRandomness(sqlite3_vfs* vfs, int n, char* out) { return platformOf(vfs)->xRandomness(platformOf(vfs), n, out); }
int vfsSleep(sqlite3_vfs* vfs, int micros) { return platformOf(vfs)->xSleep(platformOf(vfs), micros); }
int vfsCurrentTime(sqlite3_vfs* vfs, double* out) { return platformOf(vfs)->xCurrentTime(platformOf(vfs), out); }
int vfsGetLastError(sqlite3_vfs* vfs, int n, char* out) {
  return platformOf(vfs)->xGetLastError(platformOf(vfs), n, out);
}
int vfsCurrentTimeInt64(sqlite3_vfs* vfs, sqlite3_int64* out) {
  return platformOf(vfs)->xCurrentTimeInt64(platformOf(vfs), out);
}

sqlite3_vfs* registered() {
  static sqlite3_vfs vfs = [] {
    sqlite3_vfs* platform = sqlite3_vfs_find(nullptr);
    sqlite3_vfs v{};
    v.iVersion = 2;
    v.szOsFile = kRealOffset + platform->szOsFile;
    v.mxPathname = platform->mxPathname;
    v.zName = "asys-blocks";
    v.pAppData = platform;
    v.xOpen = vfsOpen;
    v.xDelete = vfsDelete;
    v.xAccess = vfsAccess;
    v.xFullPathname = vfsFullPathname;
    // Without extension loading (SQLITE_OMIT_LOAD_EXTENSION) these are null.
    v.xDlOpen = platform->xDlOpen ? vfsDlOpen : nullptr;
    v.xDlError = platform->xDlError ? vfsDlError : nullptr;
    v.xDlSym = platform->xDlSym ? vfsDlSym : nullptr;
    v.xDlClose = platform->xDlClose ? vfsDlClose : nullptr;
    v.xRandomness = vfsRandomness;
    v.xSleep = vfsSleep;
    v.xCurrentTime = vfsCurrentTime;
    v.xGetLastError = vfsGetLastError;
    v.xCurrentTimeInt64 = platform->iVersion >= 2 && platform->xCurrentTimeInt64 ? vfsCurrentTimeInt64 : nullptr;
    return v;
  }();
  static const bool done = sqlite3_vfs_register(&vfs, 0) == SQLITE_OK;
  (void)done;
  return &vfs;
}

}  // namespace

const char* blockVfsName() { return registered()->zName; }

FileReads blockVfsReads() { return g_reads; }

void setReportReadMode(ReadMode mode) { g_mode = mode; }
ReadMode reportReadMode() { return g_mode; }

}  // namespace asys
