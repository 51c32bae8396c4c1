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
#include <vector>

#include "core/base/exact_sum.h"

#include "core/operators/device_peaks.h"
#include "core/operators/op_types.h"

namespace asys {

//
// The five sums are exact (ExactSum): the same whatever the order of the
// executions, so that the sums of many reports' parts (asys fleet) equal
// the merged report's.
class UtilisationSum {
 public:
  void add(const OpWork& work, int32_t device, int64_t durationNs, const DevicePeaks& peaks);
  // Percent with one decimal (half away from zero), or nullopt.
  std::optional<double> compute() const { return percent(flops_, flopCapacity_, flopsKnown_); }
  std::optional<double> load() const { return percent(read_, byteCapacity_, readKnown_); }
  std::optional<double> store() const { return percent(written_, byteCapacity_, writtenKnown_); }

  // As integer columns that add up across reports (a rule's state, common.h):
  // kParts values, the five sums' limbs, their inexact addends, the
  // executions added and those whose FLOPs, reads, writes were unknown.
  static constexpr size_t kParts = 5 * ExactSum::kLimbs + 5;
  void appendParts(std::vector<std::vector<int64_t>>& columns, size_t first) const;
  static UtilisationSum ofParts(const std::vector<std::vector<int64_t>>& columns, size_t first, size_t group);
  bool exact() const;

 private:
  std::optional<double> percent(const ExactSum& work, const ExactSum& capacity, bool known) const;
  ExactSum flops_, flopCapacity_, read_, written_, byteCapacity_;  // capacity: rate x ns
  int64_t added_ = 0, flopsUnknown_ = 0, readUnknown_ = 0, writtenUnknown_ = 0;
  bool flopsKnown_ = true, readKnown_ = true, writtenKnown_ = true, any_ = false;
};

}  // namespace asys
