#pragma once
// A kernel's display name as the kernel rules print it: the name in the mode
// of `base` / `mangled`, prefixed with `RANGE/` under `hgtx-name` (the
// innermost HGTX range around the launching API call on its thread).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/analysis/hgtx_ranges.h"
#include "core/analysis/kernel_names.h"
#include "core/rules/rule.h"

namespace asys {

class KernelLabels {
 public:
  KernelLabels(Report& report, const RuleOptions& options);

  // A key that is equal exactly when two kernels' labels are equal.
  uint64_t key(size_t kernel);
  // The label of a key.
  std::string label(uint64_t key) const;

 private:
  StringPool& strings_;
  KernelNamer namer_;
  std::vector<uint32_t> rangeOfKernel_;  // empty unless hgtx-name
  std::optional<RangeNamer> rangeNamer_;
};

}  // namespace asys
