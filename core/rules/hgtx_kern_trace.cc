// hgtx_kern_trace (2.3.10): every associated (HGTX range, kernel) pair.
#include <algorithm>
#include <cstdint>
#include <stdexcept>

#include "core/report/group_sizes.h"
#include "core/report/report.h"
#include "core/report/row_pages.h"
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

// The trace as a view: the association (the activities in start order,
// each one's ranges) is what it keeps; a row is a (kernel, range) pair, or a
// standalone kernel, found from its number through each kernel's first row.
// The kernel and launch-call cells of a page are read from the file when it
// is written (RowPages), the range cells from the association's ranges (its
// thread, and the HGTX Range IDs that are not their row's position, taken in
// its scan of HGTX_EVENTS): the events are not held.
class KernTraceRows : public RowSource {
 public:
  static constexpr uint32_t kKernelColumns = kcol::all;
  static constexpr uint32_t kCallColumns = acol::start | acol::end | acol::globalTid;

  KernTraceRows(RuleContext& ctx, AssociatedActivities in, bool standalone)
      : in_(std::move(in)),
        names_(ctx.report, ctx.options, KernelLabels::Names::Paged),
        strings_(ctx.report.strings()) {
    const PpuActivities& act = in_.activities;
    const HgtxAssociation& as = in_.association;
    // A kernel's rows: one per range, or one alone (standalone, no range).
    // The list's length is its rows' (it keeps neither its starts, given
    // back once sorted, nor a process column).
    // About 1 byte a kernel (GroupSizes): a kernel's ranges are a few; the
    // rows are fewer than 2^32 (29.9 M at scale 2500).
    const size_t n = act.row.size();
    rowsOf_.reserve(n);
    for (size_t a = 0; a < n; ++a) {
      const size_t pairs = as.rangesOf(a).size();
      rowsOf_.add(pairs > 0 ? pairs : (standalone ? 1 : 0));
      if (rowsOf_.rows() > UINT32_MAX) throw std::length_error("hgtx_kern_trace: more than 2^32 rows");
    }
    const size_t rows = rowsOf_.rows();
    // The rows each table shows, in output order, for pagingMode: kernels
    // repeat on their consecutive rows, calls only where the row shows one.
    // The table's rows: its largest rowid (the place columns are not held).
    const PagingMode kernelMode = pagingMode(static_cast<size_t>(ctx.report.rowEstimate("HGGC_KERNEL")), rows, kChunkRows,
                                             [walk = rowsOf_.walkFrom(0), &act](size_t r) mutable {
                                               return act.row[walk.groupOf(r)];
                                             });
    const PagingMode callMode = pagingMode(in_.association.callRows, rows, kChunkRows,
                                           [walk = rowsOf_.walkFrom(0), this](size_t r) mutable {
                                             const size_t a = walk.groupOf(r);
                                             return callOf(a, walk.indexOf(r));
                                           });
    kernels_ = kernelPages(ctx.report, kKernelColumns, kernelMode);
    calls_ = hggcApiPages(ctx.report, kCallColumns, callMode);
  }

  size_t rowCount() const override { return rowsOf_.rows(); }

  void appendRows(size_t first, size_t count, Table& t) override {
    forEachPage(first, count, kChunkRows, [&](size_t begin, size_t end) {
      pageKernels_.clear();
      pageCalls_.clear();
      forEachRow(begin, end, [&](size_t a, size_t j) {
        pageKernels_.push_back(in_.activities.row[a]);
        if (const uint32_t c = callOf(a, j); c != kNoMatch) pageCalls_.push_back(c);
      });
      kernels_.read(pageKernels_);
      calls_.read(pageCalls_);
      forEachRow(begin, end, [&](size_t a, size_t j) { appendRow(a, j, t); });
    });
  }

 private:
  // Calls `row(activity, j)` for rows [begin, end): the activity's j-th range,
  // or j == its range count for a standalone row.
  template <typename Row>
  void forEachRow(size_t begin, size_t end, Row row) const {
    if (begin >= end) return;
    GroupSizes::Walk walk = rowsOf_.walkFrom(begin);
    for (size_t r = begin; r < end; ++r) {
      const size_t a = walk.groupOf(r);
      row(a, walk.indexOf(r));
    }
  }

  // The launch call a row shows: none through a graph node (the call is not
  // the range's), else the kernel's launching call (kNoMatch: none).
  uint32_t callOf(size_t a, size_t j) const {
    const HgtxAssociation& as = in_.association;
    if (as.viaGraph(a, j)) return kNoMatch;  // false past the activity's ranges
    return as.launchCall[a];
  }

  void appendRow(size_t a, size_t j, Table& t) {
    const PpuActivities& act = in_.activities;
    const HgtxAssociation& as = in_.association;
    const AssociationRanges& R = as.ranges;
    const RangeList ranges = as.rangesOf(a);
    const uint32_t call = callOf(a, j);
    const auto [api, c] = call == kNoMatch ? ApiPages::At{nullptr, 0} : calls_.at(call);
    if (j < ranges.size()) {
      const uint32_t r = ranges[j];
      const uint32_t e = R.event[r];
      t.setTextOf(kRange, strings_, R.name[r]);
      t.setText(kStyle, styleName(R.startEnd[r] != 0));
      t.setInt(kPid, pidOf(R.thread(r)));
      t.setInt(kTid, tidOf(R.thread(r)));
      t.setInt(kRangeId, R.rangeId(e));
      t.setSpan(0, R.startOf(r), R.end(r));
      t.setEvent(0, EventTable::Hgtx, e);
    } else if (api) {  // standalone: the launching thread
      t.setInt(kPid, pidOf(api->globalTid[c]));
      t.setInt(kTid, tidOf(api->globalTid[c]));
    } else {
      t.setInt(kPid, pidOf(act.processOf(a)));  // an unlaunched kernel's: kept
    }
    // The kernel's own cells, the same on each of its rows.
    const uint32_t i = act.row[a];
    const auto [k, kr] = kernels_.at(i);
    optId(t, kDevice, k->deviceId[kr]);
    optId(t, kContext, k->contextId[kr]);
    optId(t, kStream, k->streamId[kr]);
    t.setInt(kKernelId, static_cast<int64_t>(i) + 1);  // the kernel's row in HGGC_KERNEL
    t.setInt(kKernelStart, k->start[kr]);
    t.setInt(kKernelDur, k->end[kr] - k->start[kr]);
    dims_.set(t, kGrid, dims_.gridId(*k, kr));
    dims_.set(t, kBlock, dims_.blockId(*k, kr));
    optInt(t, kCorrId, k->correlationId[kr]);
    optInt(t, kGraphId, k->graphId[kr]);
    optInt(t, kGraphNodeId, k->graphNodeId[kr]);
    names_.set(t, kName, names_.id(*k, kr, i));
    if (k->mangledName[kr] != kNoString) t.setTextOf(kMangled, strings_, k->mangledName[kr]);
    t.setSpan(1, k->start[kr], k->end[kr]);
    t.setEvent(1, EventTable::Kernel, i);
    if (api) {
      t.setInt(kApiStart, api->start[c]);
      optInt(t, kApiDur, api->end[c] == kNoValue ? kNoValue : api->end[c] - api->start[c]);
    }
    t.endRow();
  }

  static void optInt(Table& t, size_t col, int64_t v) {
    if (v != kNoValue) t.setInt(col, v);
  }
  static void optId(Table& t, size_t col, int32_t v) {  // NULL reads as -1
    if (v >= 0) t.setInt(col, v);
  }

  AssociatedActivities in_;
  GroupSizes rowsOf_;  // by activity: its rows
  KernelPages kernels_{nullptr, nullptr};
  ApiPages calls_{nullptr, nullptr};
  KernelDimTexts dims_;
  KernelLabelTexts names_;
  const StringPool& strings_;
  std::vector<uint32_t> pageKernels_, pageCalls_;
};

Table compute(RuleContext& ctx) {
  // The association's columns; the place columns are read with the
  // association's scan of HGGC_KERNEL, so that their NULLs are noted before
  // any row is written, and not kept (12 bytes a kernel): like the other
  // kernel cells, they are read a page at a time.
  AssociationFilters filters;
  filters.kernelChunkColumns = kcol::place;
  filters.rangeIds = true;
  filters.releaseEvents = true;  // the rows' range cells are the association's
  // The view reads a kernel's row and process (its cells come from the
  // file): the list keeps no end, device or kind (13 bytes a kernel), and
  // its start only until it is sorted (8 more: the association gives it
  // back then).
  filters.startsOnly = true;
  // A row's process is its range's thread's, or its launching call's; the
  // list keeps only the processes of the kernels without a launching call
  // (8 bytes a kernel less).
  filters.processes = false;
  // The rows read a range's start and thread through startOf and thread:
  // where they come back from the sweep they come back narrow (about 5
  // bytes a range in place of 12, held through the rows).
  filters.narrowSpansAfterSweep = true;
  AssociatedActivities in = associateForRule(ctx, /*memoryToo=*/false, 0, std::move(filters));
  const std::string warning = unlaunchedWarning(in.unlaunched, in.memoryToo);
  Table t(columns(), std::make_shared<KernTraceRows>(ctx, std::move(in), ctx.options.flag("standalone")));
  t.declareSpans({"HGTX Range", "Device Activity"});
  t.declareEvents({"HGTX Range", "Device Activity"});
  if (!warning.empty()) t.addWarning(warning);
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
      .memoryPerRow = 40,  // 105,596 / 824,288 KiB at scale 250 / 2500: 36.2, 28.3 bytes a row (2026-12-06, traces9)
  };
  return rule;
}

}  // namespace asys
