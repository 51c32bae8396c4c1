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

// The merged rows (`[All Streams]`: a context's streams; a device row: its
// PPU's work, kernels and memory operations apart). The union of several
// rows is not the sum of their B(t), so the sources' events are merged in
// the order (start, source, index) and checkpointed per block of 256 of
// them (MergedCheckpoints: each half's union before the block and how far
// it reaches, and the block's first event, from which each source's
// position follows by a binary search); B(t) is then a checkpoint plus a
// k-way merge walk of at most one block. A window costs at most pixels ·
// (256 events + one binary search a source) and reads each event of the
// window at most once besides; the checkpoints cost 32 bytes (a device
// row: 48) a block of 256 events, whatever the number of sources.
//
// `halves`: 1 (every event counts) or 2 (a device row: kernels and PCCL
// kernels are half 0, memcpys and memsets half 1, any other event neither).
MergedCheckpoints mergedCheckpointsOf(const std::vector<const TimelineTrack*>& sources, uint8_t halves);

// Per half, the busy fraction of each of `pixels` columns over [from, to)
// (columns as occupancyOf's): the union length of the sources' events of
// that half inside the column over its length. `reads`, when given, counts
// the events the walks read (the bound: at most 256 a column edge).
std::vector<std::vector<float>> mergedOccupancyOf(const std::vector<const TimelineTrack*>& sources,
                                                  const MergedCheckpoints& checkpoints, int64_t from, int64_t to,
                                                  uint32_t pixels, size_t* reads = nullptr);

// The threshold of drawnAsOccupancy for a merged row: its sources' events
// starting in [from - each one's longest event, to) outnumber the pixels.
bool mergedDrawnAsOccupancy(const std::vector<const TimelineTrack*>& sources, int64_t from, int64_t to,
                            uint32_t pixels);

}  // namespace asys
