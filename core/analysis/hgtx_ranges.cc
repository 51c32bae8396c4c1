#include "core/analysis/hgtx_ranges.h"

#include <string>

#include "core/analysis/intervals.h"
#include "core/analysis/key_groups.h"
#include "core/analysis/key_join.h"

namespace asys {

RangeNamer::RangeNamer(Report& report) : report_(report), h_(report.hgtx()), strings_(report.strings()) {}

uint32_t RangeNamer::nameId(size_t i) {
  const uint32_t domain = report_.hgtxDomainName(h_.globalTid[i], h_.domainId[i]);
  if (domain == kNoString || h_.nameId[i] == kNoString) return h_.nameId[i];
  uint64_t key = (static_cast<uint64_t>(domain) << 32) | h_.nameId[i];
  auto it = qualified_.find(key);
  if (it != qualified_.end()) return it->second;
  std::string name(strings_.get(domain));
  name += ':';
  name += strings_.get(h_.nameId[i]);
  uint32_t id = strings_.intern(name);
  qualified_.emplace(key, id);
  return id;
}

std::vector<uint32_t> innermostRanges(const HgtxEvents& h, const std::vector<int64_t>& callStart,
                                      const std::vector<int64_t>& callTid) {
  std::vector<uint32_t> ranges;
  std::vector<int64_t> tid, start, end;
  for (size_t i = 0; i < h.size(); ++i) {
    if (!isRange(h, i)) continue;
    ranges.push_back(static_cast<uint32_t>(i));
    tid.push_back(h.globalTid[i]);
    start.push_back(h.start[i]);
    end.push_back(h.end[i]);
  }
  std::vector<uint32_t> result = innermostEnclosing({tid, start, end}, callTid, callStart);
  for (uint32_t& r : result) r = r == kNoContainer ? kNoRange : ranges[r];
  return result;
}

std::vector<uint32_t> launchingCalls(const std::vector<int64_t>& globalPid, const std::vector<int64_t>& correlationId,
                                     const ApiCalls& api) {
  // Correlation ids below 2^40 (HGGC's and CUPTI's are 32-bit) pack with the
  // 24-bit pid into one key: a hash join, about three times faster than the
  // sort-merge join every other id falls back to.
  constexpr int64_t kPackLimit = int64_t{1} << 40;
  auto packable = [](const std::vector<int64_t>& ids) {
    for (int64_t c : ids)
      if (c != kNoValue && (c < 0 || c >= kPackLimit)) return false;
    return true;
  };
  if (packable(correlationId) && packable(api.correlationId)) {
    auto pack = [](int64_t gtidOrPid, int64_t corr) {
      return (static_cast<uint64_t>(pidOf(gtidOrPid)) << 40) | static_cast<uint64_t>(corr);
    };
    KeyGroups calls;
    std::vector<uint32_t> first;  // by group: the first call with the key
    for (size_t c = 0; c < api.size(); ++c) {
      if (api.correlationId[c] == kNoValue) continue;
      if (calls.indexOf(pack(api.globalTid[c], api.correlationId[c])) == first.size())
        first.push_back(static_cast<uint32_t>(c));
    }
    std::vector<uint32_t> result(correlationId.size(), kNoRange);
    for (size_t i = 0; i < correlationId.size(); ++i) {
      if (correlationId[i] == kNoValue) continue;
      const uint32_t g = calls.find(pack(globalPid[i], correlationId[i]));
      if (g != KeyGroups::kNoGroup) result[i] = first[g];
    }
    return result;
  }
  return joinFirst(
      api.size(), [&](size_t c) { return std::make_pair(pidOf(api.globalTid[c]), api.correlationId[c]); },
      globalPid.size(), [&](size_t i) { return std::make_pair(pidOf(globalPid[i]), correlationId[i]); },
      [&](size_t i) { return correlationId[i] == kNoValue; });
}

}  // namespace asys
