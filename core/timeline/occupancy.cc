#include "core/timeline/occupancy.h"

#include <algorithm>

#include "core/timeline/busy.h"

namespace asys {

namespace {

// A union of spans added in start order, its total up to a time t read as
// the closed blocks' total and the open block cut at t (every closed block
// ended before a later added span started, so before t when every added
// span starts before t).
struct UnionBefore {
  int64_t closed = 0;
  bool open = false;
  int64_t openStart = 0, openEnd = 0;
  void add(int64_t s, int64_t e) {
    if (open && s <= openEnd) {
      openEnd = std::max(openEnd, e);
      return;
    }
    if (open) closed += openEnd - openStart;
    open = true;
    openStart = s;
    openEnd = e;
  }
  int64_t upTo(int64_t t) const { return closed + (open && t > openStart ? std::min(openEnd, t) - openStart : 0); }
};

constexpr size_t kBlock = PackedTimes::kBlock;

}  // namespace

BusyCheckpoints busyCheckpointsOf(const TimelineTrack& t) {
  BusyCheckpoints c;
  const size_t blocks = (t.size() + kBlock - 1) / kBlock;
  c.before.reserve(blocks);
  c.reach.reserve(blocks);
  UnionBefore u;
  int64_t reach = INT64_MIN;
  for (size_t i = 0; i < t.size(); ++i) {
    if (i % kBlock == 0) {
      c.before.push_back(u.closed + (u.open ? u.openEnd - u.openStart : 0));
      c.reach.push_back(reach);
    }
    const int64_t s = t.start[i], e = t.end[i];
    u.add(s, e);
    reach = std::max(reach, e);
  }
  return c;
}

std::vector<float> occupancyOf(const TimelineTrack& t, const BusyCheckpoints& c, int64_t from, int64_t to,
                               uint32_t pixels) {
  std::vector<float> out;
  if (to <= from || pixels == 0) return out;
  out.resize(pixels, 0.0f);
  if (t.size() == 0) return out;
  const __int128 span = static_cast<__int128>(to) - from;
  auto edge = [&](uint32_t j) { return static_cast<int64_t>(from + span * j / pixels); };
  // The sweep's state: the union of the events before `next`, from the
  // checkpoint of block `block` on (SIZE_MAX: none yet).
  size_t block = SIZE_MAX, next = 0;
  UnionBefore u;
  // B(t): the busy time before t; edges come in increasing order.
  auto busyBefore = [&](int64_t time) -> int64_t {
    const size_t last = t.start.lowerBound(time);  // the events starting before `time`: [0, last)
    if (last == 0) return 0;
    const size_t k = (last - 1) / kBlock;
    // From block k's checkpoint only when the sweep would skip events (its
    // first edge, or an edge past events it has not read): else on from
    // where it is, so it reads each event of the window at most once.
    if (block == SIZE_MAX || next < k * kBlock || next > last) {
      block = k;
      next = k * kBlock;
      u = UnionBefore{};
      const int64_t sk = t.start[next], before = c.before[k], reach = c.reach[k];
      // Every earlier event starts at or before sk: their union past sk is [sk, reach).
      if (reach > sk) {
        u.closed = before - (reach - sk);
        u.open = true;
        u.openStart = sk;
        u.openEnd = reach;
      } else {
        u.closed = before;
      }
    }
    for (; next < last; ++next) u.add(t.start[next], t.end[next]);
    return u.upTo(time);
  };
  int64_t left = edge(0), busyLeft = busyBefore(left);
  for (uint32_t j = 0; j < pixels; ++j) {
    const int64_t right = edge(j + 1);
    const int64_t busyRight = busyBefore(right);
    if (right > left) out[j] = static_cast<float>(static_cast<double>(busyRight - busyLeft) / static_cast<double>(right - left));
    left = right;
    busyLeft = busyRight;
  }
  return out;
}

bool drawnAsOccupancy(const TimelineTrack& t, int64_t from, int64_t to, uint32_t pixels) {
  if (t.counter || t.merged() || t.size() == 0 || to <= from || pixels == 0) return false;
  const size_t first = firstReaching(t, from), last = t.start.lowerBound(to);
  return last > first && last - first > pixels;
}

}  // namespace asys
