#pragma once
// glibc keeps the pages of memory freed below its heap's top resident: a
// step that freed tens of MiB of small and middle-sized buffers (a table's
// scan, a sort's order) leaves them counted in the process's resident
// memory until they are reused, so the next step peaks that much higher.
// giveBackFreedHeap returns those pages to the system (the heap's layout
// and contents stay as they are; a page reused later is faulted in again).
// A call costs a walk of the heap's free lists: made at a few chosen points,
// not after every free (a fixed mmap threshold, which would have that
// effect everywhere, cost 21-55 % more system time: docs/big-reports.md).
// Elsewhere than glibc (the WebAssembly engine) it does nothing.

namespace asys {

void giveBackFreedHeap();

}  // namespace asys
