#pragma once
// Occupancy histograms (the manual: "Zoomed out, rows render as occupancy
// histograms"): where a row's window holds more events than pixels, how
// busy each pixel's time is, exactly: the union length of the row's events
// inside the pixel's span over the span. Computed from the busy time before
// each pixel edge, B(t) = |union of the events ∩ (-inf, t)|, read from a
// checkpoint a block of 256 events (the union of every earlier block's
// events and how far they reach) and at most that block's events: a window
// costs O(pixels · 256) event reads at most, whatever the events.
#include <cstdint>
#include <vector>

#include "core/timeline/timeline.h"

namespace asys {

BusyCheckpoints busyCheckpointsOf(const TimelineTrack& track);

// The busy fraction of each of `pixels` columns over [from, to): column j
// spans [from + (to - from) * j / pixels, from + (to - from) * (j + 1) /
// pixels) (integer ns, the edges rounded down), its value the union length
// of the track's events inside it over its length (0 for an empty span).
std::vector<float> occupancyOf(const TimelineTrack& track, const BusyCheckpoints& checkpoints, int64_t from,
                               int64_t to, uint32_t pixels);

// Whether a window of `track` over [from, to) at `pixels` columns is drawn
// as a histogram: an event row (no counter, no merged row) whose events
// starting in [from - its longest event, to) outnumber the pixels.
bool drawnAsOccupancy(const TimelineTrack& track, int64_t from, int64_t to, uint32_t pixels);

}  // namespace asys
