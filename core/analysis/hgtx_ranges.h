#pragma once
// HGTX range lookups shared by rules: display names and the innermost range
// around host calls, found by one sorted sweep per thread.
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "core/report/report.h"

namespace asys {

constexpr uint32_t kNoRange = 0xFFFFFFFFu;

inline bool isRange(const HgtxEvents& h, size_t i) {
  return (h.eventType[i] == kHgtxPushPop || h.eventType[i] == kHgtxStartEnd) && h.end[i] != kNoValue;
}

// `domain:name` when the range's domain has a name, else `name`; interned,
// once per (domain, name) pair.
class QualifiedNames {
 public:
  explicit QualifiedNames(StringPool& strings) : strings_(strings) {}
  // `domain`: the domain's name id, kNoString when it has none.
  uint32_t of(uint32_t domain, uint32_t name);

 private:
  StringPool& strings_;
  std::unordered_map<uint64_t, uint32_t> qualified_;
};

// The same for an event of the loaded HGTX_EVENTS.
class RangeNamer {
 public:
  explicit RangeNamer(Report& report);
  uint32_t nameId(size_t event);

 private:
  Report& report_;
  const HgtxEvents& h_;
  QualifiedNames qualified_;
};

// For each call (start, globalTid), the HGTX event index of the innermost
// range on the same thread with range.start <= call.start < range.end:
// the latest-starting one, the shorter on a tie. kNoRange when none.
std::vector<uint32_t> innermostRanges(const HgtxEvents& h, const std::vector<int64_t>& callStart,
                                      const std::vector<int64_t>& callTid);

// For each PPU activity (its globalPid and correlationId columns), the index
// of the HGGC_API call with the same correlationId in the same process (the
// first in table order when a report repeats one), or kNoRange.
std::vector<uint32_t> launchingCalls(const std::vector<int64_t>& globalPid, const std::vector<int64_t>& correlationId,
                                     const ApiCalls& api);

}  // namespace asys
