#include "core/timeline/timeline.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <string_view>
#include <cmath>
#include <map>
#include <numeric>
#include <optional>
#include <tuple>

#include "core/analysis/hgtx_stacks.h"
#include "core/analysis/kernel_names.h"
#include "core/analysis/memcpy_names.h"
#include "core/analysis/pccl_kernels.h"
#include "core/base/error.h"
#include "core/base/permute.h"
#include "core/base/stage_timer.h"
#include "core/timeline/busy.h"
#include "core/timeline/host_rows.h"
#include "core/timeline/occupancy.h"
#include "core/timeline/pending.h"

#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace asys {

uint16_t assignLanes(const std::vector<int64_t>& start, const std::vector<int64_t>& end, std::vector<uint16_t>& lane) {
  std::vector<int64_t> laneEnd;  // per lane: where its last event ends
  lane.resize(start.size());
  for (size_t i = 0; i < start.size(); ++i) {
    size_t l = 0;
    while (l < laneEnd.size() && laneEnd[l] > start[i]) ++l;
    if (l == laneEnd.size()) laneEnd.push_back(end[i]);
    else laneEnd[l] = end[i];
    lane[i] = static_cast<uint16_t>(std::min<size_t>(l, 0xFFFF));
  }
  return static_cast<uint16_t>(std::max<size_t>(1, std::min<size_t>(laneEnd.size(), 0xFFFF)));
}

using namespace timeline_detail;

namespace {

TimelineTrack finish(Pending& p) {
  if (p.counter) {
    TimelineTrack t;
    t.group = std::move(p.group);
    t.label = std::move(p.label);
    t.counter = std::move(p.counter);
    return t;
  }
  const size_t n = p.start.size();
  // An event without an end (cut off by the capture's end) shows as an instant.
  for (size_t i = 0; i < n; ++i)
    if (p.end[i] == kNoValue || p.end[i] < p.start[i]) p.end[i] = p.start[i];
  bool sorted = true;
  for (size_t i = 1; i < n && sorted; ++i)
    sorted = p.start[i - 1] < p.start[i] || (p.start[i - 1] == p.start[i] && p.end[i - 1] <= p.end[i]);
  if (!sorted) {
    std::vector<uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      return p.start[a] != p.start[b] ? p.start[a] < p.start[b] : p.end[a] < p.end[b];
    });
    permute(p.start, order);
    permute(p.end, order);
    permute(p.name, order);
    permute(p.kind, order);
    permute(p.lane, order);
    permute(p.row, order);
  }
  TimelineTrack t;
  t.group = std::move(p.group);
  t.label = std::move(p.label);
  t.context = std::move(p.context);
  t.hostRow = p.hostRow;
  t.notes = std::move(p.notes);
  if (p.lane.empty()) assignLanes(p.start, p.end, p.lane);
  // Rows only where some event has one (OSRT calls, PCCL stages and
  // projections have none).
  const bool rows = std::any_of(p.row.begin(), p.row.end(), [](uint32_t r) { return r != kNoTimelineRow; });
  t.setEvents({std::move(p.start), std::move(p.end), std::move(p.name), std::move(p.lane), std::move(p.kind),
               rows ? std::move(p.row) : std::vector<uint32_t>{}});
  freeVector(p.row);
  buildLevels(t);
  return t;
}

std::string deviceGroup(Report& report, int64_t device) {
  for (const Device& d : report.devices())
    if (d.id == device) return "PPU " + std::to_string(device) + " (" + d.name + ")";
  return "PPU " + std::to_string(device);
}

std::string processGroup(Report& report, int64_t pid) {
  for (const Process& p : report.processes())
    if (p.pid == pid && !p.name.empty()) return "Process " + std::to_string(pid) + " (" + p.name + ")";
  return "Process " + std::to_string(pid);
}

std::string threadLabel(Report& report, int64_t globalTid) {
  const auto& names = report.threadNames();
  auto it = names.find(globalTid);
  const bool named = it != names.end() && it->second != kNoString;
  return timeline_detail::threadLabelOf(tidOf(globalTid), named ? report.strings().get(it->second) : "");
}

}  // namespace

std::string timeline_detail::threadLabelOf(int64_t tid, std::string_view name) {
  const std::string head = "Thread " + std::to_string(tid);
  if (name.empty()) return head;
  // The name's own "thread <tid>" prefix, compared without case.
  const bool repeatsTid = name.size() >= head.size() &&
                          std::equal(head.begin(), head.end(), name.begin(), [](char a, char b) {
                            return std::tolower(static_cast<unsigned char>(a)) ==
                                   std::tolower(static_cast<unsigned char>(b));
                          });
  if (!repeatsTid) return head + " (" + std::string(name) + ")";
  std::string_view rest = name.substr(head.size());
  // "thread 25738" alone, or followed by a separator: the rest is the name.
  if (rest.empty()) return head;
  if (rest.front() != ' ' && rest.front() != ':' && rest.front() != '(') return head + " (" + std::string(name) + ")";
  return head + std::string(rest);
}

Pending& timeline_detail::deviceTrack(Report& report, PendingTracks& out, int64_t device, DeviceSection section,
                                      int64_t a, int64_t b, const std::function<std::string()>& label) {
  Pending& p = out[{kDeviceSide, device, section, a, b}];
  if (p.group.empty()) {
    p.group = deviceGroup(report, device);
    p.label = label();
  }
  return p;
}

Pending& timeline_detail::threadTrack(Report& report, PendingTracks& out, int64_t globalTid, ThreadSection section,
                                      const char* suffix) {
  Pending& p = out[{kHostSide, globalTid, section, 0, 0}];
  if (p.group.empty()) {
    p.group = processGroup(report, pidOf(globalTid));
    p.label = threadLabel(report, globalTid) + suffix;
  }
  return p;
}

Pending& timeline_detail::pushPopTrack(Report& report, PendingTracks& out, int64_t globalTid, int library) {
  if (library <= 0) return threadTrack(report, out, globalTid, kHgtx, " HGTX");
  Pending& p = out[{kHostSide, globalTid, kHgtx, library, 0}];
  if (p.group.empty()) {
    p.group = processGroup(report, pidOf(globalTid));
    p.label = threadLabel(report, globalTid) + " " + std::string(LibraryNames::label(library));
    p.hostRow = HostRow::Library;
  }
  return p;
}

Pending& timeline_detail::processTrack(Report& report, PendingTracks& out, int64_t globalTid, ProcessSection section,
                                       const char* label) {
  Pending& p = out[{kHostSide, globalTid & ~int64_t{0xFFFFFF}, section, 0, 0}];
  if (p.group.empty()) {
    p.group = processGroup(report, pidOf(globalTid));
    p.label = label;
  }
  return p;
}

namespace {

std::string contextName(int32_t context) {
  return context < 0 ? std::string("No context") : "Context " + std::to_string(context);
}

// Device tracks: one per (device, context, stream), kernels, memcpys and
// memsets together; PCCL kernels (core/analysis/pccl_kernels.h) on one track
// of their PPU instead of their stream's. A PPU whose streams are of one
// context shows them without it. HGGC_KERNEL is never held whole (36 bytes
// a kernel for these columns): a first scan of its places and the names the
// PCCL classifier reads counts each (device, context, stream)'s kernels and
// finds each PPU's contexts (a track's key depends on them), a second adds
// the kernels, a chunk of rows at a time. The memory operations (a few
// percent of the activities) are loaded whole, then released. The first
// scan also collects the graph work the graph rows are made of (`graph`).
void addDeviceTracks(Report& report, PendingTracks& out, GraphLaunches& graph) {
  StringPool& strings = report.strings();
  // Per PPU, the one context of its streams, or kSeveral.
  constexpr int64_t kSeveral = INT64_MIN;
  std::map<int64_t, int64_t> contextOf;
  auto see = [&](int64_t device, int32_t context) {
    auto [it, added] = contextOf.emplace(device, context);
    if (!added && it->second != context) it->second = kSeveral;
  };
  auto track = [&](int64_t device, int32_t context, int64_t stream) -> Pending& {
    const bool several = contextOf[device] == kSeveral;
    Pending& p = deviceTrack(report, out, device, kStreams, several ? context : stream, several ? stream : 0,
                             [&] { return "Stream " + std::to_string(stream); });
    if (several && p.context.empty()) p.context = contextName(context);
    return p;
  };
  auto pcclTrack = [&](int64_t device) -> Pending& {
    return deviceTrack(report, out, device, kPcclKernels, 0, 0, [] { return std::string("PCCL kernels"); });
  };
  constexpr uint32_t kClassified = kcol::shortName | kcol::demangledName;
  constexpr uint32_t kGraphWork = kcol::graphId | kcol::correlationId | kcol::globalPid;
  constexpr uint32_t kCounted = kcol::place | kClassified | kGraphWork;
  constexpr uint32_t kKernelColumns = kcol::time | kcol::place | kcol::names;
  const bool kernels = report.hasData("HGGC_KERNEL"), memcpys = report.hasData("HGGC_MEMCPY"),
             memsets = report.hasData("HGGC_MEMSET");
  PcclKernelClassifier pccl(strings);
  MemcpyNames memcpyNames(report);
  const MemoryOps* mc = memcpys ? &report.memcpys() : nullptr;
  const MemoryOps* ms = memsets ? &report.memsets() : nullptr;
  const uint32_t memset = memsets ? strings.intern("Memset") : kNoString;  // no name added to a report without
  // The first scan: kernels per (device, context, stream) and per PPU's PCCL
  // track, and each PPU's contexts (those of its PCCL kernels aside).
  std::map<std::tuple<int64_t, int32_t, int64_t>, size_t> perStream;
  std::map<int64_t, size_t> perPccl;
  if (kernels)
    report.forEachKernelChunk(kCounted, [&](const Kernels& k, size_t first) {
      for (size_t i = 0; i < k.size(); ++i) {
        if (k.graphId[i] != kNoValue)
          graph.add(GraphLaunches::kKernels, first + i, pidOf(k.globalPid[i]), k.graphId[i], k.correlationId[i]);
        if (pccl.isPccl(k.shortName[i], k.demangledName[i])) {
          ++perPccl[k.deviceId[i]];
          continue;
        }
        see(k.deviceId[i], k.contextId[i]);
        ++perStream[{k.deviceId[i], k.contextId[i], k.streamId[i]}];
      }
    });
  // The memcpys, then the memsets: the graph work's order as the rows read it.
  for (auto [ops, table] : {std::pair{mc, GraphLaunches::kMemcpys}, std::pair{ms, GraphLaunches::kMemsets}}) {
    for (size_t i = 0; ops && i < ops->size(); ++i) {
      see(ops->deviceId[i], ops->contextId[i]);
      if (ops->graphId[i] != kNoValue) graph.add(table, i, pidOf(ops->globalPid[i]), ops->graphId[i], ops->correlationId[i]);
    }
  }
  graph.finish();
  // Every kernel, memcpy and memset has a table row.
  auto count = [](Pending& p, size_t n) {
    p.counted += n;
    p.withRows = true;
  };
  for (const auto& [place, n] : perStream) count(track(std::get<0>(place), std::get<1>(place), std::get<2>(place)), n);
  for (const auto& [device, n] : perPccl) count(pcclTrack(device), n);
  for (size_t i = 0; mc && i < mc->size(); ++i) count(track(mc->deviceId[i], mc->contextId[i], mc->streamId[i]), 1);
  for (size_t i = 0; ms && i < ms->size(); ++i) count(track(ms->deviceId[i], ms->contextId[i], ms->streamId[i]), 1);
  for (auto& [key, p] : out) p.reserveCounted();
  // The second scan, in table order as before: kernels, memcpys, memsets.
  if (kernels) {
    const Kernels none;
    KernelNamer namer(none, strings, KernelNameMode::Demangled);
    report.forEachKernelChunk(kKernelColumns, [&](const Kernels& k, size_t first) {
      for (size_t i = 0; i < k.size(); ++i) {
        const uint32_t row = static_cast<uint32_t>(first + i);
        if (pccl.isPccl(k.shortName[i], k.demangledName[i])) {
          pcclTrack(k.deviceId[i]).take(true, k.start[i], k.end[i], namer.nameId(k, i), TimelineKind::PcclKernel, row);
          continue;
        }
        track(k.deviceId[i], k.contextId[i], k.streamId[i])
            .take(true, k.start[i], k.end[i], namer.nameId(k, i), TimelineKind::Kernel, row);
      }
    });
  }
  for (size_t i = 0; mc && i < mc->size(); ++i)
    track(mc->deviceId[i], mc->contextId[i], mc->streamId[i])
        .take(true, mc->start[i], mc->end[i], strings.intern(memcpyNames.name(mc->copyKind[i], mc->dstKind[i])),
              TimelineKind::Memcpy, static_cast<uint32_t>(i));
  for (size_t i = 0; ms && i < ms->size(); ++i)
    track(ms->deviceId[i], ms->contextId[i], ms->streamId[i])
        .take(true, ms->start[i], ms->end[i], memset, TimelineKind::Memset, static_cast<uint32_t>(i));
  // Loaded before (a rule's), they go back as before: the tracks hold them.
  report.releaseKernelColumns(kKernelColumns);
  report.releaseMemoryOps();
}

// HGGC API calls per thread (a non-zero return value marked). HGGC_API is
// never held whole (36 bytes a call for these columns): a first scan of its
// threads alone counts each thread's calls, then the threads are filled in
// batches of at most `batchEvents` calls (a thread with more is a batch of
// its own), one scan each, and each batch is finished into tracks
// (`finishFilled`) before the next is read: the calls being collected (25
// bytes each) are a batch's, not the table's.
void addApiTracks(Report& report, PendingTracks& out, const std::function<void()>& finishFilled, size_t batchEvents) {
  if (!report.hasData("HGGC_API")) return;
  // Each call is met once over the batches (its thread's): the failed
  // allocations among them make their process's row (host_rows.h).
  AllocationFailures failures(report.strings());
  constexpr uint32_t kColumns = acol::start | acol::end | acol::globalTid | acol::nameId | acol::returnValue;
  report.forEachHggcApiChunk(acol::globalTid, [&](const ApiCalls& a, size_t first) {
    for (size_t i = 0; i < a.size(); ++i)
      threadTrack(report, out, a.globalTid[i], kApi, " HGGC API")
          .take(false, 0, 0, kNoString, TimelineKind::Api, static_cast<uint32_t>(first + i));
  });
  // Batches numbered from 1 (0: no batch), threads in key order.
  uint32_t batches = 0;
  size_t inBatch = 0;
  for (auto& [key, p] : out) {
    if (p.counted == 0) continue;
    if (batches == 0 || (inBatch > 0 && inBatch + p.counted > batchEvents)) {
      ++batches;
      inBatch = 0;
    }
    inBatch += p.counted;
    p.batch = batches;
  }
  for (uint32_t b = 1; b <= batches; ++b) {
    for (auto& [key, p] : out)
      if (p.batch == b) p.reserveCounted();
    report.forEachHggcApiChunk(kColumns, [&](const ApiCalls& a, size_t first) {
      for (size_t i = 0; i < a.size(); ++i) {
        Pending& p = threadTrack(report, out, a.globalTid[i], kApi, " HGGC API");
        if (p.batch != b) continue;
        const bool failed = a.returnValue[i] != 0 && a.returnValue[i] != kNoValue;
        p.take(true, a.start[i], a.end[i], a.nameId[i], failed ? TimelineKind::ApiError : TimelineKind::Api,
               static_cast<uint32_t>(first + i));
        if (failed) failures.see(a, i, static_cast<uint32_t>(first + i));
      }
    });
    finishFilled();
  }
  failures.addTo(report, out);  // finished with the family
  // Loaded before (a rule's), they go back as before: the tracks hold them.
  report.releaseHggcApiColumns(kColumns);
}

// Each thread's HGTX push/pop ranges by nesting level. HGTX_EVENTS is never
// held whole (60 bytes an event): a first scan counts each thread's closed
// push/pop ranges and gives their stack levels (HgtxStackCounter: the
// levels the rules' stacks give, core/analysis/hgtx_stacks.h, 28 bytes a
// range while it runs), a second adds the ranges with those levels, in the
// same (event) order.
void addHgtxTracks(Report& report, PendingTracks& out) {
  if (!report.hasData("HGTX_EVENTS")) return;
  auto closed = [](const HgtxEvents& h, size_t i) { return h.eventType[i] == kHgtxPushPop && h.end[i] != kNoValue; };
  HgtxStackCounter counter;
  // A range naming a library goes on the thread's row of that library
  // (host_rows.h): the names are read in both scans.
  LibraryNames libraries(report.strings());
  StartEndRanges startEnd;
  report.scanHgtx(hcol::start | hcol::end | hcol::eventType | hcol::globalTid | hcol::nameId,
                  [&](size_t first, const HgtxEvents& h) {
    counter.add(first, h);
    for (size_t i = 0; i < h.size(); ++i)
      if (closed(h, i))
        pushPopTrack(report, out, h.globalTid[i], libraries.of(h.nameId[i]))
            .takeOnLane(false, 0, 0, kNoString, TimelineKind::Hgtx, 0, static_cast<uint32_t>(first + i));
  });
  HgtxStackCounts levels = counter.finish();
  freeVector(levels.numChild);
  for (auto& [key, p] : out) p.reserveCounted();
  size_t k = 0;  // the next closed range, in event order as the counter has them
  report.scanHgtx([&](size_t first, const HgtxEvents& h) {
    for (size_t i = 0; i < h.size(); ++i) {
      if (h.eventType[i] == kHgtxStartEnd) startEnd.see(h, i, static_cast<uint32_t>(first + i));
      if (!closed(h, i)) continue;
      const uint32_t e = static_cast<uint32_t>(first + i);
      if (k >= levels.event.size() || levels.event[k] != e)
        throw Error(report.path() + ": HGTX_EVENTS changed between two reads of it");
      pushPopTrack(report, out, h.globalTid[i], libraries.of(h.nameId[i]))
          .takeOnLane(true, h.start[i], h.end[i], h.nameId[i], TimelineKind::Hgtx,
                      static_cast<uint16_t>(std::min(levels.level[k], 0xFFFF)), e);
      ++k;
    }
  });
  compactLibraryLanes(out);
  startEnd.addTo(report, out);
  report.releaseHgtx();
}

// Two neighbours each at least `resolution` long stay apart however close:
// back-to-back ranges (ProfilerStep#1, #2, ...) keep a label each. Only what
// is shorter than the resolution merges into its neighbour.
bool bothVisible(int64_t open, int64_t next, double resolution) {
  return static_cast<double>(open) >= resolution && static_cast<double>(next) >= resolution;
}

// How many slices mergeLevel would make, without making them: most candidate
// resolutions merge too little to be kept.
template <typename Source>
size_t countMerged(const Source& src, size_t lanes, int64_t resolution) {
  std::vector<int64_t> openEnd(lanes, INT64_MIN), openStart(lanes, 0);
  size_t slices = 0;
  for (size_t i = 0; i < src.size(); ++i) {
    const uint16_t lane = src.lane(i);
    const int64_t start = src.start(i), end = src.end(i);
    int64_t& open = openEnd[lane];
    if (open != INT64_MIN && start - open < resolution && !bothVisible(open - openStart[lane], end - start, resolution)) {
      open = std::max(open, end);
    } else {
      open = end;
      openStart[lane] = start;
      ++slices;
    }
  }
  return slices;
}

// One level from the one below (or the raw events): in start order, per lane,
// an item joins the lane's open slice when it starts less than `resolution`
// after that slice's end, unless both are at least `resolution` long
// (bothVisible). Slices are made in start order, merged in plain vectors,
// then packed.
template <typename Source>
TimelineLevel mergeLevel(const Source& src, size_t lanes, int64_t resolution, size_t slices) {
  std::vector<int64_t> start, end, longest;
  std::vector<uint32_t> event, count;
  std::vector<uint16_t> lane;
  for (auto* v : {&start, &end, &longest}) v->reserve(slices);
  event.reserve(slices);
  count.reserve(slices);
  if (lanes > 1) lane.reserve(slices);
  std::vector<int64_t> open(lanes, -1);
  for (size_t i = 0; i < src.size(); ++i) {
    const uint16_t l = src.lane(i);
    const int64_t s = open[l], itemStart = src.start(i), itemEnd = src.end(i);
    const int64_t itemLongest = src.longestAt(i);
    if (s >= 0 && itemStart - end[s] < resolution && !bothVisible(end[s] - start[s], itemEnd - itemStart, resolution)) {
      end[s] = std::max(end[s], itemEnd);
      count[s] += src.countAt(i);
      if (itemLongest > longest[s]) {
        longest[s] = itemLongest;
        event[s] = src.eventAt(i);
      }
      continue;
    }
    open[l] = static_cast<int64_t>(start.size());
    start.push_back(itemStart);
    end.push_back(itemEnd);
    longest.push_back(itemLongest);
    event.push_back(src.eventAt(i));
    count.push_back(src.countAt(i));
    if (lanes > 1) lane.push_back(l);
  }
  TimelineLevel out;
  out.resolution = resolution;
  for (size_t i = 0; i < start.size(); ++i) out.widest = std::max(out.widest, end[i] - start[i]);
  out.start = PackedTimes(start);
  freeVector(start);
  out.end = PackedTimes(end);
  freeVector(end);
  out.longest.resize(longest.size());
  for (size_t i = 0; i < longest.size(); ++i)
    out.longest[i] = static_cast<uint32_t>(std::min<int64_t>(longest[i], TimelineLevel::kLongDuration));
  freeVector(longest);
  out.event = PackedIndices(event);
  freeVector(event);
  out.count = PackedIndices(count);
  freeVector(count);
  if (!lane.empty()) out.lane = LaneColumn(lane);
  return out;
}

// The raw events and the levels seen alike by mergeLevel and the window query.
// A level's slice is named by its longest event, read from the track.
struct RawItems {
  const TimelineTrack& t;
  size_t size() const { return t.size(); }
  int64_t start(size_t i) const { return t.start[i]; }
  int64_t end(size_t i) const { return t.end[i]; }
  uint32_t name(size_t i) const { return t.name[i]; }
  uint16_t lane(size_t i) const { return t.lane[i]; }
  TimelineKind kind(size_t i) const { return t.kind[i]; }
  uint32_t countAt(size_t) const { return 1; }
  int64_t longestAt(size_t i) const { return t.end[i] - t.start[i]; }
  uint32_t eventAt(size_t i) const { return static_cast<uint32_t>(i); }
  int64_t widest() const { return t.longest; }
  size_t lowerBound(int64_t v) const { return t.start.lowerBound(v); }
  int64_t blockEndMax(size_t i) const { return t.end.blockMax(i); }
};

struct LevelItems {
  const TimelineTrack& t;
  const TimelineLevel& l;
  size_t size() const { return l.size(); }
  int64_t start(size_t i) const { return l.start[i]; }
  int64_t end(size_t i) const { return l.end[i]; }
  uint32_t name(size_t i) const { return t.name[l.event[i]]; }
  uint16_t lane(size_t i) const { return l.lane[i]; }
  TimelineKind kind(size_t i) const { return t.kind[l.event[i]]; }
  uint32_t countAt(size_t i) const { return l.count[i]; }
  int64_t longestAt(size_t i) const {
    const uint32_t d = l.longest[i];
    if (d != TimelineLevel::kLongDuration) return d;
    const uint32_t e = l.event[i];
    return t.end[e] - t.start[e];
  }
  uint32_t eventAt(size_t i) const { return l.event[i]; }
  int64_t widest() const { return l.widest; }
  size_t lowerBound(int64_t v) const { return l.start.lowerBound(v); }
  int64_t blockEndMax(size_t i) const { return l.end.blockMax(i); }
};

// The window query over raw events or a level: see Timeline::window.
template <typename Items>
TimelineSlices windowOf(const Items& t, size_t lanes, int64_t from, int64_t to, uint32_t pixels) {
  TimelineSlices out;
  const int64_t widest = t.widest();
  const int64_t earliest = from > INT64_MIN + widest ? from - widest : INT64_MIN;
  size_t i = t.lowerBound(earliest);
  const double perPixel = static_cast<double>(to - from) / pixels;
  auto pixelOf = [&](int64_t v) { return static_cast<int64_t>(std::floor(static_cast<double>(v - from) / perPixel)); };
  // Per lane: the slice being built (index into out), its end pixel, its longest event.
  std::vector<int64_t> openSlice(lanes, -1), openPixel(lanes, 0), longest(lanes, -1);
  for (; i < t.size(); ++i) {
    // A block (of PackedTimes) whose events all ended before the window is
    // skipped whole: each would be skipped below. Walking from `earliest`
    // (a track with one long event) would otherwise read every event.
    while (i % PackedTimes::kBlock == 0 && i < t.size() && t.blockEndMax(i) < from) i += PackedTimes::kBlock;
    if (i >= t.size()) break;
    const int64_t start = t.start(i);
    if (start >= to) break;
    const int64_t end = t.end(i);
    // Ended before the window (an instant exactly at `from` is inside it).
    if (end < from || (end == from && start < from)) continue;
    const uint16_t lane = t.lane(i);
    const int64_t s = openSlice[lane];
    if (s >= 0 && pixelOf(start) <= openPixel[lane] && !bothVisible(out.end[s] - out.start[s], end - start, perPixel)) {
      // In the pixel the lane's slice ends in: one slice, the longest names it.
      out.end[s] = std::max(out.end[s], end);
      out.count[s] += t.countAt(i);
      const int64_t itemLongest = t.longestAt(i);
      if (itemLongest > longest[lane]) {
        longest[lane] = itemLongest;
        out.name[s] = t.name(i);
        out.kind[s] = t.kind(i);
        out.event[s] = t.eventAt(i);
      }
      openPixel[lane] = std::max(openPixel[lane], pixelOf(out.end[s]));
      continue;
    }
    openSlice[lane] = static_cast<int64_t>(out.size());
    openPixel[lane] = pixelOf(end);
    longest[lane] = t.longestAt(i);
    out.start.push_back(start);
    out.end.push_back(end);
    out.name.push_back(t.name(i));
    out.event.push_back(t.eventAt(i));
    out.count.push_back(t.countAt(i));
    out.lane.push_back(lane);
    out.kind.push_back(t.kind(i));
  }
  return out;
}

}  // namespace

void buildLevels(TimelineTrack& t) {
  t.levels.clear();
  if (t.size() == 0) return;
  const int64_t extent = t.end.max() - t.start[0];
  size_t below = t.size();
  // Resolutions 8x apart up to the track's extent; a level is kept when it
  // has at most 3/4 of the slices below it (else the next one is tried).
  for (int64_t resolution = 1000; below > 256 && resolution <= extent; resolution *= 8) {
    const size_t slices = t.levels.empty() ? countMerged(RawItems{t}, t.lanes, resolution)
                                           : countMerged(LevelItems{t, t.levels.back()}, t.lanes, resolution);
    if (slices * 4 > below * 3) continue;
    TimelineLevel l = t.levels.empty() ? mergeLevel(RawItems{t}, t.lanes, resolution, slices)
                                       : mergeLevel(LevelItems{t, t.levels.back()}, t.lanes, resolution, slices);
    below = l.size();
    t.levels.push_back(std::move(l));
  }
}

void TimelineTrack::setEvents(TimelineEventVectors&& e) {
  const size_t n = e.start.size();
  uint16_t top = 0;
  for (uint16_t l : e.lane) top = std::max(top, l);
  lanes = static_cast<uint16_t>(std::min<size_t>(size_t{top} + 1, 0xFFFF));
  longest = 0;
  for (size_t i = 0; i < n; ++i) longest = std::max(longest, e.end[i] - e.start[i]);
  // Each vector given back once packed: the peak holds one plain column.
  start = PackedTimes(e.start);
  freeVector(e.start);
  end = PackedTimes(e.end);
  freeVector(e.end);
  name = NameColumn(e.name);
  freeVector(e.name);
  lane = LaneColumn(e.lane);
  freeVector(e.lane);
  kind = KindColumn(e.kind);
  freeVector(e.kind);
  row = PackedIndices(e.row);
  freeVector(e.row);
}

uint32_t TimelineTrack::tableRow(size_t e) const {
  if (repeats()) return notes && e < notes->row.size() ? notes->row[e] : kNoTimelineRow;
  return e < row.size() ? row[e] : kNoTimelineRow;
}

size_t TimelineTrack::tableRows() const { return repeats() ? (notes ? notes->row.size() : 0) : row.size(); }

size_t TimelineTrack::eventBytes() const {
  return start.bytes() + end.bytes() + name.bytes() + lane.bytes() + kind.bytes() + row.bytes();
}

size_t TimelineTrack::levelBytes() const {
  size_t b = 0;
  for (const TimelineLevel& l : levels)
    b += l.start.bytes() + l.end.bytes() + l.event.bytes() + l.count.bytes() + 4 * l.longest.capacity() + l.lane.bytes();
  return b;
}

namespace {

// With ASYS_PROFILE set, natively: the heap in use and the process's peak
// resident memory after a family of tracks is built (which family the
// build's peak comes from; bench/README.md).
void noteMemory(const char* stage) {
#ifdef __GLIBC__
  if (!std::getenv("ASYS_PROFILE")) return;
  std::ifstream status("/proc/self/status");
  std::string line, peak = "?";
  while (std::getline(status, line))
    if (line.rfind("VmHWM:", 0) == 0) peak = line.substr(6);
  profileNote(std::string("timeline: after ") + stage + ": heap " +
              std::to_string(mallinfo2().uordblks >> 20) + " MiB, peak resident" + peak);
#else
  (void)stage;
#endif
}

}  // namespace

Timeline Timeline::build(Report& report, const TimelineOptions& options) {
  // Tracks in key order (pending.h): devices by id, each with its streams,
  // PCCL kernels, PCCL channels, HGTX projection, memory in use and metrics;
  // then threads by global thread id (a process's threads together), each
  // thread's HGGC API calls, HGTX ranges and OSRT calls in that order.
  // Collected family by family, each finished (start order, lanes, levels)
  // and its report table released before the next is read, so the peak
  // holds the tracks and one family's table, not every table at once. The
  // projection comes first: it reads the kernels, API calls and HGTX ranges
  // the later families release.
  PendingTracks pending;
  std::map<TrackKey, TimelineTrack> done;
  Timeline t;
  // Finishes every pending track that holds events (or a counter).
  auto finishFilled = [&] {
    for (auto& [key, p] : pending) {
      if (p.start.empty() && !(p.counter && p.counter->size() > 0)) continue;
      done.emplace(key, finish(p));
      p = Pending{};  // give the events' memory back as soon as they are a track
    }
  };
  auto family = [&](const char* stage, auto add) {
    {
      StageTimer timer(std::string("timeline: ") + stage);
      add();
      finishFilled();
      pending.clear();
    }
    noteMemory(stage);
  };
  family("HGTX projection", [&] {
    const std::string note = addProjectionTracks(report, pending, options.projectionMaxActivities, t.ppuActivities_);
    t.associationMax_ = options.projectionMaxActivities;
    if (!note.empty()) t.notes_.push_back(note);
  });
  family("counters", [&] { addCounterTracks(report, pending); });
  family("HGTX ranges", [&] { addHgtxTracks(report, pending); });
  t.graphLaunches_.emplace(options.graphMaxLaunches, options.graphMaxActivities);
  family("device tracks", [&] { addDeviceTracks(report, pending, *t.graphLaunches_); });
  family("PCCL stages", [&] { addPcclStageTracks(report, pending); });
  family("API calls", [&] { addApiTracks(report, pending, finishFilled, options.batchEvents); });
  family("OSRT calls", [&] { addOsrtTracks(report, pending); });
  std::vector<int> sections;  // per track: its section (pending.h), for the [All Streams] rows
  bool any = false;
  auto extend = [&](int64_t first, int64_t last) {
    t.first_ = any ? std::min(t.first_, first) : first;
    t.last_ = any ? std::max(t.last_, last) : last;
    any = true;
  };
  t.tracks_.reserve(done.size());
  for (auto& [key, tr] : done) {
    if (std::get<0>(key) == kDeviceSide) tr.device = std::get<1>(key);
    t.tracks_.push_back(std::move(tr));
    sections.push_back(std::get<0>(key) == kDeviceSide ? std::get<2>(key) : -1);
    const TimelineTrack& last = t.tracks_.back();
    if (last.counter) extend(last.counter->time[0], last.counter->time[last.counter->size() - 1]);
    else extend(last.start[0], last.end.max());
  }
  t.addAllStreamsRows(sections);
  StageTimer timer("timeline: busy shares");
  for (const TimelineTrack& tr : t.tracks_)
    if (t.groups_.empty() || t.groups_.back().name != tr.group) t.groups_.push_back({tr.group, 0, std::nan("")});
  const TimelineShares shares = t.sharesIn(INT64_MIN, INT64_MAX);
  for (size_t i = 0; i < t.tracks_.size(); ++i) {
    TimelineTrack& tr = t.tracks_[i];
    tr.busy = shares.busy[i];
    tr.share = shares.share[i];
    tr.contextBusy = shares.contextBusy[i];
    tr.contextShare = shares.contextShare[i];
  }
  for (size_t g = 0; g < t.groups_.size(); ++g) {
    t.groups_[g].busy = shares.groupBusy[g];
    t.groups_[g].share = shares.groupShare[g];
  }
  return t;
}

// Nsight Systems' `[All Streams]`: under a context with several streams (a
// PPU's one context compacted away, its streams still several), a row of
// all of them merged, before them. It holds no events: it names its sources
// and merges their windows (mergedWindow), so it costs no memory per event.
void Timeline::addAllStreamsRows(const std::vector<int>& sections) {
  constexpr uint16_t kMostLanes = 64;
  std::vector<TimelineTrack> out;
  out.reserve(tracks_.size());
  for (size_t i = 0, j; i < tracks_.size(); i = j) {
    j = i + 1;
    if (sections[i] != kStreams) {
      out.push_back(std::move(tracks_[i]));
      continue;
    }
    while (j < tracks_.size() && sections[j] == kStreams && tracks_[j].group == tracks_[i].group &&
           tracks_[j].context == tracks_[i].context)
      ++j;
    if (j - i >= 2) {
      TimelineTrack all;
      all.group = tracks_[i].group;
      all.context = tracks_[i].context;
      all.label = "[All Streams]";
      all.device = tracks_[i].device;
      std::vector<const TimelineTrack*> streams;
      for (size_t k = i; k < j; ++k) {
        streams.push_back(&tracks_[k]);
        all.sources.push_back(static_cast<uint32_t>(out.size() + 1 + (k - i)));
      }
      all.lanes = concurrencyOf(streams, kMostLanes);
      out.push_back(std::move(all));
    }
    for (size_t k = i; k < j; ++k) out.push_back(std::move(tracks_[k]));
  }
  tracks_ = std::move(out);
}

// A PPU's work: what runs on it (streams' kernels, memcpys and memsets, PCCL
// kernels). The HGTX projection and PCCL stages are drawn in its group but
// are not its work: counted as busy, an iteration-long projected range would
// make the PPU look busy through its gaps and every stream's share small.
bool isPpuWork(const TimelineTrack& t) {
  if (t.device == kNoTimelineDevice || t.size() == 0 || t.derived()) return false;
  const TimelineKind k = t.kind[0];  // a track holds one family of events
  return k == TimelineKind::Kernel || k == TimelineKind::Memcpy || k == TimelineKind::Memset ||
         k == TimelineKind::PcclKernel;
}

// A process's work: its threads' rows (API calls, HGTX push/pop ranges,
// library ranges, OSRT calls). Its HGTX start/end ranges are drawn in its
// group but are not its work (a range a loader thread starts and the main
// thread ends spans both threads' idle time), nor are its allocation
// failures (calls on its threads' rows, drawn again): like the projection
// on a PPU, their share is the process's busy time inside them.
bool isHostWork(const TimelineTrack& t) {
  return t.hostRow != HostRow::StartEnd && t.hostRow != HostRow::AllocationFailures;
}

// Busy time is the union of events' intervals, inside [from, to). A group's
// busy time is the union of its work tracks' events (on a PPU its work,
// above; on a process every track); a side's (every PPU, every process), the
// union of its groups'. A track's share is the part of its group's busy time
// it covers: a work track's own busy time, for another (the projection, a
// PCCL channel) |track| + |group| - |track u group|. A group's share is its
// busy time over its side's. A stream of a context (TimelineTrack::context)
// has its share of its context's busy time (the union of the context's
// streams'), and the context its share of its group's. An `[All Streams]`
// row is its streams' union, its share of its group's busy time (with a
// context, the context's share). Counters are not busy and have no share.
TimelineShares Timeline::sharesIn(int64_t from, int64_t to) const {
  const double none = std::nan("");
  const size_t n = tracks_.size();
  TimelineShares out;
  out.busy.assign(n, 0);
  out.contextBusy.assign(n, 0);
  out.share.assign(n, none);
  out.contextShare.assign(n, none);
  out.groupBusy.assign(groups_.size(), 0);
  out.groupShare.assign(groups_.size(), none);
  std::vector<std::vector<const TimelineTrack*>> workOf(groups_.size()), ofSide(2);
  std::vector<size_t> groupOf(n);
  std::vector<int> groupSide(groups_.size(), kHostSide);
  auto sourcesOf = [&](const TimelineTrack& tr) {
    std::vector<const TimelineTrack*> s;
    for (uint32_t k : tr.sources) s.push_back(&tracks_[k]);
    return s;
  };
  // Rows by base name (kernelGroups) come after every other row: each is
  // its stream's, its busy time a share of the stream's (below).
  for (size_t i = 0, g = 0; i < n; ++i) {
    const TimelineTrack& tr = tracks_[i];
    if (tr.derived()) {
      groupOf[i] = groupOf[tr.parent];
      out.busy[i] = busyIn({&tr}, from, to);
      continue;
    }
    // A graph row (graphRows, appended): its stream's busy time inside its
    // launches, a share of the stream's.
    if (tr.graphRow()) {
      groupOf[i] = groupOf[tr.graphOf];
      out.busy[i] = graphBusyIn(tr, from, to);
      continue;
    }
    // A device row (deviceRows, appended like the rows by base name): its
    // PPU's work rows' union.
    if (tr.deviceRow) {
      groupOf[i] = groupOf[tr.sources[0]];
      out.busy[i] = busyIn(sourcesOf(tr), from, to);
      continue;
    }
    if (i > 0 && tr.group != tracks_[i - 1].group) ++g;
    groupOf[i] = g;
    const bool device = tr.device != kNoTimelineDevice;
    if (device) groupSide[g] = kDeviceSide;
    if (tr.counter) continue;
    out.busy[i] = tr.merged() ? busyIn(sourcesOf(tr), from, to) : busyIn({&tr}, from, to);
    if (tr.merged() || (device && !isPpuWork(tr)) || (!device && !isHostWork(tr))) continue;
    workOf[g].push_back(&tr);
    ofSide[device ? 0 : 1].push_back(&tr);
  }
  const int64_t sideBusy[2] = {busyIn(ofSide[0], from, to), busyIn(ofSide[1], from, to)};
  auto share = [&](int64_t part, int64_t whole) { return whole > 0 ? static_cast<double>(part) / whole : none; };
  for (size_t g = 0; g < groups_.size(); ++g) {
    out.groupBusy[g] = busyIn(workOf[g], from, to);
    out.groupShare[g] = share(out.groupBusy[g], sideBusy[groupSide[g] == kDeviceSide ? 0 : 1]);
  }
  // Contexts: runs of a group's streams (tracks are in key order), the
  // [All Streams] row first.
  for (size_t i = 0, j; i < n; i = j) {
    j = i + 1;
    const std::string& context = tracks_[i].context;
    if (context.empty() || tracks_[i].derived()) continue;
    while (j < n && !tracks_[j].derived() && groupOf[j] == groupOf[i] && tracks_[j].context == context) ++j;
    std::vector<const TimelineTrack*> streams;
    for (size_t k = i; k < j; ++k)
      if (!tracks_[k].merged()) streams.push_back(&tracks_[k]);
    const int64_t busy = busyIn(streams, from, to);
    const double contextShare = share(busy, out.groupBusy[groupOf[i]]);
    for (size_t k = i; k < j; ++k) {
      out.contextBusy[k] = busy;
      out.contextShare[k] = contextShare;
      out.share[k] = tracks_[k].merged() ? contextShare : share(out.busy[k], busy);
    }
  }
  for (size_t i = 0; i < n; ++i) {
    const TimelineTrack& tr = tracks_[i];
    if (tr.derived()) {
      out.share[i] = share(out.busy[i], out.busy[tr.parent]);
      continue;
    }
    if (tr.graphRow()) {
      out.share[i] = share(out.busy[i], out.busy[tr.graphOf]);
      continue;
    }
    if (tr.deviceRow) {
      out.share[i] = share(out.busy[i], out.groupBusy[groupOf[i]]);
      continue;
    }
    if (tr.counter || !tr.context.empty()) continue;
    const size_t g = groupOf[i];
    const std::vector<const TimelineTrack*>& work = workOf[g];
    int64_t covered = out.busy[i];
    if (!tr.merged() && std::find(work.begin(), work.end(), &tr) == work.end()) {
      std::vector<const TimelineTrack*> with = work;
      with.push_back(&tr);
      covered = out.busy[i] + out.groupBusy[g] - busyIn(with, from, to);
    }
    out.share[i] = share(covered, out.groupBusy[g]);
  }
  deviceRowShares(out, from, to);
  return out;
}

std::optional<TimelineEventAt> Timeline::sourceEvent(size_t track, uint32_t event) const {
  if (track >= tracks_.size()) return std::nullopt;
  const TimelineTrack& tr = tracks_[track];
  if (!tr.merged()) {
    if (event >= tr.size()) return std::nullopt;
    return TimelineEventAt{track, event};
  }
  for (uint32_t k : tr.sources) {
    const size_t size = tracks_[k].size();
    if (event < size) return TimelineEventAt{k, event};
    event -= static_cast<uint32_t>(size);
  }
  return std::nullopt;
}

// A merged row's window: each source's window (at most a few slices a pixel
// each), in start order, each slice on the lowest lane free at its start (or,
// all taken, the lane free soonest), its event numbered past the sources
// before its own (Timeline::sourceEvent).
TimelineSlices Timeline::mergedWindow(const TimelineTrack& m, int64_t from, int64_t to, uint32_t pixels) const {
  std::vector<TimelineSlices> parts;
  std::vector<uint32_t> offset;
  uint32_t next = 0;
  size_t total = 0;
  for (uint32_t k : m.sources) {
    parts.push_back(trackWindow(tracks_[k], from, to, pixels));
    offset.push_back(next);
    next += static_cast<uint32_t>(tracks_[k].size());
    total += parts.back().size();
  }
  std::vector<std::pair<uint32_t, uint32_t>> order;  // (part, slice)
  order.reserve(total);
  for (uint32_t p = 0; p < parts.size(); ++p)
    for (uint32_t i = 0; i < parts[p].size(); ++i) order.emplace_back(p, i);
  std::stable_sort(order.begin(), order.end(), [&](const auto& a, const auto& b) {
    const TimelineSlices &x = parts[a.first], &y = parts[b.first];
    return x.start[a.second] != y.start[b.second] ? x.start[a.second] < y.start[b.second]
                                                  : x.end[a.second] < y.end[b.second];
  });
  TimelineSlices out;
  std::vector<int64_t> laneEnd(std::max<uint16_t>(1, m.lanes), INT64_MIN);
  for (const auto& [p, i] : order) {
    const TimelineSlices& s = parts[p];
    size_t lane = 0;
    while (lane < laneEnd.size() && laneEnd[lane] > s.start[i]) ++lane;
    if (lane == laneEnd.size()) lane = std::min_element(laneEnd.begin(), laneEnd.end()) - laneEnd.begin();
    laneEnd[lane] = std::max(laneEnd[lane], s.end[i]);
    out.start.push_back(s.start[i]);
    out.end.push_back(s.end[i]);
    out.name.push_back(s.name[i]);
    out.event.push_back(offset[p] + s.event[i]);
    out.count.push_back(s.count[i]);
    out.lane.push_back(static_cast<uint16_t>(lane));
    out.kind.push_back(s.kind[i]);
  }
  return out;
}

CounterSlices Timeline::counterWindow(size_t track, int64_t from, int64_t to, uint32_t pixels) const {
  if (track >= tracks_.size() || !tracks_[track].counter) return {};
  return asys::counterWindow(*tracks_[track].counter, from, to, pixels);
}

TimelineSlices Timeline::window(size_t track, int64_t from, int64_t to, uint32_t pixels) const {
  if (track >= tracks_.size() || tracks_[track].counter) return {};
  if (tracks_[track].merged()) {
    if (to <= from || pixels == 0) return {};
    TimelineSlices out = tracks_[track].deviceRow ? deviceWindow(tracks_[track], from, to, pixels)
                                                  : mergedWindow(tracks_[track], from, to, pixels);
    // Its sources' events outnumber the pixels: a histogram of their union (occupancy.h).
    mergedOccupancy(track, out, from, to, pixels);
    return out;
  }
  TimelineSlices out = trackWindow(tracks_[track], from, to, pixels);
  // More events than pixels: an occupancy histogram too (occupancy.h).
  if (drawnAsOccupancy(tracks_[track], from, to, pixels)) {
    auto it = checkpoints_.find(track);
    if (it == checkpoints_.end()) it = checkpoints_.emplace(track, busyCheckpointsOf(tracks_[track])).first;
    out.occupancy = occupancyOf(tracks_[track], it->second, from, to, pixels);
  }
  return out;
}

TimelineSlices trackWindow(const TimelineTrack& t, int64_t from, int64_t to, uint32_t pixels) {
  if (to <= from || pixels == 0) return {};
  // The coarsest level whose merging stays under half a pixel.
  const double halfPixel = static_cast<double>(to - from) / pixels / 2;
  const TimelineLevel* level = nullptr;
  for (const TimelineLevel& l : t.levels)
    if (static_cast<double>(l.resolution) <= halfPixel) level = &l;
  return level ? windowOf(LevelItems{t, *level}, t.lanes, from, to, pixels) : windowOf(RawItems{t}, t.lanes, from, to, pixels);
}

EventTable eventTableOf(TimelineKind kind) {
  switch (kind) {
    case TimelineKind::Kernel:
    case TimelineKind::PcclKernel: return EventTable::Kernel;
    case TimelineKind::Memcpy: return EventTable::Memcpy;
    case TimelineKind::Memset: return EventTable::Memset;
    case TimelineKind::Api:
    case TimelineKind::ApiError:
    case TimelineKind::AllocFailure: return EventTable::Api;
    case TimelineKind::Hgtx:
    case TimelineKind::HgtxStartEnd: return EventTable::Hgtx;
    default: return EventTable::None;
  }
}

std::optional<TimelineEventAt> Timeline::findEvent(EventTable table, uint32_t row) const {
  if (table == EventTable::None || row == kNoTimelineRow) return std::nullopt;
  for (size_t t = 0; t < tracks_.size(); ++t) {
    const TimelineTrack& track = tracks_[t];
    if (track.repeats()) continue;  // drawn again: the event is its thread's
    for (size_t i = 0; i < track.row.size(); ++i)
      if (track.row[i] == row && eventTableOf(track.kind[i]) == table) return TimelineEventAt{t, static_cast<uint32_t>(i)};
  }
  return std::nullopt;
}

}  // namespace asys
