#include "core/timeline/occupancy.h"

#include <algorithm>
#include <functional>
#include <utility>

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

namespace {

// The half of a merged row event i of `t` counts in (-1: none).
int halfOf(const TimelineTrack& t, size_t i, uint8_t halves) {
  if (halves == 1) return 0;
  switch (t.kind[i]) {
    case TimelineKind::Kernel:
    case TimelineKind::PcclKernel: return 0;
    case TimelineKind::Memcpy:
    case TimelineKind::Memset: return 1;
    default: return -1;
  }
}

// The sources' events merged in the order (start, source, index) from given
// positions: a heap of one cursor a source, no memory per event.
class MergeWalk {
 public:
  explicit MergeWalk(const std::vector<const TimelineTrack*>& sources) : sources_(sources), at_(sources.size(), 0) {}
  void seek(const std::vector<size_t>& positions) {
    at_ = positions;
    heap_.clear();
    for (size_t k = 0; k < sources_.size(); ++k)
      if (at_[k] < sources_[k]->size()) heap_.push_back({sources_[k]->start[at_[k]], k});
    std::make_heap(heap_.begin(), heap_.end(), std::greater<>());
  }
  bool done() const { return heap_.empty(); }
  int64_t nextStart() const { return heap_.front().first; }
  // The next event: its source, its index there. Its source's next event
  // takes its place at the top and sinks (a row running alone stays on top
  // after a comparison or two).
  std::pair<size_t, size_t> pop() {
    const size_t k = heap_.front().second;
    const size_t i = at_[k]++;
    if (at_[k] < sources_[k]->size()) {
      heap_.front().first = sources_[k]->start[at_[k]];
      siftDown();
    } else {
      std::pop_heap(heap_.begin(), heap_.end(), std::greater<>());
      heap_.pop_back();
    }
    return {k, i};
  }

 private:
  // The top's key grew: down to where its children are no smaller (the
  // min-heap std::make_heap with std::greater keeps).
  void siftDown() {
    const size_t n = heap_.size();
    const std::pair<int64_t, size_t> v = heap_.front();
    size_t at = 0;
    for (;;) {
      size_t c = 2 * at + 1;
      if (c >= n) break;
      if (c + 1 < n && heap_[c + 1] < heap_[c]) ++c;
      if (!(heap_[c] < v)) break;
      heap_[at] = heap_[c];
      at = c;
    }
    heap_[at] = v;
  }
  const std::vector<const TimelineTrack*>& sources_;
  std::vector<size_t> at_;
  std::vector<std::pair<int64_t, size_t>> heap_;  // (next start, source): ties by source
};

}  // namespace

MergedCheckpoints mergedCheckpointsOf(const std::vector<const TimelineTrack*>& sources, uint8_t halves) {
  MergedCheckpoints c;
  c.halves = halves;
  size_t total = 0;
  for (const TimelineTrack* s : sources) total += s->size();
  const size_t blocks = (total + kBlock - 1) / kBlock;
  c.at.reserve(blocks);
  c.source.reserve(blocks);
  c.index.reserve(blocks);
  c.before.reserve(blocks * halves);
  c.reach.reserve(blocks * halves);
  MergeWalk w(sources);
  w.seek(std::vector<size_t>(sources.size(), 0));
  UnionBefore u[2];
  int64_t reach[2] = {INT64_MIN, INT64_MIN};
  for (size_t m = 0; !w.done(); ++m) {
    const auto [k, i] = w.pop();
    const TimelineTrack& t = *sources[k];
    const int64_t s = t.start[i], e = t.end[i];
    if (m % kBlock == 0) {
      c.at.push_back(s);
      c.source.push_back(static_cast<uint32_t>(k));
      c.index.push_back(static_cast<uint32_t>(i));
      for (uint8_t h = 0; h < halves; ++h) {
        c.before.push_back(u[h].upTo(INT64_MAX));
        c.reach.push_back(reach[h]);
      }
    }
    const int h = halfOf(t, i, halves);
    if (h < 0) continue;
    u[h].add(s, e);
    reach[h] = std::max(reach[h], e);
  }
  return c;
}

std::vector<std::vector<float>> mergedOccupancyOf(const std::vector<const TimelineTrack*>& sources,
                                                  const MergedCheckpoints& c, int64_t from, int64_t to,
                                                  uint32_t pixels, size_t* reads) {
  const uint8_t halves = c.halves;
  std::vector<std::vector<float>> out(halves);
  if (to <= from || pixels == 0) return out;
  for (auto& v : out) v.assign(pixels, 0.0f);
  if (c.at.empty()) return out;
  const __int128 span = static_cast<__int128>(to) - from;
  auto edge = [&](uint32_t j) { return static_cast<int64_t>(from + span * j / pixels); };
  // The sweep's state: each half's union of the merged events before the
  // `next`th, from the checkpoint of block `block` on (SIZE_MAX: none yet).
  size_t block = SIZE_MAX, next = 0;
  MergeWalk w(sources);
  std::vector<size_t> positions(sources.size());
  UnionBefore u[2];
  // B(t) per half: the busy time before t; edges come in increasing order.
  auto busyBefore = [&](int64_t time, int64_t (&busy)[2]) {
    busy[0] = busy[1] = 0;
    // The last checkpoint whose first event starts before `time`: every
    // event before it does too, and none from the next one on does.
    const size_t after = static_cast<size_t>(std::lower_bound(c.at.begin(), c.at.end(), time) - c.at.begin());
    if (after == 0) return;  // no event starts before `time`
    const size_t k = after - 1;
    // From block k's checkpoint only when the sweep would skip events (its
    // first edge, or an edge past events it has not read): else on from
    // where it is, so it reads each event of the window at most once.
    if (block == SIZE_MAX || next < k * kBlock) {
      block = k;
      next = k * kBlock;
      // The events before the block's first (start sk, source sj, index
      // si): those of sources before sj starting at or before sk, of sj
      // before si, of sources after sj starting before sk.
      const int64_t sk = c.at[k];
      const size_t sj = c.source[k];
      for (size_t j = 0; j < sources.size(); ++j)
        positions[j] = j < sj ? (sk == INT64_MAX ? sources[j]->size() : sources[j]->start.lowerBound(sk + 1))
                       : j == sj ? c.index[k]
                                 : sources[j]->start.lowerBound(sk);
      w.seek(positions);
      for (uint8_t h = 0; h < halves; ++h) {
        u[h] = UnionBefore{};
        const int64_t before = c.before[k * halves + h], reach = c.reach[k * halves + h];
        // Every earlier event starts at or before sk: their union past sk is [sk, reach).
        if (reach > sk) {
          u[h].closed = before - (reach - sk);
          u[h].open = true;
          u[h].openStart = sk;
          u[h].openEnd = reach;
        } else {
          u[h].closed = before;
        }
      }
    }
    while (!w.done() && w.nextStart() < time) {
      const auto [j, i] = w.pop();
      ++next;
      if (reads) ++*reads;
      const int h = halfOf(*sources[j], i, halves);
      if (h >= 0) u[h].add(sources[j]->start[i], sources[j]->end[i]);
    }
    for (uint8_t h = 0; h < halves; ++h) busy[h] = u[h].upTo(time);
  };
  int64_t left = edge(0), busyLeft[2], busyRight[2];
  busyBefore(left, busyLeft);
  for (uint32_t j = 0; j < pixels; ++j) {
    const int64_t right = edge(j + 1);
    busyBefore(right, busyRight);
    if (right > left)
      for (uint8_t h = 0; h < halves; ++h)
        out[h][j] = static_cast<float>(static_cast<double>(busyRight[h] - busyLeft[h]) / static_cast<double>(right - left));
    left = right;
    busyLeft[0] = busyRight[0];
    busyLeft[1] = busyRight[1];
  }
  return out;
}

bool mergedDrawnAsOccupancy(const std::vector<const TimelineTrack*>& sources, int64_t from, int64_t to,
                            uint32_t pixels) {
  if (to <= from || pixels == 0) return false;
  size_t events = 0;
  for (const TimelineTrack* t : sources) {
    if (t->counter || t->size() == 0) continue;
    const size_t first = firstReaching(*t, from), last = t->start.lowerBound(to);
    if (last > first) events += last - first;
  }
  return events > pixels;
}

void Timeline::mergedOccupancy(size_t track, TimelineSlices& out, int64_t from, int64_t to, uint32_t pixels) const {
  const TimelineTrack& m = tracks_[track];
  std::vector<const TimelineTrack*> sources;
  for (uint32_t k : m.sources) sources.push_back(&tracks_[k]);
  if (!mergedDrawnAsOccupancy(sources, from, to, pixels)) return;
  auto it = mergedCheckpoints_.find(track);
  if (it == mergedCheckpoints_.end())
    it = mergedCheckpoints_.emplace(track, mergedCheckpointsOf(sources, m.deviceRow ? 2 : 1)).first;
  std::vector<std::vector<float>> v = mergedOccupancyOf(sources, it->second, from, to, pixels);
  out.occupancy = std::move(v[0]);
  if (v.size() > 1) out.memoryOccupancy = std::move(v[1]);
}

}  // namespace asys
