#pragma once
// Text cells of kernel rows, made once per distinct value rather than once
// per kernel: grid/block triples ("128 1 1") and kernel display names
// (KernelLabels: base / mangled / hgtx-name). Shared by the kernel trace and
// grid/block rules.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/analysis/key_groups.h"
#include "core/report/report.h"
#include "core/rules/kernel_labels.h"

namespace asys {

// Dense ids of distinct (x, y, z) triples; grids and blocks share one id space.
class KernelDimTexts {
 public:
  explicit KernelDimTexts(const Kernels& k) : k_(k) {}
  uint32_t gridId(size_t kernel) { return idOf(k_.gridX[kernel], k_.gridY[kernel], k_.gridZ[kernel]); }
  uint32_t blockId(size_t kernel) { return idOf(k_.blockX[kernel], k_.blockY[kernel], k_.blockZ[kernel]); }
  // "X Y Z"
  std::string_view text(uint32_t id) const { return texts_[id]; }

 private:
  uint32_t idOf(int32_t x, int32_t y, int32_t z);
  const Kernels& k_;
  KeyGroups xy_, xyz_;
  std::vector<std::string> texts_;
};

// Dense ids of distinct kernel labels, each label built once.
class KernelLabelTexts {
 public:
  KernelLabelTexts(Report& report, const RuleOptions& options) : labels_(report, options) {}
  uint32_t id(size_t kernel);
  std::string_view text(uint32_t id) const { return texts_[id]; }

 private:
  KernelLabels labels_;
  KeyGroups groups_;
  std::vector<std::string> texts_;
};

// An event cut off by the end of the capture (NULL end) still runs at the
// window's end: for window tests only.
inline int64_t openEnd(int64_t end) { return end == kNoValue ? INT64_MAX : end; }

}  // namespace asys
