// hggc_kern_exec_trace (2.3.4): each kernel with the API call that launched
// it, by the call's start time.
#include <algorithm>

#include "core/analysis/hgtx_ranges.h"
#include "core/report/report.h"
#include "core/report/row_pages.h"
#include "core/rules/common.h"
#include "core/rules/kernel_row_texts.h"
#include "core/rules/registry.h"

namespace asys {

namespace {

std::vector<ColumnSpec> columns() {
  return {
      {"API Start", "ns", CellKind::Int, "Start timestamp of HGGC API launch call"},
      {"API Dur", "ns", CellKind::Int, "Duration of HGGC API launch call"},
      {"Queue Start", "ns", CellKind::Int, "Start timestamp of queue wait time, if it exists"},
      {"Queue Dur", "ns", CellKind::Int, "Duration of queue wait time, if it exists"},
      {"Kernel Start", "ns", CellKind::Int, "Start timestamp of HGGC kernel"},
      {"Kernel Dur", "ns", CellKind::Int, "Duration of HGGC kernel"},
      {"Total Dur", "ns", CellKind::Int, "Duration from API start to kernel end"},
      {"PID", "", CellKind::Int, "Process ID that made kernel launch call"},
      {"TID", "", CellKind::Int, "Thread ID that made kernel launch call"},
      {"DevId", "", CellKind::Int, "HGGC Device ID that executed kernel (which PPU)"},
      {"API Function", "", CellKind::Text, "Name of HGGC API call used to launch kernel"},
      {"GridXYZ", "", CellKind::Text, "Grid dimensions for kernel launch call"},
      {"BlockXYZ", "", CellKind::Text, "Block dimensions for kernel launch call"},
      {"Kernel Name", "", CellKind::Text, "Name of HGGC Kernel"},
  };
}

// The trace as a view: the kernels in order and each one's launching call
// (4 bytes each a kernel); each page's kernel and call cells read from the
// file when it is written (RowPages).
class KernExecRows : public RowSource {
 public:
  static constexpr uint32_t kKernelColumns = kcol::time | kcol::deviceId | kcol::grid | kcol::names;
  static constexpr uint32_t kCallColumns = acol::start | acol::end | acol::globalTid | acol::nameId;

  KernExecRows(RuleContext& ctx, std::vector<uint32_t> rows, std::vector<uint32_t> callOf, PagingMode kernelMode,
               PagingMode callMode)
      : rows_(std::move(rows)),
        callOf_(std::move(callOf)),
        kernels_(kernelPages(ctx.report, kKernelColumns, kernelMode)),
        calls_(hggcApiPages(ctx.report, kCallColumns, callMode)),
        names_(ctx.report, ctx.options, KernelLabels::Names::Paged),
        strings_(ctx.report.strings()) {}

  size_t rowCount() const override { return rows_.size(); }

  // A page reads the rows of two tables: its kernels and their calls.
  void appendRows(size_t first, size_t count, Table& t) override {
    forEachPage(first, count, kChunkRows, [&](size_t begin, size_t end) {
      pageKernels_.assign(rows_.begin() + static_cast<ptrdiff_t>(begin), rows_.begin() + static_cast<ptrdiff_t>(end));
      pageCalls_.clear();
      for (uint32_t i : pageKernels_) pageCalls_.push_back(callOf_[i]);
      kernels_.read(pageKernels_);
      calls_.read(pageCalls_);
      for (uint32_t i : pageKernels_) appendRow(i, t);
    });
  }

 private:
  void appendRow(uint32_t i, Table& t) {
    const auto [k, kr] = kernels_.at(i);
    const auto [api, c] = calls_.at(callOf_[i]);
    const int64_t apiStart = api->start[c], apiEnd = api->end[c], kStart = k->start[kr], kEnd = k->end[kr];
    t.setEvent(0, EventTable::Api, callOf_[i]);
    t.setEvent(1, EventTable::Kernel, i);
    t.setInt(0, apiStart);
    if (apiEnd != kNoValue) t.setInt(1, apiEnd - apiStart);
    // A queue wait exists only when the kernel starts after the call ended.
    if (apiEnd != kNoValue && kStart > apiEnd) {
      t.setInt(2, apiEnd);
      t.setInt(3, kStart - apiEnd);
    }
    t.setInt(4, kStart);
    if (kEnd != kNoValue) {
      t.setInt(5, kEnd - kStart);
      t.setInt(6, kEnd - apiStart);
    }
    t.setInt(7, pidOf(api->globalTid[c]));
    t.setInt(8, tidOf(api->globalTid[c]));
    t.setInt(9, k->deviceId[kr]);
    if (api->nameId[c] != kNoString) t.setText(10, strings_.get(api->nameId[c]));
    t.setText(11, dims_.text(dims_.gridId(*k, kr)));
    t.setText(12, dims_.text(dims_.blockId(*k, kr)));
    t.setText(13, names_.text(names_.id(*k, kr, i)));
    t.endRow();
  }

  std::vector<uint32_t> rows_, callOf_;
  KernelPages kernels_;
  ApiPages calls_;
  KernelDimTexts dims_;
  KernelLabelTexts names_;
  const StringPool& strings_;
  std::vector<uint32_t> pageKernels_, pageCalls_;
};

Table compute(RuleContext& ctx) {
  // The join's, the window's and the order's columns; the rest is read a
  // page at a time.
  const Kernels& k = ctx.report.kernels(kcol::launcher | kcol::time | kcol::deviceId);
  const ApiCalls& api = ctx.report.hggcApi(acol::links);
  // One row per kernel, also when one call (a graph launch) started several.
  // Kernels without a launching call have no API side and are left out, as
  // Nsight's cuda_kern_exec_trace does.
  std::vector<uint32_t> callOf = launchingCalls(k.globalPid, k.correlationId, api);
  std::vector<uint32_t> rows;
  rows.reserve(k.size());
  for (size_t i = 0; i < k.size(); ++i) {
    const uint32_t c = callOf[i];
    if (c == kNoRange) continue;
    // The row spans the launch call and the kernel.
    const int64_t start = std::min(api.start[c], k.start[i]);
    const int64_t end = std::max(openEnd(api.end[c]), openEnd(k.end[i]));
    if (ctx.window.overlaps(start, end)) rows.push_back(static_cast<uint32_t>(i));
  }
  // API start ascending; ties by kernel start, PID, TID, device, then the
  // kernel's order in HGGC_KERNEL.
  std::sort(rows.begin(), rows.end(), [&](uint32_t a, uint32_t b) {
    const uint32_t ca = callOf[a], cb = callOf[b];
    if (api.start[ca] != api.start[cb]) return api.start[ca] < api.start[cb];
    if (k.start[a] != k.start[b]) return k.start[a] < k.start[b];
    if (api.globalTid[ca] != api.globalTid[cb]) return api.globalTid[ca] < api.globalTid[cb];
    if (k.deviceId[a] != k.deviceId[b]) return k.deviceId[a] < k.deviceId[b];
    return a < b;
  });
  const PagingMode kernelMode = pagingMode(k.size(), rows.size(), kChunkRows, [&](size_t r) { return rows[r]; });
  const PagingMode callMode =
      pagingMode(api.size(), rows.size(), kChunkRows, [&](size_t r) { return callOf[rows[r]]; });
  Table t(columns(), std::make_shared<KernExecRows>(ctx, std::move(rows), std::move(callOf), kernelMode, callMode));
  t.declareEvents({"API Call", "Kernel"});
  return t;
}

}  // namespace

const RuleSpec& hggcKernExecTraceRule() {
  static const RuleSpec rule{
      .name = "hggc_kern_exec_trace",
      .title = "HGGC Kernel Execution Trace",
      .titleZh = "HGGC Kernel执行跟踪",
      .rowHelp = "Row number of the kernel trace",
      .topic = "HGGC",
      .description =
          "One row per HGGC kernel with the API call that launched it (same correlation\n"
          "ID in the same process; a graph launch gives one row per kernel), sorted by\n"
          "the call's start time ascending. Queue Start / Queue Dur exist only when the\n"
          "kernel starts after the call ended: Queue Start = call end, Queue Dur =\n"
          "kernel start - call end; otherwise '-'. Total Dur = kernel end - call start.\n"
          "Kernels without a launching call are not listed.",
      .descriptionZh =
          "导出结果组织如下：每Kernel执行信息导出一行数据，根据本kernel的launch API的起始时间升序输出。\n"
          "对于HGGC Graph等单个HGGC API关联多个Kernel的场景，每个Kernel导出一行数据。\n"
          "Kernel Launch后的等待时间相关列（Queue Start / Queue Dur）的计算方式如下：\n"
          "认为Kernel存在等待时间：Kernel实际执行开始时间 > 执行HGGC API结束时间。\n"
          "等待时间计算：Kernel实际执行开始时间 - 执行HGGC API结束时间。\n"
          "若Kernel在HGGC API执行结束前即开始执行，则Queue Start / Queue Dur列标记为无效值-。",
      .options = {kernelNameModeOption()},
      .columns = columns(),
      .needs = {{"HGGC_KERNEL", "HGGC kernel data", "--trace hggc"},
                {"HGGC_API", "HGGC API data", "--trace hggc"}},
      .pie = {"Kernel Dur", {"Kernel Name", "PID", "DevId"}},
      .compute = compute,
      .memoryPerRow = 56,  // bench/rule-peaks.sh 250: 101 MiB
  };
  return rule;
}

}  // namespace asys
