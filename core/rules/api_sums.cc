// hggc_api_sum (2.3.2) and osrt_sum (2.3.14): time per API name on the host.
#include "core/analysis/chunk_duration.h"
#include "core/analysis/key_groups.h"
#include "core/report/report.h"
#include "core/rules/common.h"
#include "core/rules/registry.h"

namespace asys {

namespace {

std::vector<ColumnSpec> apiColumns() {
  auto cols = durationSummaryColumns("Num Calls", "Number of calls to this function", "function",
                                     "Total time used by all executions of this function");
  cols.push_back({"Name", "", CellKind::Text, "Name of the function"});
  return cols;
}

// Calls are folded a chunk of rows at a time, as `forEachChunk` hands them
// over: a call costs its group and its duration (12 bytes), not its table's
// columns held whole (HGGC_API's 7: 0.32x the report at 10.8 M calls).
template <class ForEachChunk>
GroupedDurations apiGroups(ForEachChunk forEachChunk, uint64_t expectedCalls, StringPool& strings,
                           const TimeWindow& window) {
  KeyGroups groups;
  GroupedDurations out;
  std::vector<uint32_t>& groupOf = out.groupOf;
  std::vector<int64_t>& duration = out.values;
  groupOf.reserve(expectedCalls);
  duration.reserve(expectedCalls);
  forEachChunk([&](const ApiCalls& calls, size_t) {
    for (size_t i = 0; i < calls.size(); ++i) {
      // A call cut off by the end of the capture has no duration to count.
      if (calls.end[i] == kNoValue || !window.overlaps(calls.start[i], calls.end[i])) continue;
      groupOf.push_back(groups.indexOf(calls.nameId[i]));
      duration.push_back(chunkDuration(calls.start[i], calls.end[i]));
    }
  });
  out.groupCount = groups.size();
  auto& names = out.texts.emplace_back(groups.size());
  for (uint32_t g = 0; g < groups.size(); ++g) names[g] = strings.get(static_cast<uint32_t>(groups.key(g)));
  return out;
}

GroupedDurations hggcApiGroups(RuleContext& ctx) {
  Report& report = ctx.report;
  return apiGroups([&](const Report::ApiChunk& chunk) {
                     report.forEachHggcApiChunk(acol::start | acol::end | acol::nameId, chunk);
                   },
                   report.rowEstimate("HGGC_API"), report.strings(), ctx.window);
}
// OSRT_API is small (the host's system calls): loaded whole, one chunk.
GroupedDurations osrtApiGroups(RuleContext& ctx) {
  return apiGroups([&](const Report::ApiChunk& chunk) { chunk(ctx.report.osrtApi(), 0); },
                   ctx.report.osrtApi().size(), ctx.report.strings(), ctx.window);
}

}  // namespace

const RuleSpec& hggcApiSumRule() {
  static const RuleSpec rule{
      .name = "hggc_api_sum",
      .title = "HGGC API Summary",
      .titleZh = "HGGC API汇总",
      .rowHelp = "Row number of the HGGC API summary",
      .topic = "HGGC",
      .description =
          "Time spent in each HGGC API function, summed over all calls of the same name,\n"
          "sorted by total time descending. Time (%) is the share of the listed functions'\n"
          "total time, not of the application's run time.",
      .descriptionZh =
          "按照每HGGC API名称级别进行统计，累加相同名称API的耗时时间，按照API总耗时降序输出。\n"
          "注意“Time”列是根据“Total Time”列的总和计算得出的，表示该函数占所有列出函数执行时间的百分比，而不是根据应用执行时间得到的百分比。",
      .columns = apiColumns(),
      .needs = {{"HGGC_API", "HGGC API data", "--trace hggc"}},
      .pie = {"Total Time", {"Name"}},
      .compute = [](RuleContext& ctx) { return durationSummaryTable(apiColumns(), hggcApiGroups(ctx)); },
      .groupedDurations = hggcApiGroups,
      .memoryPerRow = 16,  // a group and a duration a call (12 bytes): 136 MiB at scale 2500
  };
  return rule;
}

const RuleSpec& osrtSumRule() {
  static const RuleSpec rule{
      .name = "osrt_sum",
      .title = "OS Runtime Summary",
      .titleZh = "OSRT API汇总",
      .rowHelp = "Row number of the OS runtime summary",
      .topic = "OS runtime",
      .description =
          "Time spent in each OS runtime (OSRT) API function, summed over all calls of the\n"
          "same name, sorted by total time descending. Time (%) is the share of the listed\n"
          "functions' total time, not of the application's run time.",
      .descriptionZh =
          "按照每OSRT API名称级别进行统计，累加相同名称API的耗时时间，按照API总耗时降序输出。\n"
          "注意“Time”列是根据“Total Time”列的总和计算得出的，表示该函数占所有列出函数执行时间的百分比，而不是根据应用执行时间得到的百分比。",
      .columns = apiColumns(),
      .needs = {{"OSRT_API", "OS runtime API data", "--trace osrt"}},
      .pie = {"Total Time", {"Name"}},
      .compute = [](RuleContext& ctx) { return durationSummaryTable(apiColumns(), osrtApiGroups(ctx)); },
      .groupedDurations = osrtApiGroups,
  };
  return rule;
}

}  // namespace asys
