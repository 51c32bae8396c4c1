#include "core/timeline/busy.h"

namespace asys {

size_t firstReaching(const TimelineTrack& t, int64_t from) {
  const int64_t earliest = from > INT64_MIN + t.longest ? from - t.longest : INT64_MIN;
  return t.start.lowerBound(earliest);
}

int64_t busyIn(const std::vector<const TimelineTrack*>& tracks, int64_t from, int64_t to) {
  if (from >= to) return 0;
  std::vector<size_t> first(tracks.size());
  for (size_t k = 0; k < tracks.size(); ++k) first[k] = firstReaching(*tracks[k], from);
  RunningUnion u;
  // Clipped starts keep the start order.
  forEachInStartOrder(tracks, first, to, [&](size_t k, size_t i) {
    const int64_t s = std::max(tracks[k]->start[i], from), e = std::min(tracks[k]->end[i], to);
    if (s < e) u.add(s, e);
  });
  return u.length();
}

int64_t busyOf(const std::vector<const TimelineTrack*>& tracks) { return busyIn(tracks, INT64_MIN, INT64_MAX); }

uint16_t concurrencyOf(const std::vector<const TimelineTrack*>& tracks, uint16_t cap) {
  // The ends of the events running at the current start: a heap as large as
  // the concurrency, never per event.
  std::priority_queue<int64_t, std::vector<int64_t>, std::greater<>> running;
  size_t most = 0;
  forEachInStartOrder(tracks, std::vector<size_t>(tracks.size(), 0), INT64_MAX, [&](size_t k, size_t i) {
    const int64_t s = tracks[k]->start[i];
    while (!running.empty() && running.top() <= s) running.pop();
    running.push(tracks[k]->end[i]);
    most = std::max(most, running.size());
  });
  return static_cast<uint16_t>(std::max<size_t>(1, std::min<size_t>(most, cap)));
}

}  // namespace asys
