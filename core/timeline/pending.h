#pragma once
// Internal to core/timeline: the tracks being collected while the timeline
// is built, before they are put in start order (timeline.cc finishes them),
// and the names of their groups. Split out so each family of tracks can be
// collected in its own file (timeline.cc: streams, API and HGTX;
// extra_tracks.cc: OSRT, PCCL, the HGTX projection, counters).
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "core/report/report.h"
#include "core/timeline/timeline.h"

namespace asys::timeline_detail {

struct Pending {
  std::string group, label;
  std::string context;  // TimelineTrack::context
  std::vector<int64_t> start, end;
  std::vector<uint32_t> name;
  std::vector<uint16_t> lane;  // given (HGTX levels) or empty (assigned)
  std::vector<TimelineKind> kind;
  std::vector<uint32_t> row;  // the event's table row (TimelineTrack::row), or empty: no event has one
  std::optional<TimelineCounter> counter;  // a counter track: no events
  // What collect()'s counting pass found: how many events come, whether
  // any has a row, whether their lanes are given.
  size_t counted = 0;
  bool withRows = false, withLanes = false;
  // The batch a family filled in batches fills it in (addApiTracks; 0: none).
  uint32_t batch = 0;
  // A host row's (host_rows.h): TimelineTrack::hostRow and notes.
  HostRow hostRow = HostRow::None;
  std::shared_ptr<HostEventNotes> notes;

  void add(int64_t s, int64_t e, uint32_t n, TimelineKind k) {
    start.push_back(s);
    end.push_back(e);
    name.push_back(n);
    kind.push_back(k);
  }
  // An event of table row `r` (kNoTimelineRow: none): counted in the first
  // pass of collect(), added in the second.
  void take(bool fill, int64_t s, int64_t e, uint32_t n, TimelineKind k, uint32_t r = kNoTimelineRow) {
    if (!fill) {
      ++counted;
      withRows |= r != kNoTimelineRow;
      return;
    }
    add(s, e, n, k);
    if (withRows) row.push_back(r);
  }
  // An event on a given lane (an HGTX nesting level), of table row `r`.
  void takeOnLane(bool fill, int64_t s, int64_t e, uint32_t n, TimelineKind k, uint16_t l, uint32_t r = kNoTimelineRow) {
    if (!fill) {
      ++counted;
      withLanes = true;
      withRows |= r != kNoTimelineRow;
      return;
    }
    add(s, e, n, k);
    lane.push_back(l);
    if (withRows) row.push_back(r);
  }
  void reserveCounted() {
    const size_t n = start.size() + counted;
    start.reserve(n);
    end.reserve(n);
    name.reserve(n);
    kind.reserve(n);
    if (withRows) row.reserve(n);
    if (withLanes) lane.reserve(n);
    counted = 0;
  }
};

// Sides: PPUs first, then host processes.
enum Side : int { kDeviceSide = 0, kHostSide = 1 };
// The order of a PPU's tracks, and of a thread's.
enum DeviceSection : int { kStreams, kPcclKernels, kPcclStages, kProjection, kMemory, kMetrics };
enum ThreadSection : int { kApi, kHgtx, kOsrt };

// By track key: (side, device or globalTid, section, a, b), e.g. (device
// side, 0, streams, stream 7, 0) or (host side, tid, OSRT, 0, 0).
using TrackKey = std::tuple<int, int64_t, int, int64_t, int64_t>;
using PendingTracks = std::map<TrackKey, Pending>;

// A thread's row label: "Thread <tid>", then its name in brackets. A name
// that already starts with "thread <tid>" (Kineto names its threads
// "thread 25738 (python)") is not repeated: it reads "Thread 25738 (python)".
std::string threadLabelOf(int64_t tid, std::string_view name);

// A track of a PPU or a thread, its group and label set on first use.
Pending& deviceTrack(Report& report, PendingTracks& out, int64_t device, DeviceSection section, int64_t a,
                     int64_t b, const std::function<std::string()>& label);
Pending& threadTrack(Report& report, PendingTracks& out, int64_t globalTid, ThreadSection section,
                     const char* suffix);

// Collects a family of tracks in two passes over its rows: `visit(false)`
// counts each track's events (Pending::take), then, every track's vectors
// reserved to its count, `visit(true)` adds them. Grown by push_back a
// vector holds up to twice its events' bytes, and all of a family's tracks
// grow at once: at the peak that would be about as much as the events.
template <typename Visit>
void collect(PendingTracks& out, Visit visit) {
  visit(false);
  for (auto& [key, p] : out) p.reserveCounted();
  visit(true);
}

// OSRT calls per thread; PCCL stages per PPU, channel and direction; the
// HGTX projection per PPU; memory in use and PPU metrics per PPU. Each
// releases the report's table once its tracks hold what they read
// (Timeline::build finishes them first).
void addOsrtTracks(Report& report, PendingTracks& out);
void addPcclStageTracks(Report& report, PendingTracks& out);
// The projection is left out above `maxActivities` PPU activities: returns
// the note saying so, else "".
std::string addProjectionTracks(Report& report, PendingTracks& out, size_t maxActivities, size_t& activitiesOut);
void addCounterTracks(Report& report, PendingTracks& out);

}  // namespace asys::timeline_detail
