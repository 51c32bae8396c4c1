#pragma once
// The HGTX ranges an association takes part in, chosen in one streaming scan
// of HGTX_EVENTS (Report::scanHgtx): the table is never held whole while
// they are chosen, only the ranges (docs/result-views.md, "The association
// without pair lists").
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <utility>
#include <vector>

#include "core/analysis/start_times.h"
#include "core/base/narrow_ints.h"
#include "core/base/regex.h"
#include "core/base/small_ids.h"

namespace asys {

class Report;
struct HgtxEvents;
struct AssociationRanges;

// What a range is called, as RangeSelection::keepNamedRange is told: its
// own name (HGTX_EVENTS' textId or text), its arguments (argsId; kNoString
// when none) and its domain-qualified name (`domain:name`, or the name).
struct RangeNaming {
  uint32_t own, args, qualified;
};

struct RangeSelection {
  bool graphMapping = true;
  // Unanchored searches in the range's full name (domain:name): a range is
  // kept when some include matches (or there is none) and no exclude does.
  std::vector<Regex> include, exclude;
  // HGTX events (by HGTX_EVENTS index) the caller keeps besides the name
  // tests, asked once per push/pop or start/end range (pccl_op_sum keeps
  // PCCL operator ranges); empty = all.
  std::function<bool(uint32_t event)> keepRange;
  // The same, given what the range is called, so that the caller need not
  // hold the events to read it (the operator set recognises a range by its
  // own text and arguments): asked as keepRange is, for the same ranges in
  // the same order; HGTX_EVENTS' argsId is read in the scan for it. A
  // selection sets one of the two, or neither.
  std::function<bool(uint32_t event, const RangeNaming& naming)> keepNamedRange;
  // Ranges whose own name (as RangeNaming::own) this refuses are dropped
  // as the scan finds them, before the other tests: for a caller whose
  // keepRange or keepNamedRange refuses them by their own name alone
  // (pccl_op_sum: operator ranges). It must not keep a range they refuse.
  // A selection with it (or an include) may keep few of the events, so the
  // ranges' columns are not reserved to the table's rows for it.
  std::function<bool(uint32_t ownName)> keepOwnName;
  // Keep the HGTX Range ID of the ranges whose ID is not their row's
  // position (AssociationRanges::rangeId), read in the scan: for a caller
  // that shows it without the events (hgtx_kern_trace).
  bool rangeIds = false;
  // The caller reads no HGTX event once the ranges are chosen (their threads
  // are in AssociationRanges) and holds no reference to them: the report
  // gives the events back before the calls are swept (Report::releaseHgtx;
  // a later reader loads them again).
  bool releaseEvents = false;
  // A caller that folds something else from HGTX_EVENTS (hgtx_ppu_proj_sum:
  // its ranges' stack levels and children) reads it in the same scan as the
  // ranges are chosen, not in a second one: alsoScan is given every chunk
  // the ranges are chosen from (as Report::scanHgtx gives them), then
  // afterScan is called once, before the association goes on (where the
  // caller drops what it held only for the fold). Either may be empty.
  std::function<void(size_t firstEvent, const HgtxEvents& chunk)> alsoScan;
  std::function<void()> afterScan;
  // Called with the chosen ranges before the events are given back
  // (associateActivities): what a caller reads of their events, it takes
  // here, by slot, so that the events need not stay.
  std::function<void(const AssociationRanges&)> chosen;
  // The caller took in `chosen` all it reads of each range (hgtx_kern_sum:
  // its row's owner) and reads only slots after (rangesOf): the association
  // keeps each range's thread, start and end for the sweep and gives back
  // its event, name and style (9 bytes a range) once `chosen` returns.
  bool sweepOnly = false;
  // The caller took in `chosen` all it reads of each range's event (the
  // operator set, hgtx_ppu_proj_sum): the association gives back each
  // range's event (4 bytes a range) once `chosen` returns, before the
  // activities are read.
  bool eventsInChosenOnly = false;
  // The caller reads no range's style (the operator set): given back with
  // the events (1 byte a range).
  bool noStyles = false;
  // The caller reads no range's start (startAfterSweep false: the operator
  // set, hgtx_ppu_proj_sum) or duration (durationAfterSweep false: the
  // operator set) from the association. Where the calls' ranges are found
  // in the scan of HGGC_API that indexes the calls (associateActivities),
  // the sweep is over when that scan ends: those columns (8 and 4 bytes a
  // range) are given back then, before the activities are read, and the
  // graph nodes' ranges are found then too. sweepOnly gives back both and
  // the ranges' threads (4 bytes a range).
  bool startAfterSweep = true;
  bool durationAfterSweep = true;
  // The same for the ranges' threads (threadIndex and threads, 4 bytes a
  // range): hgtx_ppu_proj_sum reads none after the sweep, and the operator
  // set takes the few it reads in `chosen`.
  bool threadAfterSweep = true;
  // The caller reads the ranges' starts and threads after the sweep only
  // through AssociationRanges::startOf and thread (hgtx_kern_trace): where
  // they come back from the sweep (restoreSpans), they come back narrow
  // (narrowStart, narrowThread: about 5 bytes a range in place of 12).
  bool narrowSpansAfterSweep = false;
  // The caller reads the calls' ranges only by activity (rangesOf, after
  // HgtxAssociation::holdCallValuesByActivity: hgtx_ppu_proj_trace): the
  // association comes back with them so held, and the spans that come back
  // from the sweep come back after the calls' values are given back
  // (associateHgtx's valuesByActivity), not beside them.
  bool callValuesByActivity = false;
  // The range texts are not interned (docs/big-reports.md, "The range
  // texts"): a name stored inline in HGTX_EVENTS is interned, while the
  // ranges are chosen, into a pool of chooseRanges' own (the ids the tests
  // and keepNamedRange are given are tagged: StringPool::kOverlayBit; a
  // text is readable while the scan's chunk that holds its range is, and
  // its id is never given to another text), and a chosen range whose name is such a
  // text (it has no domain) is named by a deferred id: kOverlayBit | its
  // event, which the caller reads back with Report::hgtxTexts when it shows
  // it (deferredEvent). For a caller that shows few of its ranges' names
  // (the operator summaries: a row's first instance), so that the texts of
  // every range are not held through the association. A name that is not
  // an inline text (a StringIds name, a domain-qualified one, "") is an id
  // of the report's strings as without it.
  bool deferTexts = false;
};

// A deferred range name (RangeSelection::deferTexts): its event, or
// kNoString for a name that is an id of the report's strings.
inline uint32_t deferredEvent(uint32_t name) {
  return name != 0xFFFFFFFFu && (name & 0x80000000u) != 0 ? name & ~0x80000000u : 0xFFFFFFFFu;
}

// The ranges that take part, in slots numbered by (start, longer first,
// event): slot order is start order.
struct AssociationRanges {
  std::vector<uint32_t> event;  // HGTX event index
  // The range's thread, an index into `threads` (its globalTid): 4 bytes a
  // range where the globalTid was 8. The table may hold a thread whose
  // ranges were all dropped.
  std::vector<uint32_t> threadIndex;
  std::vector<int64_t> threads;
  std::vector<int64_t> start;
  // end - start (the end: the closing time, or the last HGTX timestamp), 4
  // bytes below 4.3 s and exact beyond (NarrowInts), where the end was 8.
  NarrowInts duration;
  std::vector<uint32_t> name;   // domain-qualified name id
  std::vector<uint8_t> startEnd;  // 1 for a start/end range, 0 for push/pop
  // With RangeSelection::rangeIds: (event, HGTX Range ID) of the ranges
  // whose ID is not their row's position (event + 1), in event order: few
  // in the reports profilers write (asys gen: the start/end ranges).
  std::vector<std::pair<uint32_t, int64_t>> otherRangeIds;
  // The ranges: every column has them, but those a caller gave back
  // (RangeSelection::sweepOnly: event and name; eventsInChosenOnly: event;
  // the operator set: start and duration too, once associated).
  size_t size() const { return std::max({event.size(), start.size(), narrowStart.size(), name.size(), given}); }
  // The ranges' count, kept when every column above that tells it was
  // given back (RangeSelection::sweepOnly, once the calls are swept).
  size_t given = 0;
  // With RangeSelection::narrowSpansAfterSweep, where the spans come back
  // from the sweep (restoreSpans), in place of start and threadIndex: the
  // starts in about 4 bytes (StartTimes; slot order is start order, so
  // neighbours are close) and the thread indices in 1 while the threads are
  // fewer than 255 (SmallIds). Read both forms through startOf, end and
  // thread.
  StartTimes narrowStart;
  SmallIds narrowThread;
  int64_t startOf(size_t r) const { return start.empty() ? narrowStart[r] : start[r]; }
  int64_t thread(size_t r) const {
    return threads[threadIndex.empty() ? narrowThread.get(r) : threadIndex[r]];
  }
  int64_t end(size_t r) const { return startOf(r) + duration.get(r); }
  // A range's HGTX Range ID by its event (hgtxRangeId), RangeSelection::rangeIds given.
  int64_t rangeId(uint32_t event) const {
    const auto it = std::lower_bound(otherRangeIds.begin(), otherRangeIds.end(), event,
                                     [](const std::pair<uint32_t, int64_t>& x, uint32_t e) { return x.first < e; });
    return it != otherRangeIds.end() && it->first == event ? it->second : static_cast<int64_t>(event) + 1;
  }
};

// The ranges `selection` keeps: push/pop and start/end ranges (but a
// start/end range that ended on another thread), named `domain:name` (a
// range without a name is named ""), a range never closed ending at the
// last HGTX timestamp.
//
// A range's domain name is the domain's last creation in HGTX_EVENTS. The
// scan that chooses the ranges reads the creations too and names a range
// by the creations it has read (a profiler writes a domain's creation
// before its ranges), unless the report knows its domains' names already
// (Report::knownHgtxDomainNames). Where a domain was created, or created
// again under another name, after one of its ranges was chosen, those
// choices were made under a name the domain does not end with: the
// report's domains are then queried first (Report::hgtxDomainNames) and
// the ranges chosen again; where the selection's tests and folds keep
// state of their own (keepRange, keepNamedRange, alsoScan, afterScan),
// HgtxDomainNamedLate is thrown instead and the caller runs again from its
// start (rule.cc's runners do), which the report's queried names then
// answer at once.
AssociationRanges chooseRanges(Report& report, const RangeSelection& selection);

// See chooseRanges. Not an Error: no reader of errors is meant to see it.
struct HgtxDomainNamedLate : std::exception {
  const char* what() const noexcept override {
    return "HGTX_EVENTS: a domain named after its ranges (the run is made again)";
  }
};

}  // namespace asys
