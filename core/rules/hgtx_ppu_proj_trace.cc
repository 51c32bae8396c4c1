// hgtx_ppu_proj_trace (2.3.12): every HGTX range projected onto the PPUs,
// with its place on its thread's push/pop stack.
#include <algorithm>
#include <numeric>
#include <tuple>

#include "core/analysis/hgtx_projection.h"
#include "core/analysis/hgtx_stacks.h"
#include "core/base/small_ids.h"
#include "core/base/stage_timer.h"
#include "core/report/report.h"
#include "core/rules/common.h"
#include "core/rules/hgtx_association_options.h"
#include "core/rules/registry.h"

namespace asys {

namespace {

enum Col : size_t {
  kName, kProjStart, kProjDur, kActive, kOrigStart, kOrigDur, kStyle, kPid, kTid, kOps, kLvl, kNumChild,
  kRangeId, kParentId, kRangeStack,
};

std::vector<ColumnSpec> columns() {
  return {
      {"Name", "", CellKind::Text, "Name of the HGTX range"},
      {"Projected Start", "ns", CellKind::Int, "Projected range start timestamp"},
      {"Projected Duration", "ns", CellKind::Int, "Projected range duration"},
      {"PPU Active Time", "ns", CellKind::Int, "Total PPU active time excluding overlapping for this range"},
      {"Orig Start", "ns", CellKind::Int, "Original HGTX range start timestamp"},
      {"Orig Duration", "ns", CellKind::Int, "Original HGTX range duration"},
      {"Style", "", CellKind::Text, "Range style; Start/End or Push/Pop"},
      {"PID", "", CellKind::Int, "Process identifier"},
      {"TID", "", CellKind::Int, "Thread identifier"},
      {"NumPPUOps", "", CellKind::Int, "Number of enclosed PPU operations"},
      {"Lvl", "", CellKind::Int, "Stack level, starts at 0"},
      {"NumChild", "", CellKind::Int, "Number of children ranges"},
      {"RangeId", "", CellKind::Int, "Arbitrary ID for range"},
      {"ParentId", "", CellKind::Int, "Range ID of the enclosing range"},
      {"RangeStack", "", CellKind::Text, "Range IDs that make up the push/pop stack"},
  };
}

// The trace as a view: the ranges in order (4 bytes a row), each range's
// projection and the push/pop stacks: by slot (5 bytes a range: its parent
// and its children), swept from the chosen ranges when they are every
// push/pop range of the report (SlotStacks), else by closed push/pop range
// (9 bytes and its event), folded from the association's one scan of
// HGTX_EVENTS; the events are never held;
// a row's cells (its range stack's text is one of its own) made when a page
// or a writer's chunk asks. The activities and the association they were
// projected from are not kept.
class ProjTraceRows : public RowSource {
 public:
  ProjTraceRows(AssociationRanges ranges, SmallIds threadOf, StartTimes starts, NarrowProjections proj,
                HgtxStackCounts stacks, SmallIds children, SlotStacks slots, std::vector<uint32_t> rows,
                const StringPool& strings)
      : R_(std::move(ranges)),
        threadOf_(std::move(threadOf)),
        start_(std::move(starts)),
        proj_(std::move(proj)),
        stacks_(std::move(stacks)),
        children_(std::move(children)),
        slots_(std::move(slots)),
        bySlot_(!slots_.parent.empty()),
        rows_(std::move(rows)),
        strings_(strings) {}

  size_t rowCount() const override { return rows_.size(); }

  void appendRows(size_t first, size_t count, Table& t) override {
    for (size_t i = first; i < first + count; ++i) {
      const uint32_t r = rows_[i];
      const uint32_t e = R_.event[r];
      const int64_t start = start_[r], end = start + R_.duration.get(r);
      const int64_t pStart = proj_.start(start_, r), pEnd = pStart + proj_.duration(r);
      t.setTextOf(kName, strings_, R_.name[r]);
      t.setInt(kProjStart, pStart);
      t.setInt(kProjDur, pEnd - pStart);
      t.setInt(kActive, proj_.active(r));
      t.setInt(kOrigStart, start);
      t.setInt(kOrigDur, end - start);
      t.setText(kStyle, styleName(R_.startEnd[r] != 0));
      const int64_t thread = R_.threads[threadOf_.get(r)];
      t.setInt(kPid, pidOf(thread));
      t.setInt(kTid, tidOf(thread));
      t.setInt(kOps, proj_.ops(r));
      t.setInt(kRangeId, R_.rangeId(e));
      // Only closed push/pop ranges are on a stack (as in hgtx_pushpop_trace).
      if (bySlot_) {
        if (slots_.onStack(r)) {
          const uint32_t parent = slots_.parent[r];
          t.setInt(kLvl, slots_.level(r));
          t.setInt(kNumChild, slots_.children.get(r));
          if (parent != kNoParent) t.setInt(kParentId, R_.rangeId(R_.event[parent]));
          stackText_.clear();
          appendRangeStackOf(
              r, [&](uint32_t x) { return slots_.parent[x]; }, [&](uint32_t x) { return R_.rangeId(R_.event[x]); },
              stackText_);
          t.setText(kRangeStack, stackText_);
        }
      } else if (const size_t k = stacks_.find(e); k != HgtxStackCounts::kNotOnStack) {
        t.setInt(kLvl, stacks_.levelOf(k));
        t.setInt(kNumChild, children_.get(k));
        if (stacks_.parent[k] != kNoParent) t.setInt(kParentId, stacks_.rangeId(stacks_.parent[k]));
        stackText_.clear();
        stacks_.appendStack(k, stackText_);
        t.setText(kRangeStack, stackText_);
      }
      t.setSpan(0, start, end);
      t.setSpan(1, pStart, pEnd);
      t.setEvent(0, EventTable::Hgtx, e);
      t.endRow();
    }
  }

 private:
  AssociationRanges R_;            // its thread index and starts given back: threadOf_, start_
  SmallIds threadOf_;              // by range: its index into R_.threads
  StartTimes start_;               // by range: its start
  NarrowProjections proj_;
  HgtxStackCounts stacks_;         // its level and children given back (empty: bySlot_)
  SmallIds children_;              // by closed push/pop range: its children (empty: bySlot_)
  SlotStacks slots_;               // by slot: parents and children (with bySlot_)
  bool bySlot_;
  std::vector<uint32_t> rows_;
  const StringPool& strings_;
  std::string stackText_;
};

// The ranges' starts and thread indices as the view reads them (about 4
// bytes and 1 a range), taken from the association's ranges: as the sweep
// gave them back (narrowSpansAfterSweep), or, where HGGC_API's columns were
// loaded already and the calls were not swept as it was scanned, as chosen.
void takeNarrowSpans(AssociationRanges& R, StartTimes& starts, SmallIds& threadOf) {
  if (R.start.empty()) {
    starts = std::move(R.narrowStart);
  } else {
    starts.assign(R.start);
    std::vector<int64_t>().swap(R.start);
  }
  if (R.threadIndex.empty()) {
    threadOf = std::move(R.narrowThread);
  } else {
    threadOf.reserve(R.threadIndex.size());
    threadOf.resize(R.threadIndex.size());
    for (size_t r = 0; r < R.threadIndex.size(); ++r) threadOf.set(r, R.threadIndex[r]);
    std::vector<uint32_t>().swap(R.threadIndex);
  }
}

Table compute(RuleContext& ctx) {
  Report& report = ctx.report;
  AssociationRanges ranges;
  NarrowProjections proj;
  HgtxStackCounts stacks;
  SmallIds children, threadOf;
  StartTimes starts;
  SlotStacks slots;
  std::string warning;
  const bool everyRange = !ctx.options.value("range-include") && !ctx.options.value("range-exclude");
  UnclosedRanges unclosed;
  {  // the activities and their association end here: the view keeps the projections
    // With every push/pop range chosen (no range-include or range-exclude)
    // the stacks (each closed push/pop range's parent and children) are
    // swept by slot from the chosen ranges once chosen (SlotStacks); the
    // association's scan folds only the few ranges never closed. Otherwise
    // a range's stack holds ranges left out too: the stacks are folded from
    // the association's scan of HGTX_EVENTS (28 bytes a closed push/pop
    // range while it runs). Either way the table is read once and never
    // held: with the ranges' threads and the Range IDs that are not their
    // row's position, they are all the view reads of it.
    HgtxStackCounter counter(/*parents=*/true);
    AssociationFilters filters;
    filters.releaseEvents = true;
    filters.rangeIds = true;
    filters.processes = false;  // a row's PID is its range's thread's
    filters.spansOnly = true;   // keepOnlySpans after
    filters.endsAsDurations = true;
    // Each range's thread index in a byte while there are fewer than 255
    // threads (SmallIds) and its start in about 4 bytes (StartTimes: slot
    // order is start order), given back by the sweep once the activities
    // are read (narrowSpansAfterSweep): the sweep holds the ranges' spans
    // while HGGC_API and HGGC_KERNEL are scanned, so they are not held
    // beside it a second time (5 bytes a range through both scans, which
    // were taken when the ranges were chosen before).
    filters.threadAfterSweep = true;
    filters.startAfterSweep = true;
    filters.narrowSpansAfterSweep = true;
    // The calls' values by activity before those spans come back (the
    // view reads the calls' ranges only through the projections' fold).
    filters.callValuesByActivity = true;
    if (everyRange) {
      filters.alsoScan = [&](size_t first, const HgtxEvents& chunk) { unclosed.add(first, chunk); };
      // The stacks are swept once the association is over (below), from the
      // ranges and their threads as given back: their parents and children
      // (5 bytes a range) are not held through it.
    } else {
      filters.alsoScan = [&](size_t first, const HgtxEvents& chunk) { counter.add(first, chunk); };
      filters.afterScan = [&] {
        stacks = counter.finish();
        // A range's level is its depth among its parents (kept for ParentId
        // and RangeStack): 4 bytes a range not held.
        std::vector<int32_t>().swap(stacks.level);
        // The children counts in a byte while they fit (SmallIds).
        children.reserve(stacks.numChild.size());
        children.resize(stacks.numChild.size());
        for (size_t k = 0; k < stacks.numChild.size(); ++k) children.set(k, stacks.numChild[k]);
        std::vector<uint32_t>().swap(stacks.numChild);
      };
    }
    AssociatedActivities in = associateForRule(ctx, /*memoryToo=*/true, 0, std::move(filters));
    keepOnlySpans(in.activities);
    takeNarrowSpans(in.association.ranges, starts, threadOf);
    in.association.holdCallValuesByActivity();  // rangesOf alone reads them
    // The projections in 12 bytes a range (their starts from the ranges'
    // own and durations in 4 bytes, op counts and idle times in 2, the few
    // others exact beside: NarrowProjections), not 28: they are made beside
    // the association and the activity list.
    // The list and the activities' call values are read no more after the
    // fold: given back as it passes them, while the projections' cells are
    // faulted in as it writes them (the step held both whole at its end).
    StageTimer timer("hgtx_ppu_proj_trace: projections");
    proj = projectRangesNarrowGivingBack(in.activities, in.association, starts);
    ranges = std::move(in.association.ranges);
    warning = unlaunchedWarning(in.unlaunched, in.memoryToo);
  }
  StageTimer timer("hgtx_ppu_proj_trace: stacks and rows");
  if (everyRange) {
    slots = slotStacks(ranges, threadOf, ranges.threads.size(), starts, unclosed.events, /*levels=*/false,
                       /*parents=*/true);
    std::vector<uint32_t>().swap(unclosed.events);
  }

  // The rows counted first and made at their size: grown a row at a time
  // (9.15 M rows of 9.18 M ranges at scale 2500) the last step copied 8.4 M
  // rows into a buffer of 16.8 M, both resident at once beside the view's
  // columns, this step's peak.
  std::vector<uint32_t> rows;
  {
    size_t count = 0;
    for (uint32_t r = 0; r < ranges.size(); ++r) count += proj.ops(r) > 0;
    rows.reserve(count);
  }
  for (uint32_t r = 0; r < ranges.size(); ++r)
    if (proj.ops(r) > 0) rows.push_back(r);
  // Projected start ascending, projected duration descending (an enclosing
  // range before the ranges it holds), then the original start.
  std::sort(rows.begin(), rows.end(), [&](uint32_t a, uint32_t b) {
    const int64_t sa = proj.start(starts, a), sb = proj.start(starts, b);
    if (sa != sb) return sa < sb;
    const int64_t da = proj.duration(a), db = proj.duration(b);
    return std::make_tuple(-da, starts[a], a) < std::make_tuple(-db, starts[b], b);
  });

  Table t(columns(), std::make_shared<ProjTraceRows>(std::move(ranges), std::move(threadOf), std::move(starts), std::move(proj),
                                                     std::move(stacks), std::move(children), std::move(slots), std::move(rows),
                                                     report.strings()));
  t.declareSpans({"HGTX Range", "Projection"});
  t.declareEvents({"HGTX Range"});
  if (!warning.empty()) t.addWarning(warning);
  return t;
}

}  // namespace

const RuleSpec& hgtxPpuProjTraceRule() {
  static const RuleSpec rule{
      .name = "hgtx_ppu_proj_trace",
      .title = "HGTX Range PPU Projection Trace",
      .titleZh = "HGTX向PPU投影跟踪",
      .rowHelp = "Row number of the HGTX PPU projection trace",
      .topic = "HGTX",
      .description =
          "Every HGTX range associated with PPU activity (kernels, memcpys, memsets;\n"
          "associated as in hgtx_kern_sum), projected onto the PPUs: the projection runs\n"
          "from the earliest start to the latest end of its activities, and PPU Active\n"
          "Time is the union of their intervals (overlaps count once). Lvl, NumChild,\n"
          "ParentId and RangeStack describe the CPU push/pop stack as hgtx_pushpop_trace\n"
          "does; they are '-' for start/end ranges and ranges never closed, which are on\n"
          "no stack. Sorted by Projected Start, then Projected Duration descending.",
      .descriptionZh =
          "判断HGTX range和HGGC kernel的原则为：HGTX range持续时间范围内，相同线程的HGGC API触发的HGGC kernel，认为和此HGTX range关联。\n"
          "CPU侧HGTX range向PPU侧投影的方式为：HGTX range在PPU侧的活跃时间，从本HGTX关联的最早的PPU活动开始，到最晚的PPU活动结束。PPU活动包括：HGGC Kernel / memcpy / memset 相关执行信息。\n"
          "HGTX range在PPU侧的活跃时间PPU Active Time计算方式为：指定的时间点存在一个或者多个PPU侧活动，则记为活跃时间。若多个PPU侧活动在时间上重叠，重叠的部分不会被多次计入活跃时间。\n"
          "导出结果组织如下：每HGTX range导出一行数据，结果按照Projected Start升序输出。",
      .options = {deviceOption(), graphMappingOption(), rangeIncludeOption(), rangeExcludeOption()},
      .columns = columns(),
      .needs = associationNeeds(true),
      .pie = {"PPU Active Time", {"Name", "PID"}},
      .compute = compute,
      .memoryPerRow = 40,  // 957 / 123 MiB at scale 2500 / 250 after the merges: 34, 43 bytes a row (2026-12-06); at 40 the 3 GB report answers in Chromium (14.7 M rows, 35 s; lead), where 48 refused it. The small report's extra bytes a row are fixed costs, far under any budget
  };
  return rule;
}

}  // namespace asys
