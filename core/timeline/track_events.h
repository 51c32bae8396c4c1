#pragma once
// The Events view (docs/timeline.md, "The Events view"): one timeline row's
// events as a result table, the way Nsight Systems' Events View lists a
// row's events. It is a view: a row refers to an event of the track (every
// event, or the list of those in the statistics range), and a page's cells
// are made when asked for: names, times and levels from the track, the
// columns only the report has (a kernel's grid, block and correlation id, a
// call's return value) read from the file a page at a time. So the rows are
// in the track's order (start time), sortable and searchable by the result
// machinery (core/table), and a ten-million-kernel stream costs nothing per
// row until it is sorted (4 bytes a row for a sort, 4 for a range's list).
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "core/analysis/time_window.h"
#include "core/report/report.h"
#include "core/table/table.h"
#include "core/timeline/timeline.h"

namespace asys {

// The columns a row's events have, by the kind of its events.
enum class TrackEventsKind : uint8_t {
  PpuWork,     // kernels, memcpys, memsets (a stream, the PCCL kernels)
  Api,         // HGGC API calls of a thread
  Hgtx,        // HGTX push/pop ranges of a thread, nested by level
  Osrt,        // OS runtime calls of a thread
  PcclStage,   // PCCL stages of a channel
  Projection,  // HGTX ranges projected onto a PPU, nested by level
};

// The kind of a track's events (by its first event; a track holds one
// family). Throws Error for a counter track, which has no events.
TrackEventsKind trackEventsKind(const TimelineTrack& track);

// Which rows the view has and which event of the track each is: every
// event (row r is event r), or the events overlapping the statistics range
// (a list, ascending, so still in the track's order).
class TrackEventRowMap {
 public:
  TrackEventRowMap(const TimelineTrack& track, const TimeWindow& window);
  size_t size() const { return all_ ? count_ : events_.size(); }
  uint32_t eventOf(size_t row) const { return all_ ? static_cast<uint32_t>(row) : events_[row]; }
  // The row that shows event `event`, nullopt when the range leaves it out.
  std::optional<size_t> rowOf(uint32_t event) const;

 private:
  bool all_ = true;
  size_t count_ = 0;
  std::vector<uint32_t> events_;
};

// The events view of `timeline`'s track `track`, over `window` (the
// report's statistics range; TimeWindow{} for the whole capture). The
// table is a view that reads `report` and the track: both must outlive it
// (the bindings drop a report's views when it closes). `rows` says which
// event each row is (for "Show on timeline", and a timeline pick's row).
struct TrackEvents {
  Table table;
  std::shared_ptr<const TrackEventRowMap> rows;
  size_t track = 0;
  TrackEventsKind kind = TrackEventsKind::PpuWork;
};
TrackEvents trackEvents(Report& report, const Timeline& timeline, size_t track, const TimeWindow& window);

}  // namespace asys
