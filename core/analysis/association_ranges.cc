#include "core/analysis/association_ranges.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

#include "core/analysis/hgtx_ranges.h"
#include "core/analysis/key_groups.h"
#include "core/analysis/key_join.h"
#include "core/base/error.h"
#include "core/base/permute.h"
#include "core/base/stage_timer.h"
#include "core/report/report.h"

namespace asys {

namespace {

// A found range whose name is final and chosen already (FoundRanges::domain).
constexpr uint32_t kChosen = kNoMatch - 1;

// The ranges as the scan finds them, in event order: what a range needs and
// no more (29 bytes; the table whole holds 60 an event). Its thread and its
// domain are dense indices. A range is chosen as it is found when its name
// is final (it has no domain, or the events are loaded and every domain is
// known), so the ranges a selection drops are never held. Otherwise it
// waits with its unqualified name, as a domain's name may come in a later
// row, and so do all after it, so that the choices (keepRange) are made in
// event order.
struct FoundRanges {
  // domain: kChosen, or the range waits: its domain's index, kNoMatch for none
  std::vector<uint32_t> event, thread, domain, name;
  std::vector<int64_t> start;
  // end - start (4 bytes below 4.3 s), kNoValue while never closed: the
  // ranges' end as AssociationRanges keeps it, so that no 8-byte end is
  // held and given back.
  NarrowInts duration;
  std::vector<uint8_t> startEnd;
  // With `wantArgs`: a waiting range's argsId (RangeSelection::keepNamedRange
  // is told them once it is chosen); empty otherwise.
  std::vector<uint32_t> args;
  bool wantArgs = false;
  // With `wantIds`: (event, rangeId) of the ranges whose ID is not event + 1.
  std::vector<std::pair<uint32_t, int64_t>> otherIds;
  bool wantIds = false;
  KeyGroups threads;                                  // globalTid -> index
  std::map<std::pair<int64_t, int64_t>, uint32_t> domains;  // (pid, domainId) -> index
  std::vector<uint32_t> domainName;                   // by domain index: its name id, or kNoString
  int64_t last = INT64_MIN;                           // the last HGTX timestamp

  uint32_t domainOf(int64_t globalTid, int64_t domainId) {
    const auto [it, added] = domains.try_emplace({pidOf(globalTid), domainId}, static_cast<uint32_t>(domainName.size()));
    if (added) domainName.push_back(kNoString);
    return it->second;
  }

  bool waiting = false;  // a range waits: every later one does
  // RangeSelection::keepOwnName; empty = all.
  std::function<bool(uint32_t ownName)> keepOwnName;

  // choose(event, i): the name of the chunk's range i (event `event`) when
  // the selection keeps it, else kNoString. `domainsKnown`: choose() knows
  // the domains' names already.
  template <typename Choose>
  void take(size_t firstEvent, const HgtxEvents& h, bool domainsKnown, Choose&& choose) {
    uint32_t lastThread = kNoMatch;
    int64_t lastTid = 0;
    for (size_t i = 0; i < h.size(); ++i) {
      last = std::max({last, h.start[i], h.end[i]});
      const int32_t type = h.eventType[i];
      if (type == kHgtxDomainCreate && h.domainId[i] != kNoValue) {
        domainName[domainOf(h.globalTid[i], h.domainId[i])] = h.nameId[i];  // the last creation wins
        continue;
      }
      if (type != kHgtxPushPop && type != kHgtxStartEnd) continue;
      // Nsight: "only ranges that start and end on the same thread".
      if (type == kHgtxStartEnd && h.endGlobalTid[i] != kNoValue && h.endGlobalTid[i] != h.globalTid[i]) continue;
      if (keepOwnName && !keepOwnName(h.nameId[i])) continue;
      const uint32_t e = static_cast<uint32_t>(firstEvent + i);
      waiting = waiting || (!domainsKnown && h.domainId[i] != kNoValue);
      uint32_t n = h.nameId[i];
      if (!waiting && (n = choose(e, i)) == kNoString) continue;
      if (wantArgs && waiting) {
        if (args.size() < event.size()) args.resize(event.size(), kNoString);
        args.push_back(h.argsId.empty() ? kNoString : h.argsId[i]);
      }
      if (wantIds && h.rangeId[i] != kNoValue && h.rangeId[i] != static_cast<int64_t>(e) + 1)
        otherIds.emplace_back(e, h.rangeId[i]);
      if (lastThread == kNoMatch || h.globalTid[i] != lastTid) {
        lastTid = h.globalTid[i];
        lastThread = threads.indexOf(static_cast<uint64_t>(lastTid));
      }
      event.push_back(e);
      thread.push_back(lastThread);
      domain.push_back(!waiting ? kChosen
                                : h.domainId[i] == kNoValue ? kNoMatch : domainOf(h.globalTid[i], h.domainId[i]));
      name.push_back(n);
      start.push_back(h.start[i]);
      duration.push_back(h.end[i] == kNoValue ? kNoValue : h.end[i] - h.start[i]);
      startEnd.push_back(type == kHgtxStartEnd ? 1 : 0);
    }
  }
};

template <typename T>
void keepFirst(std::vector<T>& v, size_t n) {
  v.resize(n);
  v.shrink_to_fit();
}

// The found positions in slot order: `before(a, b)` is the slot order of
// positions a and b, whose starts are `start` (a range's start orders it
// first). The positions go into buckets of start (a power-of-two width,
// about 16 a bucket where the starts spread; in event order within one: a
// counting sort), then each bucket is sorted by its starts (16-byte keys
// for one bucket at a time) and `before` where they tie. 4 bytes a range
// and the buckets' offsets, where keys for every range were 20.
template <typename Before>
std::vector<uint32_t> slotOrder(const std::vector<int64_t>& start, Before&& before) {
  const size_t n = start.size();
  std::vector<uint32_t> order(n);
  if (n == 0) return order;
  const auto [lo, hi] = std::minmax_element(start.begin(), start.end());
  const uint64_t min = static_cast<uint64_t>(*lo), span = static_cast<uint64_t>(*hi) - min;
  int shift = 0;
  while ((span >> shift) >= std::max<uint64_t>(n / 16, 1)) ++shift;
  std::vector<uint32_t> first((span >> shift) + 2, 0);  // bucket b: order[first[b], first[b + 1])
  auto bucket = [&](size_t k) { return static_cast<size_t>((static_cast<uint64_t>(start[k]) - min) >> shift); };
  for (size_t k = 0; k < n; ++k) ++first[bucket(k) + 1];
  for (size_t b = 1; b < first.size(); ++b) first[b] += first[b - 1];
  {
    std::vector<uint32_t> next(first.begin(), first.end() - 1);
    for (size_t k = 0; k < n; ++k) order[next[bucket(k)]++] = static_cast<uint32_t>(k);
  }
  struct Key {
    int64_t start;
    uint32_t at;
  };
  std::vector<Key> keys;
  for (size_t b = 0; b + 1 < first.size(); ++b) {
    const size_t from = first[b], to = first[b + 1];
    if (to - from < 2) continue;
    keys.clear();
    for (size_t j = from; j < to; ++j) keys.push_back({start[order[j]], order[j]});
    std::sort(keys.begin(), keys.end(), [&](const Key& a, const Key& b) {
      if (a.start != b.start) return a.start < b.start;
      return before(a.at, b.at);
    });
    for (size_t j = from; j < to; ++j) order[j] = keys[j - from].at;
  }
  return order;
}

}  // namespace

AssociationRanges chooseRanges(Report& report, const RangeSelection& sel) {
  StringPool& strings = report.strings();
  // RangeSelection::deferTexts: the inline texts, read by their tagged ids
  // through the report's strings until this returns.
  const bool defer = sel.deferTexts && !report.hgtxLoaded();
  StringPool texts;
  struct Overlay {
    StringPool& strings;
    ~Overlay() { strings.setOverlay(nullptr); }
  } overlay{strings};
  if (defer) strings.setOverlay(&texts);
  QualifiedNames qualified(strings);
  // per qualified name id: -1 unknown, 0 no, 1 yes (tagged ids: keepTexts)
  std::vector<int8_t> keep, keepTexts;
  auto kept = [&](uint32_t name) {
    const bool tagged = StringPool::tagged(name);
    std::vector<int8_t>& k = tagged ? keepTexts : keep;
    const size_t at = tagged ? name & ~StringPool::kOverlayBit : name;
    if (at >= k.size()) k.resize(std::max<size_t>(at + 1, tagged ? texts.size() : strings.size()), -1);
    if (k[at] < 0) {
      const std::string_view text = strings.get(name);
      bool in = sel.include.empty();
      for (const Regex& r : sel.include) in = in || r.search(text);
      for (const Regex& r : sel.exclude) in = in && !r.search(text);
      k[at] = in ? 1 : 0;
    }
    return k[at] == 1;
  };
  // A range's qualified name when the selection keeps it, else kNoString.
  auto choose = [&](uint32_t event, uint32_t domainName, uint32_t own, uint32_t args) {
    uint32_t name = qualified.of(domainName, own);
    if (name == kNoString) name = strings.intern("");  // a range without a name is named ""
    if (!kept(name)) return kNoString;
    if (sel.keepRange && !sel.keepRange(event)) return kNoString;
    if (sel.keepNamedRange && !sel.keepNamedRange(event, RangeNaming{own, args, name})) return kNoString;
    return name;
  };
  // Loaded events come as one chunk, and their domains' names are known.
  const bool domainsKnown = report.hgtxLoaded();
  FoundRanges f;
  f.wantArgs = static_cast<bool>(sel.keepNamedRange);
  f.wantIds = sel.rangeIds;
  f.keepOwnName = sel.keepOwnName;
  uint32_t columns = hcol::ranges;
  if (f.wantArgs) columns |= hcol::args;
  if (f.wantIds) columns |= hcol::rangeId;
  report.scanHgtx(columns, [&](size_t firstEvent, const HgtxEvents& h) {
    f.take(firstEvent, h, domainsKnown, [&](uint32_t event, size_t i) {
      const uint32_t domainName = domainsKnown ? report.hgtxDomainName(h.globalTid[i], h.domainId[i]) : kNoString;
      return choose(event, domainName, h.nameId[i], h.argsId.empty() ? kNoString : h.argsId[i]);
    });
    if (sel.alsoScan) sel.alsoScan(firstEvent, h);
  }, defer ? &texts : nullptr);
  if (sel.afterScan) sel.afterScan();
  profileNote("ranges: " + std::to_string(f.event.size()) + " found, cap " + std::to_string(f.event.capacity()) +
              ", waiting from " + std::to_string(std::find_if(f.domain.begin(), f.domain.end(), [](uint32_t d) { return d != kChosen; }) - f.domain.begin()) +
              ", texts " + std::to_string(texts.size()) + " keepTexts " + std::to_string(keepTexts.size()) + " keep " + std::to_string(keep.size()));
  std::optional<StageTimer> step(std::in_place, "ranges: waiting chosen");

  // The waiting ranges chosen now that every domain is known; the ones
  // dropped go in place.
  size_t n = 0;
  for (size_t k = 0; k < f.event.size(); ++k) {
    uint32_t name = f.name[k];
    if (f.domain[k] != kChosen) {
      const uint32_t args = k < f.args.size() ? f.args[k] : kNoString;
      name = choose(f.event[k], f.domain[k] == kNoMatch ? kNoString : f.domainName[f.domain[k]], name, args);
      if (name == kNoString) continue;
    }
    // An inline text (a range without a domain: its name is its own text)
    // is named by its event from now on.
    if (StringPool::tagged(name)) {
      if (f.event[k] >= StringPool::kOverlayBit) throw Error("HGTX_EVENTS: more than 2^31 events");
      name = f.event[k] | StringPool::kOverlayBit;
    }
    f.event[n] = f.event[k];
    f.thread[n] = f.thread[k];
    f.name[n] = name;
    const int64_t d = f.duration.get(k);
    f.duration.set(n, d == kNoValue ? std::max(f.last, f.start[k]) - f.start[k] : d);
    f.start[n] = f.start[k];
    f.startEnd[n] = f.startEnd[k];
    ++n;
  }
  std::vector<uint32_t>().swap(f.domain);
  std::vector<uint32_t>().swap(f.args);
  // No tagged id is read from here on: the transient texts go before the
  // slots are put in order.
  strings.setOverlay(nullptr);
  texts.release();
  std::vector<int8_t>().swap(keep);
  std::vector<int8_t>().swap(keepTexts);
  keepFirst(f.event, n);
  keepFirst(f.thread, n);
  keepFirst(f.name, n);
  keepFirst(f.start, n);
  f.duration.truncate(n);
  f.duration.shrink_to_fit();
  keepFirst(f.startEnd, n);

  step.emplace("ranges: slot order");
  // Slots in (start, longer first, event) order. HGTX_EVENTS is often
  // written in start order already; when not (push/pop ranges written as
  // they close), an order of the found positions (4 bytes a range) is made
  // by buckets of start (slotOrder) and the columns follow it in place: no
  // column is copied and no key is held for every range.
  auto before = [&](uint32_t a, uint32_t b) {
    return std::make_tuple(f.start[a], -(f.start[a] + f.duration.get(a)), f.event[a]) <
           std::make_tuple(f.start[b], -(f.start[b] + f.duration.get(b)), f.event[b]);
  };
  bool sorted = true;
  for (size_t k = 1; k < n && sorted; ++k) sorted = !before(static_cast<uint32_t>(k), static_cast<uint32_t>(k - 1));
  if (!sorted) {
    std::vector<uint32_t> order = slotOrder(f.start, before);
    f.duration.followOrder(order);
    permuteInPlace(order, f.event, f.name, f.thread, f.start, f.startEnd, f.duration.narrowColumn());
  }
  AssociationRanges r;
  r.event = std::move(f.event);
  r.name = std::move(f.name);
  r.startEnd = std::move(f.startEnd);
  r.otherRangeIds = std::move(f.otherIds);  // a dropped range's ID is never asked for
  r.threadIndex = std::move(f.thread);
  r.threads.resize(f.threads.size());
  for (size_t g = 0; g < r.threads.size(); ++g) r.threads[g] = static_cast<int64_t>(f.threads.key(static_cast<uint32_t>(g)));
  r.duration = std::move(f.duration);
  r.start = std::move(f.start);
  return r;
}

}  // namespace asys
