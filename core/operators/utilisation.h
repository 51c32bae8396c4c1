#pragma once
// The utilisation estimates of an operator row (ppu_op_sum, the breakdown's
// library level, moe_op_sum's GEMMs): the work its executions did over what
// the hardware could have done in their time,
//   Compute Util   = sum FLOPs         / sum(peak FLOP/s of the data type x time)
//   HBM Load Util  = sum bytes read    / sum(HBM bytes/s x time)
//   HBM Store Util = sum bytes written / sum(HBM bytes/s x time)
// (the documentation's "work / (peak x average time)" for rows whose
// executions differ: the time-weighted mean). Values above 100 % are
// printed as computed (caches, or an estimate that reads every expert's
// weights); unknown ("-") when any execution's work, data type or peak is.
#include <cstdint>
#include <optional>

#include "core/operators/device_peaks.h"
#include "core/operators/op_types.h"

namespace asys {

class UtilisationSum {
 public:
  void add(const OpWork& work, int32_t device, int64_t durationNs, const DevicePeaks& peaks);
  // Percent with one decimal (half away from zero), or nullopt.
  std::optional<double> compute() const { return percent(flops_, flopCapacity_, flopsKnown_); }
  std::optional<double> load() const { return percent(read_, byteCapacity_, readKnown_); }
  std::optional<double> store() const { return percent(written_, byteCapacity_, writtenKnown_); }

 private:
  std::optional<double> percent(double work, double capacity, bool known) const;
  double flops_ = 0, flopCapacity_ = 0, read_ = 0, written_ = 0, byteCapacity_ = 0;  // capacity: rate x ns
  bool flopsKnown_ = true, readKnown_ = true, writtenKnown_ = true, any_ = false;
};

}  // namespace asys
