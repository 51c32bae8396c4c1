// hgtx_kern_trace (2.3.10): every associated (HGTX range, kernel) pair.
#include "core/analysis/hgtx_stacks.h"
#include "core/report/report.h"
#include "core/rules/common.h"
#include "core/rules/hgtx_association_options.h"
#include "core/rules/kernel_row_texts.h"
#include "core/rules/registry.h"

namespace asys {

namespace {

enum Col : size_t {
  kRange, kStyle, kPid, kTid, kDevice, kContext, kStream, kRangeId, kKernelId, kKernelStart, kKernelDur,
  kApiStart, kApiDur, kGrid, kBlock, kCorrId, kGraphId, kGraphNodeId, kName, kMangled,
};

std::vector<ColumnSpec> columns() {
  return {
      {"Range Name", "", CellKind::Text, "Name of the HGTX range"},
      {"Style", "", CellKind::Text, "Range style; Start/End or Push/Pop"},
      {"PID", "", CellKind::Int, "Process identifier"},
      {"TID", "", CellKind::Int, "Thread identifier"},
      {"Device ID", "", CellKind::Int, "PPU device identifier"},
      {"Context ID", "", CellKind::Int, "Context identifier"},
      {"Stream ID", "", CellKind::Int, "Stream identifier"},
      {"HGTX Range ID", "", CellKind::Int, "HGTX range identifier"},
      {"Kernel Exec ID", "", CellKind::Int, "Kernel execution identifier"},
      {"Kernel Start", "ns", CellKind::Int, "Start timestamp of HGGC kernel"},
      {"Kernel Duration", "ns", CellKind::Int, "Duration of HGGC kernel"},
      {"API Start", "ns", CellKind::Int, "Start timestamp of API call"},
      {"API Duration", "ns", CellKind::Int, "Duration of API call"},
      {"GridXYZ", "", CellKind::Text, "Grid dimensions for kernel launch call"},
      {"BlockXYZ", "", CellKind::Text, "Block dimensions for kernel launch call"},
      {"Correlation ID", "", CellKind::Int, "Correlation identifier"},
      {"Graph ID", "", CellKind::Int, "HGGC graph identifier"},
      {"Graph Node ID", "", CellKind::Int, "HGGC graph node identifier"},
      {"Kernel Name", "", CellKind::Text, "Name of the kernel"},
      {"Mangled Name", "", CellKind::Text, "Mangled name of the kernel"},
  };
}

Table compute(RuleContext& ctx) {
  Report& report = ctx.report;
  AssociatedActivities in = associateForRule(ctx, /*memoryToo=*/false, kcol::all);
  const PpuActivities& act = in.activities;
  const HgtxAssociation& as = in.association;
  const AssociationRanges& R = as.ranges;
  const HgtxEvents& h = report.hgtx();
  const ApiCalls& api = report.hggcApi();
  const Kernels& k = report.kernels(kcol::all);
  StringPool& strings = report.strings();
  const bool standalone = ctx.options.flag("standalone");
  KernelDimTexts dims(k);
  KernelLabelTexts names(report, ctx.options);

  Table t(columns());
  t.declareSpans({"HGTX Range", "Device Activity"});
  auto optInt = [&](size_t col, int64_t v) {
    if (v != kNoValue) t.setInt(col, v);
  };
  auto optId = [&](size_t col, int32_t v) {  // NULL reads as -1
    if (v >= 0) t.setInt(col, v);
  };
  // The kernel's own cells, the same on each of its rows.
  auto kernelCells = [&](size_t a) {
    const uint32_t i = act.row[a];
    optId(kDevice, k.deviceId[i]);
    optId(kContext, k.contextId[i]);
    optId(kStream, k.streamId[i]);
    t.setInt(kKernelId, static_cast<int64_t>(i) + 1);  // the kernel's row in HGGC_KERNEL
    t.setInt(kKernelStart, k.start[i]);
    t.setInt(kKernelDur, k.end[i] - k.start[i]);
    t.setText(kGrid, dims.text(dims.gridId(i)));
    t.setText(kBlock, dims.text(dims.blockId(i)));
    optInt(kCorrId, k.correlationId[i]);
    optInt(kGraphId, k.graphId[i]);
    optInt(kGraphNodeId, k.graphNodeId[i]);
    t.setText(kName, names.text(names.id(i)));
    if (k.mangledName[i] != kNoString) t.setText(kMangled, strings.get(k.mangledName[i]));
    t.setSpan(1, k.start[i], k.end[i]);
  };
  auto apiCells = [&](uint32_t call) {
    if (call == kNoMatch) return;
    t.setInt(kApiStart, api.start[call]);
    optInt(kApiDur, api.end[call] == kNoValue ? kNoValue : api.end[call] - api.start[call]);
  };

  // Kernels in start order; a kernel's ranges in start order.
  for (size_t a = 0; a < act.size(); ++a) {
    const auto ranges = as.rangesOf(a);
    for (size_t j = 0; j < ranges.size(); ++j) {
      const uint32_t r = ranges[j];
      const uint32_t e = R.event[r];
      t.setText(kRange, strings.get(R.name[r]));
      t.setText(kStyle, styleName(R.startEnd[r] != 0));
      t.setInt(kPid, pidOf(h.globalTid[e]));
      t.setInt(kTid, tidOf(h.globalTid[e]));
      t.setInt(kRangeId, hgtxRangeId(h, e));
      kernelCells(a);
      // Through a graph node, the launch call is not the range's.
      if (!as.pairViaGraph[as.activityOffset[a] + j]) apiCells(as.launchCall[a]);
      t.setSpan(0, R.start[r], R.end[r]);
      t.endRow();
    }
    if (ranges.empty() && standalone) {
      const uint32_t call = as.launchCall[a];
      if (call != kNoMatch) {
        t.setInt(kPid, pidOf(api.globalTid[call]));
        t.setInt(kTid, tidOf(api.globalTid[call]));
      } else {
        t.setInt(kPid, pidOf(act.globalPid[a]));
      }
      kernelCells(a);
      apiCells(call);
      t.endRow();
    }
  }
  addAssociationWarnings(t, in);
  return t;
}

}  // namespace

const RuleSpec& hgtxKernTraceRule() {
  static const RuleSpec rule{
      .name = "hgtx_kern_trace",
      .title = "HGTX Range Kernel Trace",
      .titleZh = "HGTX关联kernel跟踪",
      .rowHelp = "Row number of the HGTX range kernel trace",
      .topic = "HGTX",
      .description =
          "One row per associated (HGTX range, HGGC kernel) pair, associated as in\n"
          "hgtx_kern_sum. Sorted by kernel start ascending, a kernel's ranges by range\n"
          "start ascending (outer first). API Start / API Duration are '-' where the\n"
          "range is associated through an HGGC graph node created inside it; Graph ID /\n"
          "Graph Node ID are '-' for kernels not launched from a graph. Kernel Exec ID is\n"
          "the kernel's row number in HGGC_KERNEL; Mangled Name is always the mangled name.",
      .descriptionZh =
          "判断HGTX range和HGGC kernel的原则为：HGTX range持续时间范围内，相同线程的HGGC API触发的HGGC kernel，认为和此HGTX range关联。\n"
          "导出结果组织如下：每HGTX range，每HGGC kernel导出一行数据，若选项standalone使能，未关联HGTX range的HGGC kernel行中的HGTX range信息将标记为无效符号-。\n"
          "导出顺序：\n"
          "HGGC kernel按照PPU开始执行时间升序排序。\n"
          "相同HGGC kernel关联的各个HGTX range行按照HGTX range的开始时间升序排序。\n"
          "API Start和API duration列对于HGTX通过HGGC graph node关联kernel的场景输出为无效值。",
      .options = {kernelNameModeOption(), standaloneOption(), graphMappingOption(), rangeIncludeOption(),
                  rangeExcludeOption()},
      .columns = columns(),
      .needs = associationNeeds(false),
      .pie = {"Kernel Duration", {"Range Name", "Kernel Name", "PID", "Device ID"}},
      .compute = compute,
  };
  return rule;
}

}  // namespace asys
