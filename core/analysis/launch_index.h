#pragma once
// HGGC_API calls by (process, correlation id), built a chunk of calls at a
// time while HGGC_API is scanned and asked once per activity while
// HGGC_KERNEL is: the join launchingCalls (hgtx_ranges.h) makes with both
// tables' columns loaded, for a rule that holds neither table
// (hggc_kern_exec_trace). The same answers: the call with the activity's
// correlation id in the activity's process, the first in table order when a
// report repeats one; a NULL id matches nothing.
//
// While the ids are small and dense per process (a per-process counter, as
// HGGC, CUPTI and the generator give them) it is one table of calls per
// process, indexed by id (4 bytes an id while the calls are added, packed
// by finish() to about 1 byte an id: PackedCalls); past four ids a call or
// 64 processes, or with a negative id, it becomes a sorted list (16 bytes a
// call).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/analysis/packed_calls.h"

namespace asys {

class LaunchIndex {
 public:
  // `expectedCalls`: about the calls there will be (the dense tables may
  // hold four ids a call).
  explicit LaunchIndex(size_t expectedCalls) : maxCells_(4 * expectedCalls + 1024) {}

  // Call `call` (HGGC_API rows in ascending order) on thread `globalTid`.
  void add(uint32_t call, int64_t globalTid, int64_t correlationId);
  // After the last add(), before find() (once; later calls do nothing).
  void finish();
  // The call that launched an activity of process `globalPid` with
  // `correlationId`, or kNoMatch (core/analysis/key_join.h).
  uint32_t find(int64_t globalPid, int64_t correlationId) const;
  // The dense tables' cells (4 bytes each), or the sorted list's entries (16).
  size_t cells() const { return dense_ ? cells_ : sorted_.size(); }
  bool dense() const { return dense_; }
  // Once finished: the bytes the index holds, and the packed tables' blocks
  // kept exact.
  size_t bytes() const;
  size_t exactBlocks() const;

 private:
  struct Process {
    int64_t pid;
    std::vector<uint32_t> callOf;  // by correlation id; kNoMatch where none (until finish())
    PackedCalls packed;            // callOf, once finished
  };
  struct Entry {  // the sorted list's
    uint32_t pid, call;
    int64_t id;
  };
  // The dense tables' process `pid`, added when new; nullptr past 64.
  Process* processOf(int64_t pid);
  const Process* findProcess(int64_t pid) const;
  void toSorted();

  size_t maxCells_;
  size_t cells_ = 0;
  bool dense_ = true;
  bool finished_ = false;
  std::vector<Process> processes_;
  mutable size_t lastProcess_ = 0;  // the process found last: calls and kernels come in runs
  std::vector<Entry> sorted_;
};

}  // namespace asys
