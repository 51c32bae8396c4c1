#pragma once
// A bounded cache of large blocks of one read-only file, with read-ahead.
// SQLite asks for one page (4 KB) at a time; where a read costs a call into
// the browser (a FileReaderSync read of the dropped File, ~0.6 ms each) or a
// system call, reading the file page by page is what made a 1.8 GiB report
// take 834 s in the viewer. The cache answers those page reads from blocks
// it reads in one call each: a read that continues where an earlier block
// ended (a table scan) reads a block four times larger than the last, up to
// `maxRead`; any other read starts small again (`minRead`), so opening a
// report, which touches a few scattered pages, reads little.
//
// Blocks never overlap. The cache holds at most `capacity` bytes, dropping
// the least recently used block that nobody holds; a block held by pin()
// stays until release(), so the cache may briefly exceed its capacity by
// the blocks SQLite holds (at most the depth of a b-tree).
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <vector>

namespace asys {

class BlockCache {
 public:
  // Fills `dst` with `length` bytes at `offset` (always inside the file);
  // false when the file cannot be read.
  using Source = std::function<bool(uint8_t* dst, int64_t length, int64_t offset)>;

  struct Limits {
    int64_t minRead;   // the first read of a new place in the file
    int64_t maxRead;   // the largest read-ahead
    int64_t capacity;  // bytes kept, blocks in use not counted
  };

  BlockCache(int64_t fileSize, Source source, Limits limits);
  ~BlockCache();
  BlockCache(const BlockCache&) = delete;
  BlockCache& operator=(const BlockCache&) = delete;

  // Copies [offset, offset + length) into `dst`. The range must lie inside
  // the file. False when the source failed.
  bool copy(void* dst, int64_t length, int64_t offset);

  // A pointer to [offset, offset + length) inside one cached block, valid
  // until release(pointer); nullptr when the range is not inside the file,
  // straddles two blocks, or the source failed (the caller then copies).
  const uint8_t* pin(int64_t offset, int64_t length);
  void release(const void* pointer);

  int64_t fileSize() const { return fileSize_; }
  // Reads of the source and the bytes they asked for, since construction.
  uint64_t sourceReads() const { return sourceReads_; }
  uint64_t sourceBytes() const { return sourceBytes_; }
  int64_t cachedBytes() const { return cachedBytes_; }

 private:
  struct Block {
    int64_t offset = 0, length = 0;
    std::unique_ptr<uint8_t[]> data;
    int64_t capacity = 0;  // of `data`
    int pins = 0;
    uint64_t lastUse = 0;
  };
  // A place reads have recently continued from: where the last block read
  // there ended and how large it was.
  struct Stream {
    int64_t end = 0, size = 0;
  };

  Block* blockAt(int64_t offset);
  Block* load(int64_t offset, int64_t length);
  std::unique_ptr<uint8_t[]> buffer(int64_t size, int64_t& capacity);
  void evictFor(int64_t size);

  int64_t fileSize_;
  Source source_;
  Limits limits_;
  std::map<int64_t, std::unique_ptr<Block>> blocks_;  // by offset
  Block* last_ = nullptr;                              // the last block used
  std::vector<Stream> streams_;
  std::unique_ptr<uint8_t[]> spare_;  // a dropped block's memory, reused
  int64_t spareCapacity_ = 0;
  int64_t cachedBytes_ = 0;
  uint64_t clock_ = 0;
  uint64_t sourceReads_ = 0, sourceBytes_ = 0;
};

}  // namespace asys
