// hggc_kern_exec_trace (2.3.4): each kernel with the API call that launched
// it, by the call's start time.
#include <algorithm>
#include <numeric>

#include "core/analysis/key_groups.h"
#include "core/analysis/key_join.h"
#include "core/analysis/launch_index.h"
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
    if (api->nameId[c] != kNoString) t.setTextOf(10, strings_, api->nameId[c]);
    dims_.set(t, 11, dims_.gridId(*k, kr));
    dims_.set(t, 12, dims_.blockId(*k, kr));
    names_.set(t, 13, names_.id(*k, kr, i));
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

// What the order and the window read of the calls, folded from HGGC_API as
// it is scanned (ColumnLoad::runInChunks), with the join's index: 12 bytes a
// call (20 with a window), not the table's four columns (32).
struct LaunchingCalls {
  explicit LaunchingCalls(Report& report, bool windowed) : index(report.rowEstimate("HGGC_API")) {
    const size_t expected = report.rowEstimate("HGGC_API");
    start.reserve(expected);
    thread.reserve(expected);
    if (windowed) end.reserve(expected);
    KeyGroups threads;  // globalTid -> index in first-seen order
    rows = report.forEachHggcApiChunk(acol::links, [&](const ApiCalls& a, size_t first) {
      for (size_t i = 0; i < a.size(); ++i) {
        index.add(static_cast<uint32_t>(first + i), a.globalTid[i], a.correlationId[i]);
        start.push_back(a.start[i]);
        if (windowed) end.push_back(openEnd(a.end[i]));
        thread.push_back(threads.indexOf(static_cast<uint64_t>(a.globalTid[i])));
      }
    });
    index.finish();
    // The threads ranked by globalTid, so that ranks compare as the ids do.
    std::vector<uint32_t> byId(threads.size());
    std::iota(byId.begin(), byId.end(), 0u);
    auto id = [&](uint32_t g) { return static_cast<int64_t>(threads.key(g)); };
    std::sort(byId.begin(), byId.end(), [&](uint32_t a, uint32_t b) { return id(a) < id(b); });
    std::vector<uint32_t> rank(threads.size());
    for (uint32_t r = 0; r < byId.size(); ++r) rank[byId[r]] = r;
    for (uint32_t& t : thread) t = rank[t];
  }

  LaunchIndex index;
  std::vector<int64_t> start, end;  // end: open ends at INT64_MAX, with a window only
  std::vector<uint32_t> thread;     // the globalTid's rank among the calls' threads
  size_t rows = 0;                  // HGGC_API's
};

Table compute(RuleContext& ctx) {
  Report& report = ctx.report;
  // The calls first, then the kernels, each table scanned once and folded
  // into what the order needs: never either table's columns whole.
  const bool windowed = !ctx.window.isAll();
  LaunchingCalls calls(report, windowed);
  // By kernel: its launching call (kNoMatch: none) and the order's keys.
  std::vector<uint32_t> callOf;
  std::vector<int64_t> kernelStart;
  std::vector<int32_t> device;
  // One row per kernel, also when one call (a graph launch) started several.
  // Kernels without a launching call have no API side and are left out, as
  // Nsight's cuda_kern_exec_trace does.
  std::vector<uint32_t> rows;
  const size_t expected = report.rowEstimate("HGGC_KERNEL");
  for (auto* v : {&callOf, &rows}) v->reserve(expected);
  kernelStart.reserve(expected);
  device.reserve(expected);
  const size_t kernels =
      report.forEachKernelChunk(kcol::launcher | kcol::time | kcol::deviceId, [&](const Kernels& k, size_t first) {
        for (size_t i = 0; i < k.size(); ++i) {
          const uint32_t c = calls.index.find(k.globalPid[i], k.correlationId[i]);
          callOf.push_back(c);
          kernelStart.push_back(k.start[i]);
          device.push_back(k.deviceId[i]);
          if (c == kNoMatch) continue;
          // The row spans the launch call and the kernel.
          if (windowed && !ctx.window.overlaps(std::min(calls.start[c], k.start[i]),
                                               std::max(calls.end[c], openEnd(k.end[i]))))
            continue;
          rows.push_back(static_cast<uint32_t>(first + i));
        }
      });
  calls.index = LaunchIndex(0);
  // API start ascending; ties by kernel start, PID, TID, device, then the
  // kernel's order in HGGC_KERNEL.
  std::sort(rows.begin(), rows.end(), [&](uint32_t a, uint32_t b) {
    const uint32_t ca = callOf[a], cb = callOf[b];
    if (calls.start[ca] != calls.start[cb]) return calls.start[ca] < calls.start[cb];
    if (kernelStart[a] != kernelStart[b]) return kernelStart[a] < kernelStart[b];
    if (calls.thread[ca] != calls.thread[cb]) return calls.thread[ca] < calls.thread[cb];
    if (device[a] != device[b]) return device[a] < device[b];
    return a < b;
  });
  const PagingMode kernelMode = pagingMode(kernels, rows.size(), kChunkRows, [&](size_t r) { return rows[r]; });
  const PagingMode callMode =
      pagingMode(calls.rows, rows.size(), kChunkRows, [&](size_t r) { return callOf[rows[r]]; });
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
      .memoryPerRow = 24,  // bench/rule-peaks.sh 2500: 385 MiB, 20 bytes a row
  };
  return rule;
}

}  // namespace asys
