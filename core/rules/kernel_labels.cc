#include "core/rules/kernel_labels.h"

#include "core/rules/common.h"

namespace asys {

namespace {
constexpr uint64_t kHasRange = 1ull << 63;
const Kernels kNoKernels;
}  // namespace

KernelLabels::KernelLabels(Report& report, const RuleOptions& options, Names names)
    : strings_(report.strings()),
      namer_(names == Names::Loaded ? report.kernels(kcol::names) : kNoKernels, report.strings(),
             kernelNameMode(options)) {
  if (!options.flag("hgtx-name")) return;
  const Kernels& k = report.kernels(kcol::launcher);
  const ApiCalls& api = report.hggcApi(acol::links);
  // Two sweeps: calls -> innermost range, kernels -> launching call.
  std::vector<uint32_t> rangeOfCall = innermostRanges(report.hgtx(), api.start, api.globalTid);
  std::vector<uint32_t> call = launchingCalls(k.globalPid, k.correlationId, api);
  rangeOfKernel_.assign(k.size(), kNoRange);
  for (size_t i = 0; i < k.size(); ++i)
    if (call[i] != kNoRange) rangeOfKernel_[i] = rangeOfCall[call[i]];
  rangeNamer_.emplace(report);
}

uint64_t KernelLabels::key(size_t i) { return withRange(namer_.nameId(i), i); }

uint64_t KernelLabels::key(const Kernels& rows, size_t row, size_t i) { return withRange(namer_.nameId(rows, row), i); }

uint64_t KernelLabels::withRange(uint64_t key, size_t i) {
  if (!rangeOfKernel_.empty() && rangeOfKernel_[i] != kNoRange) {
    key |= kHasRange | (static_cast<uint64_t>(rangeNamer_->nameId(rangeOfKernel_[i])) << 32);
  }
  return key;
}

std::string KernelLabels::label(uint64_t key) const {
  std::string kernel(strings_.get(static_cast<uint32_t>(key)));
  if (!(key & kHasRange)) return kernel;
  return std::string(strings_.get(static_cast<uint32_t>((key >> 32) & 0x7FFFFFFF))) + "/" + kernel;
}

}  // namespace asys
