#include "core/analysis/range_sweep.h"

namespace asys {

RangeSweep::RangeSweep(const KeyedSpans& ranges)
    : ranges_(ranges), byStart_(intervals_detail::byKeyThenStart(ranges)) {
  for (size_t i = 0; i < byStart_.size();) {
    const int64_t key = ranges.key[byStart_[i]];
    size_t j = i + 1;
    while (j < byStart_.size() && ranges.key[byStart_[j]] == key) ++j;
    threadOf_.indexOf(static_cast<uint64_t>(key));
    Thread& t = threads_.emplace_back();
    t.begin = t.next = i;
    t.end = j;
    i = j;
  }
}

void RangeSweep::restart() {
  for (Thread& t : threads_) {
    t.next = t.begin;
    t.active.clear();
    t.started = false;
  }
}

}  // namespace asys
