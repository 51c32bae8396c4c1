// hgtx_ppu_proj_sum (2.3.11): HGTX ranges projected onto the PPUs, summed
// per range name and style.
#include <algorithm>
#include <numeric>
#include <tuple>

#include "core/analysis/grouped_values.h"
#include "core/analysis/hgtx_projection.h"
#include "core/analysis/hgtx_stacks.h"
#include "core/analysis/intervals.h"
#include "core/analysis/key_groups.h"
#include "core/analysis/stats.h"
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

Table compute(RuleContext& ctx) {
  Report& report = ctx.report;
  // The projections, the ranges and the activities' extent (the time range
  // In-Use is a share of) are what the groups need: the activities and
  // their pairs go before the groups are made.
  AssociationRanges R;
  RangeProjections proj;
  Span active{0, 0};
  std::string warning;
  // The ranges' levels and children (12 bytes a range; the events are
  // never loaded whole), folded from the association's scan of the events,
  // which reads them once for both: with the ranges they are all this rule
  // reads of them.
  HgtxStackCounts stacks;
  {
    HgtxStackCounter counter;
    AssociationFilters filters;
    filters.releaseEvents = true;
    filters.alsoScan = [&](size_t first, const HgtxEvents& chunk) { counter.add(first, chunk); };
    filters.afterScan = [&] { stacks = counter.finish(); };
    AssociatedActivities in = associateForRule(ctx, /*memoryToo=*/true, 0, std::move(filters));
    const PpuActivities& act = in.activities;
    proj = projectRanges(act, in.association);
    if (act.size() > 0) {
      active = {act.start[0], act.end[0]};
      for (int64_t e : act.end) active.end = std::max(active.end, e);
    }
    R = std::move(in.association.ranges);
    warning = unlaunchedWarning(in.unlaunched, in.memoryToo);
  }
  StringPool& strings = report.strings();

  const Span range = ctx.options.value("range-mode") == "full" ? statisticsRange(report, ctx.window, active) : active;

  KeyGroups groups;
  std::vector<uint32_t> groupOf;
  std::vector<Span> projections;
  GroupedValues projDurations;
  struct Sums {
    int64_t totalRange = 0, ops = 0, level = 0, children = 0, onStack = 0;
  };
  std::vector<Sums> sums;
  for (uint32_t r = 0; r < R.size(); ++r) {
    if (proj.ops[r] == 0) continue;
    const uint32_t g = groups.indexOf((static_cast<uint64_t>(R.startEnd[r]) << 32) | R.name[r]);
    if (g == sums.size()) sums.emplace_back();
    groupOf.push_back(g);
    projDurations.count(g);
    projections.push_back({proj.start[r], proj.end[r]});
    Sums& s = sums[g];
    s.totalRange += R.end[r] - R.start[r];
    s.ops += proj.ops[r];
    if (const size_t k = stacks.find(R.event[r]); k != HgtxStackCounts::kNotOnStack) {
      s.level += stacks.level[k];
      s.children += stacks.numChild[k];
      ++s.onStack;
    }
  }
  projDurations.startFill(groups.size());
  for (size_t i = 0; i < groupOf.size(); ++i) projDurations.add(groupOf[i], projections[i].length());
  const std::vector<DurationStats> stats = summarizeEach(projDurations);
  SpanGroups byGroup(groupOf, projections, groups.size());
  byGroup.mergeEach();
  std::vector<int64_t> activeTime(groups.size());
  for (size_t g = 0; g < groups.size(); ++g) activeTime[g] = totalLength(byGroup.group(g));

  // In-Use descending (exactly: Proj Active Time, the denominator is shared),
  // then Range ascending, then style.
  std::vector<uint32_t> order(groups.size());
  std::iota(order.begin(), order.end(), 0u);
  auto name = [&](uint32_t g) { return strings.get(static_cast<uint32_t>(groups.key(g))); };
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    if (activeTime[a] != activeTime[b]) return activeTime[a] > activeTime[b];
    return std::make_tuple(name(a), groups.key(a) >> 32) < std::make_tuple(name(b), groups.key(b) >> 32);
  });

  Table t(columns());
  for (uint32_t g : order) {
    const DurationStats& st = stats[g];
    const Sums& s = sums[g];
    t.setText(kRange, name(g));
    t.setText(kStyle, styleName((groups.key(g) >> 32) != 0));
    t.setDecimal(kInUse, percent1(activeTime[g], range.length()));
    t.setInt(kActive, activeTime[g]);
    t.setInt(kTotalProj, st.total);
    t.setInt(kTotalRange, s.totalRange);
    t.setInt(kInstances, st.count);
    t.setInt(kAvg, st.avg);
    t.setInt(kMed, st.med);
    t.setInt(kMin, st.min);
    t.setInt(kMax, st.max);
    t.setInt(kStdDev, st.stddev);
    t.setInt(kTotalOps, s.ops);
    t.setDecimal(kAvgOps, ratio1(s.ops, st.count));
    if (s.onStack > 0) {  // start/end and unclosed ranges are on no stack
      t.setDecimal(kAvgLvl, ratio1(s.level, s.onStack));
      t.setDecimal(kAvgChild, ratio1(s.children, s.onStack));
    }
    t.endRow();
  }
  if (!warning.empty()) t.addWarning(warning);
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
      .memoryPerRow = 64,  // bench/rule-peaks.sh 2500: 1,815 MiB, 63 bytes a row (2026-12-04)
  };
  return rule;
}

}  // namespace asys
