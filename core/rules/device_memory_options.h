#pragma once
// What device_memory_usage_summary and device_memory_usage_detail share
// (asys-stats-rules 2.3.1): the match-first-group option, the data they read,
// and the warning about releases that pair with no allocation.
#include "core/analysis/device_memory.h"
#include "core/rules/rule.h"

namespace asys {

OptionSpec matchFirstGroupOption();
// PPU_MEMORY_USAGE_EVENTS (`--hggc-memory-usage device`).
DataNeed deviceMemoryNeed();

// One warning line for the releases inside the statistics time range that
// pair with no allocation (none of their address unreleased in their process
// and device: never allocated in the capture, or released a second time),
// and one for events of an unknown memoryOperationType. Nothing when none.
void addPairingWarnings(Table& t, RuleContext& ctx, const DeviceMemoryEvents& events);

}  // namespace asys
