// hggc_ppu_kern_sum (2.3.7): time per kernel name on the PPUs.
#include "core/analysis/chunk_duration.h"
#include "core/analysis/key_groups.h"
#include "core/report/report.h"
#include "core/rules/common.h"
#include "core/rules/kernel_labels.h"
#include "core/rules/registry.h"

namespace asys {

namespace {

std::vector<ColumnSpec> columns() {
  auto cols = durationSummaryColumns("Instances", "Number of calls to this kernel", "kernel",
                                     "Total time used by all executions of this kernel");
  cols.push_back({"Name", "", CellKind::Text, "Name of the kernel", ColumnRole::Key});
  return cols;
}

GroupedDurations groupedDurations(RuleContext& ctx) {
  // Folded as HGGC_KERNEL is scanned, a chunk of rows at a time (its time,
  // device and names: one scan): a kernel costs its group and its duration
  // (12 bytes), where its 6 columns held whole were 48.
  KernelLabels labels(ctx.report, ctx.options, KernelLabels::Names::Paged);
  const auto devices = ctx.options.idList("device");
  KeyGroups groups;
  GroupedDurations out;
  std::vector<uint32_t>& groupOf = out.groupOf;
  std::vector<int64_t>& duration = out.values;
  const uint64_t expected = ctx.report.rowEstimate("HGGC_KERNEL");
  groupOf.reserve(expected);
  duration.reserve(expected);
  ctx.report.forEachKernelChunk(kcol::time | kcol::deviceId | kcol::names, [&](const Kernels& k, size_t first) {
    for (size_t j = 0; j < k.size(); ++j) {
      if (k.end[j] == kNoValue || !inList(devices, k.deviceId[j]) || !ctx.window.overlaps(k.start[j], k.end[j]))
        continue;
      groupOf.push_back(groups.indexOf(labels.key(k, j, first + j)));
      duration.push_back(chunkDuration(k.start[j], k.end[j]));
    }
  });
  out.groupCount = groups.size();
  auto& names = out.texts.emplace_back(groups.size());
  for (uint32_t g = 0; g < groups.size(); ++g) names[g] = labels.label(groups.key(g));
  return out;
}

}  // namespace

const RuleSpec& hggcPpuKernSumRule() {
  static const RuleSpec rule{
      .name = "hggc_ppu_kern_sum",
      .title = "HGGC PPU Kernel Summary",
      .titleZh = "HGGC PPU kernel汇总",
      .rowHelp = "Row number of the kernel summary",
      .topic = "HGGC",
      .description =
          "Time spent in each HGGC kernel, summed over all executions of the same name,\n"
          "sorted by total time descending. The name is the demangled name (with its\n"
          "parameter list) unless base or mangled is given. Time (%) is the share of the\n"
          "listed kernels' total time, not of the application's run time.",
      .descriptionZh =
          "按照每HGGC kernel名称进行统计，HGGC kernel名称取决于base / mangled选项是否设置，默认为demangle后kernel名称（包含函数参数列表），按照HGGC kernel总耗时降序输出。\n"
          "注意“Time”列是根据“Total Time”列的总和计算得出的，表示该kernel占所有列出kernels执行时间的百分比，而不是根据应用执行时间得到的百分比。",
      .options = {rowsOption("kernels"), hgtxNameOption(), kernelNameModeOption(), deviceOption()},
      .columns = columns(),
      .needs = {{"HGGC_KERNEL", "HGGC kernel data", "--trace hggc"}},
      .pie = {"Total Time", {"Name"}},
      .sumColumns = {"Time", "Total Time"},  // 2.3.7 通过选中行来统计求列和
      .compute = [](RuleContext& ctx) { return durationSummaryTable(columns(), groupedDurations(ctx)); },
      .groupedDurations = groupedDurations,
      .memoryPerRow = 16,  // a group and a duration a kernel (12 bytes): 130 MiB at scale 2500
  };
  return rule;
}

}  // namespace asys
