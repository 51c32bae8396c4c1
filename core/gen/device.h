#pragma once
// One simulated PPU: its streams (each a FIFO whose tail time is `freeAt`),
// its memory addresses, the optimizer graph it runs, and the busy intervals
// from which PPU_METRICS samples (about one per millisecond) are derived.
#include <cstdint>
#include <vector>

#include "core/gen/model.h"
#include "core/writer/report_writer.h"
#include "core/gen/rng.h"

namespace asys::gen {

struct Stream {
  int32_t id = 0;
  int64_t freeAt = 0;  // the last queued operation ends here
};

class Device {
 public:
  Device(int32_t id, int32_t local, uint64_t seed);

  int32_t id, local, contextId;
  const char* busLocation = "";  // its PCI slot (kBusLocations), named by pcclCommInitRank
  Stream compute, comm, copy;

  // Bump allocator over this device's virtual address range (2 MiB aligned).
  int64_t reserve(int64_t bytes);

  int64_t workspaceAddr = 0;
  int64_t bucketAddr[kBuckets] = {};
  int64_t gradNormAddr = 0;
  uint32_t allReduceText[kBuckets + 1] = {};  // the PCCL operator record per bucket

  bool graphReady = false;
  int64_t execGraphId = 0;
  int64_t execNodeIds[kGraphNodes] = {};

  double moeLoad = 1.0;      // this iteration's expert load factor
  uint64_t loadedKinds = 0;  // kernels whose module is loaded (first launch is slow)

  // Records PPU activity for the metrics: kernels (tensor-pipe ones
  // flagged) or memory operations (copies and memsets).
  void busy(int64_t start, int64_t end, bool tensor, bool kernel) {
    busy_.push_back({start, end, tensor, kernel});
  }
  void startMetrics(int64_t t) { cursor_ = t; }
  // Writes every complete sample that ends by `upTo` (all work queued so far
  // must end by then).
  void flushMetrics(ReportWriter& w, int64_t upTo);

 private:
  struct Busy {
    int64_t start, end;
    bool tensor, kernel;
  };
  int64_t nextAddr_;
  std::vector<Busy> busy_;
  int64_t cursor_ = 0;
  int64_t period_ = 0;  // drawn once per sample, kept until the sample is written
  Rng rng_;
  std::vector<int64_t> bounds_;
  std::vector<double> busyNs_, tensorNs_, copyNs_;
  std::vector<int32_t> starts_;
};

}  // namespace asys::gen
