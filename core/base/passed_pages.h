#pragma once
// A large column read once in order by a step that is its last reader (the
// projections' fold over the activity list) can give its pages back to the
// system as the step passes them, so that what the step makes (its own
// columns, faulted in as it writes them) takes their place in the process's
// resident memory instead of adding to it. The column's values in the
// pages given back are lost: nothing may read them after (its buffer is
// freed as usual; the allocator writes only its own headers, outside).
// On Linux (madvise, MADV_DONTNEED: the pages read as zero if touched
// again); elsewhere (the WebAssembly engine) it does nothing.
#include <cstddef>
#include <vector>

namespace asys {

// The whole pages inside [begin, begin + bytes) given back.
void giveBackPages(const void* begin, size_t bytes);

// The first `count` elements' whole pages of `column` given back (none
// past its size).
template <typename T>
void giveBackPassed(const std::vector<T>& column, size_t count) {
  if (count > column.size()) count = column.size();
  if (count > 0) giveBackPages(column.data(), count * sizeof(T));
}

}  // namespace asys
