#pragma once
// HGGC memory operations (HGGC_MEMCPY, HGGC_MEMSET) as the memory rules name
// them: hggc_ppu_trace, hggc_ppu_mem_size_sum and hggc_ppu_mem_time_sum.
#include <cstdint>
#include <map>
#include <unordered_map>
#include <string>
#include <string_view>
#include <vector>

#include "core/rules/rule.h"

namespace asys {

// HGGC_MEMCPY or HGGC_MEMSET: either table is enough.
DataNeed memoryOpsNeed();

// The copy kind's ENUM_HGGC_MEMCPY_OPER label; "Unknown" when the id has none.
std::string_view memcpyKindLabel(Report& report, int64_t copyKind);

// "Host-to-Device" -> "HtoD": the first letters of the two sides of an
// `X-to-Y` label; any other label is kept as it is.
std::string shortCopyKind(std::string_view label);

// "Memcpy HtoD (device)": the short copy kind, then the destination memory
// kind in lower case (left out when unknown); each distinct name built once.
// hggc_ppu_trace's memcpy names, which the operator rules use too.
class MemcpyNames {
 public:
  explicit MemcpyNames(Report& report);
  std::string_view name(int64_t copyKind, int64_t dstKind);
  // ENUM_HGGC_MEM_KIND label; empty when unknown.
  std::string_view memKind(int64_t kind);

 private:
  Report& report_;
  const std::unordered_map<int64_t, uint32_t>& memKinds_;
  std::map<std::pair<int64_t, int64_t>, std::string> names_;
};

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
