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
#include <tuple>
#include <vector>

#include "core/report/report.h"
#include "core/timeline/timeline.h"

namespace asys::timeline_detail {

struct Pending {
  std::string group, label;
  std::vector<int64_t> start, end;
  std::vector<uint32_t> name;
  std::vector<uint16_t> lane;  // given (HGTX levels) or empty (assigned)
  std::vector<TimelineKind> kind;
  std::vector<uint32_t> row;  // the event's table row (TimelineTrack::row)
  std::optional<TimelineCounter> counter;  // a counter track: no events
  void add(int64_t s, int64_t e, uint32_t n, TimelineKind k, uint32_t r = kNoTimelineRow) {
    start.push_back(s);
    end.push_back(e);
    name.push_back(n);
    kind.push_back(k);
    row.push_back(r);
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

// A track of a PPU or a thread, its group and label set on first use.
Pending& deviceTrack(Report& report, PendingTracks& out, int64_t device, DeviceSection section, int64_t a,
                     int64_t b, const std::function<std::string()>& label);
Pending& threadTrack(Report& report, PendingTracks& out, int64_t globalTid, ThreadSection section,
                     const char* suffix);

// OSRT calls per thread; PCCL stages per PPU, channel and direction; the
// HGTX projection per PPU; memory in use and PPU metrics per PPU.
void addOsrtTracks(Report& report, PendingTracks& out);
void addPcclStageTracks(Report& report, PendingTracks& out);
// The projection is left out above `maxActivities` PPU activities: returns
// the note saying so, else "".
std::string addProjectionTracks(Report& report, PendingTracks& out, size_t maxActivities);
void addCounterTracks(Report& report, PendingTracks& out);

}  // namespace asys::timeline_detail
