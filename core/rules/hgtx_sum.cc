// hgtx_sum (2.3.13): time per HGTX range name (domain-qualified) and style.
#include "core/analysis/hgtx_ranges.h"
#include "core/analysis/key_groups.h"
#include "core/report/report.h"
#include "core/rules/common.h"
#include "core/rules/registry.h"

namespace asys {

namespace {

std::vector<ColumnSpec> columns() {
  auto cols = durationSummaryColumns("Instances", "Number of instances of this range", "range",
                                     "Total time used by all instances of this range");
  cols.push_back({"Style", "", CellKind::Text, "Range style; Start/End or Push/Pop"});
  cols.push_back({"Range", "", CellKind::Text, "Name of the range"});
  return cols;
}

GroupedDurations groupedDurations(RuleContext& ctx) {
  Report& report = ctx.report;
  const HgtxEvents& h = report.hgtx();
  StringPool& strings = report.strings();
  RangeNamer namer(report);
  const auto processes = ctx.options.idList("process");
  const auto threads = ctx.options.idList("thread");
  // The rule text: a range counts when its thread matches `thread` or its
  // process matches `process`.
  auto selected = [&](int64_t globalTid) {
    if (!processes && !threads) return true;
    return (processes && inList(processes, pidOf(globalTid))) ||
           (threads && inList(threads, tidOf(globalTid)));
  };

  KeyGroups groups;
  GroupedDurations out;
  std::vector<uint32_t>& groupOf = out.groupOf;
  std::vector<int64_t>& duration = out.values;
  for (size_t i = 0; i < h.size(); ++i) {
    if (!isRange(h, i) || !selected(h.globalTid[i]) || !ctx.window.overlaps(h.start[i], h.end[i])) continue;
    uint64_t style = h.eventType[i] == kHgtxPushPop ? 0 : 1;
    groupOf.push_back(groups.indexOf(namer.nameId(i) | (style << 32)));
    duration.push_back(h.end[i] - h.start[i]);
  }
  out.groupCount = groups.size();
  out.texts.assign(2, std::vector<std::string>(groups.size()));
  auto &style = out.texts[0], &name = out.texts[1];
  for (uint32_t g = 0; g < groups.size(); ++g) {
    style[g] = (groups.key(g) >> 32) ? "StartEnd" : "PushPop";
    name[g] = strings.get(static_cast<uint32_t>(groups.key(g)));
  }
  return out;
}

// rows=, in 2.3.13's words.
OptionSpec rowsOfRanges() {
  OptionSpec o = rowsOption("ranges");
  o.helpZh = "限制输出的HGTX range的条数。\n默认为-1，表示无上限。";
  return o;
}

}  // namespace

const RuleSpec& hgtxSumRule() {
  static const RuleSpec rule{
      .name = "hgtx_sum",
      .title = "HGTX Range Summary",
      .titleZh = "HGTX range汇总",
      .rowHelp = "Row number of the HGTX range summary",
      .topic = "HGTX",
      .description =
          "Time spent in each HGTX range, summed over all instances with the same domain,\n"
          "name and style, sorted by total time descending. A range in a named domain is\n"
          "shown as domain:range. Time (%) is the share of the listed ranges' total time.",
      .descriptionZh =
          "按照每HGTX range domain和名称级别进行统计，累加相同domain和名称的HGTX range的耗时时间，若HGTX range包含domain，输出的HGTX range名称格式为domain:range，按照range总耗时降序输出。\n"
          "注意“Time”列是根据“Total Time”列的总和计算得出的，表示该range占所有列出ranges执行时间的百分比，而不是根据应用执行时间得到的百分比。",
      .options = {rowsOfRanges(), processOption(), threadOption()},
      .columns = columns(),
      .needs = {{"HGTX_EVENTS", "HGTX data", "--trace hgtx"}},
      .pie = {"Total Time", {"Range", "Style"}},
      .compute = [](RuleContext& ctx) { return durationSummaryTable(columns(), groupedDurations(ctx)); },
      .groupedDurations = groupedDurations,
      .memoryPerRow = 168,  // bench/rule-peaks.sh 250: 143 MiB
  };
  return rule;
}

}  // namespace asys
