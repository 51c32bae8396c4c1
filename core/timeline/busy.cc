#include "core/timeline/busy.h"

namespace asys {

int64_t busyOf(const std::vector<const TimelineTrack*>& tracks) {
  RunningUnion u;
  forEachInStartOrder(tracks, std::vector<size_t>(tracks.size(), 0), INT64_MAX,
                      [&](size_t k, size_t i) { u.add(tracks[k]->start[i], tracks[k]->end[i]); });
  return u.length();
}

}  // namespace asys
