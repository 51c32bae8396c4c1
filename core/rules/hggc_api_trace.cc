// hggc_api_trace (2.3.3): one row per HGGC API call, by start time.
#include <algorithm>
#include <numeric>

#include "core/report/report.h"
#include "core/rules/kernel_row_texts.h"
#include "core/rules/registry.h"

namespace asys {

namespace {

std::vector<ColumnSpec> columns() {
  return {
      {"Start", "ns", CellKind::Int, "Timestamp when API call was made"},
      {"Duration", "ns", CellKind::Int, "Length of API calls"},
      {"Name", "", CellKind::Text, "API function name"},
      {"CorrID", "", CellKind::Int, "Correlation used to map to other HGGC traces"},
      {"Pid", "", CellKind::Int, "Process ID that made the call"},
      {"Tid", "", CellKind::Int, "Thread ID that made the call"},
      {"Thread Name", "", CellKind::Text, "Name of thread that called API function"},
  };
}

Table compute(RuleContext& ctx) {
  const ApiCalls& api = ctx.report.hggcApi();
  StringPool& strings = ctx.report.strings();
  const auto& threadNames = ctx.report.threadNames();
  std::vector<uint32_t> rows;
  rows.reserve(api.size());
  for (size_t i = 0; i < api.size(); ++i)
    if (ctx.window.overlaps(api.start[i], openEnd(api.end[i]))) rows.push_back(static_cast<uint32_t>(i));
  // Start ascending; ties by process and thread (globalTid orders as pid,
  // tid), then by the row's order in HGGC_API.
  std::sort(rows.begin(), rows.end(), [&](uint32_t a, uint32_t b) {
    if (api.start[a] != api.start[b]) return api.start[a] < api.start[b];
    if (api.globalTid[a] != api.globalTid[b]) return api.globalTid[a] < api.globalTid[b];
    return a < b;
  });

  Table t(columns());
  int64_t lastTid = kNoValue;
  uint32_t lastName = kNoString;
  for (uint32_t i : rows) {
    t.setInt(0, api.start[i]);
    if (api.end[i] != kNoValue) t.setInt(1, api.end[i] - api.start[i]);
    if (api.nameId[i] != kNoString) t.setText(2, strings.get(api.nameId[i]));
    if (api.correlationId[i] != kNoValue) t.setInt(3, api.correlationId[i]);
    const int64_t gtid = api.globalTid[i];
    if (gtid != kNoValue) {
      t.setInt(4, pidOf(gtid));
      t.setInt(5, tidOf(gtid));
      if (gtid != lastTid) {  // calls come in runs on one thread
        auto it = threadNames.find(gtid);
        lastTid = gtid;
        lastName = it == threadNames.end() ? kNoString : it->second;
      }
      if (lastName != kNoString) t.setText(6, strings.get(lastName));
    }
    t.endRow();
  }
  return t;
}

}  // namespace

const RuleSpec& hggcApiTraceRule() {
  static const RuleSpec rule{
      .name = "hggc_api_trace",
      .title = "HGGC API Trace",
      .titleZh = "HGGC API跟踪",
      .rowHelp = "Row number of the HGGC API trace",
      .topic = "HGGC",
      .description =
          "One row per HGGC API call, sorted by start time ascending: its start,\n"
          "duration, name, correlation ID, process, thread and the thread's name.",
      .descriptionZh =
          "每HGGC API调用导出一行数据，按照API执行时间升序输出。",
      .columns = columns(),
      .needs = {{"HGGC_API", "HGGC API data", "--trace hggc"}},
      .pie = {"Duration", {"Name", "Pid"}},
      .compute = compute,
  };
  return rule;
}

}  // namespace asys
