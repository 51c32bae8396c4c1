#pragma once
// Busy time of timeline nodes: the union of their events' intervals
// (overlaps counted once), for the share of its parent's busy time each
// track and group shows, and for a window's PPU active time
// (selection_stats.h). Tracks keep their events in start order, so the union
// of several tracks is a k-way merge of them fed in start order to a running
// union: it takes no memory per event, whatever the tracks hold.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

#include "core/timeline/timeline.h"

namespace asys {

// The union length of spans fed in start order: a block stays open while
// the next span starts at or before its end (touching spans join, as
// core/analysis/intervals.h merges them), so only that block is kept.
class RunningUnion {
 public:
  void add(int64_t start, int64_t end) {
    if (open_ && start <= end_) {
      end_ = std::max(end_, end);
      return;
    }
    if (open_) total_ += end_ - start_;
    open_ = true;
    start_ = start;
    end_ = end;
  }
  int64_t length() const { return total_ + (open_ ? end_ - start_ : 0); }

 private:
  bool open_ = false;
  int64_t start_ = 0, end_ = 0, total_ = 0;
};

// Calls fn(k, i) for event i of tracks[k], the tracks' events merged in
// start order: track k from its event first[k], until an event that starts
// at or after `until`. Each track's events up to the next track's start are
// taken without the heap, so a track that runs alone costs a loop.
template <typename Fn>
void forEachInStartOrder(const std::vector<const TimelineTrack*>& tracks, const std::vector<size_t>& first,
                         int64_t until, Fn&& fn) {
  using Cursor = std::pair<int64_t, size_t>;  // (next start, track)
  std::priority_queue<Cursor, std::vector<Cursor>, std::greater<>> next;
  std::vector<size_t> at(first);
  for (size_t k = 0; k < tracks.size(); ++k)
    if (at[k] < tracks[k]->size() && tracks[k]->start[at[k]] < until) next.push({tracks[k]->start[at[k]], k});
  while (!next.empty()) {
    const size_t k = next.top().second;
    next.pop();
    const TimelineTrack& t = *tracks[k];
    const int64_t other = next.empty() ? INT64_MAX : next.top().first;
    size_t& i = at[k];
    do {
      fn(k, i);
      ++i;
    } while (i < t.size() && t.start[i] <= other && t.start[i] < until);
    if (i < t.size() && t.start[i] < until) next.push({t.start[i], k});
  }
}

// The union length of the events of `tracks` (each in start order).
int64_t busyOf(const std::vector<const TimelineTrack*>& tracks);

// The first event of `t` that can overlap a window from `from`: none
// starting before `from` minus the track's longest event reaches it.
size_t firstReaching(const TimelineTrack& t, int64_t from);

// The union length of the events of `tracks` clipped to [from, to): the busy
// time inside a statistics range (the shares recomputed after filtering).
int64_t busyIn(const std::vector<const TimelineTrack*>& tracks, int64_t from, int64_t to);

// The most events of `tracks` that run at once (touching ones do not
// overlap), at most `cap`: the lanes a row merging them needs.
uint16_t concurrencyOf(const std::vector<const TimelineTrack*>& tracks, uint16_t cap);

}  // namespace asys
