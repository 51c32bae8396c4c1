// hggc_ppu_kern_gb_sum (2.3.5): kernel time per kernel name, grid and block.
#include "core/analysis/chunk_duration.h"
#include "core/analysis/key_groups.h"
#include "core/report/report.h"
#include "core/rules/common.h"
#include "core/rules/kernel_row_texts.h"
#include "core/rules/registry.h"

namespace asys {

namespace {

std::vector<ColumnSpec> columns() {
  auto cols = durationSummaryColumns("Instances", "Number of calls to this kernel", "kernel",
                                     "Total time used by all executions of this kernel");
  cols.push_back({"GridXYZ", "", CellKind::Text, "Grid dimensions for kernel launch call"});
  cols.push_back({"BlockXYZ", "", CellKind::Text, "Block dimensions for kernel launch call"});
  cols.push_back({"Name", "", CellKind::Text, "Name of the kernel"});
  return cols;
}

GroupedDurations groupedDurations(RuleContext& ctx) {
  // Folded as HGGC_KERNEL is scanned, a chunk of rows at a time: a kernel
  // costs its group and its duration (12 bytes), where its 12 columns held
  // whole were 96 (1.1 GB at 9.84 M kernels, 0.6x the report).
  KernelLabelTexts names(ctx.report, ctx.options, KernelLabels::Names::Paged);
  KernelDimTexts dims;
  const auto devices = ctx.options.idList("device");
  // Group = (label, grid, block), in two steps of dense ids.
  KeyGroups nameGrid, groups;
  GroupedDurations out;
  std::vector<uint32_t>& groupOf = out.groupOf;
  std::vector<int64_t>& duration = out.values;
  const uint64_t expected = ctx.report.rowEstimate("HGGC_KERNEL");
  groupOf.reserve(expected);
  duration.reserve(expected);
  ctx.report.forEachKernelChunk(kcol::time | kcol::deviceId | kcol::names | kcol::grid,
                                [&](const Kernels& k, size_t first) {
    for (size_t j = 0; j < k.size(); ++j) {
      if (k.end[j] == kNoValue || !inList(devices, k.deviceId[j]) || !ctx.window.overlaps(k.start[j], k.end[j]))
        continue;
      const uint64_t ng = nameGrid.indexOf((static_cast<uint64_t>(names.id(k, j, first + j)) << 32) | dims.gridId(k, j));
      groupOf.push_back(groups.indexOf((ng << 32) | dims.blockId(k, j)));
      duration.push_back(chunkDuration(k.start[j], k.end[j]));
    }
  });
  out.groupCount = groups.size();
  // Ties on Total Time: Name, then BlockXYZ, then GridXYZ (byte order).
  out.texts.assign(3, std::vector<std::string>(groups.size()));
  auto &grid = out.texts[0], &block = out.texts[1], &name = out.texts[2];
  for (uint32_t g = 0; g < groups.size(); ++g) {
    const uint64_t ngKey = nameGrid.key(static_cast<uint32_t>(groups.key(g) >> 32));
    name[g] = names.text(static_cast<uint32_t>(ngKey >> 32));
    grid[g] = dims.text(static_cast<uint32_t>(ngKey));
    block[g] = dims.text(static_cast<uint32_t>(groups.key(g)));
  }
  return out;
}

}  // namespace

const RuleSpec& hggcPpuKernGbSumRule() {
  static const RuleSpec rule{
      .name = "hggc_ppu_kern_gb_sum",
      .title = "HGGC Kernel Grid Block Summary",
      .titleZh = "HGGC Kernel Grid Block汇总",
      .rowHelp = "Row number of the kernel summary",
      .topic = "HGGC",
      .description =
          "Time spent in each HGGC kernel, summed over all executions with the same name,\n"
          "grid size and block size, sorted by total time descending. With hgtx-name the\n"
          "name carries the HGTX range around the launch. Time (%) is the share of the\n"
          "listed kernels' total time, not of the application's run time.",
      .descriptionZh =
          "将相同kernel名称且相同grid size且相同block size的Kernel执行信息进行汇总：Kernel执行时间，出现次数等。\n"
          "若使能hgtx-name选项，kernel名称包含拼接的HGTX range名称。\n"
          "统计结果组织如下：每kernel名称，每grid size，每block size导出一行数据，结果按照Total Time列降序输出。\n"
          "注意“Time”列是根据“Total Time”列的总和计算得出的，表示该kernel占所有列出kernels执行时间的百分比，而不是根据应用执行时间得到的百分比。",
      .options = {hgtxNameOption(), kernelNameModeOption(), deviceOption()},
      .columns = columns(),
      .needs = {{"HGGC_KERNEL", "HGGC kernel data", "--trace hgtx,hggc"}},
      .pie = {"Total Time", {"Name"}},
      .compute = [](RuleContext& ctx) { return durationSummaryTable(columns(), groupedDurations(ctx)); },
      .groupedDurations = groupedDurations,
      .memoryPerRow = 16,  // a group and a duration a kernel (12 bytes): 128 MiB at scale 2500
  };
  return rule;
}

}  // namespace asys
