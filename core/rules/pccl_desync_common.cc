#include "core/rules/pccl_desync_common.h"

#include <algorithm>
#include <type_traits>

#include "core/analysis/pccl_kernels.h"
#include "core/rules/common.h"

namespace asys {

std::vector<OptionSpec> pcclDesyncOptions() { return {hgtxNameOption(), kernelNameModeOption(), deviceOption()}; }

std::vector<DataNeed> pcclDesyncNeeds() { return {{"HGGC_KERNEL", "HGGC kernel data", "--trace hggc"}}; }

GroupedDurations pcclKernelGroups(RuleContext& ctx) {
  // HGGC_KERNEL read a chunk at a time with the names the classifier and the
  // labels read (one scan), and only the PCCL kernels kept: its columns held
  // whole were 40 bytes a kernel (0.23x the scale-2500 report).
  KernelLabelTexts names(ctx.report, ctx.options, KernelLabels::Names::Paged);
  PcclKernelClassifier classifier(ctx.report.strings());
  ActivitySelection sel;
  sel.memory = false;
  sel.devices = ctx.options.idList("device");
  sel.window = ctx.window;
  GroupedDurations g;
  g.ids = {{IdKind::kKernelRow, {}}, {IdKind::kThread, {}}, {IdKind::kDevice, {}}, {IdKind::kTime, {}},
           {IdKind::kTime, {}}};
  g.texts.resize(1);
  forEachPpuActivity(
      ctx.report, sel,
      [&](ActivityKind, uint32_t row, const auto& k, size_t i) {
        // The classifier asked last, after the device and time tests, so
        // that it counts only the kernels the rule would otherwise take.
        if constexpr (std::is_same_v<std::decay_t<decltype(k)>, Kernels>) {
          if (!classifier.isPccl(k.shortName[i], k.demangledName[i])) return;
          g.ids[0].values.push_back(row);
          g.ids[1].values.push_back(k.globalPid[i]);
          g.ids[2].values.push_back(k.deviceId[i]);
          g.ids[3].values.push_back(k.start[i]);
          g.ids[4].values.push_back(k.end[i]);
          g.texts[0].emplace_back(names.text(names.id(k, i, row)));
        }
      },
      kcol::names);
  g.groupCount = g.ids[0].values.size();
  if (classifier.unclassified() > 0) g.warnings.push_back(unclassifiedPcclWarning(classifier.unclassified()));
  return g;
}

PcclKernelList pcclKernelList(const MergedGroups& g) {
  const std::vector<int64_t>&row = g.ids[0].values, &pid = g.ids[1].values, &device = g.ids[2].values,
                         &start = g.ids[3].values, &end = g.ids[4].values;
  std::vector<uint32_t> order(g.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](uint32_t a, uint32_t b) { return start[a] != start[b] ? start[a] < start[b] : row[a] < row[b]; });
  PcclKernelList k;
  for (uint32_t i : order) {
    k.start.push_back(start[i]);
    k.end.push_back(end[i]);
    k.globalPid.push_back(pid[i]);
    k.row.push_back(row[i]);
    k.device.push_back(device[i]);
    k.name.push_back(g.texts[0][i]);
  }
  k.groups = desyncGroups(k.start, k.end);
  return k;
}

}  // namespace asys
