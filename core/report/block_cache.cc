#include "core/report/block_cache.h"

#include <algorithm>
#include <cstring>
#include <iterator>

namespace asys {

namespace {
// Places remembered for read-ahead: a table scan, and the scattered reads of
// b-tree interior pages between its blocks, each keep their own.
constexpr size_t kStreams = 8;
}  // namespace

BlockCache::BlockCache(int64_t fileSize, Source source, Limits limits)
    : fileSize_(fileSize), source_(std::move(source)), limits_(limits) {}

BlockCache::~BlockCache() = default;

BlockCache::Block* BlockCache::blockAt(int64_t offset) {
  if (last_ && offset >= last_->offset && offset < last_->offset + last_->length) {
    last_->lastUse = ++clock_;
    return last_;
  }
  auto it = blocks_.upper_bound(offset);
  if (it == blocks_.begin()) return nullptr;
  Block* b = std::prev(it)->second.get();
  if (offset >= b->offset + b->length) return nullptr;
  b->lastUse = ++clock_;
  return last_ = b;
}

// Drops least recently used blocks nobody holds until `size` more bytes fit;
// returns the memory of one of them when it is large enough to reuse.
std::unique_ptr<uint8_t[]> BlockCache::buffer(int64_t size, int64_t& capacity) {
  std::unique_ptr<uint8_t[]> reuse;
  while (cachedBytes_ + size > limits_.capacity) {
    auto victim = blocks_.end();
    for (auto it = blocks_.begin(); it != blocks_.end(); ++it) {
      if (it->second->pins == 0 && (victim == blocks_.end() || it->second->lastUse < victim->second->lastUse))
        victim = it;
    }
    if (victim == blocks_.end()) break;  // everything is held: go over the limit for now
    Block& b = *victim->second;
    cachedBytes_ -= b.capacity;
    if (!reuse && b.capacity >= size) {
      reuse = std::move(b.data);
      capacity = b.capacity;
    }
    if (last_ == &b) last_ = nullptr;
    blocks_.erase(victim);
  }
  if (!reuse) {
    reuse.reset(new uint8_t[static_cast<size_t>(size)]);  // not zeroed: the read fills it
    capacity = size;
  }
  cachedBytes_ += capacity;
  return reuse;
}

BlockCache::Block* BlockCache::load(int64_t offset, int64_t length) {
  // The new block lies between its cached neighbours.
  auto next = blocks_.upper_bound(offset);
  const int64_t ceiling = next == blocks_.end() ? fileSize_ : std::min(fileSize_, next->first);
  int64_t floor = 0;
  if (next != blocks_.begin()) {
    const Block& prev = *std::prev(next)->second;
    floor = prev.offset + prev.length;
  }

  Stream* stream = nullptr;
  for (Stream& s : streams_) {
    if (offset >= s.end && offset < s.end + s.size) {
      stream = &s;
      break;
    }
  }
  const int64_t size = stream ? std::min(stream->size * 4, limits_.maxRead) : limits_.minRead;
  const int64_t start = std::max(offset - offset % limits_.minRead, floor);
  int64_t end = std::min(start + size, ceiling);
  end = std::max(end, std::min(offset + length, ceiling));  // the whole range when it fits
  if (end <= offset) return nullptr;

  int64_t capacity = 0;
  std::unique_ptr<uint8_t[]> data = buffer(end - start, capacity);
  ++sourceReads_;
  sourceBytes_ += static_cast<uint64_t>(end - start);
  if (!source_(data.get(), end - start, start)) {
    cachedBytes_ -= capacity;
    return nullptr;
  }

  if (stream) {
    *stream = {end, size};
  } else {
    if (streams_.size() == kStreams) streams_.erase(streams_.begin());
    streams_.push_back({end, size});
  }

  auto block = std::make_unique<Block>();
  block->offset = start;
  block->length = end - start;
  block->data = std::move(data);
  block->capacity = capacity;
  block->lastUse = ++clock_;
  Block* b = block.get();
  blocks_.emplace(start, std::move(block));
  return last_ = b;
}

bool BlockCache::copy(void* dst, int64_t length, int64_t offset) {
  auto* out = static_cast<uint8_t*>(dst);
  while (length > 0) {
    Block* b = blockAt(offset);
    if (!b) b = load(offset, length);
    if (!b) return false;
    const int64_t n = std::min(length, b->offset + b->length - offset);
    std::memcpy(out, b->data.get() + (offset - b->offset), static_cast<size_t>(n));
    out += n;
    offset += n;
    length -= n;
  }
  return true;
}

const uint8_t* BlockCache::pin(int64_t offset, int64_t length) {
  if (offset < 0 || length <= 0 || offset + length > fileSize_) return nullptr;
  Block* b = blockAt(offset);
  if (!b) b = load(offset, length);
  if (!b || offset + length > b->offset + b->length) return nullptr;
  ++b->pins;
  return b->data.get() + (offset - b->offset);
}

void BlockCache::release(const void* pointer) {
  auto* p = static_cast<const uint8_t*>(pointer);
  auto holds = [p](const Block& b) { return p >= b.data.get() && p < b.data.get() + b.length; };
  if (last_ && holds(*last_)) {
    --last_->pins;
    return;
  }
  for (auto& [offset, b] : blocks_) {
    if (holds(*b)) {
      --b->pins;
      return;
    }
  }
}

}  // namespace asys
