#pragma once
// HGGC memory operations (HGGC_MEMCPY, HGGC_MEMSET) as the memory summary
// rules group them: hggc_ppu_mem_size_sum and hggc_ppu_mem_time_sum (a
// memcpy's name in a trace: core/analysis/memcpy_names.h).
#include <cstdint>
#include <string>
#include <vector>

#include "core/rules/rule.h"

namespace asys {

// HGGC_MEMCPY or HGGC_MEMSET: either table is enough.
DataNeed memoryOpsNeed();

// Values of the memory operations that pass the time window, grouped by
// operation: `[HGGC memcpy <copy kind label>]` (copy kinds sharing a label
// share a group) and `[HGGC memset]`.
struct MemoryOpSamples {
  std::vector<uint32_t> groupOf;
  std::vector<int64_t> values;
  std::vector<std::string> names;  // by group
};
enum class MemoryOpValue { Bytes, Duration };
MemoryOpSamples memoryOpSamples(RuleContext& ctx, MemoryOpValue value);

}  // namespace asys
