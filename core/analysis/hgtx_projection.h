#pragma once
// HGTX ranges projected onto the PPU timeline (2.3.11, 2.3.12): a range's
// projection runs from the earliest start to the latest end of its
// associated activities, and its PPU active time is the union of those
// activities' intervals (overlaps counted once).
#include <cstdint>
#include <vector>

#include "core/analysis/hgtx_association.h"

namespace asys {

struct RangeProjections {
  // By range slot; a range with ops == 0 has no projection. `active` is
  // empty when not asked for.
  std::vector<int64_t> start, end, active;
  std::vector<uint32_t> ops;
};

// `withActive`: each range's PPU active time too (hgtx_ppu_proj_sum needs
// only the projections, whose union per name is its active time).
RangeProjections projectRanges(const PpuActivities& activities, const HgtxAssociation& association,
                               bool withActive = true);

// Gives back the activities' columns that projectRanges does not read (all
// but start and end: 17 bytes an activity), for a caller that reads no more
// of them, so that they are not held beside the projections.
void keepOnlySpans(PpuActivities& activities);

}  // namespace asys
