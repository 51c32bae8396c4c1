#pragma once
// Counter tracks of the timeline: a value over time as a step function (PPU
// metrics per device and metric, device memory in use per device), and
// their window query merged to pixel resolution.
//
// A counter is points (time, value) in time order; value i holds from
// time[i] until time[i + 1], the last one until the end of the capture.
// Metric values are doubles (NaN: no value, e.g. between two samples that
// do not touch); memory in use is exact int64 bytes, never a double.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/report/report.h"
#include "core/timeline/event_columns.h"

namespace asys {

struct TimelineCounter {
  bool integer = false;         // values in `ivalue`, else in `dvalue`
  std::string unit;             // "B", "%", "cycle/second"
  // Ascending, distinct, packed as the tracks' times (event_columns.h: 4
  // bytes a point instead of 8). While points are added they are in
  // `addedTime`, which finishCounter packs into `time` and gives back.
  PackedTimes time;
  std::vector<int64_t> addedTime;
  std::vector<int64_t> ivalue;  // integer counters
  std::vector<double> dvalue;   // real counters
  // The largest value (the chart's axis max), NaN/0 when none.
  int64_t imax = 0;
  double dmax = 0;
  // Per block of kBlock points, the block's min and max, then blocks of
  // kBlock blocks, and so on (2.3 bytes a point): a window takes a pixel's
  // points as the largest whole blocks that fit in it, at most 2 (kBlock - 1)
  // items a level, so it costs O(pixels log points), not one step per point.
  // 8, not 64: a pixel's edges cost up to 2 (kBlock - 1) items a level, which
  // with 64 was most of a zoomed-out window over ~130 metric samples a pixel.
  static constexpr size_t kBlock = 8;
  std::vector<std::vector<int64_t>> iblockMin, iblockMax;
  std::vector<std::vector<double>> dblockMin, dblockMax;
  // Per block, the time of its last point (whether it fits in a pixel),
  // level by level as the tables above (1.1 bytes a point): read from
  // `time`, a block's last time would be a cache line a block.
  std::vector<std::vector<int64_t>> blockLast;
  size_t size() const { return time.size(); }
  // The bytes its points and blocks hold (bench, docs/timeline.md).
  size_t bytes() const;
};

// A window of a counter: steps (time, min, max); step k holds from time[k]
// until time[k + 1] (the last to the window's end), and within it the
// value stays between min[k] and max[k] (equal where nothing merged).
struct CounterSlices {
  bool integer = false;
  std::vector<int64_t> time;
  std::vector<int64_t> imin, imax;
  std::vector<double> dmin, dmax;
  size_t size() const { return time.size(); }
};

// Packs the points' times (addedTime into time), fills the block tables and
// the max; call once the points are complete.
void finishCounter(TimelineCounter& c);

// The steps of [from, to) at `pixels` columns: the step in force at `from`,
// then per pixel the points that change the value in it merged into one step
// (their min and max). After a merged step the value in force from the next
// pixel's first ns (its last point's) joins that pixel's step when points
// follow in that pixel, else is a step of its own there. So at most two
// steps a pixel (one where points are dense), exact where no pixel holds two
// points, and a spike is never lost.
CounterSlices counterWindow(const TimelineCounter& c, int64_t from, int64_t to, uint32_t pixels);

// Device memory in use per PPU (device id -> counter, unit "B"): allocations
// paired with releases as the device memory rules pair them
// (core/analysis/device_memory.h); an allocation adds its bytes, a paired
// release takes its allocation's bytes back, an unpaired one changes nothing.
// Events of one ns are one step (the value after the last of them).
std::map<int64_t, TimelineCounter> memoryInUse(Report& report);

// PPU_METRICS per device and metric, in order of each metric's first sample:
// a sample's value holds from its start to its end (start + duration); a gap
// before the next sample, and the time after the last, have no value (NaN).
struct MetricCounter {
  int64_t device = 0;
  uint32_t name = 0;  // the metric's name (string id)
  TimelineCounter counter;
};
std::vector<MetricCounter> metricCounters(Report& report);

}  // namespace asys
