#include "core/analysis/hgtx_projection.h"

#include <algorithm>

namespace asys {

RangeProjections projectRanges(const PpuActivities& act, const HgtxAssociation& as, bool withActive) {
  const size_t n = as.ranges.size();
  RangeProjections p;
  p.start.assign(n, 0);
  p.end.assign(n, 0);
  if (withActive) p.active.assign(n, 0);
  p.ops.assign(n, 0);
  // Activities come in start order, so a range's union grows by the part
  // of each activity past the latest end seen so far (its projection's end,
  // 8 bytes a range it holds anyway), never by a list of the range's
  // activities or an open block of its own. An empty activity (end <= start)
  // covers no time, and its end, at or before its start, is at or before
  // every later start, so taking it into the latest end changes no later
  // activity's part (as in unionLengthSorted).
  for (size_t a = 0; a < act.size(); ++a) {
    const int64_t start = act.startOf(a), end = act.endOf(a);
    for (uint32_t r : as.rangesOf(a)) {
      if (p.ops[r]++ == 0) {
        p.start[r] = start;
        p.end[r] = end;
        if (withActive) p.active[r] = std::max<int64_t>(end - start, 0);
        continue;
      }
      if (withActive) p.active[r] += std::max<int64_t>(end - std::max(start, p.end[r]), 0);
      p.end[r] = std::max(p.end[r], end);
    }
  }
  return p;
}

RangeFirsts projectFirsts(const PpuActivities& act, const HgtxAssociation& as) {
  const size_t n = as.ranges.size();
  RangeFirsts p;
  p.first.assign(n, RangeFirsts::kNone);
  p.length.assign(n, 0);
  p.ops.assign(n, 0);
  // projectRanges' fold without the active time: the first activity (in
  // start order) gives the start, and the latest end, taken as a length
  // from that start, grows with each later one.
  for (size_t a = 0; a < act.size(); ++a) {
    const int64_t start = act.startOf(a), end = act.endOf(a);
    for (uint32_t r : as.rangesOf(a)) {
      if (p.ops[r]++ == 0) {
        p.first[r] = static_cast<uint32_t>(a);
        p.length.set(r, end - start);
        continue;
      }
      const int64_t length = end - act.startOf(p.first[r]);
      if (length > p.length.get(r)) p.length.set(r, length);
    }
  }
  return p;
}

int64_t NarrowProjections::wideAt(Field f, size_t r) const { return wide_.at(key(f, r)); }

void NarrowProjections::setWide(Field f, size_t r, int64_t v) {
  Cell& c = cells_[r];
  const bool fits = v >= 0 && v < (f < kOps ? int64_t{kWide} : int64_t{kWideSmall});
  if (fits) wide_.erase(key(f, r));  // it was wide
  else wide_[key(f, r)] = v;
  if (f < kOps) c.v[f] = fits ? static_cast<uint32_t>(v) : kWide;
  else c.small[f - kOps] = fits ? static_cast<uint16_t>(v) : kWideSmall;
}

namespace {

// `passed(count)`: the first `count` activities are folded (called every
// kPassedStep of them, and at the end).
constexpr size_t kPassedStep = 1 << 16;

template <typename StartOf, typename Passed>
NarrowProjections narrowProjections(const PpuActivities& act, const HgtxAssociation& as, StartOf rangeStart,
                                    Passed&& passed) {
  using P = NarrowProjections;
  NarrowProjections p;
  p.assign(as.ranges.size());
  // projectRanges' fold with its values held narrow: the latest end is the
  // projection's start plus its duration. An activity ending past it grows
  // the duration, and the active time by its part past both its own start
  // and that end (none for an empty activity, as there); the idle time
  // held is the duration less the active time.
  const size_t n = act.size();
  for (size_t a = 0; a < n; ++a) {
    if (a % kPassedStep == 0 && a > 0) passed(a);
    const int64_t start = act.startOf(a), end = act.endOf(a);
    for (uint32_t r : as.rangesOf(a)) {
      const int64_t ops = p.get(P::kOps, r);
      p.set(P::kOps, r, ops + 1);
      if (ops == 0) {
        p.set(P::kStartAfter, r, start - rangeStart(r));
        p.set(P::kDuration, r, end - start);
        p.set(P::kIdle, r, (end - start) - std::max<int64_t>(end - start, 0));
        continue;
      }
      const int64_t duration = p.get(P::kDuration, r);
      const int64_t pStart = rangeStart(r) + p.get(P::kStartAfter, r), pEnd = pStart + duration;
      if (end <= pEnd) continue;
      int64_t active = duration - p.get(P::kIdle, r);
      if (const int64_t more = end - std::max(start, pEnd); more > 0) active += more;
      p.set(P::kDuration, r, end - pStart);
      p.set(P::kIdle, r, (end - pStart) - active);
    }
  }
  passed(n);
  return p;
}

}  // namespace

NarrowProjections projectRangesNarrow(const PpuActivities& act, const HgtxAssociation& as) {
  return narrowProjections(act, as, [&](uint32_t r) { return as.ranges.start[r]; }, [](size_t) {});
}

NarrowProjections projectRangesNarrow(const PpuActivities& act, const HgtxAssociation& as, const StartTimes& starts) {
  return narrowProjections(act, as, [&](uint32_t r) { return starts[r]; }, [](size_t) {});
}

NarrowProjections projectRangesNarrowGivingBack(PpuActivities& act, HgtxAssociation& as, const StartTimes& starts) {
  // What the fold reads of activity a: its start and end (whichever
  // columns hold them) and launchCall[a] (rangesOf). An activity's graph
  // list and the calls' ranges are read by range, not given back.
  return narrowProjections(act, as, [&](uint32_t r) { return starts[r]; }, [&](size_t count) {
    giveBackPassed(act.start, count);
    giveBackPassed(act.end, count);
    act.narrowStart.givePassedBack(count);
    act.duration.givePassedBack(count);
    giveBackPassed(as.launchCall, count);
  });
}

void keepOnlySpans(PpuActivities& a) {
  std::vector<int64_t>().swap(a.globalPid);
  std::vector<int64_t>().swap(a.correlationId);
  std::vector<GraphNodeRun>().swap(a.graphNodes);
  std::vector<int32_t>().swap(a.deviceId);
  std::vector<ActivityKind>().swap(a.kind);
  std::vector<uint32_t>().swap(a.row);
}

}  // namespace asys
