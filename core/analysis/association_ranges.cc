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

// The ranges as the scan finds them, in event order: what a range needs and
// no more (25 bytes; the table whole holds 60 an event). Its thread is a
// dense index. Every range is chosen as it is found (named by the domain
// creations read so far: DomainNames), so the ranges a selection drops are
// never held, the choices (keepRange, keepNamedRange)
// are made in event order, and a range's text is read in the chunk where
// it is (RangeSelection::deferTexts: no text outlives its chunk).
struct FoundRanges {
  std::vector<uint32_t> event, thread, name;
  std::vector<int64_t> start;
  // end - start (4 bytes below 4.3 s), kNoValue while never closed: the
  // ranges' end as AssociationRanges keeps it, so that no 8-byte end is
  // held and given back.
  NarrowInts duration;
  std::vector<uint8_t> startEnd;
  // With `wantIds`: (event, rangeId) of the ranges whose ID is not event + 1.
  std::vector<std::pair<uint32_t, int64_t>> otherIds;
  bool wantIds = false;
  KeyGroups threads;         // globalTid -> index
  int64_t last = INT64_MIN;  // the last HGTX timestamp
  // RangeSelection::keepOwnName; empty = all.
  std::function<bool(uint32_t ownName)> keepOwnName;

  void reserve(size_t n) {
    for (auto* column : {&event, &thread, &name}) column->reserve(n);
    start.reserve(n);
    duration.reserve(n);
    startEnd.reserve(n);
  }
  // Capacity past the ranges given back, where it is more than a sixteenth
  // of them (a column reserved to the table's rows is not copied for the
  // few events that are no range).
  void fit() {
    auto loose = [](const auto& v) { return v.capacity() - v.size() > v.size() / 16; };
    for (auto* column : {&event, &thread, &name})
      if (loose(*column)) column->shrink_to_fit();
    if (loose(start)) start.shrink_to_fit();
    if (loose(duration)) duration.shrink_to_fit();
    if (loose(startEnd)) startEnd.shrink_to_fit();
  }

  // choose(event, i): the name of the chunk's range i (event `event`) when
  // the selection keeps it, else kNoString.
  template <typename Choose>
  void take(size_t firstEvent, const HgtxEvents& h, Choose&& choose) {
    uint32_t lastThread = kNoMatch;
    int64_t lastTid = 0;
    for (size_t i = 0; i < h.size(); ++i) {
      last = std::max({last, h.start[i], h.end[i]});
      const int32_t type = h.eventType[i];
      if (type != kHgtxPushPop && type != kHgtxStartEnd) continue;
      // Nsight: "only ranges that start and end on the same thread".
      if (type == kHgtxStartEnd && h.endGlobalTid[i] != kNoValue && h.endGlobalTid[i] != h.globalTid[i]) continue;
      if (keepOwnName && !keepOwnName(h.nameId[i])) continue;
      const uint32_t e = static_cast<uint32_t>(firstEvent + i);
      uint32_t n = choose(e, i);
      if (n == kNoString) continue;
      // An inline text (a range without a domain: its name is its own text)
      // is named by its event from now on.
      if (StringPool::tagged(n)) {
        if (e >= StringPool::kOverlayBit) throw Error("HGTX_EVENTS: more than 2^31 events");
        n = e | StringPool::kOverlayBit;
      }
      if (wantIds && h.rangeId[i] != kNoValue && h.rangeId[i] != static_cast<int64_t>(e) + 1)
        otherIds.emplace_back(e, h.rangeId[i]);
      if (lastThread == kNoMatch || h.globalTid[i] != lastTid) {
        lastTid = h.globalTid[i];
        lastThread = threads.indexOf(static_cast<uint64_t>(lastTid));
      }
      event.push_back(e);
      thread.push_back(lastThread);
      name.push_back(n);
      start.push_back(h.start[i]);
      duration.push_back(h.end[i] == kNoValue ? kNoValue : h.end[i] - h.start[i]);
      startEnd.push_back(type == kHgtxStartEnd ? 1 : 0);
    }
  }
};

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

using DomainMap = std::map<std::pair<int64_t, int64_t>, uint32_t>;

// A range's domain name: from the names the report knows (`known`), else
// from the creations the scan has read so far (created), every domain a
// range was named by noted, so that a creation after it that names the
// domain otherwise is seen (late): then the choices made are not the ones
// the domain's last creation makes (chooseRanges).
class DomainNames {
 public:
  explicit DomainNames(const DomainMap* known) : known_(known) {}
  bool fromScan() const { return known_ == nullptr; }
  void created(int64_t globalTid, int64_t domainId, uint32_t name) {
    Scanned& d = scanned_[{pidOf(globalTid), domainId}];
    if (d.named && d.name != name) late_ = true;
    d.name = name;
  }
  uint32_t of(int64_t globalTid, int64_t domainId) {
    if (domainId == kNoValue) return kNoString;
    const std::pair<int64_t, int64_t> key{pidOf(globalTid), domainId};
    if (known_) {
      const auto it = known_->find(key);
      return it == known_->end() ? kNoString : it->second;
    }
    Scanned& d = scanned_[key];
    d.named = true;
    return d.name;
  }
  bool late() const { return late_; }

 private:
  struct Scanned {
    uint32_t name = kNoString;
    bool named = false;  // a range was named by it
  };
  const DomainMap* known_;
  std::map<std::pair<int64_t, int64_t>, Scanned> scanned_;
  bool late_ = false;
};

AssociationRanges chooseNamedRanges(Report& report, const RangeSelection& sel, DomainNames& domains);

}  // namespace

AssociationRanges chooseRanges(Report& report, const RangeSelection& sel) {
  if (const DomainMap* known = report.knownHgtxDomainNames()) {
    DomainNames names(known);
    return chooseNamedRanges(report, sel, names);
  }
  DomainNames scanned(nullptr);
  AssociationRanges chosen = chooseNamedRanges(report, sel, scanned);
  if (!scanned.late()) return chosen;
  chosen = {};
  {
    StageTimer timer("ranges: the domains' names, created after their ranges");
    report.hgtxDomainNames();
  }
  if (sel.keepRange || sel.keepNamedRange || sel.alsoScan || sel.afterScan) throw HgtxDomainNamedLate();
  DomainNames queried(report.knownHgtxDomainNames());
  return chooseNamedRanges(report, sel, queried);
}

namespace {

AssociationRanges chooseNamedRanges(Report& report, const RangeSelection& sel, DomainNames& domains) {
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
  FoundRanges f;
  f.wantIds = sel.rangeIds;
  f.keepOwnName = sel.keepOwnName;
  // Where the selection drops no range by its own name or an include (the
  // operator rules keep nearly every range, the HGTX rules every one), the
  // columns are reserved to the table's rows: no copy as they grow (at
  // scale 2500 the last doubling copied 9 M ranges' columns one by one
  // beside the others), and none to fit them after. A selection that may
  // keep few grows them as it finds them.
  if (const uint64_t rows = report.rowEstimate("HGTX_EVENTS");
      !sel.keepOwnName && sel.include.empty() && !report.hgtxLoaded() && rows < (uint64_t{1} << 28))
    f.reserve(static_cast<size_t>(rows));
  uint32_t columns = hcol::ranges;
  if (sel.keepNamedRange) columns |= hcol::args;
  if (f.wantIds) columns |= hcol::rangeId;
  report.scanHgtx(columns, [&](size_t firstEvent, const HgtxEvents& h) {
    // The chunk's domain creations before its ranges: a creation later in
    // the chunk names a range earlier in it as the domain's last creation
    // would (and a later chunk's is seen: DomainNames::late).
    if (domains.fromScan())
      for (size_t i = 0; i < h.size(); ++i)
        if (h.eventType[i] == kHgtxDomainCreate && h.domainId[i] != kNoValue) {
          const uint32_t name = h.nameId[i];  // a deferred text is the chunk's: kept as the query keeps it
          domains.created(h.globalTid[i], h.domainId[i], StringPool::tagged(name) ? strings.intern(strings.get(name)) : name);
        }
    f.take(firstEvent, h, [&](uint32_t event, size_t i) {
      return choose(event, domains.of(h.globalTid[i], h.domainId[i]), h.nameId[i],
                    h.argsId.empty() ? kNoString : h.argsId[i]);
    });
    if (sel.alsoScan) sel.alsoScan(firstEvent, h);
    // The chunk's texts are read no more (their ids are never given again).
    if (defer) texts.forget();
  }, defer ? &texts : nullptr);
  if (sel.afterScan) sel.afterScan();
  strings.setOverlay(nullptr);
  texts.release();
  std::vector<int8_t>().swap(keep);
  std::vector<int8_t>().swap(keepTexts);

  // A range never closed ends at the last HGTX timestamp.
  const size_t n = f.event.size();
  if (f.duration.wideCount() > 0)
    for (size_t k = 0; k < n; ++k)
      if (f.duration.get(k) == kNoValue) f.duration.set(k, std::max(f.last, f.start[k]) - f.start[k]);
  f.fit();

  std::optional<StageTimer> step(std::in_place, "ranges: slot order");
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
    f.duration.permuteInPlace(order, [&](std::vector<uint32_t>& o, std::vector<uint32_t>& duration) {
      permuteInPlace(o, f.event, f.name, f.thread, f.start, f.startEnd, duration);
    });
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

}  // namespace

}  // namespace asys
