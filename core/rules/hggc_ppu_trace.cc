// hggc_ppu_trace (2.3.8): every kernel, memcpy and memset on the PPUs, one
// row each, by start time.
#include <algorithm>
#include <cctype>
#include <limits>
#include <map>
#include <unordered_map>

#include "core/analysis/memcpy_names.h"
#include "core/analysis/ppu_work_columns.h"
#include "core/base/error.h"
#include "core/report/row_pages.h"
#include "core/report/report.h"
#include "core/rules/common.h"
#include "core/rules/kernel_row_texts.h"
#include "core/rules/registry.h"

namespace asys {

namespace {

enum Col : size_t {
  kStart, kDuration, kCorrId, kGrdX, kGrdY, kGrdZ, kBlkX, kBlkY, kBlkZ, kRegTrd, kStcSMem, kDymSMem,
  kBytes, kThroughput, kSrcMemKd, kDstMemKd, kDevice, kCtx, kStrm, kName,
};

// The sources in their tie order: at the same start, kernels, then memcpys,
// then memsets, each in table order.
enum Source : uint8_t { kKernel, kMemcpy, kMemset };

// 12 bytes, not 16: the trace holds one per row (10 M rows: 120 MB).
#pragma pack(push, 4)
struct Event {
  int64_t start;
  uint32_t index : 30;  // the row in its table (a table of 2^30 rows is refused)
  uint32_t source : 2;
};
#pragma pack(pop)
static_assert(sizeof(Event) == 12);
constexpr size_t kMaxEventIndex = (size_t{1} << 30) - 1;

// The kernel an event row shows, UINT32_MAX for a memory operation's.
uint32_t kernelOf(const std::vector<Event>& events, size_t r) {
  return events[r].source == kKernel ? events[r].index : UINT32_MAX;
}

std::vector<ColumnSpec> columns() {
  std::vector<ColumnSpec> c = {
      {"Start", "ns", CellKind::Int, "Timestamp of start time"},
      {"Duration", "ns", CellKind::Int, "Length of event"},
  };
  appendPpuWorkColumns(c);
  c.insert(c.end(), {
                        {"Device", "", CellKind::Text, "PPU device name and ID"},
                        {"Ctx", "", CellKind::Int, "Context ID"},
                        {"Strm", "", CellKind::Int, "Stream ID"},
                        {"Name", "", CellKind::Text, "Trace event name"},
                    });
  return c;
}

// Display texts, each built once per distinct value, never per row.
class TraceTexts {
 public:
  explicit TraceTexts(Report& report) : memcpy_(report) {
    for (const Device& d : report.devices())
      if (!d.name.empty()) devices_[d.id] = d.name + " (" + std::to_string(d.id) + ")";
  }

  // "NAME (ID)"; "(ID)" for a device without a name in TARGET_INFO_PPU.
  std::string_view device(int32_t id) {
    auto [it, inserted] = devices_.try_emplace(id);
    if (inserted) it->second.append("(").append(std::to_string(id)).append(")");
    return it->second;
  }

  std::string_view memKind(int64_t kind) { return memcpy_.memKind(kind); }
  std::string_view memcpyName(int64_t copyKind, int64_t dstKind) { return memcpy_.name(copyKind, dstKind); }

 private:
  MemcpyNames memcpy_;
  std::unordered_map<int64_t, std::string> devices_;
};

// The kernel columns (kcol bits) each output column reads; 0 for the
// columns only memory operations fill.
constexpr uint32_t kKernelColumnsOf[] = {
    kcol::start, kcol::time, kcol::correlationId, kcol::gridX, kcol::gridY, kcol::gridZ, kcol::blockX,
    kcol::blockY, kcol::blockZ, kcol::registersPerThread, kcol::staticSharedMemory, kcol::dynamicSharedMemory,
    0, 0, 0, 0, kcol::deviceId, kcol::contextId, kcol::streamId, kcol::names,
};
static_assert(std::size(kKernelColumnsOf) == kName + 1);
constexpr uint32_t kEveryColumn = (1u << (kName + 1)) - 1;
// The kernel columns a whole row reads.
constexpr uint32_t kShownKernelColumns = [] {
  uint32_t bits = 0;
  for (uint32_t b : kKernelColumnsOf) bits |= b;
  return bits;
}();

// The trace as a view: the events in order (12 bytes a row), each row's
// cells read and formatted when a page or a writer's chunk asks for it. The
// kernels' cells come from the file a page at a time (KernelPages); the
// memory operations, a small share of the rows, are held whole. One column
// alone (a sort's key) reads only the kernel columns it needs.
class PpuTraceRows : public RowSource {
 public:
  PpuTraceRows(RuleContext& ctx, std::vector<Event> events, PagingMode mode)
      : report_(ctx.report),
        events_(std::move(events)),
        copies_(ctx.report.memcpys()),
        sets_(ctx.report.memsets()),
        names_(ctx.report, ctx.options, KernelLabels::Names::Paged),
        pages_(kernelPages(ctx.report, kShownKernelColumns, mode)),
        mode_(mode),
        texts_(ctx.report) {}

  size_t rowCount() const override { return events_.size(); }

  void appendRows(size_t first, size_t count, Table& t) override { append(pages_, kEveryColumn, first, count, t); }

  // Column `col` alone: the kernel columns it reads, the report's own when it
  // holds them (the viewer's plan loads every one; this pass ends before
  // anything can release them), else a page at a time.
  void appendColumn(size_t col, size_t first, size_t count, Table& t) override {
    if (col > kName) return appendRows(first, count, t);
    const uint32_t bits = kKernelColumnsOf[col] == 0 ? kcol::start : kKernelColumnsOf[col];
    KernelPages pages = (report_.loadedKernelColumns() & bits) == bits ? borrowedKernelPages(report_, bits)
                                                                        : kernelPages(report_, bits, mode_);
    append(pages, 1u << col, first, count, t);
  }

 private:
  void append(KernelPages& pages, uint32_t want, size_t first, size_t count, Table& t) {
    want_ = want;
    pages.forEachRow(
        first, count, kChunkRows, [&](size_t r) { return kernelOf(events_, r); },
        [&](size_t r) { appendRow(events_[r], pages, t); });
  }

  bool want(size_t col) const { return (want_ >> col) & 1; }

  void appendRow(const Event& e, const KernelPages& pages, Table& t) {
    const size_t i = e.index;
    constexpr EventTable kTableOf[] = {EventTable::Kernel, EventTable::Memcpy, EventTable::Memset};
    t.setEvent(0, kTableOf[e.source], e.index);
    switch (e.source) {
      case kKernel: {
        const auto [k, row] = pages.at(e.index);
        // A column's cells read only when it is asked for: a one-column
        // pass holds only that column's kernel columns.
        if (want(kStart)) t.setInt(kStart, e.start);
        if (want(kDuration) && k->end[row] != kNoValue) t.setInt(kDuration, k->end[row] - e.start);
        if (want(kCorrId)) optInt(t, kCorrId, k->correlationId[row]);
        if (want(kGrdX)) optId(t, kGrdX, k->gridX[row]);
        if (want(kGrdY)) optId(t, kGrdY, k->gridY[row]);
        if (want(kGrdZ)) optId(t, kGrdZ, k->gridZ[row]);
        if (want(kBlkX)) optId(t, kBlkX, k->blockX[row]);
        if (want(kBlkY)) optId(t, kBlkY, k->blockY[row]);
        if (want(kBlkZ)) optId(t, kBlkZ, k->blockZ[row]);
        if (want(kRegTrd)) optId(t, kRegTrd, k->registersPerThread[row]);
        if (want(kStcSMem)) optId(t, kStcSMem, k->staticSharedMemory[row]);
        if (want(kDymSMem)) optId(t, kDymSMem, k->dynamicSharedMemory[row]);
        if (want(kDevice) && k->deviceId[row] >= 0) t.setText(kDevice, texts_.device(k->deviceId[row]));
        if (want(kCtx)) optId(t, kCtx, k->contextId[row]);
        if (want(kStrm)) optId(t, kStrm, k->streamId[row]);
        if (want(kName)) names_.set(t, kName, names_.id(*k, row, i));
        break;
      }
      case kMemcpy:
        memory(t, copies_, i);
        if (want(kDstMemKd)) optText(t, kDstMemKd, texts_.memKind(copies_.dstKind[i]));
        if (want(kName)) t.setText(kName, texts_.memcpyName(copies_.copyKind[i], copies_.dstKind[i]));
        break;
      case kMemset:
        memory(t, sets_, i);
        if (want(kName)) t.setText(kName, "Memset");
        break;
    }
    t.endRow();
  }

  void optInt(Table& t, size_t col, int64_t v) {
    if (v != kNoValue && want(col)) t.setInt(col, v);
  }
  void optId(Table& t, size_t col, int32_t v) {  // NULL reads as -1
    if (v >= 0 && want(col)) t.setInt(col, v);
  }
  void optText(Table& t, size_t col, std::string_view v) {
    if (!v.empty() && want(col)) t.setText(col, v);
  }
  void memory(Table& t, const MemoryOps& m, size_t i) {
    if (want(kStart)) t.setInt(kStart, m.start[i]);
    if (want(kDuration) && m.end[i] != kNoValue) t.setInt(kDuration, m.end[i] - m.start[i]);
    optInt(t, kCorrId, m.correlationId[i]);
    if (want(kDevice) && m.deviceId[i] >= 0) t.setText(kDevice, texts_.device(m.deviceId[i]));
    optId(t, kCtx, m.contextId[i]);
    optId(t, kStrm, m.streamId[i]);
    const int64_t bytes = m.bytes[i];
    optInt(t, kBytes, bytes);
    const int64_t duration = m.end[i] == kNoValue ? 0 : m.end[i] - m.start[i];
    if (bytes != kNoValue && duration > 0 && want(kThroughput)) {
      // As Nsight: the integer division first.
      __int128 throughput = static_cast<__int128>(bytes) * (1000000000 / duration);
      if (throughput <= std::numeric_limits<int64_t>::max() && throughput >= std::numeric_limits<int64_t>::min())
        t.setInt(kThroughput, static_cast<int64_t>(throughput));
    }
    if (want(kSrcMemKd)) optText(t, kSrcMemKd, texts_.memKind(m.srcKind[i]));
  }

  Report& report_;
  std::vector<Event> events_;
  MemoryOps copies_, sets_;
  KernelLabelTexts names_;
  KernelPages pages_;
  PagingMode mode_;
  TraceTexts texts_;
  uint32_t want_ = kEveryColumn;  // the output columns appendRow fills
};

Table compute(RuleContext& ctx) {
  constexpr int64_t kOpenEnd = std::numeric_limits<int64_t>::max();
  Report& report = ctx.report;
  // Time and place only: the order and the window need the times, and the
  // load of the place columns notes their NULLs (the rule's warnings) before
  // any row is written. The other cells are read a page at a time.
  const Kernels& k = report.kernels(kcol::time | kcol::place);
  const MemoryOps& copies = report.memcpys();
  const MemoryOps& sets = report.memsets();

  // An event cut off by the end of the capture (NULL end) is listed, without
  // a duration; for the time window it runs to the end of time.
  std::vector<Event> events;
  events.reserve(k.size() + copies.size() + sets.size());
  auto collect = [&](const std::vector<int64_t>& start, const std::vector<int64_t>& end, Source source) {
    if (start.size() > kMaxEventIndex + 1) {
      throw Error(report.path() + ": " + std::to_string(start.size()) + " rows in one table: the trace holds at most " +
                  std::to_string(kMaxEventIndex + 1));
    }
    for (size_t i = 0; i < start.size(); ++i)
      if (ctx.window.overlaps(start[i], end[i] == kNoValue ? kOpenEnd : end[i]))
        events.push_back({start[i], static_cast<uint32_t>(i), static_cast<uint32_t>(source)});
  };
  collect(k.start, k.end, kKernel);
  collect(copies.start, copies.end, kMemcpy);
  collect(sets.start, sets.end, kMemset);
  std::sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
    if (a.start != b.start) return a.start < b.start;
    if (a.source != b.source) return a.source < b.source;
    return a.index < b.index;
  });
  const PagingMode mode =
      pagingMode(k.size(), events.size(), kChunkRows, [&](size_t r) { return kernelOf(events, r); });
  auto rows = std::make_shared<PpuTraceRows>(ctx, std::move(events), mode);
  Table t(columns(), std::move(rows));
  t.declareEvents({"Activity"});
  return t;
}

}  // namespace

const RuleSpec& hggcPpuTraceRule() {
  static const RuleSpec rule{
      .name = "hggc_ppu_trace",
      .title = "HGGC PPU Trace",
      .titleZh = "HGGC PPU跟踪",
      .rowHelp = "Row number of the PPU trace",
      .topic = "HGGC",
      .description =
          "Every HGGC kernel, memcpy and memset executed on the PPUs, one row each, sorted\n"
          "by start time ascending (at the same start: kernels, memcpys, memsets, each in\n"
          "report order). Cells that do not apply to the row's kind are '-'.\n"
          "Throughput = Bytes * (1000000000 / Duration), the division in integers first.\n"
          "Memcpys are named 'Memcpy <kind> (<destination memory kind>)', e.g.\n"
          "'Memcpy HtoD (device)'; memsets 'Memset'. Device is 'NAME (ID)'.",
      .descriptionZh =
          "导出结果组织如下：每Kernel / Memcpy / Memset执行信息导出一行数据，根据执行的开始时间升序输出。\n"
          "由于导出结果的列包含Kernel / Memcpy / Memset的信息，对于导出的每一行数据，不适用的单元格被标记为无效值-。",
      .options = {hgtxNameOption(), kernelNameModeOption()},
      .columns = columns(),
      .needs = {ppuActivityNeed()},
      .pie = {"Duration", {"Name", "Device"}},
      .compute = compute,
      .memoryPerRow = 80,  // bench/rule-peaks.sh 250: 75 MiB
  };
  return rule;
}

}  // namespace asys
