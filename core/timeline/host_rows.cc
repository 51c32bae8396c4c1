// The host rows (host_rows.h): HGTX start/end ranges per process, library
// API rows per thread, memory allocation failures per process.
#include "core/timeline/host_rows.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <memory>
#include <string>

#include "core/operators/gemm_ops.h"
#include "core/operators/moe_ops.h"
#include "core/operators/pccl_ops.h"

namespace asys::timeline_detail {

namespace {

constexpr std::string_view kLibraries[] = {"ACBLAS", "DeepGemm", "MoE", "PCCL"};

bool startsWith(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

int64_t processKeyOf(int64_t globalTid) { return globalTid & ~int64_t{0xFFFFFF}; }

}  // namespace

std::string_view libraryOf(std::string_view text) {
  if (startsWith(text, "ACBLAS:") || startsWith(text, "DeepGemm:")) {
    if (!recogniseGemmAnnotation(text)) return "";
    return startsWith(text, "ACBLAS:") ? kLibraries[0] : kLibraries[1];
  }
  if (startsWith(text, "MoE:")) return recogniseMoeAnnotation(text) ? kLibraries[2] : "";
  if (recognisePcclAnnotation(text)) return kLibraries[3];
  return "";
}

int LibraryNames::of(uint32_t nameId) {
  if (nameId == kNoString) return 0;
  if (nameId >= known_.size()) known_.resize(size_t{nameId} + 1, -1);
  int8_t& k = known_[nameId];
  if (k < 0) {
    const std::string_view library = libraryOf(strings_.get(nameId));
    k = 0;
    for (size_t i = 0; i < std::size(kLibraries); ++i)
      if (library == kLibraries[i]) k = static_cast<int8_t>(i + 1);
  }
  return k;
}

std::string_view LibraryNames::label(int library) {
  return library > 0 && static_cast<size_t>(library) <= std::size(kLibraries) ? kLibraries[library - 1] : "";
}

void compactLibraryLanes(PendingTracks& out) {
  for (auto& [key, p] : out) {
    if (p.hostRow != HostRow::Library || p.lane.empty()) continue;
    const uint16_t least = *std::min_element(p.lane.begin(), p.lane.end());
    for (uint16_t& l : p.lane) l = static_cast<uint16_t>(l - least);
  }
}

void StartEndRanges::see(const HgtxEvents& h, size_t i, uint32_t row) {
  const bool unended = h.end[i] == kNoValue;
  // An unended range is an instant (as every unended event); one that ends
  // before it starts too.
  const int64_t end = unended || h.end[i] < h.start[i] ? h.start[i] : h.end[i];
  const int64_t endThread = unended ? kNoValue : h.endGlobalTid[i] == kNoValue ? h.globalTid[i] : h.endGlobalTid[i];
  ranges_.push_back({h.start[i], end, h.globalTid[i], endThread, h.nameId[i], row, unended});
}

void StartEndRanges::addTo(Report& report, PendingTracks& out) {
  // Per process, in start order (ties: end, then table order).
  std::stable_sort(ranges_.begin(), ranges_.end(), [](const Range& a, const Range& b) {
    const int64_t pa = processKeyOf(a.thread), pb = processKeyOf(b.thread);
    if (pa != pb) return pa < pb;
    return a.start != b.start ? a.start < b.start : a.end < b.end;
  });
  for (size_t i = 0, j; i < ranges_.size(); i = j) {
    j = i;
    while (j < ranges_.size() && processKeyOf(ranges_[j].thread) == processKeyOf(ranges_[i].thread)) ++j;
    Pending& p = processTrack(report, out, ranges_[i].thread, kStartEndRow, "HGTX start/end");
    p.hostRow = HostRow::StartEnd;
    p.withRows = true;
    auto notes = std::make_shared<HostEventNotes>();
    for (size_t k = i; k < j; ++k) {
      const Range& r = ranges_[k];
      p.take(true, r.start, r.end, r.name, TimelineKind::HgtxStartEnd, r.row);
      notes->thread.push_back(r.thread);
      notes->endThread.push_back(r.endThread);
    }
    p.notes = std::move(notes);
  }
  std::vector<Range>().swap(ranges_);
}

bool isAllocationCall(std::string_view name) {
  const std::string n = lower(name);
  for (const char* word : {"malloc", "memalloc", "memcreate", "hostalloc"})
    if (n.find(word) != std::string::npos) return true;
  return false;
}

void AllocationFailures::see(const ApiCalls& a, size_t i, uint32_t row) {
  const int64_t value = a.returnValue[i];
  if (value == 0 || value == kNoValue) return;
  const uint32_t name = a.nameId[i];
  if (name == kNoString) return;
  if (name >= alloc_.size()) alloc_.resize(size_t{name} + 1, -1);
  if (alloc_[name] < 0) alloc_[name] = isAllocationCall(strings_.get(name)) ? 1 : 0;
  if (alloc_[name] == 0) return;
  failures_.push_back({a.start[i], a.end[i], a.globalTid[i], value, name, row});
}

void AllocationFailures::addTo(Report& report, PendingTracks& out) {
  std::stable_sort(failures_.begin(), failures_.end(), [](const Failure& a, const Failure& b) {
    const int64_t pa = processKeyOf(a.thread), pb = processKeyOf(b.thread);
    if (pa != pb) return pa < pb;
    return a.start != b.start ? a.start < b.start : a.end < b.end;
  });
  for (size_t i = 0, j; i < failures_.size(); i = j) {
    j = i;
    while (j < failures_.size() && processKeyOf(failures_[j].thread) == processKeyOf(failures_[i].thread)) ++j;
    Pending& p = processTrack(report, out, failures_[i].thread, kAllocationFailuresRow, "Memory allocation failures");
    p.hostRow = HostRow::AllocationFailures;  // its rows in its notes (TimelineTrack::tableRow)
    auto notes = std::make_shared<HostEventNotes>();
    for (size_t k = i; k < j; ++k) {
      const Failure& f = failures_[k];
      const int64_t end = f.end == kNoValue || f.end < f.start ? f.start : f.end;
      p.take(true, f.start, end, f.name, TimelineKind::AllocFailure);
      notes->thread.push_back(f.thread);
      notes->value.push_back(f.value);
      notes->row.push_back(f.row);
    }
    p.notes = std::move(notes);
  }
  std::vector<Failure>().swap(failures_);
}

}  // namespace asys::timeline_detail
