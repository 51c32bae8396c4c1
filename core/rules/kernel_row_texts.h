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
#include "core/table/table.h"

namespace asys {

// Dense ids of distinct (x, y, z) triples; grids and blocks share one id space.
class KernelDimTexts {
 public:
  KernelDimTexts() = default;
  explicit KernelDimTexts(const Kernels& k) : k_(&k) {}
  uint32_t gridId(size_t kernel) { return gridId(*k_, kernel); }
  uint32_t blockId(size_t kernel) { return blockId(*k_, kernel); }
  // Of row `row` of other kernel rows (a page: KernelPages).
  uint32_t gridId(const Kernels& k, size_t row) { return idOf(k.gridX[row], k.gridY[row], k.gridZ[row]); }
  uint32_t blockId(const Kernels& k, size_t row) { return idOf(k.blockX[row], k.blockY[row], k.blockZ[row]); }
  // "X Y Z"
  std::string_view text(uint32_t id) const { return texts_[id]; }
  // Cell `col` of the row `t` is making: the text of `id`.
  void set(Table& t, size_t col, uint32_t id) const {
    t.setTextOf(col, this, id, [this](uint32_t i) { return text(i); });
  }

 private:
  uint32_t idOf(int32_t x, int32_t y, int32_t z);
  const Kernels* k_ = nullptr;
  KeyGroups xy_, xyz_;
  std::vector<std::string> texts_;
};

// Dense ids of distinct kernel labels, each label built once.
class KernelLabelTexts {
 public:
  KernelLabelTexts(Report& report, const RuleOptions& options,
                   KernelLabels::Names names = KernelLabels::Names::Loaded)
      : labels_(report, options, names) {}
  uint32_t id(size_t kernel) { return idOfKey(labels_.key(kernel)); }
  // Kernel `kernel` whose names are row `row` of `rows` (a page).
  uint32_t id(const Kernels& rows, size_t row, size_t kernel) { return idOfKey(labels_.key(rows, row, kernel)); }
  std::string_view text(uint32_t id) const { return texts_[id]; }
  // Cell `col` of the row `t` is making: the text of `id`.
  void set(Table& t, size_t col, uint32_t id) const {
    t.setTextOf(col, this, id, [this](uint32_t i) { return text(i); });
  }

 private:
  uint32_t idOfKey(uint64_t key);
  KernelLabels labels_;
  KeyGroups groups_;
  std::vector<std::string> texts_;
};

// An event cut off by the end of the capture (NULL end) still runs at the
// window's end: for window tests only.
inline int64_t openEnd(int64_t end) { return end == kNoValue ? INT64_MAX : end; }

}  // namespace asys
