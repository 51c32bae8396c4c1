#pragma once
// Internal to core/timeline: the host rows beside a thread's HGGC API,
// HGTX push/pop and OSRT rows (docs/timeline.md, "Host rows"):
// - per process, its **HGTX start/end ranges** (eventType 60), not nested
//   by a stack and free to end on another thread, overlapping ones on
//   lanes; an unended one (end NULL) an instant, as every unended event;
// - per thread and library, its **library API rows**: the push/pop ranges a
//   compute library announces itself with (ACBLAS:..., DeepGemm:...,
//   MoE:..., the PCCL operator ranges), moved off the thread's HGTX row
//   (an event is on one track);
// - per process, its **memory allocation failures**: its threads' failed
//   allocation calls (an hgMalloc whose return value is not 0) drawn again
//   where a user looks for them (TimelineTrack::repeats).
// Collected inside the HGTX and API families' own scans (timeline.cc), so
// no table is read again for them.
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/report/report.h"
#include "core/timeline/pending.h"

namespace asys::timeline_detail {

// The library a push/pop range's text names: "ACBLAS", "DeepGemm", "MoE",
// "PCCL", or "" (none). By the operator recognisers' formats
// (core/operators/): an ACBLAS or DeepGemm GEMM annotation, a MoE library
// annotation (`MoE:...`; the framework's `D_MoE,...` is not a library's), a
// PCCL operator annotation (`AllReduce, p:0, c:..., ...`).
std::string_view libraryOf(std::string_view text);

// libraryOf by name id, each id classified once (a report's ranges repeat
// a few thousand names).
class LibraryNames {
 public:
  explicit LibraryNames(StringPool& strings) : strings_(strings) {}
  // 0: none, else 1 + the library's index (libraryLabel).
  int of(uint32_t nameId);
  static std::string_view label(int library);

 private:
  StringPool& strings_;
  std::vector<int8_t> known_;  // per name id: -1 unknown, else of()'s answer
};

// The track a thread's push/pop range goes on: its HGTX row, or (library
// > 0) its row of that library, right after the HGTX row, labelled
// "Thread 25738 (python3) ACBLAS" (timeline.cc).
Pending& pushPopTrack(Report& report, PendingTracks& out, int64_t globalTid, int library);

// A process's own rows come before its threads: keyed by its thread ids'
// process part with thread id 0 (tid bits cleared), these sections.
enum ProcessSection : int { kStartEndRow = 100, kAllocationFailuresRow = 101 };
// A row of the process of `globalTid`, in its group, its label set on first
// use (timeline.cc).
Pending& processTrack(Report& report, PendingTracks& out, int64_t globalTid, ProcessSection section,
                      const char* label);

// Library rows' lanes count from their outermost range (the stack levels
// they were given less the smallest): a library's ranges are the innermost
// of a thread's stack, and would otherwise sit under empty lanes.
void compactLibraryLanes(PendingTracks& out);

// HGTX start/end ranges, per process, as the HGTX scan meets them (any
// order); addTo() puts each process's in start order on its row.
class StartEndRanges {
 public:
  void see(const HgtxEvents& h, size_t i, uint32_t row);
  void addTo(Report& report, PendingTracks& out);

 private:
  struct Range {
    int64_t start, end, thread, endThread;
    uint32_t name, row;
    bool unended;
  };
  std::vector<Range> ranges_;
};

// Whether an HGGC API name is a memory allocation call (hgMalloc,
// hgMallocManaged, hgMallocHost, hgMallocAsync, hgMemAlloc,
// cudaMalloc_v3020, cuMemCreate, ...: "malloc", "memalloc", "memcreate" or
// "hostalloc" in it, any case).
bool isAllocationCall(std::string_view name);

// Failed allocation calls per process, as the API scan meets them (threads
// in batches: any order); addTo() puts each process's on its row.
class AllocationFailures {
 public:
  explicit AllocationFailures(StringPool& strings) : strings_(strings) {}
  // Row `row` of HGGC_API, at index i of its chunk (start, end, globalTid,
  // nameId and returnValue loaded).
  void see(const ApiCalls& a, size_t i, uint32_t row);
  void addTo(Report& report, PendingTracks& out);

 private:
  struct Failure {
    int64_t start, end, thread, value;
    uint32_t name, row;
  };
  StringPool& strings_;
  std::vector<int8_t> alloc_;  // per name id: -1 unknown, 0 no, 1 an allocation call
  std::vector<Failure> failures_;
};

}  // namespace asys::timeline_detail
