// The manual's device row ("The device row shows kernels on top and memory
// operations below, coloured by kind (HtoD/DtoH/DtoD, pinned/pageable)"):
// one row per PPU summarising all its streams, as Nsight Systems draws a
// GPU's own row. Built as `[All Streams]` is: it holds no events, its
// `sources` are the PPU's work rows (every stream of every context and the
// PCCL kernels), and its window merges their windows (each at most a few
// slices a pixel): kernels on lane 0, memcpys and memsets on lane 1. The
// only memory it keeps is one byte per memcpy of the report (the memory
// kinds of its source and destination), read once from HGGC_MEMCPY.
#include <algorithm>
#include <cmath>
#include <map>

#include "core/analysis/memcpy_names.h"
#include "core/timeline/busy.h"
#include "core/timeline/timeline.h"

namespace asys {

namespace {

bool isMemoryKind(TimelineKind k) { return k == TimelineKind::Memcpy || k == TimelineKind::Memset; }
bool isKernelKind(TimelineKind k) { return k == TimelineKind::Kernel || k == TimelineKind::PcclKernel; }

}  // namespace

MemKindClass memKindClassOf(std::string_view label) {
  if (label.empty()) return kMemUnknown;
  if (label == "Pageable") return kMemPageable;
  if (label == "Pinned") return kMemPinned;
  if (label == "Device") return kMemDevice;
  if (label == "Managed") return kMemManaged;
  return kMemOther;
}

std::vector<size_t> Timeline::deviceRows(Report& report) {
  if (deviceRows_) return *deviceRows_;
  deviceRows_.emplace();
  // Per PPU (in track order: devices by id), its work rows.
  std::vector<std::pair<int64_t, std::vector<uint32_t>>> perDevice;
  for (size_t i = 0; i < tracks_.size(); ++i) {
    const TimelineTrack& t = tracks_[i];
    if (!isPpuWork(t) || t.merged()) continue;
    if (perDevice.empty() || perDevice.back().first != t.device) perDevice.push_back({t.device, {}});
    perDevice.back().second.push_back(static_cast<uint32_t>(i));
  }
  if (perDevice.empty()) return *deviceRows_;
  // The memcpys' memory kinds, by table row (released after: the tracks
  // hold what the timeline reads of them).
  if (report.hasData("HGGC_MEMCPY")) {
    const MemoryOps& mc = report.memcpys();
    MemcpyNames names(report);
    std::map<int64_t, MemKindClass> classOf;
    auto cls = [&](int64_t kind) {
      auto [it, added] = classOf.emplace(kind, kMemUnknown);
      if (added) it->second = memKindClassOf(names.memKind(kind));
      return it->second;
    };
    memcpyKinds_.resize(mc.size());
    for (size_t i = 0; i < mc.size(); ++i)
      memcpyKinds_[i] = static_cast<uint8_t>(cls(mc.srcKind[i]) << 4 | cls(mc.dstKind[i]));
    report.releaseMemoryOps();
  }
  for (auto& [device, sources] : perDevice) {
    TimelineTrack row;
    row.group = tracks_[sources[0]].group;
    row.label = "Device";
    row.device = device;
    row.deviceRow = true;
    row.lanes = 2;
    row.sources = std::move(sources);
    deviceRows_->push_back(tracks_.size());
    tracks_.push_back(std::move(row));
  }
  // Their shares over the whole capture: the row's sources are its PPU's
  // work, so its busy time is its group's (the build's); its halves take
  // one sweep over that work (not every row's shares again: sharesIn would
  // sweep every track of the report).
  for (size_t id : *deviceRows_) {
    TimelineTrack& t = tracks_[id];
    int64_t busy = 0;
    for (const TimelineGroup& g : groups_)
      if (g.name == t.group) busy = g.busy;
    int64_t kernels = 0, memory = 0;
    halvesIn(t, INT64_MIN, INT64_MAX, kernels, memory);
    const double none = std::nan("");
    t.busy = busy;
    t.share = busy > 0 ? 1.0 : none;
    t.contextBusy = 0;
    t.contextShare = none;
    t.kernelShare = busy > 0 ? static_cast<double>(kernels) / busy : none;
    t.memoryShare = busy > 0 ? static_cast<double>(memory) / busy : none;
  }
  return *deviceRows_;
}

// Per device row, the unions of its kernels and of its memory operations
// clipped to [from, to), over its PPU's busy time there (the row's own busy
// time: its sources are the PPU's work). One sweep over the sources' events
// overlapping the range, in start order; no memory per event.
void Timeline::deviceRowShares(TimelineShares& out, int64_t from, int64_t to) const {
  const double none = std::nan("");
  out.kernelShare.assign(tracks_.size(), none);
  out.memoryShare.assign(tracks_.size(), none);
  if (!deviceRows_ || from >= to) return;
  for (size_t id : *deviceRows_) {
    int64_t kernels = 0, memory = 0;
    halvesIn(tracks_[id], from, to, kernels, memory);
    const int64_t whole = out.busy[id];
    out.kernelShare[id] = whole > 0 ? static_cast<double>(kernels) / whole : none;
    out.memoryShare[id] = whole > 0 ? static_cast<double>(memory) / whole : none;
  }
}

void Timeline::halvesIn(const TimelineTrack& row, int64_t from, int64_t to, int64_t& kernels, int64_t& memory) const {
  std::vector<const TimelineTrack*> sources;
  for (uint32_t k : row.sources) sources.push_back(&tracks_[k]);
  std::vector<size_t> first(sources.size());
  for (size_t k = 0; k < sources.size(); ++k) first[k] = firstReaching(*sources[k], from);
  RunningUnion k, m;
  forEachInStartOrder(sources, first, to, [&](size_t s, size_t i) {
    const int64_t a = std::max(sources[s]->start[i], from), b = std::min(sources[s]->end[i], to);
    if (a >= b) return;
    const TimelineKind kind = sources[s]->kind[i];
    if (isKernelKind(kind)) k.add(a, b);
    else if (isMemoryKind(kind)) m.add(a, b);
  });
  kernels = k.length();
  memory = m.length();
}

// Each source's window (at most a few slices a pixel), its slices split by
// half (kernels on lane 0, memcpys and memsets on lane 1), then per half in
// start order merged as a window merges a lane's events: a slice joins the
// one before when it overlaps it (two streams' kernels at once are one
// stretch of the device's time) or starts in the pixel that one ends in,
// unless both are a pixel wide or more and apart. The longest event names
// the slice and is what a click selects (numbered past the sources before
// its own, Timeline::sourceEvent); a memcpy slice carries its memory kinds.
TimelineSlices Timeline::deviceWindow(const TimelineTrack& m, int64_t from, int64_t to, uint32_t pixels) const {
  struct Item {
    int64_t start, end, longest;
    uint32_t name, event, count;
    TimelineKind kind;
    uint8_t mem;
  };
  std::vector<Item> halves[2];
  uint32_t offset = 0;
  for (uint32_t k : m.sources) {
    const TimelineTrack& src = tracks_[k];
    const TimelineSlices p = trackWindow(src, from, to, pixels);
    for (size_t i = 0; i < p.size(); ++i) {
      const uint32_t e = p.event[i];
      const TimelineKind kind = p.kind[i];
      uint8_t mem = 0;
      if (kind == TimelineKind::Memcpy && e < src.row.size()) {
        const uint32_t r = src.row[e];
        if (r < memcpyKinds_.size()) mem = memcpyKinds_[r];
      }
      halves[isMemoryKind(kind) ? 1 : 0].push_back(
          {p.start[i], p.end[i], src.end[e] - src.start[e], p.name[i], offset + e, p.count[i], kind, mem});
    }
    offset += static_cast<uint32_t>(src.size());
  }
  const double perPixel = static_cast<double>(to - from) / pixels;
  auto pixelOf = [&](int64_t v) { return static_cast<int64_t>(std::floor(static_cast<double>(v - from) / perPixel)); };
  TimelineSlices out;
  for (uint16_t lane = 0; lane < 2; ++lane) {
    std::vector<Item>& items = halves[lane];
    std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
      return a.start != b.start ? a.start < b.start : a.end < b.end;
    });
    int64_t open = -1, longest = -1;  // the slice being built (index into out), its longest event
    for (const Item& it : items) {
      if (open >= 0) {
        const int64_t openEnd = out.end[open];
        const bool overlaps = it.start < openEnd;
        const bool samePixel = pixelOf(it.start) <= pixelOf(openEnd);
        const bool bothWide = static_cast<double>(openEnd - out.start[open]) >= perPixel &&
                              static_cast<double>(it.end - it.start) >= perPixel;
        if (overlaps || (samePixel && !bothWide)) {
          out.end[open] = std::max(openEnd, it.end);
          out.count[open] += it.count;
          if (it.longest > longest) {
            longest = it.longest;
            out.name[open] = it.name;
            out.kind[open] = it.kind;
            out.event[open] = it.event;
            out.memKind[open] = it.mem;
          }
          continue;
        }
      }
      open = static_cast<int64_t>(out.size());
      longest = it.longest;
      out.start.push_back(it.start);
      out.end.push_back(it.end);
      out.name.push_back(it.name);
      out.event.push_back(it.event);
      out.count.push_back(it.count);
      out.lane.push_back(lane);
      out.kind.push_back(it.kind);
      out.memKind.push_back(it.mem);
    }
  }
  return out;
}

}  // namespace asys
