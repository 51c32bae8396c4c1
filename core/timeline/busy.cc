#include "core/timeline/busy.h"

#include <algorithm>
#include <functional>
#include <queue>

#include "core/analysis/intervals.h"
#include "core/timeline/timeline.h"

namespace asys {

namespace {

// Spans arriving in start order, merged a chunk at a time: every merged
// block but the chunk's last is final (later spans start at or after the
// chunk's last start, past those blocks' ends), so only that one is carried.
class StartOrderedUnion {
 public:
  void add(int64_t start, int64_t end) {
    buffer_.push_back({start, end});
    if (buffer_.size() == kChunk) flush();
  }
  int64_t length() {
    flush();
    return total_ + (buffer_.empty() ? 0 : buffer_.front().length());
  }

 private:
  static constexpr size_t kChunk = 1 << 16;
  void flush() {
    const size_t blocks = mergeSpansInPlace(buffer_);
    if (blocks == 0) {
      buffer_.clear();
      return;
    }
    total_ += totalLength(std::span<const Span>(buffer_.data(), blocks - 1));
    buffer_.front() = buffer_[blocks - 1];
    buffer_.resize(1);
  }
  std::vector<Span> buffer_;
  int64_t total_ = 0;
};

}  // namespace

int64_t busyOf(const std::vector<const TimelineTrack*>& tracks) {
  StartOrderedUnion u;
  // Cursors by their next event's start: the tracks' events in start order.
  using Cursor = std::pair<int64_t, size_t>;  // (start, track)
  std::priority_queue<Cursor, std::vector<Cursor>, std::greater<>> next;
  std::vector<size_t> at(tracks.size(), 0);
  for (size_t k = 0; k < tracks.size(); ++k)
    if (tracks[k]->size() > 0) next.push({tracks[k]->start[0], k});
  while (!next.empty()) {
    const size_t k = next.top().second;
    next.pop();
    const TimelineTrack& t = *tracks[k];
    // This track's events up to the next track's start, without the heap.
    const int64_t until = next.empty() ? INT64_MAX : next.top().first;
    size_t& i = at[k];
    do {
      u.add(t.start[i], t.end[i]);
      ++i;
    } while (i < t.size() && t.start[i] <= until);
    if (i < t.size()) next.push({t.start[i], k});
  }
  return u.length();
}

}  // namespace asys
