#pragma once
// The timeline's data: a report's events as tracks (per device: a track per
// stream of kernels, memcpys and memsets, PCCL kernels, PCCL stages per
// channel, the HGTX projection, and the counters of memory in use and of
// each PPU metric; per thread: HGGC API calls, HGTX push/pop ranges nested by
// level, OS runtime calls), each track's events in start order, built once,
// with each node's share of its parent's busy time.
// A window query merges the events of a time window to pixel resolution:
// per lane, events that fall in the pixel the previous slice ends in join
// it, the longest naming it, so a frame costs at most a few slices a pixel
// and never a whole table crosses to the viewer.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/report/report.h"
#include "core/table/table.h"
#include "core/timeline/counters.h"
#include "core/timeline/event_columns.h"
#include "core/timeline/graph_launches.h"

namespace asys {

constexpr uint32_t kNoTimelineRow = 0xFFFFFFFFu;  // an event of no table row
constexpr int64_t kNoTimelineDevice = INT64_MIN;   // a host track's TimelineTrack::device

// The report table a kind's events are rows of (TimelineTrack::row), the
// one a rule row's event reference names (Table::setEvent); None for the
// events of no table row (OSRT calls, PCCL stages, projections).
EventTable eventTableOf(TimelineKind kind);

// An event of the timeline: its track and its index there.
struct TimelineEventAt {
  size_t track = 0;
  uint32_t event = 0;
};

// A coarser copy of a track's events: per lane, events less than
// `resolution` ns apart merged into one, the longest naming it. A window
// whose pixels are at least twice as wide reads a level instead of every
// event, so zoomed out a frame costs what the screen holds, not the report.
// A slice's name and kind are its longest event's (`event`, an index into
// the track), so a level keeps its span, that event, its count, that event's
// duration and its lane: about 17 bytes a slice. The duration is kept (a
// window compares every slice's, and read from the track it was a random
// read a slice); the name and kind are read from the track once a slice the
// window makes.
struct TimelineLevel {
  // A duration of 2^32 - 1 ns (4.3 s) or more: read from the track.
  static constexpr uint32_t kLongDuration = 0xFFFFFFFFu;
  int64_t resolution = 0;
  PackedTimes start, end;  // start ascending
  PackedIndices event, count;
  std::vector<uint32_t> longest;  // the duration of `event`, or kLongDuration
  LaneColumn lane;
  int64_t widest = 0;  // the widest merged span
  size_t size() const { return start.size(); }
};

// A track's events as plain vectors, as they are collected (and as tests
// write them); TimelineTrack::setEvents packs them.
struct TimelineTrack;
struct TimelineEventVectors {
  std::vector<int64_t> start, end;
  std::vector<uint32_t> name;
  std::vector<uint16_t> lane;
  std::vector<TimelineKind> kind;
  std::vector<uint32_t> row;
  // Appends event `i` of `track` (its start, end, name, kind and table row;
  // lanes are assigned when the vectors become a track).
  void append(const TimelineTrack& track, size_t i);
};

// The host rows of core/timeline/host_rows.cc: a process's HGTX start/end
// ranges, a thread's rows of one library's ranges, a process's memory
// allocation failures (docs/timeline.md, "Host rows").
enum class HostRow : uint8_t { None, StartEnd, Library, AllocationFailures };

// What a start/end range's or an allocation failure's details say that the
// event columns do not, per event of such a row (its few events: the ranges
// an application starts and ends by hand, its failed allocations).
struct HostEventNotes {
  std::vector<int64_t> thread;     // the thread that started the range or made the call (globalTid)
  std::vector<int64_t> endThread;  // start/end: the thread that ended it (kNoValue: not ended)
  std::vector<int64_t> value;      // failure: the call's return value
  // failure: the call's HGGC_API row. A repeated event keeps its table row
  // here, not in TimelineTrack::row: a row's event there is one event, on
  // its thread's API row (findEvent, the links).
  std::vector<uint32_t> row;
};

// A graph row's launches (Timeline::graphRows, graph_rows.cc): per launch
// (the row's events, in start order) what its details say. A launch is the
// activities of one graph exec and one launching call (correlation id) on
// the row's stream; few beside the activities they stand for.
struct GraphLaunchNotes {
  int64_t graph = INT64_MIN;  // the graph the exec was instantiated from (INT64_MIN: unknown)
  int64_t exec = 0;           // the graph exec (the activities' graphId)
  std::vector<uint32_t> first;  // its first activity: an event of the stream (the links start there)
  std::vector<int64_t> correlationId;
  std::vector<uint32_t> kernels, memcpys, memsets;  // the nodes it ran on the stream, by kind
  std::vector<int64_t> busy;  // the union of its activities
  size_t bytes() const {
    return 4 * (first.capacity() + kernels.capacity() + memcpys.capacity() + memsets.capacity()) +
           8 * (correlationId.capacity() + busy.capacity());
  }
};

struct TimelineTrack {
  std::string group;  // "PPU 0 (PPU-ZW810E)", "Process 1050788 (python3)"
  std::string label;  // "Stream 7", "Thread 1050790 (python3)", "HGTX 1050790"
  // A stream's context ("Context 2") when its PPU has streams of several
  // contexts, else "" (the manual's device -> context -> stream, a single
  // child compacted away).
  std::string context;
  // The PPU a device track belongs to (its group's device id), or
  // kNoTimelineDevice for a host track (a thread's).
  int64_t device = kNoTimelineDevice;
  // Events in start order (ties: end), by index, packed (event_columns.h):
  PackedTimes start, end;
  NameColumn name;  // the report's StringPool ids
  LaneColumn lane;  // a row inside the track (nesting level, or a free lane)
  KindColumn kind;
  // Per event, its row in the table its kind comes from (HGGC_KERNEL,
  // HGGC_MEMCPY, HGGC_MEMSET, HGGC_API, HGTX_EVENTS: eventTableOf), so links
  // between tables (correlation.h) and a rule row's event reference find
  // it; empty when no event of the track has one. Packed: 2 bytes where a
  // block of 256 events' rows span under 65,536 (a thread's calls), else 4.
  PackedIndices row;
  uint16_t lanes = 1;
  int64_t longest = 0;  // the longest event: how far before a window an overlapping event may start
  std::vector<TimelineLevel> levels;  // finer to coarser
  // A counter track (memory in use, a PPU metric) has no events, only this.
  std::optional<TimelineCounter> counter;
  // The manual's `[All Streams]` row of a context with several streams: no
  // events of its own, it draws the events of these tracks (its context's
  // streams) merged (Timeline::window), on `lanes` lanes (the most of them
  // that run at once). Its event e is event e - offset of the source that
  // holds it, the sources' events numbered one after another
  // (Timeline::sourceEvent). Empty for every other track.
  std::vector<uint32_t> sources;
  bool merged() const { return !sources.empty(); }
  // A row of kernels of one base name under its stream (Nsight's "Show
  // kernels grouped by: base name"; Timeline::kernelGroups): the stream's
  // track id, else kNoParent. Its events are copies of the stream's, drawn
  // again: not its PPU's work, its share of the stream's busy time.
  static constexpr uint32_t kNoParent = 0xFFFFFFFFu;
  uint32_t parent = kNoParent;
  bool derived() const { return parent != kNoParent; }
  // Which host row it is (HostRow::None: any other), and its events' notes.
  HostRow hostRow = HostRow::None;
  std::shared_ptr<const HostEventNotes> notes;
  // Its events are other rows' drawn again (a process's allocation
  // failures: calls on its threads' API rows): not counted again by the
  // selection statistics, the links or findEvent.
  // A graph row's launches summarise its stream's activities: repeats too.
  bool repeats() const { return hostRow == HostRow::AllocationFailures || graphRow(); }
  // A graph row (Timeline::graphRows): one graph exec's launches on stream
  // `graphOf` (its track id; kNoParent: not a graph row), a launch an event
  // spanning its activities there, `launches` what each says.
  uint32_t graphOf = kNoParent;
  bool graphRow() const { return graphOf != kNoParent; }
  std::shared_ptr<const GraphLaunchNotes> launches;
  // The table row event `e` reads its report columns from: `row`'s, or a
  // repeated event's (HostEventNotes::row); kNoTimelineRow for none.
  uint32_t tableRow(size_t e) const;
  // How many events tableRow() answers for (0: none has a table row).
  size_t tableRows() const;
  // Which "Show kernels grouped by" made a derived row: its kernels' base
  // name (kernelGroups) or their HGTX range (kernelRangeGroups, a row a
  // range name). `outsideRanges`: the HGTX range row of the kernels that no
  // range encloses.
  enum class Grouping : uint8_t { BaseName, HgtxRange };
  Grouping grouping = Grouping::BaseName;
  bool outsideRanges = false;
  // The HGTX range row of the kernels of a stream's less busy range names,
  // past kernelRangeGroups' `maxRows`: how many names it merges (else 0).
  uint32_t otherRanges = 0;
  // The manual's device row of a PPU (Timeline::deviceRows, device_row.cc):
  // its `sources` are the PPU's work rows (every stream and the PCCL
  // kernels); its window draws their kernels on lane 0 and their memcpys
  // and memsets on lane 1, merged (Timeline::window). Its share is its
  // sources' union over the PPU's busy time; `kernelShare` and
  // `memoryShare` the union of its kernels and of its memory operations
  // over the same (NaN on every other row).
  bool deviceRow = false;
  double kernelShare = 0, memoryShare = 0;
  // The union of its events' intervals, and that as a share of its parent's
  // busy time: its context's, else its group's (NaN: no share: a counter,
  // or a parent never busy). With a context, that context's busy time and
  // its share of the group's (NaN without a context).
  int64_t busy = 0;
  double share = 0;
  int64_t contextBusy = 0;
  double contextShare = 0;
  size_t size() const { return start.size(); }
  // Packs `events` (in start order, each end at or after its start, lanes
  // given or empty: all 0) as this track's, each vector given back once
  // packed.
  void setEvents(TimelineEventVectors&& events);
  // The bytes its events and levels hold (bench, docs/timeline.md).
  size_t eventBytes() const;
  size_t levelBytes() const;
};

// A group of tracks (a PPU, a process): its busy time (the union of its
// tracks' events) and that as a share of the busy time of all groups of its
// side (every PPU, every process).
struct TimelineGroup {
  std::string name;
  int64_t busy = 0;
  double share = 0;
};

// A window's slices of one track: merged events. `event` is the longest
// merged event's index in the track (what a click selects); `count` how many
// events the slice stands for.
struct TimelineSlices {
  std::vector<int64_t> start, end;
  std::vector<uint32_t> name, event, count;
  std::vector<uint16_t> lane;
  std::vector<TimelineKind> kind;
  // A device row's window only (empty on every other row): per slice, the
  // memory kinds of its memcpy (MemKindClass of the source << 4 | of the
  // destination; 0 for a kernel or memset).
  std::vector<uint8_t> memKind;
  // Where the row is drawn as an occupancy histogram (occupancy.h: its
  // window holds more events than pixels; empty otherwise): per pixel
  // column of the window, the busy fraction of its time, exact.
  std::vector<float> occupancy;
  // A device row's histogram only: `occupancy` is its kernels' (the upper
  // half), this its memory operations' (the lower half), per pixel column.
  std::vector<float> memoryOccupancy;
  size_t size() const { return start.size(); }
};

// The memory kinds a memcpy's source and destination are (HGGC_MEMCPY
// srcKind / dstKind -> ENUM_HGGC_MEM_KIND labels): what the device row
// colours a copy by (pinned or pageable host memory).
enum MemKindClass : uint8_t { kMemUnknown = 0, kMemPageable = 1, kMemPinned = 2, kMemDevice = 3, kMemManaged = 4, kMemOther = 5 };
MemKindClass memKindClassOf(std::string_view label);

// Every node's busy time and share (as TimelineTrack and TimelineGroup keep
// them for the whole capture) inside a window: the shares recomputed for a
// statistics range (Timeline::sharesIn). Per track (NaN: no share) and per
// group, in their order.
struct TimelineShares {
  std::vector<int64_t> busy, contextBusy;
  std::vector<double> share, contextShare;
  std::vector<int64_t> groupBusy;
  std::vector<double> groupShare;
  // A device row's kernels' and memory operations' unions over its PPU's
  // busy time (NaN on every other row).
  std::vector<double> kernelShare, memoryShare;
};

// Per block of PackedTimes::kBlock events (in start order): the union
// length of every event before the block, and the latest end among them
// (INT64_MIN for the first block). 16 bytes a block: 0.06 bytes an event,
// made for a track the first time a window draws it as a histogram
// (occupancy.h).
struct BusyCheckpoints {
  std::vector<int64_t> before, reach;
  size_t bytes() const { return 8 * (before.capacity() + reach.capacity()); }
};

// The same for a merged row (`[All Streams]`, a device row: occupancy.h),
// per block of PackedTimes::kBlock events of its sources merged in the
// order (start, source, index): the block's first event (its start, its
// source, its index there, from which every source's position at the block
// follows by a binary search), and per half (one for `[All Streams]`; a
// device row's kernels, then its memory operations) the union length of
// every event of that half before the block and the latest end among them.
// 16 + 16 bytes a half a block, whatever the number of sources.
struct MergedCheckpoints {
  uint8_t halves = 1;
  std::vector<int64_t> at;
  std::vector<uint32_t> source, index;
  std::vector<int64_t> before, reach;  // [block * halves + half]
  size_t bytes() const {
    return 8 * (at.capacity() + before.capacity() + reach.capacity()) + 4 * (source.capacity() + index.capacity());
  }
};

// What building may leave out to stay within the WebAssembly heap.
struct TimelineOptions {
  // The HGTX projection needs the association (each activity's launching
  // call and graph node, the pairs): about 80 bytes per PPU activity on top
  // of the timeline. Above this many activities the row is left out, with
  // a note (hgtx_ppu_proj_trace gives the same rows as a table).
  size_t projectionMaxActivities = 2'000'000;
  // The HGGC API calls are collected (25 bytes a call until their tracks
  // are made) a batch of threads at a time, at most this many calls a batch
  // (a thread with more is a batch of its own), one scan of the table a
  // batch: a report with more calls takes another scan instead of their
  // bytes at the build's peak (10.8 M calls in two threads: two batches).
  size_t batchEvents = 8'000'000;
  // The graph rows (Timeline::graphRows): a report with more graph launches
  // or more PPU activities run from graphs has none, and a note says why.
  size_t graphMaxLaunches = 1'000'000, graphMaxActivities = 16'000'000;
};

class Timeline {
 public:
  static Timeline build(Report& report, const TimelineOptions& options = {});
  const std::vector<TimelineTrack>& tracks() const { return tracks_; }
  // The groups in track order (each track's `group` names one).
  const std::vector<TimelineGroup>& groups() const { return groups_; }
  // The steps of a counter track in [from, to) at `pixels` columns
  // (counters.h); empty for an event track.
  CounterSlices counterWindow(size_t track, int64_t from, int64_t to, uint32_t pixels) const;
  // Every event of `track` overlapping [from, to), merged to `pixels` columns.
  TimelineSlices window(size_t track, int64_t from, int64_t to, uint32_t pixels) const;
  // The shares of every node inside [from, to) (events clipped to it), as
  // the build computes them over the whole capture.
  TimelineShares sharesIn(int64_t from, int64_t to) const;
  // The event a merged row's (`[All Streams]`) event `event` is: its source
  // track and its index there; any other track's event is itself. nullopt
  // past the row's events.
  std::optional<TimelineEventAt> sourceEvent(size_t track, uint32_t event) const;
  // The rows of `track`'s kernels grouped by base name (the Base kernel name
  // mode: shortName, else demangled, else mangled), one a name, built on
  // first ask and kept (appended to tracks(): earlier ids stay), by busy
  // time descending; their ids. A track with no kernels has none; one with
  // more than `maxEvents` kernels is refused in one line (the copies cost
  // about 25 bytes a kernel).
  std::vector<size_t> kernelGroups(Report& report, size_t track, size_t maxEvents = 2'000'000);
  // The rows of each of `tracks`' kernels grouped by HGTX range (Nsight's
  // "Show kernels grouped by: NVTX range"; kernel_range_groups.cc): a row a
  // name of the kernels' innermost associated range (the HGTX association
  // of hgtx_kern_sum, graph mapping on), one of the kernels no range
  // encloses (`outsideRanges`), by busy time descending, each a share of
  // its stream's busy time; built on first ask (one association a PPU for
  // the asked tracks' kernels) and kept, as kernelGroups' rows are; their
  // ids, the asked tracks' in turn. A stream of more than `maxRows` range
  // names keeps the busiest `maxRows` names' rows and one row of the rest
  // (`otherRanges`), last. Refused in one line above the projection's bound
  // (rangeGroupsRefused), or for a track of more than `maxEvents` kernels.
  std::vector<size_t> kernelRangeGroups(Report& report, const std::vector<size_t>& tracks,
                                        size_t maxEvents = 2'000'000, size_t maxRows = 50);
  // Whether kernelRangeGroups refuses: the report's PPU activities (counted
  // when the projection is built) are more than its bound
  // (TimelineOptions::projectionMaxActivities), whose association would not
  // fit beside the timeline.
  bool rangeGroupsRefused() const { return ppuActivities_ > associationMax_; }
  size_t ppuActivities() const { return ppuActivities_; }
  size_t associationMax() const { return associationMax_; }
  // The manual's device rows (device_row.cc): one per PPU with work, its
  // kernels over its memory operations, built on first ask and kept
  // (appended to tracks(): earlier ids stay), in PPU order; their ids. Each
  // holds no events (its sources are the PPU's work rows); what it keeps
  // is one byte a memcpy of the report (its memory kinds).
  std::vector<size_t> deviceRows(Report& report);
  // The manual's graph rows (graph_rows.cc): under each stream that ran
  // graph work, one row per graph exec launched on it (`graphOf` the
  // stream), labelled "Graph G → exec E" (G the graph the exec was
  // instantiated from, through HGGC_GRAPH_NODE_EVENTS; "Graph exec E" when
  // unknown), an event per launch: the span of the activities of one (exec,
  // correlation id) there. Built on first ask and kept (appended to
  // tracks(): earlier ids stay), in stream order, each stream's by exec;
  // their ids. Kept: the launches (about 80 bytes each with their levels
  // and notes), nothing per activity; from the build until then, 8 bytes
  // per graph activity (GraphLaunches: collected as the build read the
  // activity tables, so no table is read again here). A report past
  // TimelineOptions' graph bounds has none, and a note says why.
  std::vector<size_t> graphRows(Report& report);
  // The event that is row `row` of `table` (a rule row's event reference),
  // by a walk over the tracks' rows (no index kept: a lookup is a click);
  // nullopt when no track has it (an event the timeline leaves out).
  std::optional<TimelineEventAt> findEvent(EventTable table, uint32_t row) const;
  // The earliest start and latest end of any event (0, 0 when none).
  int64_t first() const { return first_; }
  int64_t last() const { return last_; }
  // The bytes the occupancy checkpoints made so far hold (occupancy.h; bench).
  size_t occupancyBytes() const {
    size_t b = 0;
    for (const auto& [track, c] : checkpoints_) b += c.bytes();
    for (const auto& [track, c] : mergedCheckpoints_) b += c.bytes();
    return b;
  }
  // What was left out and why, one line each (the viewer shows them).
  const std::vector<std::string>& notes() const { return notes_; }

 private:
  // The `[All Streams]` rows, each before its context's streams (`sections`:
  // per track, its DeviceSection for a PPU's track, pending.h).
  void addAllStreamsRows(const std::vector<int>& sections);
  // The window of a merged (`[All Streams]`) row: its sources' windows merged.
  TimelineSlices mergedWindow(const TimelineTrack& track, int64_t from, int64_t to, uint32_t pixels) const;
  // A row of some of stream `stream`'s kernels ("Show kernels grouped by"):
  // `events` on lanes with their levels of detail, its parent the stream,
  // its share of the stream's busy time (kernel_groups.cc).
  TimelineTrack kernelRowOf(size_t stream, TimelineEventVectors&& events, std::string label) const;
  // A device row's window: its kernels on lane 0, memory operations on lane 1.
  TimelineSlices deviceWindow(const TimelineTrack& track, int64_t from, int64_t to, uint32_t pixels) const;
  // A device row's kernel and memory shares inside [from, to) (sharesIn).
  void deviceRowShares(TimelineShares& out, int64_t from, int64_t to) const;
  // The union lengths of a device row's kernels and of its memory operations inside [from, to).
  void halvesIn(const TimelineTrack& row, int64_t from, int64_t to, int64_t& kernels, int64_t& memory) const;
  std::optional<std::vector<size_t>> deviceRows_;  // once built
  std::optional<std::vector<size_t>> graphRows_;   // once built
  std::optional<GraphLaunches> graphLaunches_;     // from the build until graphRows
  // A graph row's busy time inside [from, to): its stream's inside its
  // launches' spans (sharesIn).
  int64_t graphBusyIn(const TimelineTrack& row, int64_t from, int64_t to) const;
  // Per track drawn as an occupancy histogram once: its busy checkpoints
  // (occupancy.h; 16 bytes a block of 256 events).
  mutable std::map<size_t, BusyCheckpoints> checkpoints_;
  // The same for the merged rows (`[All Streams]`, device rows) so drawn.
  mutable std::map<size_t, MergedCheckpoints> mergedCheckpoints_;
  // A merged row's histogram(s), when its window is drawn as one (occupancy.h).
  void mergedOccupancy(size_t track, TimelineSlices& out, int64_t from, int64_t to, uint32_t pixels) const;
  std::vector<uint8_t> memcpyKinds_;  // per HGGC_MEMCPY row: MemKindClass src << 4 | dst
  std::vector<TimelineTrack> tracks_;
  std::map<size_t, std::vector<size_t>> kernelGroups_;  // a stream's base-name rows, once built
  std::map<size_t, std::vector<size_t>> rangeGroups_;   // a stream's HGTX range rows, once built
  size_t ppuActivities_ = 0, associationMax_ = SIZE_MAX;
  std::vector<TimelineGroup> groups_;
  std::vector<std::string> notes_;
  int64_t first_ = 0, last_ = 0;
};

// Whether a track is its PPU's work: what runs on it (a stream's kernels,
// memcpys and memsets, the PCCL kernels), not the rows drawn beside them
// (the HGTX projection, PCCL stages, counters). A PPU's busy time and a
// window's active time are the union of its work.
bool isPpuWork(const TimelineTrack& track);
// Whether a host track is its process's work: not its HGTX start/end ranges
// nor its allocation failures (host_rows.h). A process's busy time is the
// union of its work.
bool isHostWork(const TimelineTrack& track);

// The levels of detail of a track: resolutions 8x apart from 1 us up to the
// track's extent, each built from the last one kept; a level is kept when it
// has at most 3/4 of the slices below it, while more than 256 remain.
void buildLevels(TimelineTrack& track);

// Every event of `track` overlapping [from, to), merged to `pixels` columns,
// from its coarsest level merging under half a pixel (Timeline::window).
TimelineSlices trackWindow(const TimelineTrack& track, int64_t from, int64_t to, uint32_t pixels);

// Lanes for events in start order: each event takes the lowest lane free at
// its start (a lane is free once its last event ended). Returns the lane count.
uint16_t assignLanes(const std::vector<int64_t>& start, const std::vector<int64_t>& end, std::vector<uint16_t>& lane);

}  // namespace asys
