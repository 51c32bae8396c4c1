#include "core/base/passed_pages.h"

#include <cstdint>

#if defined(__linux__) && !defined(__EMSCRIPTEN__)
#include <sys/mman.h>
#include <unistd.h>
#define ASYS_GIVE_BACK_PAGES 1
#endif

namespace asys {

void giveBackPages(const void* begin, size_t bytes) {
#ifdef ASYS_GIVE_BACK_PAGES
  static const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  const uintptr_t from = (reinterpret_cast<uintptr_t>(begin) + page - 1) / page * page;
  const uintptr_t to = (reinterpret_cast<uintptr_t>(begin) + bytes) / page * page;
  if (to > from) madvise(reinterpret_cast<void*>(from), to - from, MADV_DONTNEED);
#else
  (void)begin;
  (void)bytes;
#endif
}

}  // namespace asys
