#include "core/analysis/device_memory.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>

#include "core/analysis/intervals.h"
#include "core/analysis/key_groups.h"
#include "core/report/report.h"

namespace asys {

DeviceMemoryEvents pairDeviceMemory(Report& report) {
  const MemoryUsageEvents& m = report.memoryUsage(mcol::pairing);
  const size_t n = m.size();
  DeviceMemoryEvents out;
  std::vector<uint32_t> key(n, 0);
  std::vector<uint8_t> open(n, 0);
  std::vector<uint32_t> paired;  // the rows that take part in pairing (an address)
  // Dense (pid, device) places (consecutive rows mostly share one), then one
  // hash per event for (place, address): packed into 64 bits when the
  // address fits in 48 (always, for real address spaces), else through a
  // dense address id.
  KeyGroups places, addresses, keys;
  uint64_t lastPlaceKey = ~0ull;
  uint32_t place = 0;
  for (uint32_t i = 0; i < n; ++i) {
    if (m.deviceId[i] < 0) continue;
    if (m.operation[i] != kMemoryAllocation && m.operation[i] != kMemoryRelease) {
      out.otherOperations.push_back(i);
      continue;
    }
    out.order.push_back(i);
    open[i] = m.operation[i] == kMemoryAllocation;
    if (m.address[i] == kNoValue) continue;  // cannot be paired: never released, or unpaired
    const uint64_t placeKey =
        (static_cast<uint64_t>(memoryEventPid(m, i) & 0xFFFFFFFF) << 32) | static_cast<uint32_t>(m.deviceId[i]);
    if (placeKey != lastPlaceKey) {
      lastPlaceKey = placeKey;
      place = places.indexOf(placeKey);
    }
    const uint64_t address = static_cast<uint64_t>(m.address[i]);
    const uint64_t k = address < (1ull << 48) && place < (1u << 15)
                           ? (static_cast<uint64_t>(place) << 48) | address
                           : (1ull << 63) | (static_cast<uint64_t>(addresses.indexOf(address)) << 31) | place;
    key[i] = keys.indexOf(k);
    paired.push_back(i);
  }
  auto before = [&](uint32_t a, uint32_t b) {
    if (m.start[a] != m.start[b]) return m.start[a] < m.start[b];
    if (m.eventId[a] != m.eventId[b]) return m.eventId[a] < m.eventId[b];
    return a < b;
  };
  // Reports are written in time order: sort only when they are not.
  if (!std::is_sorted(out.order.begin(), out.order.end(), before)) {
    std::sort(out.order.begin(), out.order.end(), before);
    std::sort(paired.begin(), paired.end(), before);
  }
  OpenClosePairs p = pairLatestOpen(paired, key, open, keys.size());
  out.partner = std::move(p.partner);
  out.secondRelease = std::move(p.closedBefore);
  return out;
}

bool unreleasedAtEnd(const MemoryUsageEvents& m, const DeviceMemoryEvents& events, uint32_t allocation,
                     const TimeWindow& window) {
  const uint32_t release = events.partner[allocation];
  const int64_t releasedAt = release == DeviceMemoryEvents::kNone ? INT64_MAX : m.start[release];
  // Held from the allocation until the release; still held at the window's
  // last nanosecond when the release is not inside the window.
  return heldAt({m.start[allocation], releasedAt}, window.end - 1);
}

GroupLists::GroupLists(Report& report, const CallstackGroups& groups, bool firstOnly,
                       const std::vector<uint32_t>& allocations)
    : chainOfRow_(report.memoryUsage(mcol::callchainId).callchainId) {
  for (uint32_t row : allocations) {
    if (chainOfRow_[row] != kNoValue) chains_.indexOf(static_cast<uint64_t>(chainOfRow_[row]));
  }
  // The frames of those chains, grouped by chain (a counting sort), each
  // chain's frames root first (largest depth first).
  const CallchainFrames& f = report.callchains();
  std::vector<uint32_t> chainOfFrame(f.size(), KeyGroups::kNoGroup);
  std::vector<size_t> offset(chains_.size() + 1, 0);
  for (size_t i = 0; i < f.size(); ++i) {
    chainOfFrame[i] = chains_.find(static_cast<uint64_t>(f.id[i]));
    if (chainOfFrame[i] != KeyGroups::kNoGroup) ++offset[chainOfFrame[i] + 1];
  }
  std::partial_sum(offset.begin(), offset.end(), offset.begin());
  std::vector<uint32_t> frames(offset.back());
  {
    std::vector<size_t> next(offset.begin(), offset.end() - 1);
    for (uint32_t i = 0; i < f.size(); ++i) {
      if (chainOfFrame[i] != KeyGroups::kNoGroup) frames[next[chainOfFrame[i]]++] = i;
    }
  }

  std::unordered_map<std::string, uint32_t> ids;
  auto listId = [&](std::string text) {
    auto [it, added] = ids.emplace(std::move(text), static_cast<uint32_t>(texts_.size()));
    if (added) texts_.push_back(it->first);
    return it->second;
  };
  CallstackMatcher matcher(groups, report.strings());
  std::vector<uint32_t> symbols, modules, matched;
  listOfChain_.resize(chains_.size());
  for (size_t c = 0; c < chains_.size(); ++c) {
    auto first = frames.begin() + static_cast<std::ptrdiff_t>(offset[c]);
    auto last = frames.begin() + static_cast<std::ptrdiff_t>(offset[c + 1]);
    std::sort(first, last, [&](uint32_t a, uint32_t b) { return f.depth[a] != f.depth[b] ? f.depth[a] > f.depth[b] : a < b; });
    symbols.clear();
    modules.clear();
    for (auto it = first; it != last; ++it) {
      symbols.push_back(f.symbol[*it]);
      modules.push_back(f.module[*it]);
    }
    matcher.match(symbols, modules, matched);
    const size_t take = firstOnly ? std::min<size_t>(matched.size(), 1) : matched.size();
    std::string text;
    for (size_t i = 0; i < take; ++i) text += (text.empty() ? "" : "/") + groups.groups()[matched[i]].name;
    listOfChain_[c] = listId(text.empty() ? "others" : std::move(text));
  }
  noChainList_ = listId("others");
}

uint32_t GroupLists::of(uint32_t row) const {
  const int64_t chain = chainOfRow_[row];
  if (chain == kNoValue) return noChainList_;
  const uint32_t c = chains_.find(static_cast<uint64_t>(chain));
  return c == KeyGroups::kNoGroup ? noChainList_ : listOfChain_[c];
}

}  // namespace asys
