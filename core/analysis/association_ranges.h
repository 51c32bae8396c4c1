#pragma once
// The HGTX ranges an association takes part in, chosen in one streaming scan
// of HGTX_EVENTS (Report::scanHgtx): the table is never held whole while
// they are chosen, only the ranges (docs/result-views.md, "The association
// without pair lists").
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "core/base/regex.h"

namespace asys {

class Report;
struct HgtxEvents;
struct AssociationRanges;

struct RangeSelection {
  bool graphMapping = true;
  // Unanchored searches in the range's full name (domain:name): a range is
  // kept when some include matches (or there is none) and no exclude does.
  std::vector<Regex> include, exclude;
  // HGTX events (by HGTX_EVENTS index) the caller keeps besides the name
  // tests, asked once per push/pop or start/end range (pccl_op_sum keeps
  // PCCL operator ranges); empty = all.
  std::function<bool(uint32_t event)> keepRange;
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
};

// The ranges that take part, in slots numbered by (start, longer first,
// event): slot order is start order.
struct AssociationRanges {
  std::vector<uint32_t> event;  // HGTX event index
  std::vector<int64_t> thread;  // the range's globalTid
  std::vector<int64_t> start, end;  // end: the closing time, or the last HGTX timestamp
  std::vector<uint32_t> name;   // domain-qualified name id
  std::vector<uint8_t> startEnd;  // 1 for a start/end range, 0 for push/pop
  size_t size() const { return event.size(); }
};

// The ranges `selection` keeps: push/pop and start/end ranges (but a
// start/end range that ended on another thread), named `domain:name` (a
// range without a name is named ""), a range never closed ending at the
// last HGTX timestamp.
AssociationRanges chooseRanges(Report& report, const RangeSelection& selection);

}  // namespace asys
