// hgtx_ppu_proj_sum (2.3.11): HGTX ranges projected onto the PPUs, summed
// per range name and style.
#include <algorithm>
#include <limits>
#include <memory>
#include <numeric>
#include <optional>
#include <tuple>

#include "core/analysis/grouped_values.h"
#include "core/analysis/hgtx_projection.h"
#include "core/analysis/hgtx_stacks.h"
#include "core/analysis/intervals.h"
#include "core/analysis/key_groups.h"
#include "core/analysis/stats.h"
#include "core/base/stage_timer.h"
#include "core/report/report.h"
#include "core/rules/common.h"
#include "core/rules/hgtx_association_options.h"
#include "core/rules/registry.h"

namespace asys {

namespace {

enum Col : size_t {
  kRange, kStyle, kInUse, kActive, kTotalProj, kTotalRange, kInstances, kAvg, kMed, kMin, kMax, kStdDev,
  kTotalOps, kAvgOps, kAvgLvl, kAvgChild,
};

std::vector<ColumnSpec> columns() {
  return {
      {"Range", "", CellKind::Text, "Name of the HGTX range", ColumnRole::Key},
      {"Style", "", CellKind::Text, "Range style; Start/End or Push/Pop", ColumnRole::Key},
      {"In-Use", "%", CellKind::Decimal1, "Percentage of projected active time to time range"},
      {"Proj Active Time", "ns", CellKind::Int, "Total projected time excluding overlapping for this range name"},
      {"Total Proj Time", "ns", CellKind::Int, "Total projected time used by all instances of this range name"},
      {"Total Range Time", "ns", CellKind::Int,
       "Total original HGTX range time used by all instances of this range name"},
      {"Range Instances", "", CellKind::Int, "Number of instances of this range"},
      {"Proj Avg", "ns", CellKind::Int, "Average projected time for this range"},
      {"Proj Med", "ns", CellKind::Int, "Median projected time for this range"},
      {"Proj Min", "ns", CellKind::Int, "Minimum projected time for this range"},
      {"Proj Max", "ns", CellKind::Int, "Maximum projected time for this range"},
      {"Proj StdDev", "ns", CellKind::Int, "Standard deviation of projected times for this range"},
      {"Total PPU Ops", "", CellKind::Int, "Total number of PPU operations"},
      {"Avg PPU Ops", "", CellKind::Decimal1, "Average number of PPU operations"},
      {"Avg Range Lvl", "", CellKind::Decimal1, "Average range stack depth"},
      {"Avg Num Child", "", CellKind::Decimal1, "Average number of children ranges"},
  };
}

// The rule's state (RuleSpec::groupedDurations), which merges across the
// reports of ranks (asys fleet, docs/fleet.md): a group per range name and
// style (its text, id kIdStyle) with the projections' lengths as its values,
// its sums, and the projections themselves as spans, whose union is Proj
// Active Time (the ranks' projections of one name overlap in time: the
// union is of all reports' spans, not a sum). And one group of kind
// kExtent: the report's first activity start and last end (kNoValue: no
// activity), and the sides of range-mode=full's range (the time filter's,
// else the capture's; kNoValue: neither), which merge as the merged report
// has them (the earliest start, the latest end; the capture's only when
// every report has it, as asys merge writes captureStart/End).
enum IdCol : size_t { kIdKind, kIdStyle, kIdActiveStart, kIdActiveEnd, kIdFullStart, kIdFullEnd };
enum GroupKind : int64_t { kRangeGroup = 0, kExtent = 1 };
enum SumCol : size_t { kTotalRangeSum, kOpsSum, kLevelSum, kChildrenSum, kOnStackSum };

// `forOwnTable`: the groups for this rule's own table, whose values are
// its spans' lengths (GroupedDurations::valuesAreSpanLengths), not a fleet
// state's (groupedDurations below), which gives them all.
GroupedDurations groupsOf(RuleContext& ctx, bool forOwnTable) {
  Report& report = ctx.report;
  // The projections, the ranges and the activities' extent (the time range
  // In-Use is a share of) are what the groups need: the activities and
  // their pairs go before the groups are made.
  AssociationRanges R;
  // The projections as each range's first activity and its span's length
  // (12 bytes a range, where its span and ops were 20): the activities'
  // starts are kept, alone, until the groups' spans are made of them.
  RangeFirsts proj;
  PpuActivities starts;
  int64_t activeStart = kNoValue, activeEnd = kNoValue;
  std::string warning;
  // By range slot, once the ranges are chosen: its stack level and direct
  // children (SlotStacks: a byte each while they fit), so that neither the
  // stacks' events nor the ranges' are held through the association.
  SlotStacks slots;
  {
    // With every push/pop range chosen (no range-include or range-exclude)
    // the stacks are swept from the chosen ranges themselves, once chosen:
    // the association's scan folds only the few ranges never closed, which
    // are on no stack. Otherwise a range's level and children count the
    // ranges left out too: they are folded from the association's scan of
    // the events (HgtxStackCounter, 28 bytes a closed push/pop range while
    // it runs, 12 after), which reads them once for both.
    const bool everyRange = !ctx.options.value("range-include") && !ctx.options.value("range-exclude");
    UnclosedRanges unclosed;
    HgtxStackCounter counter;
    HgtxStackCounts stacks;
    AssociationFilters filters;
    filters.releaseEvents = true;
    filters.processes = false;  // keepOnlySpans drops them
    filters.spansOnly = true;
    filters.endsAsDurations = true;
    if (everyRange) {
      filters.alsoScan = [&](size_t first, const HgtxEvents& chunk) { unclosed.add(first, chunk); };
      filters.rangesChosen = [&](const AssociationRanges& chosen) {
        slots = slotStacks(chosen, unclosed.events, /*levels=*/true, /*parents=*/false);
        std::vector<uint32_t>().swap(unclosed.events);
      };
    } else {
      filters.alsoScan = [&](size_t first, const HgtxEvents& chunk) { counter.add(first, chunk); };
      filters.afterScan = [&] { stacks = counter.finish(); };
      filters.rangesChosen = [&](const AssociationRanges& chosen) {
        slots.levelPlusOne.reserve(chosen.size());
        slots.levelPlusOne.resize(chosen.size());
        slots.children.reserve(chosen.size());
        slots.children.resize(chosen.size());
        for (size_t r = 0; r < chosen.size(); ++r) {
          if (const size_t k = stacks.find(chosen.event[r]); k != HgtxStackCounts::kNotOnStack) {
            slots.levelPlusOne.set(r, static_cast<uint32_t>(stacks.level[k]) + 1);
            slots.children.set(r, stacks.numChild[k]);
          }
        }
        stacks = {};
      };
    }
    filters.eventsInChosenOnly = true;
    // Nor does it read a range's start or thread once the calls are swept
    // (12 bytes a range, given back before the activities are read).
    filters.startAfterSweep = false;
    filters.threadAfterSweep = false;
    AssociatedActivities in = associateForRule(ctx, /*memoryToo=*/true, 0, std::move(filters));
    PpuActivities& act = in.activities;
    // Not read here: the activities' other columns, the ranges' threads
    // and other Range IDs, each range's own active time (Proj Active Time is
    // the union of the projections, made from the spans).
    keepOnlySpans(act);
    // Given back here where the calls were swept otherwise (loaded already).
    std::vector<uint32_t>().swap(in.association.ranges.threadIndex);
    std::vector<int64_t>().swap(in.association.ranges.threads);
    std::vector<std::pair<uint32_t, int64_t>>().swap(in.association.ranges.otherRangeIds);
    std::vector<int64_t>().swap(in.association.ranges.start);
    in.association.holdCallValuesByActivity();  // rangesOf alone reads them
    StageTimer timer("hgtx_ppu_proj_sum: projections");
    proj = projectFirsts(act, in.association);
    if (act.size() > 0) {
      activeStart = act.startOf(0);
      activeEnd = act.endOf(0);
      for (size_t a = 1; a < act.size(); ++a) activeEnd = std::max(activeEnd, act.endOf(a));
    }
    starts.start = std::move(act.start);
    starts.narrowStart = std::move(act.narrowStart);
    R = std::move(in.association.ranges);
    warning = unlaunchedWarning(in.unlaunched, in.memoryToo);
  }
  StringPool& strings = report.strings();

  StageTimer timer("hgtx_ppu_proj_sum: groups");
  GroupedDurations out;
  // The groups' names as ids of the report's strings (TextPool), not
  // copies: at scale 2500 the 1.08 M names (about 100 bytes each) were held
  // as strings through the groups' and the merge's steps, the rule's peak;
  // mergedGroupsOf makes them whole once the values and spans are summed.
  // One id a distinct text, in the order of the groups that have it, as
  // asys fleet pools the texts of a rule that gives them whole.
  out.textPool = TextPool(strings);
  out.textIds.resize(1);
  std::vector<uint32_t>& nameOf = out.textIds[0];
  uint32_t emptyName = kNoMatch;  // the pool id of "", when a range is named so
  out.ids = {{IdKind::kPlain, {}}, {IdKind::kPlain, {}}, {IdKind::kTime, {}},
             {IdKind::kTime, {}}, {IdKind::kTime, {}}, {IdKind::kTime, {}}};
  out.sums.resize(5);
  // A value and a span a projected range: their room taken at once, so
  // that they never grow by copying.
  const size_t projected =
      static_cast<size_t>(std::count_if(proj.ops.begin(), proj.ops.end(), [](uint32_t n) { return n > 0; }));
  out.groupOf.reserve(projected);
  // The groups first, then their sums made at their size (one more for
  // the extent): grown a group at a time beside the ranges and the
  // projections, five sums held twice their size.
  // Each group's style in a byte while the groups are found (its id column,
  // 8 bytes a group grown to twice its size, is made at its size with the
  // other ids, once the spans are made).
  std::vector<uint8_t> styleOf;
  {
    KeyGroups groups;
    for (uint32_t r = 0; r < R.size(); ++r) {
      if (proj.ops[r] == 0) continue;
      const uint64_t style = R.startEnd[r];
      const uint32_t g = groups.indexOf((style << 32) | R.name[r]);
      if (g == out.groupCount) {
        // A name's other style's group has its text already.
        if (const uint32_t other = groups.find(((style ^ 1) << 32) | R.name[r]); other != KeyGroups::kNoGroup) {
          nameOf.push_back(nameOf[other]);
        } else {
          nameOf.push_back(out.textPool.refer(R.name[r]));
          if (emptyName == kNoMatch && strings.get(R.name[r]).empty()) emptyName = nameOf.back();
        }
        styleOf.push_back(R.startEnd[r]);
        ++out.groupCount;
      }
      out.groupOf.push_back(g);
    }
  }
  for (auto& c : out.sums) {
    c.reserve(out.groupCount + 1);
    c.assign(out.groupCount, 0);
  }
  for (uint32_t r = 0, k = 0; r < R.size(); ++r) {
    if (proj.ops[r] == 0) continue;
    const uint32_t g = out.groupOf[k++];
    out.sums[kTotalRangeSum][g] += R.duration.get(r);
    out.sums[kOpsSum][g] += proj.ops[r];
    if (const uint32_t levelPlusOne = slots.levelPlusOne.get(r); levelPlusOne != 0) {
      out.sums[kLevelSum][g] += levelPlusOne - 1;
      out.sums[kChildrenSum][g] += slots.children.get(r);
      ++out.sums[kOnStackSum][g];
    }
  }
  // The ranges, their stacks and the ops are read no more; the projections
  // become the spans, so that the two are not held at once.
  slots = {};
  R = {};
  // The projected ranges' spans, in slot order (as their values), made
  // once the ranges are gone: their first activities' starts and lengths,
  // the ops given back first.
  std::vector<uint32_t>().swap(proj.ops);
  out.spans.reserve(projected);
  for (size_t r = 0; r < proj.first.size(); ++r)
    if (proj.projected(r)) out.spans.push_back(proj.span(starts, r));
  proj = {};
  starts = {};
  if (forOwnTable) {
    // The values read from the spans in the merge: 12 bytes a projected
    // range not made (the merge was the rule's peak at scale 2500).
    out.valuesAreSpanLengths = true;
  } else {
    out.values.reserve(projected);
    for (const Span& s : out.spans) out.values.push_back(s.end - s.start);
    // A span's group is its value's: copied last, so that it is not held
    // beside the ranges and the projections (4 bytes a projected range, at
    // the groups' step, the rule's peak at scale 2500 once its table is a view).
    out.spanGroup = out.groupOf;
  }
  // The range groups' other ids, the same for each (their kind, and no
  // extent): made at their size once the ranges and projections are gone,
  // not grown beside them (32 bytes a group); each column, the style's too,
  // with room for the extent's value (a column made at its size and then
  // given one more value was held at twice its size through the merge).
  // The style's from its bytes, given back after.
  for (size_t c = 0; c < out.ids.size(); ++c) {
    std::vector<int64_t>& column = out.ids[c].values;
    column.reserve(out.groupCount + 1);
    if (c == kIdStyle) column.assign(styleOf.begin(), styleOf.end());
    else column.assign(out.groupCount, c == kIdKind ? kRangeGroup : kNoValue);
  }
  std::vector<uint8_t>().swap(styleOf);
  // The extent: statisticsRange's sides before its fallback to the activities.
  const ReportSummary& summary = report.summary();
  const bool windowStart = ctx.window.start != std::numeric_limits<int64_t>::min();
  const bool windowEnd = ctx.window.end != std::numeric_limits<int64_t>::max();
  nameOf.push_back(emptyName != kNoMatch ? emptyName : out.textPool.add(""));
  out.ids[kIdKind].values.push_back(kExtent);
  out.ids[kIdStyle].values.push_back(kNoValue);
  out.ids[kIdActiveStart].values.push_back(activeStart);
  out.ids[kIdActiveEnd].values.push_back(activeEnd);
  out.ids[kIdFullStart].values.push_back(windowStart ? ctx.window.start : summary.captureStart);
  out.ids[kIdFullEnd].values.push_back(windowEnd ? ctx.window.end : summary.captureEnd);
  for (auto& c : out.sums) c.push_back(0);
  ++out.groupCount;
  if (!warning.empty()) out.warnings.push_back(warning);
  return out;
}

GroupedDurations groupedDurations(RuleContext& ctx) { return groupsOf(ctx, /*forOwnTable=*/false); }

// The table as a view of the merged groups: the groups in their order (4
// bytes a row) and each row's cells made when a page or a writer's chunk
// asks. At scale 2500 (1.08 M groups) the whole table's cells and their
// own pool of names, made beside the groups, were the rule's peak (296 MB
// over the groups' 627 MB, RSS).
class ProjSumRows : public RowSource {
 public:
  ProjSumRows(MergedGroups groups, std::vector<uint32_t> order, int64_t rangeLength)
      : g_(std::move(groups)), order_(std::move(order)), rangeLength_(rangeLength) {}

  size_t rowCount() const override { return order_.size(); }
  bool holdsItsRows() const override { return true; }  // its names are the groups' own

  void appendRows(size_t first, size_t count, Table& t) override {
    for (size_t row = first; row < first + count; ++row) {
      for (size_t c = 0; c <= kAvgChild; ++c) setCell(t, c, order_[row]);
      t.endRow();
    }
  }

  // One column's cells alone (a compare's side, a sort's key): the others'
  // arithmetic not done.
  void appendColumn(size_t col, size_t first, size_t count, Table& t) override {
    for (size_t row = first; row < first + count; ++row) {
      setCell(t, col, order_[row]);
      t.endRow();
    }
  }

 private:
  // Group i's cell of column c, set in t (none for a "-" cell).
  void setCell(Table& t, size_t c, uint32_t i) const {
    const DurationStats& st = g_.stats[i];
    const int64_t onStack = g_.sums[kOnStackSum][i];
    switch (static_cast<Col>(c)) {
      case kRange: t.setText(kRange, g_.texts[0][i]); break;
      case kStyle: t.setText(kStyle, styleName(g_.ids[kIdStyle].values[i] != 0)); break;
      case kInUse: t.setDecimal(kInUse, percent1(g_.covered[i], rangeLength_)); break;
      case kActive: t.setInt(kActive, g_.covered[i]); break;
      case kTotalProj: t.setInt(kTotalProj, st.total); break;
      case kTotalRange: t.setInt(kTotalRange, g_.sums[kTotalRangeSum][i]); break;
      case kInstances: t.setInt(kInstances, st.count); break;
      case kAvg: t.setInt(kAvg, st.avg); break;
      case kMed: t.setInt(kMed, st.med); break;
      case kMin: t.setInt(kMin, st.min); break;
      case kMax: t.setInt(kMax, st.max); break;
      case kStdDev: t.setInt(kStdDev, st.stddev); break;
      case kTotalOps: t.setInt(kTotalOps, g_.sums[kOpsSum][i]); break;
      case kAvgOps: t.setDecimal(kAvgOps, ratio1(g_.sums[kOpsSum][i], st.count)); break;
      // Start/end and unclosed ranges are on no stack.
      case kAvgLvl:
        if (onStack > 0) t.setDecimal(kAvgLvl, ratio1(g_.sums[kLevelSum][i], onStack));
        break;
      case kAvgChild:
        if (onStack > 0) t.setDecimal(kAvgChild, ratio1(g_.sums[kChildrenSum][i], onStack));
        break;
    }
  }

  MergedGroups g_;
  std::vector<uint32_t> order_;  // the rows' groups
  int64_t rangeLength_;          // In-Use's denominator
};

Table groupsView(MergedGroups g, const RuleOptions& options) {
  const auto& kind = g.ids[kIdKind].values;
  // The activities' extent, and range-mode=full's sides where every report has them.
  Span active{kNoValue, kNoValue}, full{kNoValue, kNoValue};
  bool fullStart = true, fullEnd = true;
  for (size_t i = 0; i < g.size(); ++i) {
    if (kind[i] != kExtent) continue;
    const int64_t as = g.ids[kIdActiveStart].values[i], ae = g.ids[kIdActiveEnd].values[i];
    if (as != kNoValue) active.start = active.start == kNoValue ? as : std::min(active.start, as);
    if (ae != kNoValue) active.end = active.end == kNoValue ? ae : std::max(active.end, ae);
    const int64_t fs = g.ids[kIdFullStart].values[i], fe = g.ids[kIdFullEnd].values[i];
    fullStart = fullStart && fs != kNoValue;
    fullEnd = fullEnd && fe != kNoValue;
    if (fs != kNoValue) full.start = full.start == kNoValue ? fs : std::min(full.start, fs);
    if (fe != kNoValue) full.end = full.end == kNoValue ? fe : std::max(full.end, fe);
  }
  if (active.start == kNoValue) active = {0, 0};
  Span range = active;
  if (options.value("range-mode") == "full") {
    if (fullStart && full.start != kNoValue) range.start = full.start;
    if (fullEnd && full.end != kNoValue) range.end = full.end;
  }

  std::vector<uint32_t> order;
  for (uint32_t i = 0; i < g.size(); ++i)
    if (kind[i] == kRangeGroup) order.push_back(i);
  const std::vector<int64_t>& activeTime = g.covered;
  const std::vector<std::string>& name = g.texts[0];
  const std::vector<int64_t>& style = g.ids[kIdStyle].values;
  // In-Use descending (exactly: Proj Active Time, the denominator is shared),
  // then Range ascending, then style.
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    if (activeTime[a] != activeTime[b]) return activeTime[a] > activeTime[b];
    return std::tie(name[a], style[a]) < std::tie(name[b], style[b]);
  });
  // Of the groups' ids the rows read the style alone: the kinds and the
  // extents' sides (five columns of 8 bytes a group, 41 MiB at scale 2500)
  // go, not held beside a compare side's keys and held columns.
  for (size_t c = 0; c < g.ids.size(); ++c)
    if (c != kIdStyle) std::vector<int64_t>().swap(g.ids[c].values);
  return Table(columns(), std::make_shared<ProjSumRows>(std::move(g), std::move(order), range.length()));
}

// A fleet run's merged table (RuleSpec::groupsTable) holds its cells, as before.
Table groupsTable(const MergedGroups& g, const RuleOptions& options) {
  Table t = groupsView(g, options);
  t.materialize();
  return t;
}

Table compute(RuleContext& ctx) {
  GroupedDurations groups = groupsOf(ctx, /*forOwnTable=*/true);
  const std::vector<std::string> warnings = std::move(groups.warnings);
  std::optional<StageTimer> timer(std::in_place, "hgtx_ppu_proj_sum: merged groups");
  MergedGroups merged = mergedGroupsOf(std::move(groups));
  timer.reset();
  Table t = groupsView(std::move(merged), ctx.options);
  for (const std::string& w : warnings) t.addWarning(w);
  return t;
}

}  // namespace

const RuleSpec& hgtxPpuProjSumRule() {
  static const RuleSpec rule{
      .name = "hgtx_ppu_proj_sum",
      .title = "HGTX Range PPU Projection Summary",
      .titleZh = "HGTX向PPU投影汇总",
      .rowHelp = "Row number of the HGTX PPU projection summary",
      .topic = "HGTX",
      .description =
          "HGTX ranges projected onto the PPUs (as hgtx_ppu_proj_trace), summed per range\n"
          "name and style. Proj Active Time is the union of the instances' projections\n"
          "(overlapping projections count once); In-Use = Proj Active Time / the time\n"
          "range of range-mode. Averages of counts have one decimal; Avg Range Lvl and\n"
          "Avg Num Child average the instances on a push/pop stack ('-' when none is).\n"
          "Sorted by In-Use descending, then Range ascending.",
      .descriptionZh =
          "判断HGTX range和HGGC kernel的原则为：HGTX range持续时间范围内，相同线程的HGGC API触发的HGGC kernel，认为和此HGTX range关联。\n"
          "CPU侧HGTX range向PPU侧投影的方式为：HGTX range在PPU侧的活跃时间，从本HGTX关联的最早的PPU活动开始，到最晚的PPU活动结束。PPU活动包括：HGGC Kernel / memcpy / memset 相关执行信息。\n"
          "将相同HGTX range且相同Style的HGTX range信息进行汇总，如CPU侧时长，PPU侧投影时长等。\n"
          "相同的HGTX range在PPU侧的总的活跃时间Proj Active Time计算方式为：指定的时间点存在一个或者更多HGTX range投影，则记为活跃时间。如果多个HGTX range的投影在时间上重叠，重叠的部分不会被多次计入活跃时间。\n"
          "相同的HGTX range投影的PPU侧占比In-Use计算方式为：Proj Active Time/ PPU侧统计时间范围，其中PPU侧统计时间范围计算方式取决于range-mode选项。\n"
          "统计结果组织如下：按照In-Use降序排列，按照HGTX Range名称升序排列。",
      .options = {deviceOption(), rangeModeOption(), rangeIncludeOption(), rangeExcludeOption(),
                  graphMappingOption()},
      .columns = columns(),
      .needs = associationNeeds(true),
      .pie = {"Proj Active Time", {"Range"}},
      .compute = compute,
      .groupedDurations = groupedDurations,
      .groupsTable = groupsTable,
      .memoryPerRow = 40,  // 935,224 / 112,556 KiB at scale 2500 / 250: 31.5, 38.0 bytes a row (2026-12-06, proj10); at 40 the 3 GB report answers in Chromium (1.73 M rows, 36 s; lead), where 48 refused it
  };
  return rule;
}

}  // namespace asys
