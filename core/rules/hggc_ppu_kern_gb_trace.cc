// hggc_ppu_kern_gb_trace (2.3.6): one row per kernel with its grid and block,
// by start time.
#include <algorithm>

#include "core/report/report.h"
#include "core/rules/common.h"
#include "core/rules/kernel_row_texts.h"
#include "core/rules/registry.h"

namespace asys {

namespace {

std::vector<ColumnSpec> columns() {
  return {
      {"Start", "ns", CellKind::Int, "Timestamp of start time"},
      {"Duration", "ns", CellKind::Int, "Length of event"},
      {"PID", "", CellKind::Int, "Process identifier"},
      {"Device ID", "", CellKind::Int, "PPU device identifier"},
      {"Context ID", "", CellKind::Int, "Context identifier"},
      {"Stream ID", "", CellKind::Int, "Stream identifier"},
      {"GridXYZ", "", CellKind::Text, "Grid dimensions for kernel launch call"},
      {"BlockXYZ", "", CellKind::Text, "Block dimensions for kernel launch call"},
      {"Name", "", CellKind::Text, "Name of the kernel"},
  };
}

Table compute(RuleContext& ctx) {
  const Kernels& k = ctx.report.kernels();
  std::vector<uint32_t> rows;
  rows.reserve(k.size());
  for (size_t i = 0; i < k.size(); ++i)
    if (ctx.window.overlaps(k.start[i], openEnd(k.end[i]))) rows.push_back(static_cast<uint32_t>(i));
  // Start ascending; ties by PID, device, context, stream (the columns'
  // order), then the kernel's order in HGGC_KERNEL.
  std::sort(rows.begin(), rows.end(), [&](uint32_t a, uint32_t b) {
    if (k.start[a] != k.start[b]) return k.start[a] < k.start[b];
    if (k.globalPid[a] != k.globalPid[b]) return k.globalPid[a] < k.globalPid[b];
    if (k.deviceId[a] != k.deviceId[b]) return k.deviceId[a] < k.deviceId[b];
    if (k.contextId[a] != k.contextId[b]) return k.contextId[a] < k.contextId[b];
    if (k.streamId[a] != k.streamId[b]) return k.streamId[a] < k.streamId[b];
    return a < b;
  });

  KernelDimTexts dims(k);
  KernelLabelTexts names(ctx.report, ctx.options);
  Table t(columns());
  for (uint32_t i : rows) {
    t.setInt(0, k.start[i]);
    if (k.end[i] != kNoValue) t.setInt(1, k.end[i] - k.start[i]);
    if (k.globalPid[i] != kNoValue) t.setInt(2, pidOf(k.globalPid[i]));
    t.setInt(3, k.deviceId[i]);
    t.setInt(4, k.contextId[i]);
    t.setInt(5, k.streamId[i]);
    t.setText(6, dims.text(dims.gridId(i)));
    t.setText(7, dims.text(dims.blockId(i)));
    t.setText(8, names.text(names.id(i)));
    t.endRow();
  }
  return t;
}

}  // namespace

const RuleSpec& hggcPpuKernGbTraceRule() {
  static const RuleSpec rule{
      .name = "hggc_ppu_kern_gb_trace",
      .title = "HGGC Kernel Grid Block Trace",
      .titleZh = "HGGC Kernel Grid Block跟踪",
      .rowHelp = "Row number of the kernel trace",
      .topic = "HGGC",
      .description =
          "One row per HGGC kernel execution with its process, device, context, stream,\n"
          "grid size and block size, sorted by the kernel's start time ascending. With\n"
          "hgtx-name the name carries the HGTX range around the launch.",
      .descriptionZh =
          "导出结果组织如下：每Kernel执行信息导出一行数据，根据本kernel的执行起始时间升序输出。",
      .options = {hgtxNameOption(), kernelNameModeOption()},
      .columns = columns(),
      .needs = {{"HGGC_KERNEL", "HGGC kernel data", "--trace hgtx,hggc"}},
      .pie = {"Duration", {"Name", "PID", "Device ID"}},
      .compute = compute,
  };
  return rule;
}

}  // namespace asys
