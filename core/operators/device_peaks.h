#pragma once
// The peak rates the utilisation estimates divide by: per device, FLOP/s per
// data type and HBM bytes/s. A PPU report gives them in TARGET_INFO_PPU
// (peakFlopsFp32 ... hbmBandwidth); a device whose row has none of them (an
// imported NVIDIA or AMD trace) takes the vendor's figures for its name from
// the table below (docs/operators.md lists it with the source of each
// figure). Tensor-core figures are the dense ones (without 2:4 sparsity).
#include <array>
#include <cstdint>
#include <string_view>
#include <unordered_map>

#include "core/operators/op_types.h"

namespace asys {

class Report;

struct KnownGpu {
  std::string_view model;  // "H100 SXM5"
  double fp32, fp16, bf16, fp8, int8;  // FLOP/s (int8: OP/s); 0 = not supported / not published
  double hbm;                          // bytes/s
  std::string_view source;
};

// The table's entry for a device name (case-insensitive: "NVIDIA H100 80GB
// HBM3", "Tesla V100-SXM2-32GB", "AMD Instinct MI300X"), or nullptr.
const KnownGpu* findKnownGpu(std::string_view deviceName);

struct DevicePeak {
  std::array<double, kDataTypeCount> flops{};  // by DataType; 0 unknown
  double hbm = 0;
};

class DevicePeaks {
 public:
  explicit DevicePeaks(Report& report);
  // 0 when unknown (no such device, no rate for that data type).
  double flops(int32_t device, DataType type) const;
  double hbm(int32_t device) const;

 private:
  std::unordered_map<int64_t, DevicePeak> peaks_;
};

}  // namespace asys
