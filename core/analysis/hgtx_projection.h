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
  // By range slot; a range with ops == 0 has no projection.
  std::vector<int64_t> start, end, active;
  std::vector<uint32_t> ops;
};

RangeProjections projectRanges(const PpuActivities& activities, const HgtxAssociation& association);

}  // namespace asys
