#pragma once
// Gives the allocator's free memory back to the system (glibc: malloc_trim,
// which also returns the free pages inside the heap, not only at its top;
// elsewhere nothing). For a step that frees much memory held among blocks
// still in use (a table's columns, an index) when what follows allocates
// its large blocks apart (mmap), so the freed pages would otherwise stay
// resident through the rest of the rule: once per rule step, never per row.
#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace asys {

inline void giveBackFreeHeap() {
#ifdef __GLIBC__
  malloc_trim(0);
#endif
}

}  // namespace asys
