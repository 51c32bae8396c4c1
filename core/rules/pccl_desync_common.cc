#include "core/rules/pccl_desync_common.h"

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

PcclCommunications::PcclCommunications(RuleContext& ctx) : names_(withKernelColumns(ctx.report), ctx.options) {
  PcclKernelClassifier classifier(ctx.report);
  ActivitySelection sel;
  sel.memory = false;
  sel.devices = ctx.options.idList("device");
  sel.window = ctx.window;
  sel.keepKernel = [&](uint32_t row) { return classifier.isPccl(row); };
  kernels_ = loadPpuActivities(ctx.report, sel);
  unclassified_ = classifier.unclassified();
  groups_ = desyncGroups(kernels_.start, kernels_.end);
  groupName_.resize(groups_.size());
  for (size_t g = 0; g < groups_.size(); ++g) {
    groupName_[g] = names_.id(kernels_.row[groups_[g].first]);
    nameCount_ = std::max<size_t>(nameCount_, groupName_[g] + 1);
  }
}

void PcclCommunications::addWarnings(Table& t) const {
  if (unclassified_ > 0) t.addWarning(unclassifiedPcclWarning(unclassified_));
}

}  // namespace asys
