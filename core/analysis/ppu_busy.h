#pragma once
// The busy blocks of PPU activities grouped by a key (a process and device, a
// device): the union of each group's activity spans, and each group's extent,
// for the rules that measure PPU idle and busy time (ppu_gaps, ppu_time_util,
// ppu_time_util_compare). Each activity's group and span are kept as it is
// read (20 bytes an activity, grouped in place by SpanGroups), no activity
// list: a union needs no order but each group's.
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/analysis/intervals.h"
#include "core/analysis/key_groups.h"
#include "core/analysis/ppu_activities.h"

namespace asys {

struct GroupedBusy {
  KeyGroups groups;            // the keys, dense in first-seen order
  SpanGroups busy;             // by group: its busy blocks (merged)
  std::vector<Span> extent;    // by group: first start to last end (instants included)
  Span all;                    // every group's extent together; {0, 0} when there is none
};

// keyOf(table, i): the 64-bit group key of row i of a table
// forEachPpuActivity hands over.
template <typename KeyOf>
GroupedBusy groupedBusy(Report& report, const ActivitySelection& sel, KeyOf&& keyOf) {
  KeyGroups groups;
  std::vector<uint32_t> groupOf;
  std::vector<Span> spans;
  std::vector<Span> extent;
  Span all{0, 0};
  const size_t expected = expectedActivities(report, sel);
  groupOf.reserve(expected);
  spans.reserve(expected);
  forEachPpuActivity(report, sel, [&](ActivityKind, uint32_t, const auto& t, size_t i) {
    const uint32_t g = groups.indexOf(keyOf(t, i));
    const Span span{t.start[i], t.end[i]};
    if (g == extent.size()) extent.push_back(span);
    extent[g] = {std::min(extent[g].start, span.start), std::max(extent[g].end, span.end)};
    all = spans.empty() ? span : Span{std::min(all.start, span.start), std::max(all.end, span.end)};
    groupOf.push_back(g);
    spans.push_back(span);
  });
  const size_t count = groups.size();
  return {std::move(groups), SpanGroups(std::move(groupOf), std::move(spans), count), std::move(extent), all};
}

}  // namespace asys
