#pragma once
// What pccl_desync_trace and pccl_desync_summary share: their options
// (hgtx-name, base / mangled, device, as both sections list them), their
// data, and the communications of the report's PCCL kernels
// (core/analysis/pccl_desync.h) named as the kernel rules name kernels.
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/analysis/pccl_desync.h"
#include "core/analysis/ppu_activities.h"
#include "core/rules/kernel_row_texts.h"
#include "core/rules/rule.h"

namespace asys {

std::vector<OptionSpec> pcclDesyncOptions();
std::vector<DataNeed> pcclDesyncNeeds();

class PcclCommunications {
 public:
  // The PCCL kernels (pccl_kernels.h) on the `device=` devices that overlap
  // the statistics time range, grouped; a device filter drops the other
  // devices' kernels before grouping.
  explicit PcclCommunications(RuleContext& ctx);

  const PpuActivities& kernels() const { return kernels_; }
  const std::vector<DesyncGroup>& groups() const { return groups_; }
  // A group's Kernel Name: the name of its first kernel (the earliest
  // start), as a dense id.
  uint32_t nameOf(size_t group) const { return groupName_[group]; }
  std::string_view nameText(uint32_t id) const { return names_.text(id); }
  size_t nameCount() const { return nameCount_; }
  // The kernel's row in HGGC_KERNEL, 1-based: the Kernel ID trace rules show.
  int64_t kernelId(uint32_t member) const { return static_cast<int64_t>(kernels_.row[member]) + 1; }
  // The unclassified-kernel warning, when there is one.
  void addWarnings(Table& t) const;

 private:
  PpuActivities kernels_;
  std::vector<DesyncGroup> groups_;
  KernelLabelTexts names_;
  std::vector<uint32_t> groupName_;
  size_t nameCount_ = 0;
  size_t unclassified_ = 0;
};

}  // namespace asys
