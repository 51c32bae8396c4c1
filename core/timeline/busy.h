#pragma once
// Busy time of timeline nodes: the union of their events' intervals
// (overlaps counted once), for the share of its parent's busy time each
// track and group shows. Tracks keep their events in start order, so the
// union of several tracks is a k-way merge of them fed in start order to
// the interval toolkit (core/analysis/intervals.h), chunk by chunk: the
// memory it takes is one chunk, whatever the tracks hold.
#include <cstdint>
#include <vector>

namespace asys {

struct TimelineTrack;

// The union length of the events of `tracks` (each in start order).
int64_t busyOf(const std::vector<const TimelineTrack*>& tracks);

}  // namespace asys
