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
#include "core/rules/common.h"
#include "core/rules/rule.h"

namespace asys {

std::vector<OptionSpec> pcclDesyncOptions();
std::vector<DataNeed> pcclDesyncNeeds();

// Both rules' state, which merges across reports (asys fleet): one group
// a PCCL kernel (pccl_kernels.h) on the `device=` devices that overlaps the
// statistics time range, with no values; its keys are its position in
// HGGC_KERNEL, process, device, start and end, its texts its label (the
// kernel rules' name, or its HGTX range with hgtx-name). The warnings: the
// unclassified kernels.
GroupedDurations pcclKernelGroups(RuleContext& ctx);

// The kernels of such groups (one report's, or many merged) in activity
// order (start, then position: loadPpuActivities's), and their
// communications (core/analysis/pccl_desync.h).
struct PcclKernelList {
  std::vector<int64_t> start, end, globalPid, row;  // row: the position in HGGC_KERNEL
  std::vector<int64_t> device;
  std::vector<std::string_view> name;  // the kernel's label
  std::vector<DesyncGroup> groups;
  // A group's Kernel Name: its first kernel's (the earliest start).
  std::string_view nameOf(size_t group) const { return name[groups[group].first]; }
  // The Kernel ID the trace rules show: the row, 1-based.
  int64_t kernelId(uint32_t member) const { return row[member] + 1; }
};
PcclKernelList pcclKernelList(const MergedGroups& g);

}  // namespace asys
