#include "core/base/freed_heap.h"

#include <cstdlib>  // before the test: __GLIBC__ comes with the C library's headers

#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace asys {

void giveBackFreedHeap() {
#ifdef __GLIBC__
  malloc_trim(0);  // 0: keep no free room at the top either
#endif
}

}  // namespace asys
