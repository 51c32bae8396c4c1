// hggc_ppu_kern_sum (2.3.7): time per kernel name on the PPUs.
#include "core/analysis/hgtx_ranges.h"
#include "core/analysis/key_groups.h"
#include "core/report/report.h"
#include "core/rules/common.h"
#include "core/rules/registry.h"

namespace asys {

namespace {

std::vector<ColumnSpec> columns() {
  auto cols = durationSummaryColumns("Instances", "Number of calls to this kernel", "kernel",
                                     "Total time used by all executions of this kernel");
  cols.push_back({"Name", "", CellKind::Text, "Name of the kernel"});
  return cols;
}

Table compute(RuleContext& ctx) {
  Report& report = ctx.report;
  const Kernels& k = report.kernels();
  StringPool& strings = report.strings();
  KernelNamer namer(k, strings, kernelNameMode(ctx.options));
  const auto devices = ctx.options.idList("device");

  // hgtx-name: the range around each kernel's launch call, by two sweeps.
  std::vector<uint32_t> rangeOfKernel;
  std::optional<RangeNamer> rangeNamer;
  if (ctx.options.flag("hgtx-name")) {
    const ApiCalls& api = report.hggcApi();
    std::vector<uint32_t> rangeOfCall = innermostRanges(report.hgtx(), api.start, api.globalTid);
    std::vector<uint32_t> call = launchingCalls(k, api);
    rangeOfKernel.resize(k.size(), kNoRange);
    for (size_t i = 0; i < k.size(); ++i)
      if (call[i] != kNoRange) rangeOfKernel[i] = rangeOfCall[call[i]];
    rangeNamer.emplace(report);
  }

  KeyGroups groups;
  std::vector<uint32_t> groupOf;
  std::vector<int64_t> duration;
  groupOf.reserve(k.size());
  duration.reserve(k.size());
  for (size_t i = 0; i < k.size(); ++i) {
    if (k.end[i] == kNoValue || !inList(devices, k.deviceId[i])) continue;
    uint64_t key = namer.nameId(i);
    if (!rangeOfKernel.empty() && rangeOfKernel[i] != kNoRange) {
      key |= static_cast<uint64_t>(rangeNamer->nameId(rangeOfKernel[i])) << 32;
      key += 1ull << 63;  // keeps range id 0 distinct from "no range"
    }
    groupOf.push_back(groups.indexOf(key));
    duration.push_back(k.end[i] - k.start[i]);
  }
  auto stats = summarizeGroups(groupOf, duration, groups.size());
  std::vector<std::string> owned(groups.size());
  std::vector<std::string_view> names(groups.size());
  for (uint32_t g = 0; g < groups.size(); ++g) {
    uint64_t key = groups.key(g);
    std::string_view kernel = strings.get(static_cast<uint32_t>(key));
    if (key >> 63) {
      owned[g] = std::string(strings.get(static_cast<uint32_t>((key >> 32) & 0x7FFFFFFF))) + "/" +
                 std::string(kernel);
      names[g] = owned[g];
    } else {
      names[g] = kernel;
    }
  }
  return durationSummaryTable(columns(), stats, {names});
}

}  // namespace

const RuleSpec& hggcPpuKernSumRule() {
  static const RuleSpec rule{
      .name = "hggc_ppu_kern_sum",
      .title = "HGGC PPU Kernel Summary",
      .topic = "HGGC",
      .description =
          "Time spent in each HGGC kernel, summed over all executions of the same name,\n"
          "sorted by total time descending. The name is the demangled name (with its\n"
          "parameter list) unless base or mangled is given. Time (%) is the share of the\n"
          "listed kernels' total time, not of the application's run time.",
      .options = {rowsOption("kernels"), hgtxNameOption(), kernelNameModeOption(), deviceOption()},
      .columns = columns(),
      .needs = {{"HGGC_KERNEL", "HGGC kernel data", "--trace hggc"}},
      .pie = {"Total Time", {"Name"}},
      .compute = compute,
  };
  return rule;
}

}  // namespace asys
