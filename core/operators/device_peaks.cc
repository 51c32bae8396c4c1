#include "core/operators/device_peaks.h"

#include <string>

#include "core/report/report.h"

namespace asys {

namespace {

constexpr double T = 1e12;  // tera
constexpr double G = 1e9;

// Dense peak rates per device as PyTorch sees devices (an MI250 / MI250X
// package is two devices, one per GCD: half the package's figures). FP32 is
// the highest dense FP32 rate (NVIDIA: CUDA cores; AMD: matrix cores).
// Tensor figures published "with sparsity" are halved.
constexpr KnownGpu kV100Sxm2{"V100 SXM2", 15.7 * T, 125 * T, 0, 0, 0, 900 * G,
                             "NVIDIA Tesla V100 datasheet: SXM2 single precision 15.7 TF, tensor 125 TF, 900 GB/s"};
constexpr KnownGpu kV100Pcie{"V100 PCIe", 14 * T, 112 * T, 0, 0, 0, 900 * G,
                             "NVIDIA Tesla V100 datasheet: PCIe single precision 14 TF, tensor 112 TF, 900 GB/s"};
constexpr KnownGpu kV100s{"V100S PCIe", 16.4 * T, 130 * T, 0, 0, 0, 1134 * G,
                          "NVIDIA Tesla V100S datasheet: single precision 16.4 TF, tensor 130 TF, 1134 GB/s"};
constexpr KnownGpu kA100Sxm40{"A100 40GB SXM4", 19.5 * T, 312 * T, 312 * T, 0, 624 * T, 1555 * G,
                              "NVIDIA A100 Tensor Core GPU datasheet: FP32 19.5 TF, BF16/FP16 312 TF, INT8 624 TOPS, "
                              "40GB SXM 1,555 GB/s"};
constexpr KnownGpu kA100Sxm80{"A100 80GB SXM4", 19.5 * T, 312 * T, 312 * T, 0, 624 * T, 2039 * G,
                              "NVIDIA A100 Tensor Core GPU datasheet: FP32 19.5 TF, BF16/FP16 312 TF, INT8 624 TOPS, "
                              "80GB SXM 2,039 GB/s"};
constexpr KnownGpu kA100Pcie40{"A100 40GB PCIe", 19.5 * T, 312 * T, 312 * T, 0, 624 * T, 1555 * G,
                               "NVIDIA A100 Tensor Core GPU datasheet: FP32 19.5 TF, BF16/FP16 312 TF, INT8 624 TOPS, "
                               "40GB PCIe 1,555 GB/s"};
constexpr KnownGpu kA100Pcie80{"A100 80GB PCIe", 19.5 * T, 312 * T, 312 * T, 0, 624 * T, 1935 * G,
                               "NVIDIA A100 Tensor Core GPU datasheet: FP32 19.5 TF, BF16/FP16 312 TF, INT8 624 TOPS, "
                               "80GB PCIe 1,935 GB/s"};
constexpr KnownGpu kH100Sxm{"H100 SXM5", 67 * T, 989.5 * T, 989.5 * T, 1979 * T, 1979 * T, 3350 * G,
                            "NVIDIA H100 Tensor Core GPU datasheet: SXM FP32 67 TF, BF16/FP16 1,979 TF, FP8 3,958 TF, "
                            "INT8 3,958 TOPS (with sparsity), 3.35 TB/s"};
constexpr KnownGpu kH100Pcie{"H100 PCIe", 51 * T, 756.5 * T, 756.5 * T, 1513 * T, 1513 * T, 2000 * G,
                             "NVIDIA H100 Tensor Core GPU datasheet: PCIe FP32 51 TF, BF16/FP16 1,513 TF, FP8 3,026 "
                             "TF, INT8 3,026 TOPS (with sparsity), 2 TB/s"};
constexpr KnownGpu kH100Nvl{"H100 NVL", 60 * T, 835.5 * T, 835.5 * T, 1670.5 * T, 1670.5 * T, 3900 * G,
                            "NVIDIA H100 Tensor Core GPU datasheet: NVL FP32 60 TF, BF16/FP16 1,671 TF, FP8 3,341 TF, "
                            "INT8 3,341 TOPS (with sparsity), 3.9 TB/s"};
constexpr KnownGpu kH200Sxm{"H200 SXM", 67 * T, 989.5 * T, 989.5 * T, 1979 * T, 1979 * T, 4800 * G,
                            "NVIDIA H200 Tensor Core GPU datasheet: SXM FP32 67 TF, BF16/FP16 1,979 TF, FP8 3,958 TF, "
                            "INT8 3,958 TOPS (with sparsity), 4.8 TB/s"};
constexpr KnownGpu kH200Nvl{"H200 NVL", 60 * T, 835.5 * T, 835.5 * T, 1670.5 * T, 1670.5 * T, 4800 * G,
                            "NVIDIA H200 Tensor Core GPU datasheet: NVL FP32 60 TF, BF16/FP16 1,671 TF, FP8 3,341 TF, "
                            "INT8 3,341 TOPS (with sparsity), 4.8 TB/s"};
constexpr KnownGpu kB200{"B200", 75 * T, 2250 * T, 2250 * T, 4500 * T, 4500 * T, 8000 * G,
                         "NVIDIA HGX B200 datasheet, 8 GPUs: FP32 600 TF, FP16/BF16 36 PF, FP8 72 PF, INT8 72 POPS "
                         "(with sparsity), 64 TB/s; per GPU"};
constexpr KnownGpu kMi250x{"MI250X (one GCD)", 47.85 * T, 191.5 * T, 191.5 * T, 0, 191.5 * T, 1638.4 * G,
                           "AMD Instinct MI250X datasheet: FP32 matrix 95.7 TF, FP16/BF16 383 TF, INT8 383 TOPS, "
                           "3.2768 TB/s per package of two GCDs; per GCD"};
constexpr KnownGpu kMi250{"MI250 (one GCD)", 45.25 * T, 181.05 * T, 181.05 * T, 0, 181.05 * T, 1638.4 * G,
                          "AMD Instinct MI250 datasheet: FP32 matrix 90.5 TF, FP16/BF16 362.1 TF, INT8 362.1 TOPS, "
                          "3.2768 TB/s per package of two GCDs; per GCD"};
constexpr KnownGpu kMi300x{"MI300X", 163.4 * T, 1307.4 * T, 1307.4 * T, 2614.9 * T, 2614.9 * T, 5300 * G,
                           "AMD Instinct MI300X datasheet: FP32 163.4 TF, FP16/BF16 1,307.4 TF, FP8 2,614.9 TF, INT8 "
                           "2,614.9 TOPS (dense), 5.3 TB/s"};

bool has(const std::string& s, std::string_view t) { return s.find(t) != std::string::npos; }

}  // namespace

const KnownGpu* findKnownGpu(std::string_view deviceName) {
  const std::string n = opparse::lower(deviceName);
  if (has(n, "mi300x")) return &kMi300x;
  if (has(n, "mi250x")) return &kMi250x;
  if (has(n, "mi250")) return &kMi250;
  if (has(n, "b200")) return &kB200;
  if (has(n, "h200")) return has(n, "nvl") ? &kH200Nvl : &kH200Sxm;
  if (has(n, "h100")) return has(n, "pcie") ? &kH100Pcie : has(n, "nvl") ? &kH100Nvl : &kH100Sxm;
  if (has(n, "a100")) {
    const bool big = has(n, "80gb") || has(n, "pg509-210");
    if (has(n, "pcie")) return big ? &kA100Pcie80 : &kA100Pcie40;
    return big ? &kA100Sxm80 : &kA100Sxm40;
  }
  if (has(n, "v100s")) return &kV100s;
  if (has(n, "v100")) return has(n, "pcie") ? &kV100Pcie : &kV100Sxm2;
  return nullptr;
}

DevicePeaks::DevicePeaks(Report& report) {
  for (const Device& d : report.devices()) {
    DevicePeak p;
    auto& f = p.flops;
    if (d.peakFlopsFp32 > 0 || d.peakFlopsFp16 > 0 || d.peakFlopsBf16 > 0 || d.peakFlopsFp8 > 0 ||
        d.peakFlopsInt8 > 0 || d.hbmBandwidth > 0) {
      f[static_cast<size_t>(DataType::Fp32)] = d.peakFlopsFp32;
      f[static_cast<size_t>(DataType::Fp16)] = d.peakFlopsFp16;
      f[static_cast<size_t>(DataType::Bf16)] = d.peakFlopsBf16;
      f[static_cast<size_t>(DataType::Fp8)] = d.peakFlopsFp8;
      f[static_cast<size_t>(DataType::Int8)] = d.peakFlopsInt8;
      p.hbm = d.hbmBandwidth;
    } else if (const KnownGpu* g = findKnownGpu(d.name)) {
      f[static_cast<size_t>(DataType::Fp32)] = g->fp32;
      f[static_cast<size_t>(DataType::Fp16)] = g->fp16;
      f[static_cast<size_t>(DataType::Bf16)] = g->bf16;
      f[static_cast<size_t>(DataType::Fp8)] = g->fp8;
      f[static_cast<size_t>(DataType::Int8)] = g->int8;
      p.hbm = g->hbm;
    }
    peaks_[d.id] = p;
  }
}

double DevicePeaks::flops(int32_t device, DataType type) const {
  auto it = peaks_.find(device);
  return it == peaks_.end() ? 0 : it->second.flops[static_cast<size_t>(type)];
}

double DevicePeaks::hbm(int32_t device) const {
  auto it = peaks_.find(device);
  return it == peaks_.end() ? 0 : it->second.hbm;
}

}  // namespace asys
