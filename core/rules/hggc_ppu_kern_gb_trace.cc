// hggc_ppu_kern_gb_trace (2.3.6): one row per kernel with its grid and block,
// by start time.
#include <algorithm>

#include "core/report/row_pages.h"
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

// The columns a row shows.
constexpr uint32_t kShown = kcol::time | kcol::globalPid | kcol::place | kcol::grid | kcol::names;

// The trace as a view: the kernels in order (4 bytes a row); each page's
// cells read from the file when it is written (KernelPages).
class GbTraceRows : public RowSource {
 public:
  GbTraceRows(RuleContext& ctx, std::vector<uint32_t> rows, PagingMode mode)
      : rows_(std::move(rows)),
        pages_(kernelPages(ctx.report, kShown, mode)),
        names_(ctx.report, ctx.options, KernelLabels::Names::Paged) {}

  size_t rowCount() const override { return rows_.size(); }

  void appendRows(size_t first, size_t count, Table& t) override {
    pages_.forEachRow(first, count, kChunkRows, [&](size_t r) { return rows_[r]; },
                      [&](size_t r) {
                        const uint32_t i = rows_[r];
                        const auto [k, row] = pages_.at(i);
                        t.setEvent(0, EventTable::Kernel, i);
                        t.setInt(0, k->start[row]);
                        if (k->end[row] != kNoValue) t.setInt(1, k->end[row] - k->start[row]);
                        if (k->globalPid[row] != kNoValue) t.setInt(2, pidOf(k->globalPid[row]));
                        t.setInt(3, k->deviceId[row]);
                        t.setInt(4, k->contextId[row]);
                        t.setInt(5, k->streamId[row]);
                        dims_.set(t, 6, dims_.gridId(*k, row));
                        dims_.set(t, 7, dims_.blockId(*k, row));
                        names_.set(t, 8, names_.id(*k, row, i));
                        t.endRow();
                      });
  }

 private:
  std::vector<uint32_t> rows_;
  KernelPages pages_;
  KernelDimTexts dims_;
  KernelLabelTexts names_;
};

Table compute(RuleContext& ctx) {
  // The order's and the window's columns; the rest is read a page at a time.
  const Kernels& k = ctx.report.kernels(kcol::time | kcol::globalPid | kcol::place);
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
  const PagingMode mode = pagingMode(k.size(), rows.size(), kChunkRows, [&](size_t r) { return rows[r]; });
  Table t(columns(), std::make_shared<GbTraceRows>(ctx, std::move(rows), mode));
  t.declareEvents({"Kernel"});
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
      .memoryPerRow = 64,  // bench/rule-peaks.sh 250: 59 MiB
  };
  return rule;
}

}  // namespace asys
