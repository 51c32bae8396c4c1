#include "core/timeline/track_events.h"

#include <algorithm>
#include <limits>
#include <string>

#include "core/analysis/memcpy_names.h"
#include "core/analysis/ppu_work_columns.h"
#include "core/base/error.h"
#include "core/report/row_pages.h"

namespace asys {

namespace {

// Every kind's first three columns.
enum Common : size_t { kName, kStart, kDuration, kCommon };
// PPU work's further columns (named as hggc_ppu_trace names them).
enum Ppu : size_t {
  kCorrId = kCommon, kGrdX, kGrdY, kGrdZ, kBlkX, kBlkY, kBlkZ, kRegTrd, kStcSMem, kDymSMem,
  kBytes, kThroughput, kSrcMemKd, kDstMemKd, kPpuColumns,
};
// An API call's (kCorrId as above) and a nested range's.
constexpr size_t kReturn = kCommon + 1;
constexpr size_t kLevel = kCommon;

std::vector<ColumnSpec> columnsOf(TrackEventsKind kind) {
  std::vector<ColumnSpec> c = {
      {"Name", "", CellKind::Text, "Event name, as the timeline shows it"},
      {"Start", "ns", CellKind::Int, "Start timestamp"},
      {"Duration", "ns", CellKind::Int, "Length of the event (0: cut off by the end of the capture)"},
  };
  switch (kind) {
    case TrackEventsKind::PpuWork:
      appendPpuWorkColumns(c);
      break;
    case TrackEventsKind::Api:
      c.push_back({"CorrId", "", CellKind::Int, "Correlation ID"});
      c.push_back({"Return Value", "", CellKind::Int, "The call's return value (not 0: drawn red)"});
      break;
    case TrackEventsKind::Hgtx:
    case TrackEventsKind::Projection:
      c.push_back({"Level", "", CellKind::Int, "Nesting level, 0 the outermost"});
      break;
    case TrackEventsKind::Osrt:
    case TrackEventsKind::PcclStage: break;
  }
  return c;
}

bool isKernel(TimelineKind k) { return k == TimelineKind::Kernel || k == TimelineKind::PcclKernel; }
bool isMemory(TimelineKind k) { return k == TimelineKind::Memcpy || k == TimelineKind::Memset; }

// The kernel columns (kcol bits) each PPU work column reads.
uint32_t kernelColumnsOf(size_t col) {
  switch (col) {
    case kCorrId: return kcol::correlationId;
    case kGrdX: return kcol::gridX;
    case kGrdY: return kcol::gridY;
    case kGrdZ: return kcol::gridZ;
    case kBlkX: return kcol::blockX;
    case kBlkY: return kcol::blockY;
    case kBlkZ: return kcol::blockZ;
    case kRegTrd: return kcol::registersPerThread;
    case kStcSMem: return kcol::staticSharedMemory;
    case kDymSMem: return kcol::dynamicSharedMemory;
    default: return 0;
  }
}
uint32_t kernelColumnsOfSet(uint32_t want) {
  uint32_t bits = 0;
  for (size_t c = 0; c < kPpuColumns; ++c)
    if ((want >> c) & 1) bits |= kernelColumnsOf(c);
  return bits;
}
uint32_t apiColumnsOfSet(uint32_t want) {
  return ((want >> kCorrId) & 1 ? acol::correlationId : 0) | ((want >> kReturn) & 1 ? acol::returnValue : 0);
}

constexpr uint32_t kEveryColumn = ~0u;

// The cells of the track's memcpys and memsets, which only their tables
// hold (the timeline gave them back once drawn): a small share of a
// stream's events, kept in event order.
struct MemoryCells {
  std::vector<uint32_t> event;  // ascending
  std::vector<int64_t> bytes, correlationId, srcKind, dstKind;  // dstKind kNoValue for a memset
  // The index of `e` in `event` (it is there: the caller asks for a memory event).
  size_t at(uint32_t e) const {
    return static_cast<size_t>(std::lower_bound(event.begin(), event.end(), e) - event.begin());
  }
};

MemoryCells memoryCellsOf(Report& report, const TimelineTrack& track) {
  MemoryCells m;
  bool copies = false, sets = false;
  for (size_t e = 0; e < track.size(); ++e) {
    const TimelineKind k = track.kind[e];
    copies |= k == TimelineKind::Memcpy;
    sets |= k == TimelineKind::Memset;
  }
  if (!copies && !sets) return m;
  const MemoryOps* c = copies ? &report.memcpys() : nullptr;
  const MemoryOps* s = sets ? &report.memsets() : nullptr;
  for (uint32_t e = 0; e < track.size(); ++e) {
    if (!isMemory(track.kind[e])) continue;
    const bool copy = track.kind[e] == TimelineKind::Memcpy;
    const MemoryOps& ops = copy ? *c : *s;
    const uint32_t row = track.row[e];
    if (row >= ops.size()) throw Error(report.path() + ": the timeline's memory operation " + std::to_string(row) + " is not in its table");
    m.event.push_back(e);
    m.bytes.push_back(ops.bytes[row]);
    m.correlationId.push_back(ops.correlationId[row]);
    m.srcKind.push_back(ops.srcKind[row]);
    m.dstKind.push_back(copy ? ops.dstKind[row] : kNoValue);
  }
  return m;
}

// The view's rows: a chunk's cells made from the track and, for the
// columns only the report has, from its rows read a page at a time.
class TrackEventSource : public RowSource {
 public:
  TrackEventSource(Report& report, const TimelineTrack& track, TrackEventsKind kind,
                   std::shared_ptr<const TrackEventRowMap> rows)
      : report_(report),
        track_(track),
        kind_(kind),
        rows_(std::move(rows)),
        strings_(report.strings()),
        memory_(kind == TrackEventsKind::PpuWork ? memoryCellsOf(report, track) : MemoryCells{}),
        memKinds_(report) {
    // Paging pays when the rows come about in the table's order (a
    // stream's kernels, a thread's calls do); else the columns are loaded.
    if (kind_ == TrackEventsKind::PpuWork) {
      mode_ = modeOf([&](uint32_t e) { return isKernel(track_.kind[e]); });
      kernels_.emplace(kernelPages(report_, kernelColumnsOfSet(kEveryColumn), mode_));
    } else if (kind_ == TrackEventsKind::Api) {
      mode_ = modeOf([](uint32_t) { return true; });
      calls_.emplace(hggcApiPages(report_, apiColumnsOfSet(kEveryColumn), mode_));
    }
  }

  size_t rowCount() const override { return rows_->size(); }
  void appendRows(size_t first, size_t count, Table& into) override { append(kEveryColumn, first, count, into); }
  void appendColumn(size_t col, size_t first, size_t count, Table& into) override {
    append(uint32_t{1} << col, first, count, into);
  }

 private:
  template <typename Read>
  PagingMode modeOf(Read reads) const {
    uint32_t tableRows = 0;
    for (size_t e = 0; e < track_.tableRows(); ++e)
      if (reads(static_cast<uint32_t>(e)) && track_.tableRow(e) != kNoTimelineRow)
        tableRows = std::max(tableRows, track_.tableRow(e) + 1);
    return pagingMode(tableRows, rows_->size(), kChunkRows, [&](size_t r) { return tableRowOf(r, reads); });
  }

  // The report row that row r reads (UINT32_MAX: none).
  template <typename Read>
  uint32_t tableRowOf(size_t r, Read reads) const {
    const uint32_t e = rows_->eventOf(r);
    return e < track_.tableRows() && reads(e) ? track_.tableRow(e) : UINT32_MAX;
  }

  bool want(size_t col) const { return (want_ >> col) & 1; }

  void append(uint32_t columns, size_t first, size_t count, Table& into) {
    want_ = columns;
    if (kind_ == TrackEventsKind::PpuWork) {
      const uint32_t bits = kernelColumnsOfSet(columns);
      // A one-column pass reads that column's kernel cells alone (paged), or none.
      std::optional<KernelPages> narrow;
      KernelPages* pages = &*kernels_;
      if (columns != kEveryColumn && mode_ == PagingMode::Paged && bits != 0) pages = &narrow.emplace(kernelPages(report_, bits, mode_));
      pages->forEachRow(
          first, count, kChunkRows,
          [&](size_t r) { return bits == 0 ? UINT32_MAX : tableRowOf(r, [&](uint32_t e) { return isKernel(track_.kind[e]); }); },
          [&](size_t r) { ppuRow(rows_->eventOf(r), *pages, into); });
    } else if (kind_ == TrackEventsKind::Api) {
      const uint32_t bits = apiColumnsOfSet(columns);
      std::optional<ApiPages> narrow;
      ApiPages* pages = &*calls_;
      if (columns != kEveryColumn && mode_ == PagingMode::Paged && bits != 0) pages = &narrow.emplace(hggcApiPages(report_, bits, mode_));
      pages->forEachRow(
          first, count, kChunkRows,
          [&](size_t r) { return bits == 0 ? UINT32_MAX : tableRowOf(r, [](uint32_t) { return true; }); },
          [&](size_t r) { apiRow(rows_->eventOf(r), *pages, into); });
    } else {
      for (size_t r = first; r < std::min(first + count, rowCount()); ++r) {
        const uint32_t e = rows_->eventOf(r);
        common(e, into);
        if ((kind_ == TrackEventsKind::Hgtx || kind_ == TrackEventsKind::Projection) && want(kLevel))
          into.setInt(kLevel, track_.lane[e]);
        into.endRow();
      }
    }
  }

  void common(uint32_t e, Table& t) {
    if (want(kName) && track_.name[e] != kNoString) t.setText(kName, strings_.get(track_.name[e]));
    if (want(kStart)) t.setInt(kStart, track_.start[e]);
    if (want(kDuration)) t.setInt(kDuration, track_.end[e] - track_.start[e]);
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

  void ppuRow(uint32_t e, const KernelPages& pages, Table& t) {
    common(e, t);
    const TimelineKind kind = track_.kind[e];
    if (isKernel(kind) && kernelColumnsOfSet(want_) != 0) {
      const auto [k, row] = pages.at(track_.row[e]);
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
    } else if (isMemory(kind)) {
      const size_t m = memory_.at(e);
      optInt(t, kCorrId, memory_.correlationId[m]);
      const int64_t bytes = memory_.bytes[m];
      optInt(t, kBytes, bytes);
      const int64_t duration = track_.end[e] - track_.start[e];
      if (bytes != kNoValue && duration > 0 && want(kThroughput)) {
        // As hggc_ppu_trace (and Nsight): the integer division first.
        const __int128 throughput = static_cast<__int128>(bytes) * (1000000000 / duration);
        if (throughput <= std::numeric_limits<int64_t>::max() && throughput >= std::numeric_limits<int64_t>::min())
          t.setInt(kThroughput, static_cast<int64_t>(throughput));
      }
      if (want(kSrcMemKd)) optText(t, kSrcMemKd, memKinds_.memKind(memory_.srcKind[m]));
      if (want(kDstMemKd) && kind == TimelineKind::Memcpy) optText(t, kDstMemKd, memKinds_.memKind(memory_.dstKind[m]));
    }
    t.endRow();
  }

  void apiRow(uint32_t e, const ApiPages& pages, Table& t) {
    common(e, t);
    if (apiColumnsOfSet(want_) != 0) {
      const auto [a, row] = pages.at(track_.tableRow(e));
      if (want(kCorrId)) optInt(t, kCorrId, a->correlationId[row]);
      if (want(kReturn)) optInt(t, kReturn, a->returnValue[row]);
    }
    t.endRow();
  }

  Report& report_;
  const TimelineTrack& track_;
  TrackEventsKind kind_;
  std::shared_ptr<const TrackEventRowMap> rows_;
  const StringPool& strings_;
  MemoryCells memory_;
  MemcpyNames memKinds_;
  PagingMode mode_ = PagingMode::Paged;
  std::optional<KernelPages> kernels_;  // PPU work: every kernel column shown
  std::optional<ApiPages> calls_;       // API calls: their correlation ids and return values
  uint32_t want_ = kEveryColumn;        // the columns a row fills
};

}  // namespace

TrackEventsKind trackEventsKind(const TimelineTrack& track) {
  if (track.counter) throw Error("events view: '" + track.label + "' is a counter: it has no events to list");
  if (track.size() == 0) return TrackEventsKind::Osrt;  // no events: the three common columns
  switch (track.kind[0]) {
    case TimelineKind::Kernel:
    case TimelineKind::Memcpy:
    case TimelineKind::Memset:
    case TimelineKind::PcclKernel: return TrackEventsKind::PpuWork;
    case TimelineKind::Api:
    case TimelineKind::ApiError:
    case TimelineKind::AllocFailure: return TrackEventsKind::Api;
    case TimelineKind::Hgtx:
    case TimelineKind::HgtxStartEnd: return TrackEventsKind::Hgtx;
    case TimelineKind::Osrt: return TrackEventsKind::Osrt;
    case TimelineKind::PcclStage: return TrackEventsKind::PcclStage;
    case TimelineKind::Projection: return TrackEventsKind::Projection;
    case TimelineKind::GraphLaunch: return TrackEventsKind::Osrt;  // a graph row's launches: the common columns
  }
  return TrackEventsKind::Osrt;
}

TrackEventRowMap::TrackEventRowMap(const TimelineTrack& track, const TimeWindow& window) : count_(track.size()) {
  if (window.isAll()) return;
  all_ = false;
  for (size_t e = 0; e < track.size(); ++e)
    if (window.overlaps(track.start[e], track.end[e])) events_.push_back(static_cast<uint32_t>(e));
}

std::optional<size_t> TrackEventRowMap::rowOf(uint32_t event) const {
  if (all_) return event < count_ ? std::optional<size_t>(event) : std::nullopt;
  const auto it = std::lower_bound(events_.begin(), events_.end(), event);
  if (it == events_.end() || *it != event) return std::nullopt;
  return static_cast<size_t>(it - events_.begin());
}

TrackEvents trackEvents(Report& report, const Timeline& timeline, size_t track, const TimeWindow& window) {
  if (track >= timeline.tracks().size()) throw Error("events view: no timeline row " + std::to_string(track));
  const TimelineTrack& tr = timeline.tracks()[track];
  const TrackEventsKind kind = trackEventsKind(tr);
  if ((kind == TrackEventsKind::PpuWork || kind == TrackEventsKind::Api) && tr.tableRows() != tr.size())
    throw Error("events view: the events of '" + tr.label + "' have no table rows");
  auto rows = std::make_shared<const TrackEventRowMap>(tr, window);
  auto source = std::make_shared<TrackEventSource>(report, tr, kind, rows);
  return {Table(columnsOf(kind), std::move(source)), std::move(rows), track, kind};
}

}  // namespace asys
