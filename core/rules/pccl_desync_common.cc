#include "core/rules/pccl_desync_common.h"

#include <algorithm>

#include "core/analysis/pccl_kernels.h"
#include "core/rules/common.h"

namespace asys {

std::vector<OptionSpec> pcclDesyncOptions() { return {hgtxNameOption(), kernelNameModeOption(), deviceOption()}; }

std::vector<DataNeed> pcclDesyncNeeds() { return {{"HGGC_KERNEL", "HGGC kernel data", "--trace hggc"}}; }

namespace {
// Every HGGC_KERNEL column the two rules read, in one scan (a second scan of
// 6 million kernels costs a second): times, places and the three names the
// classifier and the labels read.
Report& withKernelColumns(Report& report) {
  report.kernels(kcol::time | kcol::deviceId | kcol::globalPid | kcol::names);
  return report;
}
}  // namespace

GroupedDurations pcclKernelGroups(RuleContext& ctx) {
  KernelLabelTexts names(withKernelColumns(ctx.report), ctx.options);
  PcclKernelClassifier classifier(ctx.report);
  ActivitySelection sel;
  sel.memory = false;
  sel.devices = ctx.options.idList("device");
  sel.window = ctx.window;
  sel.keepKernel = [&](uint32_t row) { return classifier.isPccl(row); };
  const PpuActivities k = loadPpuActivities(ctx.report, sel);
  GroupedDurations g;
  g.groupCount = k.size();
  g.ids = {{IdKind::kKernelRow, {}}, {IdKind::kThread, {}}, {IdKind::kDevice, {}}, {IdKind::kTime, {}},
           {IdKind::kTime, {}}};
  g.texts.resize(1);
  for (size_t i = 0; i < k.size(); ++i) {
    g.ids[0].values.push_back(k.row[i]);
    g.ids[1].values.push_back(k.globalPid[i]);
    g.ids[2].values.push_back(k.deviceId[i]);
    g.ids[3].values.push_back(k.start[i]);
    g.ids[4].values.push_back(k.end[i]);
    g.texts[0].emplace_back(names.text(names.id(k.row[i])));
  }
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
