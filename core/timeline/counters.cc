#include "core/timeline/counters.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>
#include <unordered_map>

#include "core/analysis/device_memory.h"

namespace asys {

namespace {

// Min and max that skip NaN (a metric's "no value"); NaN only when both are.
inline double lo(double a, double b) { return std::isnan(a) ? b : std::isnan(b) ? a : std::min(a, b); }
inline double hi(double a, double b) { return std::isnan(a) ? b : std::isnan(b) ? a : std::max(a, b); }
inline int64_t lo(int64_t a, int64_t b) { return std::min(a, b); }
inline int64_t hi(int64_t a, int64_t b) { return std::max(a, b); }

template <typename T>
void buildBlocks(const std::vector<T>& values, std::vector<std::vector<T>>& mins, std::vector<std::vector<T>>& maxs) {
  mins.clear();
  maxs.clear();
  const std::vector<T>* lower = &values;
  const std::vector<T>* lowerMax = &values;
  // Levels while a level has more than one block's worth of items.
  while (lower->size() > TimelineCounter::kBlock) {
    const size_t n = (lower->size() + TimelineCounter::kBlock - 1) / TimelineCounter::kBlock;
    std::vector<T> mn(n), mx(n);
    for (size_t b = 0; b < n; ++b) {
      const size_t i0 = b * TimelineCounter::kBlock, i1 = std::min(lower->size(), i0 + TimelineCounter::kBlock);
      T a = (*lower)[i0], z = (*lowerMax)[i0];
      for (size_t i = i0 + 1; i < i1; ++i) {
        a = lo(a, (*lower)[i]);
        z = hi(z, (*lowerMax)[i]);
      }
      mn[b] = a;
      mx[b] = z;
    }
    mins.push_back(std::move(mn));
    maxs.push_back(std::move(mx));
    lower = &mins.back();
    lowerMax = &maxs.back();
  }
}

// The points of one pixel: from point i (inside it) on, every point before
// `next` (the next pixel's first ns), their min and max folded into mn and
// mx; returns the first point at or after `next`. Whole blocks are taken
// where they fit (a block fits when its last point is before `next`):
// climbing, up to kBlock - 1 items a level until the position is a block
// edge of the level above, then down again inside the first block that does
// not fit. So a pixel costs at most 2 (kBlock - 1) items a level, never one
// per point, and no search (the climb finds the pixel's end).
template <typename T>
size_t takePixel(const TimelineCounter& c, const std::vector<T>& values, const std::vector<std::vector<T>>& mins,
                 const std::vector<std::vector<T>>& maxs, size_t i, int64_t next, T& mn, T& mx) {
  constexpr size_t B = TimelineCounter::kBlock;
  const size_t n = c.size();
  size_t pos = i, level = 0, span = 1;  // items of `level` hold `span` points
  bool down = false;                    // inside a block that does not fit: no more climbing
  while (pos < n) {
    const size_t end = std::min(n, pos + span);
    const int64_t last = level == 0 ? c.time[pos] : c.blockLast[level - 1][pos / span];
    if (last >= next) {  // does not fit: take its parts
      if (level == 0) break;
      --level;
      span /= B;
      down = true;
      continue;
    }
    if (level == 0) {
      mn = lo(mn, values[pos]);
      mx = hi(mx, values[pos]);
    } else {
      mn = lo(mn, mins[level - 1][pos / span]);
      mx = hi(mx, maxs[level - 1][pos / span]);
    }
    pos = end;
    if (!down && level < mins.size() && pos % (span * B) == 0) {
      ++level;
      span *= B;
    }
  }
  return pos;
}

template <typename T>
void windowOf(const TimelineCounter& c, const std::vector<T>& v, const std::vector<std::vector<T>>& mins,
              const std::vector<std::vector<T>>& maxs, int64_t from, int64_t to, uint32_t pixels,
              std::vector<int64_t>& time, std::vector<T>& outMin, std::vector<T>& outMax) {
  const size_t n = c.size();
  const double perPixel = static_cast<double>(to - from) / pixels;
  // Truncation is floor and ceil here (the quotients are positive), without
  // the libm calls that were a third of a zoomed-out window natively.
  auto pixelOf = [&](int64_t t) {
    return t <= from ? int64_t{0} : static_cast<int64_t>(static_cast<double>(t - from) / perPixel);
  };
  // The first ns of pixel q: the least t with pixelOf(t) >= q.
  auto pixelStart = [&](int64_t q) {
    const double x = static_cast<double>(q) * perPixel;
    int64_t up = static_cast<int64_t>(x);
    if (static_cast<double>(up) < x) ++up;
    int64_t t = from + up;
    while (pixelOf(t) < q) ++t;
    while (t - 1 > from && pixelOf(t - 1) >= q) --t;
    return t;
  };
  // At most two steps a pixel and the one in force at `from`: reserved, so
  // a window never copies its steps while growing them.
  const size_t most = std::min<size_t>(2 * size_t{pixels} + 2, 2 * n + 1);
  time.reserve(most);
  outMin.reserve(most);
  outMax.reserve(most);
  auto emit = [&](int64_t t, T a, T b) {
    time.push_back(t);
    outMin.push_back(a);
    outMax.push_back(b);
  };
  // The point in force at `from` (or the first point, when all are later).
  size_t i = c.time.upperBound(from);
  if (i > 0) --i;
  // After a merged step: the next pixel's first ns, the value in force from
  // there (its last point's) and its pixel. That value either joins the next
  // pixel's step (its points come right after) or is a step of its own.
  bool carry = false;
  int64_t carryAt = 0, carryPixel = 0;
  T carryValue{};
  while (i < n && c.time[i] < to) {
    const int64_t p = pixelOf(c.time[i]);
    const int64_t next = pixelStart(p + 1);
    // Points [i, j) change the value inside this pixel.
    int64_t at = c.time[i];
    T mn = v[i], mx = v[i];
    const size_t j = takePixel(c, v, mins, maxs, i, next, mn, mx);
    bool merged = j > i + 1;
    if (carry && at > carryAt) {
      if (p == carryPixel + 1) {  // the carried value opens this pixel: one step
        at = carryAt;
        mn = lo(mn, carryValue);
        mx = hi(mx, carryValue);
        merged = true;
      } else {
        emit(carryAt, carryValue, carryValue);
      }
    }
    carry = false;
    emit(at, mn, mx);
    if (merged && next < to) {
      carry = true;
      carryAt = next;
      carryPixel = p;
      carryValue = v[j - 1];
    }
    i = j;
  }
  if (carry) emit(carryAt, carryValue, carryValue);
}

}  // namespace

void finishCounter(TimelineCounter& c) {
  c.time = PackedTimes(c.addedTime);
  freeVector(c.addedTime);
  c.blockLast.clear();
  for (size_t span = TimelineCounter::kBlock; span < c.size(); span *= TimelineCounter::kBlock) {
    std::vector<int64_t> last((c.size() + span - 1) / span);
    for (size_t b = 0; b < last.size(); ++b) last[b] = c.time[std::min(c.size(), (b + 1) * span) - 1];
    c.blockLast.push_back(std::move(last));
  }
  if (c.integer) {
    buildBlocks(c.ivalue, c.iblockMin, c.iblockMax);
    c.imax = 0;
    for (int64_t v : c.ivalue) c.imax = std::max(c.imax, v);
  } else {
    buildBlocks(c.dvalue, c.dblockMin, c.dblockMax);
    c.dmax = std::numeric_limits<double>::quiet_NaN();
    for (double v : c.dvalue) c.dmax = hi(c.dmax, v);
  }
}

size_t TimelineCounter::bytes() const {
  size_t b = time.bytes() + 8 * (ivalue.capacity() + dvalue.capacity());
  for (const auto* levels : {&iblockMin, &iblockMax, &blockLast})
    for (const auto& l : *levels) b += 8 * l.capacity();
  for (const auto* levels : {&dblockMin, &dblockMax})
    for (const auto& l : *levels) b += 8 * l.capacity();
  return b;
}

CounterSlices counterWindow(const TimelineCounter& c, int64_t from, int64_t to, uint32_t pixels) {
  CounterSlices out;
  out.integer = c.integer;
  if (to <= from || pixels == 0 || c.size() == 0) return out;
  if (c.integer) windowOf(c, c.ivalue, c.iblockMin, c.iblockMax, from, to, pixels, out.time, out.imin, out.imax);
  else windowOf(c, c.dvalue, c.dblockMin, c.dblockMax, from, to, pixels, out.time, out.dmin, out.dmax);
  return out;
}

// A point of a counter being built: a second value at the same ns replaces
// the first (the value after the last event of that ns).
template <typename T>
void addPoint(TimelineCounter& c, std::vector<T>& values, int64_t t, T v) {
  if (!c.addedTime.empty() && c.addedTime.back() == t) {
    values.back() = v;
    return;
  }
  c.addedTime.push_back(t);
  values.push_back(v);
}

std::map<int64_t, TimelineCounter> memoryInUse(Report& report) {
  std::map<int64_t, TimelineCounter> out;
  if (!report.hasData("PPU_MEMORY_USAGE_EVENTS")) return out;
  const DeviceMemoryEvents events = pairDeviceMemory(report);
  const MemoryUsageEvents& m = report.memoryUsage(mcol::pairing);
  std::map<int64_t, int64_t> held;  // device -> bytes in use
  auto bytesOf = [&](uint32_t row) { return m.bytes[row] == kNoValue ? 0 : m.bytes[row]; };
  for (uint32_t row : events.order) {  // (start, eventId) order, on a PPU
    const int64_t device = m.deviceId[row];
    int64_t& h = held[device];
    if (m.operation[row] == kMemoryAllocation) {
      h += bytesOf(row);
    } else {
      const uint32_t allocation = events.partner[row];
      if (allocation == DeviceMemoryEvents::kNone) continue;  // unpaired: nothing was held
      h -= bytesOf(allocation);
    }
    TimelineCounter& c = out[device];
    c.integer = true;
    c.unit = "B";
    addPoint(c, c.ivalue, m.start[row], h);
  }
  for (auto& [device, c] : out) finishCounter(c);
  return out;
}

std::vector<MetricCounter> metricCounters(Report& report) {
  std::vector<MetricCounter> out;
  if (!report.hasData("PPU_METRICS")) return out;
  const MetricSamples& m = report.metrics();
  // Samples by (counter, start), counters numbered by first appearance.
  std::map<std::tuple<int64_t, uint32_t, uint32_t>, uint32_t> index;  // (device, name, unit) -> counter
  std::vector<uint32_t> counterOf(m.size(), 0), rows;
  for (uint32_t i = 0; i < m.size(); ++i) {
    if (m.deviceId[i] < 0) continue;  // a sample of no PPU
    auto [it, added] = index.emplace(std::make_tuple(int64_t{m.deviceId[i]}, m.nameId[i], m.unitId[i]),
                                     static_cast<uint32_t>(out.size()));
    if (added) {
      MetricCounter mc;
      mc.device = m.deviceId[i];
      mc.name = m.nameId[i];
      mc.counter.unit = std::string(report.strings().get(m.unitId[i]));
      out.push_back(std::move(mc));
    }
    counterOf[i] = it->second;
    rows.push_back(i);
  }
  std::stable_sort(rows.begin(), rows.end(), [&](uint32_t a, uint32_t b) {
    return counterOf[a] != counterOf[b] ? counterOf[a] < counterOf[b] : m.start[a] < m.start[b];
  });
  const double none = std::numeric_limits<double>::quiet_NaN();
  for (size_t k = 0; k < rows.size(); ++k) {
    const uint32_t i = rows[k];
    TimelineCounter& c = out[counterOf[i]].counter;
    addPoint(c, c.dvalue, m.start[i], m.value[i]);
    // Where the sample ends before the next one starts (or it is the last):
    // no value from its end on. A sample without a duration lasts until the next.
    const bool last = k + 1 == rows.size() || counterOf[rows[k + 1]] != counterOf[i];
    if (m.duration[i] == kNoValue || m.duration[i] < 0) continue;
    const int64_t end = m.start[i] + m.duration[i];
    if (last || m.start[rows[k + 1]] > end) addPoint(c, c.dvalue, end, none);
    if (last) {  // its points are complete: no growth slack kept (one counter at a time)
      c.addedTime.shrink_to_fit();
      c.dvalue.shrink_to_fit();
    }
  }
  for (MetricCounter& mc : out) finishCounter(mc.counter);
  return out;
}

}  // namespace asys
