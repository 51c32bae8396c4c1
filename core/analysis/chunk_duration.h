#pragma once
// The duration of a row read in a chunk (Report::forEachKernelChunk,
// forEachHggcApiChunk), folded before the scan's whole-table checks of its
// times have run: those run after the last chunk, so a chunk can hold a time
// past 2^62 ns or an end before its start, and end - start can overflow.
// The difference wraps instead (defined, unlike signed overflow); such a row
// makes the scan fail after its last chunk, so the wrapped value is never
// used. Within the checked range it is end - start exactly.
#include <cstdint>

namespace asys {

constexpr int64_t chunkDuration(int64_t start, int64_t end) {
  return static_cast<int64_t>(static_cast<uint64_t>(end) - static_cast<uint64_t>(start));
}

}  // namespace asys
