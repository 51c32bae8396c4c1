#pragma once
// Links between the timeline's events: an HGGC API call and the PPU
// activities (kernels, memcpys, memsets) it launched, joined as every rule
// joins them (launchingCalls: the same correlation id in the same process,
// the first call in table order when a process repeats an id). Built once,
// on the first question, as sorted arrays: a question costs a lookup, never
// a scan of the report.
#include <cstdint>
#include <vector>

#include "core/report/report.h"
#include "core/timeline/timeline.h"

namespace asys {

// One event of the timeline: its track and its index in the track.
struct TimelineEventRef {
  uint32_t track = 0, event = 0;
  bool operator==(const TimelineEventRef& o) const { return track == o.track && event == o.event; }
};

class TimelineLinks {
 public:
  // Reads HGGC_API (correlationId, globalTid) and, of the activity tables,
  // correlationId and globalPid; `timeline` must be built from `report`.
  static TimelineLinks build(Report& report, const Timeline& timeline);

  // The events linked to `e`: for an API call, the activities it launched
  // (in start order, then track and index); for an activity, its launching
  // call; otherwise (HGTX ranges, events without a table row) none.
  std::vector<TimelineEventRef> related(const Timeline& timeline, TimelineEventRef e) const;

 private:
  // By HGGC_API row: where the call is on the timeline (kNoTimelineRow
  // track when it is not), and its launched activities as
  // launched_[launchedAt_[row] .. launchedAt_[row + 1]).
  std::vector<TimelineEventRef> callAt_;
  std::vector<uint32_t> launchedAt_;
  std::vector<TimelineEventRef> launched_;
  // By activity kind (Kernel, Memcpy, Memset) and table row: its launching
  // call's HGGC_API row, or kNoTimelineRow.
  std::vector<uint32_t> callOf_[3];
};

}  // namespace asys
