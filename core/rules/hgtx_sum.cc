// hgtx_sum (2.3.13): time per HGTX range name (domain-qualified) and style.
#include <map>
#include <algorithm>
#include <memory>
#include <numeric>
#include <string_view>
#include <utility>

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

// The ranges' durations by group, folded from one scan of HGTX_EVENTS (the
// table is never held whole, 60 bytes an event): each range keeps its
// duration and its group (12 bytes), grouped in place after. A range in a
// domain is grouped by the domain, its name and style while the scan goes,
// as a domain's name may come in a later row, and those groups are merged
// by qualified name after.
struct RangeDurations {
  std::vector<uint32_t> groupOf;
  std::vector<int64_t> values;
  KeyGroups groups;  // key: qualified name id | style << 32 (1: start/end)
};

RangeDurations foldRanges(RuleContext& ctx) {
  Report& report = ctx.report;
  const auto processes = ctx.options.idList("process");
  const auto threads = ctx.options.idList("thread");
  // The rule text: a range counts when its thread matches `thread` or its
  // process matches `process`.
  auto selected = [&](int64_t globalTid) {
    if (!processes && !threads) return true;
    return (processes && inList(processes, pidOf(globalTid))) ||
           (threads && inList(threads, tidOf(globalTid)));
  };

  // Scan groups: key name | style << 32 | (domain index + 1) << 33.
  KeyGroups scanGroups;
  std::map<std::pair<int64_t, int64_t>, uint32_t> domains;  // (pid, domainId) -> index
  std::vector<uint32_t> domainName;                          // by index: the last creation's name
  auto domainOf = [&](int64_t globalTid, int64_t domainId) {
    const auto [it, added] =
        domains.try_emplace({pidOf(globalTid), domainId}, static_cast<uint32_t>(domainName.size()));
    if (added) domainName.push_back(kNoString);
    return it->second;
  };
  RangeDurations out;
  report.scanHgtx([&](size_t, const HgtxEvents& h) {
    for (size_t i = 0; i < h.size(); ++i) {
      if (h.eventType[i] == kHgtxDomainCreate && h.domainId[i] != kNoValue) {
        domainName[domainOf(h.globalTid[i], h.domainId[i])] = h.nameId[i];  // the last creation wins
        continue;
      }
      if (!isRange(h, i) || !selected(h.globalTid[i]) || !ctx.window.overlaps(h.start[i], h.end[i])) continue;
      const uint64_t style = h.eventType[i] == kHgtxPushPop ? 0 : 1;
      const uint64_t domain = h.domainId[i] == kNoValue ? 0 : uint64_t{domainOf(h.globalTid[i], h.domainId[i])} + 1;
      out.groupOf.push_back(scanGroups.indexOf(h.nameId[i] | style << 32 | domain << 33));
      out.values.push_back(h.end[i] - h.start[i]);
    }
  });

  // Each scan group's group: its qualified name and style.
  QualifiedNames qualified(report.strings());
  std::vector<uint32_t> groupOfScanGroup(scanGroups.size());
  for (uint32_t s = 0; s < scanGroups.size(); ++s) {
    const uint64_t key = scanGroups.key(s);
    const uint64_t domain = key >> 33;
    const uint32_t name = qualified.of(domain == 0 ? kNoString : domainName[domain - 1], static_cast<uint32_t>(key));
    groupOfScanGroup[s] = out.groups.indexOf(name | (key & (uint64_t{1} << 32)));
  }
  for (uint32_t& g : out.groupOf) g = groupOfScanGroup[g];
  return out;
}

std::string_view styleText(uint64_t key) { return (key >> 32) ? "StartEnd" : "PushPop"; }

// For a fleet run (RuleSpec::groupedDurations): the groups with their texts
// as ids into a pool of the distinct texts (the two styles, then each range
// name once, though a name may have a group of each style; the names the
// report's own, not copied): 4 bytes a group and column, where a
// std::string a group and column held 32 bytes and a heap block each
// (docs/fleet.md, "Worker memory").
GroupedDurations groupedDurations(RuleContext& ctx) {
  RangeDurations r = foldRanges(ctx);
  GroupedDurations out;
  out.groupOf = std::move(r.groupOf);
  out.values = std::move(r.values);
  out.groupCount = r.groups.size();
  const size_t n = r.groups.size();
  const StringPool& strings = ctx.report.strings();
  out.textPool = TextPool(strings);
  out.textIds.assign(2, std::vector<uint32_t>(n));
  std::vector<uint32_t>&style = out.textIds[0], &name = out.textIds[1];
  const uint32_t pushPop = out.textPool.add(styleText(0));
  const uint32_t startEnd = out.textPool.add(styleText(uint64_t{1} << 32));
  // A name's groups (at most one a style) share its text: each group's
  // first group of the same name, by a sort of the groups by name (4 bytes
  // a group for the moment, no table by the report's string ids).
  {
    std::vector<uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    auto nameOf = [&](uint32_t g) { return static_cast<uint32_t>(r.groups.key(g)); };
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      return nameOf(a) != nameOf(b) ? nameOf(a) < nameOf(b) : a < b;
    });
    for (size_t i = 0; i < n; ++i)
      name[order[i]] = i > 0 && nameOf(order[i]) == nameOf(order[i - 1]) ? name[order[i - 1]] : order[i];
  }
  for (uint32_t g = 0; g < n; ++g) {
    const uint64_t key = r.groups.key(g);
    style[g] = (key >> 32) ? startEnd : pushPop;
    // name[g] is g's first group of its name: added when g is that group.
    name[g] = name[g] == g ? out.textPool.refer(static_cast<uint32_t>(key)) : name[name[g]];
  }
  return out;
}

// The summary as a view: each group's statistics and key (64 bytes a
// group, a million groups on a large report, one a distinct range name),
// its Style and Range made when a row is asked, from the report's names.
Table compute(RuleContext& ctx) {
  RangeDurations r = foldRanges(ctx);
  std::vector<DurationStats> stats = summarizeGroupsInPlace(r.groupOf, r.values, r.groups.size());
  auto keys = std::make_shared<std::vector<uint64_t>>(r.groups.size());
  for (uint32_t g = 0; g < r.groups.size(); ++g) (*keys)[g] = r.groups.key(g);
  r.groups = {};
  const StringPool& strings = ctx.report.strings();
  return durationSummaryView(columns(), std::move(stats), 2, [keys, &strings](size_t c, uint32_t g) {
    const uint64_t key = (*keys)[g];
    return c == 0 ? styleText(key) : strings.get(static_cast<uint32_t>(key));
  });
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
      .compute = compute,
      .groupedDurations = groupedDurations,
      .memoryPerRow = 48,  // bench/rule-peaks.sh 2500: 367 MiB, 42 bytes a row (2026-12-04)
  };
  return rule;
}

}  // namespace asys
