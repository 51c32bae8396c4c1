#pragma once
// Which kernels are PCCL kernels: the one classifier the PCCL rules
// (pccl_desync_trace, pccl_desync_summary, pccl_op_sum) share.
//
// A kernel is a PCCL kernel when its short name -- else its demangled name,
// without a leading "void " return type -- starts with `pcclKernel`,
// `ncclKernel` or `ncclDevKernel` (PCCL, NCCL and RCCL device kernels:
// `pcclKernel_AllReduce_RING_LL_Sum_float`, `ncclDevKernel_Generic`). A name
// that merely contains "pccl" or "nccl" (any case) is not one; such kernels
// are counted so a rule can say how many it left out.
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/report/report.h"

namespace asys {

bool isPcclKernelName(std::string_view name);
// The name the classifier reads: the short name, else the demangled one
// without a leading "void ".
std::string_view pcclClassifiedName(std::string_view shortName, std::string_view demangledName);

class PcclKernelClassifier {
 public:
  // Loads HGGC_KERNEL's shortName and demangledName, for isPccl(row).
  explicit PcclKernelClassifier(Report& report);
  // Loads nothing: for a caller that reads the names itself (a chunk of
  // kernels at a time) and asks isPccl(shortId, demangledId).
  explicit PcclKernelClassifier(StringPool& strings);
  // Classifies kernel `row` of HGGC_KERNEL (once per distinct name pair);
  // counts a non-PCCL kernel whose name contains pccl/nccl.
  bool isPccl(uint32_t row);
  // The same for a kernel of these names.
  bool isPccl(uint32_t shortId, uint32_t demangledId);
  // Kernels asked about whose names contain "pccl" or "nccl" but that are
  // not PCCL kernels by the rule above.
  size_t unclassified() const { return unclassified_; }

 private:
  enum : uint8_t { kUnknown = 0, kPccl = 1, kOther = 2, kNamedLikePccl = 3 };
  uint8_t classOf(uint32_t shortId, uint32_t demangledId);
  const Kernels* k_ = nullptr;
  StringPool& strings_;
  std::vector<uint8_t> byShort_;      // by short name id (kernels with one)
  std::vector<uint8_t> byDemangled_;  // by demangled name id (kernels without)
  size_t unclassified_ = 0;
};

// The warning a PCCL rule adds when kernels named like PCCL kernels were
// left out ("" when none were).
std::string unclassifiedPcclWarning(size_t count);

}  // namespace asys
