#pragma once
// A selection of PPU activities associated with the HGTX ranges of a range
// selection, in one step: what the HGTX <-> PPU rules and the operator
// engine start from. Plain values in, so the rules fill the selections from
// their options (core/rules/hgtx_association_options.h) and the operators
// from their query (core/operators/operator_set.h).
#include <cstddef>
#include <string>

#include "core/analysis/hgtx_association.h"
#include "core/analysis/ppu_activities.h"

namespace asys {

class Report;

struct AssociatedActivities {
  PpuActivities activities;
  HgtxAssociation association;
  bool memoryToo = false;
  // Activities with no launching call in their process and no range: their
  // correlation id names no HGGC_API row (a capture that missed the call).
  size_t unlaunched = 0;
};

// The activities `activities` selects (their links loaded, whatever
// `activities.links` says: the association follows them, and releases them
// once it has: correlationId and graphNodes come back empty), associated
// with the ranges `ranges` selects.
AssociatedActivities associateActivities(Report& report, ActivitySelection activities, RangeSelection ranges);

// The warning a result carries when `unlaunched` activities have no
// launching call, so the user knows why they are in no range; "" when none.
// `memoryToo`: they are PPU activities, not only kernels.
std::string unlaunchedWarning(size_t unlaunched, bool memoryToo);

}  // namespace asys
