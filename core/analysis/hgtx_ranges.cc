#include "core/analysis/hgtx_ranges.h"

#include <algorithm>
#include <optional>
#include <string>

#include "core/analysis/intervals.h"
#include "core/analysis/key_groups.h"
#include "core/analysis/key_join.h"

namespace asys {

uint32_t QualifiedNames::of(uint32_t domain, uint32_t name) {
  if (domain == kNoString || name == kNoString) return name;
  uint64_t key = (static_cast<uint64_t>(domain) << 32) | name;
  auto it = qualified_.find(key);
  if (it != qualified_.end()) return it->second;
  std::string text(strings_.get(domain));
  text += ':';
  text += strings_.get(name);
  uint32_t id = strings_.intern(text);
  qualified_.emplace(key, id);
  return id;
}

RangeNamer::RangeNamer(Report& report) : report_(report), h_(report.hgtx()), qualified_(report.strings()) {}

uint32_t RangeNamer::nameId(size_t i) {
  return qualified_.of(report_.hgtxDomainName(h_.globalTid[i], h_.domainId[i]), h_.nameId[i]);
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

namespace {

// launchingCalls by direct tables, one per process, when the calls'
// correlation ids are small and dense (the table at most four times the
// calls); nullopt otherwise.
std::optional<std::vector<uint32_t>> launchingCallsDirect(const std::vector<int64_t>& globalPid,
                                                          const std::vector<int64_t>& correlationId,
                                                          const ApiCalls& api) {
  constexpr size_t kMaxProcesses = 64;
  std::vector<int64_t> pids;
  std::vector<int64_t> maxCorr;
  auto slotOf = [&](int64_t pid) -> int {
    for (size_t i = 0; i < pids.size(); ++i)
      if (pids[i] == pid) return static_cast<int>(i);
    if (pids.size() == kMaxProcesses) return -1;
    pids.push_back(pid);
    maxCorr.push_back(-1);
    return static_cast<int>(pids.size() - 1);
  };
  int last = -1;
  int64_t lastPid = -1;
  for (size_t c = 0; c < api.size(); ++c) {
    const int64_t corr = api.correlationId[c];
    if (corr == kNoValue) continue;
    if (corr < 0) return std::nullopt;
    const int64_t pid = pidOf(api.globalTid[c]);
    if (last < 0 || pid != lastPid) {
      last = slotOf(pid);
      lastPid = pid;
      if (last < 0) return std::nullopt;
    }
    maxCorr[last] = std::max(maxCorr[last], corr);
  }
  size_t cells = 0;
  for (int64_t m : maxCorr) cells += static_cast<size_t>(m + 1);
  if (cells > 4 * api.size() + 1024) return std::nullopt;
  std::vector<size_t> base(pids.size(), 0);
  for (size_t i = 1; i < pids.size(); ++i) base[i] = base[i - 1] + static_cast<size_t>(maxCorr[i - 1] + 1);
  std::vector<uint32_t> table(cells, kNoRange);
  last = -1;
  lastPid = -1;
  for (size_t c = 0; c < api.size(); ++c) {
    const int64_t corr = api.correlationId[c];
    if (corr == kNoValue) continue;
    const int64_t pid = pidOf(api.globalTid[c]);
    if (last < 0 || pid != lastPid) {
      last = slotOf(pid);
      lastPid = pid;
    }
    uint32_t& cell = table[base[last] + static_cast<size_t>(corr)];
    if (cell == kNoRange) cell = static_cast<uint32_t>(c);  // the first in table order
  }
  std::vector<uint32_t> result(correlationId.size(), kNoRange);
  for (size_t i = 0; i < correlationId.size(); ++i) {
    const int64_t corr = correlationId[i];
    if (corr == kNoValue || corr < 0) continue;
    const int64_t pid = pidOf(globalPid[i]);
    size_t p = 0;
    while (p < pids.size() && pids[p] != pid) ++p;
    if (p == pids.size() || corr > maxCorr[p]) continue;
    result[i] = table[base[p] + static_cast<size_t>(corr)];
  }
  return result;
}

}  // namespace

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
  // Dense ids (a per-process counter, as HGGC, CUPTI and the generator give
  // them): one direct table per process, no hashing.
  if (auto direct = launchingCallsDirect(globalPid, correlationId, api)) return std::move(*direct);
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
