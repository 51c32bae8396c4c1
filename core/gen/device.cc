#include "core/gen/device.h"

#include <algorithm>

#include "core/gen/catalog.h"
#include "core/base/fp_contract.h"

namespace asys::gen {

Device::Device(int32_t id_, int32_t local_, uint64_t seed)
    : id(id_),
      local(local_),
      contextId(local_ + 1),
      nextAddr_(0x7e0000000000LL + static_cast<int64_t>(id_) * 0x2000000000LL),
      rng_(seed, 1000 + static_cast<uint64_t>(id_)) {
  // Stream ids as a runtime hands them out: the default stream, then the
  // streams created at start-up.
  compute.id = 7 + local_ * 16;
  comm.id = 13 + local_ * 16;
  copy.id = 14 + local_ * 16;
}

int64_t Device::reserve(int64_t bytes) {
  const int64_t align = 2 << 20;
  const int64_t addr = nextAddr_;
  nextAddr_ += (bytes + align - 1) / align * align;
  return addr;
}

void Device::flushMetrics(ReportWriter& w, int64_t upTo) {
  bounds_.clear();
  int64_t s = cursor_;
  for (;;) {
    if (period_ == 0) period_ = 1000000 + rng_.range(0, 90000);
    if (s + period_ > upTo) break;
    bounds_.push_back(s);
    s += period_;
    period_ = 0;
  }
  const size_t n = bounds_.size();
  if (n == 0) return;
  bounds_.push_back(s);
  busyNs_.assign(n, 0.0);
  tensorNs_.assign(n, 0.0);
  copyNs_.assign(n, 0.0);
  starts_.assign(n, 0);

  for (const Busy& b : busy_) {
    if (b.end <= bounds_[0] || b.start >= s) continue;
    size_t i = static_cast<size_t>(std::upper_bound(bounds_.begin(), bounds_.end(), b.start) -
                                   bounds_.begin());
    i = i == 0 ? 0 : i - 1;
    if (b.kernel && b.start >= bounds_[0]) starts_[i] += 1;
    for (; i < n && bounds_[i] < b.end; ++i) {
      const int64_t lo = std::max(b.start, bounds_[i]);
      const int64_t hi = std::min(b.end, bounds_[i + 1]);
      if (hi <= lo) continue;
      const double overlap = static_cast<double>(hi - lo);
      if (!b.kernel) {
        copyNs_[i] += overlap;
        continue;
      }
      busyNs_[i] += overlap;
      if (b.tensor) tensorNs_[i] += overlap;
    }
  }

  for (size_t i = 0; i < n; ++i) {
    const int64_t start = bounds_[i];
    const int64_t dur = bounds_[i + 1] - start;
    const double len = static_cast<double>(dur);
    const double busy = std::min(1.0, busyNs_[i] / len);
    const double tensor = std::min(1.0, tensorNs_[i] / len);
    const double copy = std::min(1.0, copyNs_[i] / len);
    const double clock = busy + copy > 0.01 ? 1.7e9 * (0.955 + 0.03 * rng_.uniform())
                                            : 2.0e8 * (0.995 + 0.01 * rng_.uniform());
    const double ce = 100.0 * busy * (0.985 + 0.015 * rng_.uniform());
    const double dispatch = std::min(100.0, starts_[i] * 1.8 * (0.9 + 0.2 * rng_.uniform()));
    const double cu = 100.0 * busy * (0.86 + 0.1 * rng_.uniform());
    const double pipe = 100.0 * tensor * (0.52 + 0.12 * rng_.uniform());
    const double dram =
        2.0e12 * (0.004 + 0.5 * busy - 0.3 * tensor + 0.01 * copy) * (0.95 + 0.1 * rng_.uniform());
    w.metric(id, start, dur, kMCyclesElapsed + 1, clock);
    w.metric(id, start, dur, kMCeActive + 1, ce);
    w.metric(id, start, dur, kMDispatch + 1, dispatch);
    w.metric(id, start, dur, kMCuActive + 1, cu);
    w.metric(id, start, dur, kMTensorActive + 1, pipe);
    w.metric(id, start, dur, kMDramRead + 1, dram);
  }

  // Keep the activity that reaches into the next, still open sample.
  size_t keep = 0;
  for (const Busy& b : busy_) {
    if (b.end > s) busy_[keep++] = b;
  }
  busy_.resize(keep);
  cursor_ = s;
}

}  // namespace asys::gen
