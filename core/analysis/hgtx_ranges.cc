#include "core/analysis/hgtx_ranges.h"

#include <algorithm>
#include <numeric>
#include <queue>
#include <string>

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
  std::vector<uint32_t> result(callStart.size(), kNoRange);
  std::vector<uint32_t> ranges;
  for (size_t i = 0; i < h.size(); ++i)
    if (isRange(h, i)) ranges.push_back(static_cast<uint32_t>(i));
  if (ranges.empty()) return result;
  std::sort(ranges.begin(), ranges.end(), [&](uint32_t a, uint32_t b) {
    return std::tie(h.globalTid[a], h.start[a]) < std::tie(h.globalTid[b], h.start[b]);
  });
  std::vector<uint32_t> calls(callStart.size());
  std::iota(calls.begin(), calls.end(), 0u);
  std::sort(calls.begin(), calls.end(), [&](uint32_t a, uint32_t b) {
    return std::tie(callTid[a], callStart[a]) < std::tie(callTid[b], callStart[b]);
  });

  // Active ranges of the current thread, the innermost on top.
  auto inner = [&](uint32_t a, uint32_t b) {  // true if a is "less inner" than b
    if (h.start[a] != h.start[b]) return h.start[a] < h.start[b];
    return h.end[a] > h.end[b];
  };
  std::priority_queue<uint32_t, std::vector<uint32_t>, decltype(inner)> active(inner);
  size_t r = 0;
  int64_t thread = INT64_MIN;
  for (uint32_t c : calls) {
    if (callTid[c] != thread) {
      thread = callTid[c];
      while (!active.empty()) active.pop();
      while (r < ranges.size() && h.globalTid[ranges[r]] < thread) ++r;
    }
    while (r < ranges.size() && h.globalTid[ranges[r]] == thread && h.start[ranges[r]] <= callStart[c]) {
      active.push(ranges[r++]);
    }
    // Calls come in start order, so a range that ended is ended for good.
    while (!active.empty() && h.end[active.top()] <= callStart[c]) active.pop();
    if (!active.empty()) result[c] = active.top();
  }
  return result;
}

std::vector<uint32_t> launchingCalls(const Kernels& k, const ApiCalls& api) {
  // Sort-merge join on (pid, correlationId): no hash map of millions of nodes.
  auto keyOfCall = [&](size_t i) { return std::make_pair(pidOf(api.globalTid[i]), api.correlationId[i]); };
  std::vector<uint32_t> byKey(api.size());
  std::iota(byKey.begin(), byKey.end(), 0u);
  // Stable: with a duplicated correlation id, the first call in table order wins.
  std::stable_sort(byKey.begin(), byKey.end(), [&](uint32_t a, uint32_t b) { return keyOfCall(a) < keyOfCall(b); });
  std::vector<uint32_t> result(k.size(), kNoRange);
  for (size_t i = 0; i < k.size(); ++i) {
    if (k.correlationId[i] == kNoValue) continue;
    auto key = std::make_pair(pidOf(k.globalPid[i]), k.correlationId[i]);
    auto it = std::lower_bound(byKey.begin(), byKey.end(), key,
                               [&](uint32_t a, const auto& v) { return keyOfCall(a) < v; });
    if (it != byKey.end() && keyOfCall(*it) == key) result[i] = *it;
  }
  return result;
}

}  // namespace asys
