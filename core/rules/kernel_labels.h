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
  // `names`: load the kernels' name columns whole (key(kernel)); without,
  // the caller reads names a page at a time (key(rows, row, kernel)).
  enum class Names : uint8_t { Loaded, Paged };
  KernelLabels(Report& report, const RuleOptions& options, Names names = Names::Loaded);

  // A key that is equal exactly when two kernels' labels are equal.
  uint64_t key(size_t kernel);
  // The same for kernel `kernel` whose names are row `row` of `rows`.
  uint64_t key(const Kernels& rows, size_t row, size_t kernel);
  // The label of a key.
  std::string label(uint64_t key) const;

 private:
  // `key` (a name id) with kernel i's innermost range under hgtx-name.
  uint64_t withRange(uint64_t key, size_t kernel);
  StringPool& strings_;
  KernelNamer namer_;
  std::vector<uint32_t> rangeOfKernel_;  // empty unless hgtx-name
  std::optional<RangeNamer> rangeNamer_;
};

}  // namespace asys
