// hgtx_pushpop_trace (2.3.25): every closed HGTX push/pop range with its
// place in its thread's range stack (level, parent, direct children).
#include <algorithm>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>

#include "core/analysis/hgtx_ranges.h"
#include "core/analysis/hgtx_stacks.h"
#include "core/base/regex.h"
#include "core/report/report.h"
#include "core/rules/registry.h"

namespace asys {

namespace {

std::vector<ColumnSpec> columns() {
  return {
      {"Start", "ns", CellKind::Int, "Range start timestamp"},
      {"End", "ns", CellKind::Int, "Range end timestamp"},
      {"Duration", "ns", CellKind::Int, "Range duration"},
      {"DurChild", "ns", CellKind::Int, "Duration of all child ranges"},
      {"DurNonChild", "ns", CellKind::Int, "Duration of this range minus child ranges"},
      {"Name", "", CellKind::Text, "Name of the HGTX range"},
      {"PID", "", CellKind::Int, "Process ID"},
      {"TID", "", CellKind::Int, "Thread ID"},
      {"Lvl", "", CellKind::Int, "Stack level, starts at 0"},
      {"NumChild", "", CellKind::Int, "Number of children ranges"},
      {"RangeId", "", CellKind::Int, "Arbitrary ID for range"},
      {"ParentId", "", CellKind::Int, "Range ID of the enclosing range"},
      {"RangeStack", "", CellKind::Text, "Range IDs that make up the push/pop stack"},
      {"NameTree", "", CellKind::Text, "Range name prefixed with level indicator"},
  };
}

OptionSpec rangeOption() {
  OptionSpec o{.name = "range", .kind = OptionKind::Regex, .placeholder = "<regex_filter>",
               .label = "Range Name Filter",
               .labelZh = "HGTX range name过滤",
               .help = "Regular expression (Perl-compatible) searched in each range name (domain:name);\n"
                       "only matching ranges are output. Levels, parents and children are still\n"
                       "computed over all ranges. Default is all HGTX ranges.",
               .helpZh = "指定参与统计的HGTX range过滤正则表达式。若不指定，默认统计所有HGTX range。"};
  o.defaultLabel = "All";
  return o;
}

// The trace as a view: the ranges in order (4 bytes a row) over the
// report's HGTX events, which it shares, and the stacks built once; each
// row's cells (a range stack's text is one of its own) made when a page or
// a writer's chunk asks for it, never every row's at once.
class PushPopRows : public RowSource {
 public:
  PushPopRows(std::shared_ptr<const HgtxEvents> events, HgtxStacks stacks, std::vector<uint32_t> nameOf,
              std::vector<uint32_t> rows, const StringPool& strings)
      : h_(std::move(events)),
        s_(std::move(stacks)),
        nameOf_(std::move(nameOf)),
        rows_(std::move(rows)),
        strings_(strings) {}

  size_t rowCount() const override { return rows_.size(); }

  void appendRows(size_t first, size_t count, Table& t) override {
    const HgtxEvents& h = *h_;
    const HgtxStacks& s = s_;
    for (size_t r = first; r < first + count; ++r) {
      const uint32_t i = rows_[r];
      const int64_t duration = h.end[i] - h.start[i];
      t.setEvent(0, EventTable::Hgtx, i);
      t.setInt(0, h.start[i]);
      t.setInt(1, h.end[i]);
      t.setInt(2, duration);
      t.setInt(3, s.durChild[i]);
      t.setInt(4, duration - s.durChild[i]);
      std::string_view name = strings_.get(nameOf_[i]);
      t.setText(5, name);
      t.setInt(6, pidOf(h.globalTid[i]));
      t.setInt(7, tidOf(h.globalTid[i]));
      t.setInt(8, s.level[i]);
      t.setInt(9, s.numChild[i]);
      t.setInt(10, hgtxRangeId(h, i));
      if (s.parent[i] != kNoParent) t.setInt(11, hgtxRangeId(h, s.parent[i]));  // a root's is "-"
      stackText_.clear();
      appendRangeStack(h, s, i, stackText_);
      t.setText(12, stackText_);
      nameTree_.assign(static_cast<size_t>(s.level[i]), '-');
      nameTree_ += name;
      t.setText(13, nameTree_);
      t.endRow();
    }
  }

 private:
  std::shared_ptr<const HgtxEvents> h_;
  HgtxStacks s_;
  std::vector<uint32_t> nameOf_;  // by event: its qualified name (rows' only)
  std::vector<uint32_t> rows_;
  const StringPool& strings_;
  std::string stackText_, nameTree_;
};

Table compute(RuleContext& ctx) {
  Report& report = ctx.report;
  std::shared_ptr<const HgtxEvents> events = report.sharedHgtx();
  const HgtxEvents& h = *events;
  StringPool& strings = report.strings();
  RangeNamer namer(report);
  std::optional<Regex> filter;
  if (auto pattern = ctx.options.value("range")) filter.emplace(*pattern, "range");
  std::unordered_map<uint32_t, bool> matches;  // per qualified name id
  auto nameMatches = [&](uint32_t name) {
    if (!filter) return true;
    auto [it, inserted] = matches.try_emplace(name, false);
    if (inserted) it->second = filter->search(strings.get(name));
    return it->second;
  };

  HgtxStacks s = buildHgtxStacks(h);
  std::vector<uint32_t> rows;
  std::vector<uint32_t> nameOf(h.size(), kNoString);
  for (uint32_t i : s.ranges) {
    if (!ctx.window.overlaps(h.start[i], h.end[i])) continue;
    nameOf[i] = namer.nameId(i);
    if (nameMatches(nameOf[i])) rows.push_back(i);
  }
  // Start ascending; ties as nsys (duration ascending), then thread, then row.
  std::sort(rows.begin(), rows.end(), [&](uint32_t a, uint32_t b) {
    return std::make_tuple(h.start[a], h.end[a] - h.start[a], h.globalTid[a], a) <
           std::make_tuple(h.start[b], h.end[b] - h.start[b], h.globalTid[b], b);
  });
  Table t(columns(), std::make_shared<PushPopRows>(std::move(events), std::move(s), std::move(nameOf),
                                                   std::move(rows), strings));
  t.declareEvents({"HGTX Range"});
  return t;
}

}  // namespace

const RuleSpec& hgtxPushpopTraceRule() {
  static const RuleSpec rule{
      .name = "hgtx_pushpop_trace",
      .title = "HGTX Push/Pop Range Trace",
      .titleZh = "HGTX push pop range跟踪",
      .rowHelp = "Row number of the HGTX range trace",
      .topic = "HGTX",
      .description =
          "Every closed HGTX push/pop range (with or without a domain), sorted by start\n"
          "time ascending, with its thread's range stack when it began: level (from 0),\n"
          "the enclosing range, the stack of range IDs from the root, and its direct\n"
          "children (their number and summed duration; deeper ranges are not counted).\n"
          "A range in a named domain is shown as domain:range.",
      .descriptionZh =
          "HGTX domain push pop range和非domain类型的push pop range均参与统计，HGTX range的堆栈信息取决于HGTX range开始时本线程的HGTX range堆栈状态。\n"
          "对于每个HGTX range，统计结果中的child range指堆栈中本HGTX range嵌套的次级HGTX range，不包含更深层级嵌套的HGTX range。\n"
          "导出结果组织如下：每HGTX range跟踪输出一行数据，按照HGTX range开始时间升序输出。",
      .options = {rangeOption()},
      .columns = columns(),
      .needs = {{"HGTX_EVENTS", "HGTX data", "--trace hgtx"}},
      .pie = {"Duration", {"Name"}},
      .compute = compute,
      .memoryPerRow = 152,  // bench/rule-peaks.sh 250: 129 MiB
  };
  return rule;
}

}  // namespace asys
