#include "core/rules/hgtx_association_options.h"

#include "core/rules/common.h"

namespace asys {

OptionSpec standaloneOption() {
  return {.name = "standalone", .kind = OptionKind::Flag, .label = "Include Standalone Kernel",
          .labelZh = "导出未匹配到任何HGTX的kernel",
          .help = "Also output the HGGC kernels that no selected HGTX range is associated with;\n"
                  "their HGTX range cells are '-'.",
          .helpZh = "导出结果包含未关联任何HGTX range的HGGC kernel。\n此类kernel导出的HGTX相关信息为非法值。"};
}

OptionSpec graphMappingOption() {
  OptionSpec o{.name = "no-graph-mapping", .kind = OptionKind::Flag, .label = "HGTX graph node mapping",
               .labelZh = "投影HGGC graph capture阶段HGTX到PPU侧",
               .help = "Do not associate ranges with the activities of HGGC graph nodes created inside\n"
                       "them (during stream capture); only with the activities their own API calls\n"
                       "launched. By default both count.",
               .helpZh = "是否投影HGGC graph capture阶段HGTX到PPU侧（通过在HGTX range范围内创建的HGGC graph node建立与PPU侧到关联）。"
                         "默认值为“Yes”。\n"
                         "no-graph-mapping：若指定，不再映射HGGC graph创建阶段的HGTX到HGGC graph执行阶段。"};
  o.inverted = true;
  return o;
}

namespace {
OptionSpec rangeListOption(const char* name, const char* label, const char* labelZh, const char* what,
                           const char* listZh) {
  OptionSpec o{.name = name, .kind = OptionKind::RegexList, .placeholder = "<regex_list>", .label = label,
               .labelZh = labelZh,
               .help = std::string("Regular expressions (Perl-compatible) separated by '/', searched in each HGTX\n"
                                   "range name (domain:name); ") +
                       what +
                       ".\nWrite a '/' inside one regex as '\\/'. Default is all HGTX ranges.",
               .helpZh = std::string("指定参与统计的HGTX range过滤正则表达式") + listZh +
                         "，多个正则表达式之间通过/分割。若不指定，默认统计所有HGTX range。"};
  o.defaultLabel = "All";
  return o;
}
}  // namespace

OptionSpec rangeIncludeOption() {
  return rangeListOption("range-include", "Range Name Filter", "HGTX range name过滤",
                         "only ranges that match at least one take part", "白名单");
}

OptionSpec rangeExcludeOption() {
  return rangeListOption("range-exclude", "Range Name Exclude Filter", "HGTX range name排除过滤", "ranges that match any are left out",
                         "黑名单");
}

OptionSpec rangeModeOption() {
  OptionSpec o{.name = "range-mode", .kind = OptionKind::Choice, .placeholder = "<mode>", .label = "Time Range Mode",
               .labelZh = "统计时间范围的模式",
               .help = "The PPU time range that In-Use is a share of:\n"
                       "  active: from the first to the last PPU activity of the selected devices\n"
                       "          (PPU Active Time Range, the default);\n"
                       "  full:   the statistics time range (--filter-time / --filter-hgtx), else the\n"
                       "          report's whole capture range (Filtered Time Range).",
               .helpZh = "PPU侧统计时间范围的选择模式，支持active和full模式。\n"
                         "active：默认模式，时间范围从第一个PPU活动开始，到最后一个PPU活动结束截止。\n"
                         "full：时间范围选取为用户指定的统计时间范围，若没有指定统计时间范围，则统计报告整体的时间范围。"};
  o.choices = {"active", "full"};
  o.defaultValue = "active";
  o.defaultLabel = "PPU Active Time Range";
  return o;
}

std::vector<DataNeed> associationNeeds(bool memoryToo) {
  std::vector<DataNeed> needs = {{"HGTX_EVENTS", "HGTX data", "--trace hgtx"}};
  needs.push_back(memoryToo ? ppuActivityNeed() : DataNeed{"HGGC_KERNEL", "HGGC kernel data", "--trace hggc"});
  needs.push_back({"HGGC_API", "HGGC API data", "--trace hggc"});
  return needs;
}

AssociatedActivities associateForRule(RuleContext& ctx, bool memoryToo, uint32_t kernelColumns,
                                      AssociationFilters filters) {
  ActivitySelection sel;
  sel.kernelColumns = kernelColumns;
  sel.memory = memoryToo;
  sel.devices = ctx.options.idList("device");
  if (!filters.wholeCapture) sel.window = ctx.window;
  sel.keepKernel = std::move(filters.keepKernel);
  sel.chunkColumns = filters.kernelChunkColumns;
  sel.onKernelChunk = std::move(filters.onKernelChunk);
  sel.durationsOnly = filters.durationsOnly;
  sel.startsOnly = filters.startsOnly;
  sel.processes = filters.processes;
  sel.spansOnly = filters.spansOnly;
  // A spansOnly list holds no row: no one reads a memory operation's row
  // after it is made, so HGGC_MEMCPY and HGGC_MEMSET (loaded for it) go
  // once it is read, not held through the association and the rule.
  sel.releaseMemoryOps = filters.spansOnly;
  sel.endsAsDurations = filters.endsAsDurations;
  sel.kernelTag = std::move(filters.kernelTag);
  RangeSelection ranges = rangeSelection(ctx.options);
  ranges.keepRange = std::move(filters.keepRange);
  ranges.keepNamedRange = std::move(filters.keepNamedRange);
  ranges.keepOwnName = std::move(filters.keepOwnName);
  ranges.releaseEvents = filters.releaseEvents;
  ranges.rangeIds = filters.rangeIds;
  ranges.chosen = std::move(filters.rangesChosen);
  ranges.sweepOnly = filters.sweepOnly;
  ranges.eventsInChosenOnly = filters.eventsInChosenOnly;
  ranges.startAfterSweep = filters.startAfterSweep;
  ranges.threadAfterSweep = filters.threadAfterSweep;
  ranges.narrowSpansAfterSweep = filters.narrowSpansAfterSweep;
  ranges.callValuesByActivity = filters.callValuesByActivity;
  ranges.alsoScan = std::move(filters.alsoScan);
  ranges.afterScan = std::move(filters.afterScan);
  return associateActivities(ctx.report, std::move(sel), std::move(ranges));
}

RangeSelection rangeSelection(const RuleOptions& options) {
  RangeSelection ranges;
  ranges.graphMapping = !options.flag("no-graph-mapping");
  if (auto v = options.value("range-include")) ranges.include = compileRegexList(*v, "range-include");
  if (auto v = options.value("range-exclude")) ranges.exclude = compileRegexList(*v, "range-exclude");
  return ranges;
}

void addAssociationWarnings(Table& t, const AssociatedActivities& a) {
  const std::string warning = unlaunchedWarning(a.unlaunched, a.memoryToo);
  if (!warning.empty()) t.addWarning(warning);
}

}  // namespace asys
