// hggc_api_trace (2.3.3): one row per HGGC API call, by start time.
#include <algorithm>
#include <numeric>
#include <unordered_map>

#include "core/report/report.h"
#include "core/report/row_pages.h"
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

// The trace as a view: the calls in order (4 bytes a row); each page's
// cells read from the file when it is written (ApiPages). The order's
// columns (start, end, thread) are the ones the rule loaded while the
// report keeps them, so a page reads only the name and correlation id: a
// second read of all five was a quarter of the rule's CPU at scale 2500.
// Once the report has released them (the viewer's timeline may), a page
// reads all five.
class ApiTraceRows : public RowSource {
 public:
  ApiTraceRows(RuleContext& ctx, std::vector<uint32_t> rows, PagingMode mode)
      : rows_(std::move(rows)),
        report_(ctx.report),
        loaded_(mode == PagingMode::Loaded),
        pages_(hggcApiPages(ctx.report, kShown, mode)),
        restPages_(hggcApiPages(ctx.report, kShown & ~kOrder, PagingMode::Paged)),
        strings_(ctx.report.strings()),
        threadNames_(ctx.report.threadNames()) {}

  size_t rowCount() const override { return rows_.size(); }

  void appendRows(size_t first, size_t count, Table& t) override {
    const ApiCalls* order =
        !loaded_ && (report_.loadedHggcApiColumns() & kOrder) == kOrder ? &report_.hggcApi(kOrder) : nullptr;
    ApiPages& pages = order ? restPages_ : pages_;
    pages.forEachRow(first, count, kChunkRows, [&](size_t r) { return rows_[r]; },
                     [&](size_t r) { appendRow(rows_[r], pages, order, t); });
  }

 private:
  static constexpr uint32_t kOrder = acol::start | acol::end | acol::globalTid;
  static constexpr uint32_t kShown = kOrder | acol::nameId | acol::correlationId;

  // `order`: the report's start, end and thread columns (indexed by call),
  // or null when `pages` holds them too.
  void appendRow(uint32_t call, const ApiPages& pages, const ApiCalls* order, Table& t) {
    const auto [api, i] = pages.at(call);
    const ApiCalls& o = order ? *order : *api;
    const size_t at = order ? call : i;
    t.setEvent(0, EventTable::Api, call);
    t.setInt(0, o.start[at]);
    if (o.end[at] != kNoValue) t.setInt(1, o.end[at] - o.start[at]);
    if (api->nameId[i] != kNoString) t.setTextOf(2, strings_, api->nameId[i]);
    if (api->correlationId[i] != kNoValue) t.setInt(3, api->correlationId[i]);
    const int64_t gtid = o.globalTid[at];
    if (gtid != kNoValue) {
      t.setInt(4, pidOf(gtid));
      t.setInt(5, tidOf(gtid));
      if (gtid != lastTid_) {  // calls come in runs on one thread
        auto it = threadNames_.find(gtid);
        lastTid_ = gtid;
        lastName_ = it == threadNames_.end() ? kNoString : it->second;
      }
      if (lastName_ != kNoString) t.setTextOf(6, strings_, lastName_);
    }
    t.endRow();
  }

  std::vector<uint32_t> rows_;
  Report& report_;
  bool loaded_;         // pages_ holds every row (PagingMode::Loaded)
  ApiPages pages_;      // kShown
  ApiPages restPages_;  // kShown without the order's columns
  const StringPool& strings_;
  std::unordered_map<int64_t, uint32_t> threadNames_;
  int64_t lastTid_ = kNoValue;
  uint32_t lastName_ = kNoString;
};

Table compute(RuleContext& ctx) {
  // The order's and the window's columns; the rest is read a page at a time.
  const ApiCalls& api = ctx.report.hggcApi(acol::start | acol::end | acol::globalTid);
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
  const PagingMode mode = pagingMode(api.size(), rows.size(), kChunkRows, [&](size_t r) { return rows[r]; });
  Table t(columns(), std::make_shared<ApiTraceRows>(ctx, std::move(rows), mode));
  t.declareEvents({"API Call"});
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
      .memoryPerRow = 48,  // bench/rule-peaks.sh 250: 47 MiB
  };
  return rule;
}

}  // namespace asys
