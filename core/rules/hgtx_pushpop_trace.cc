// hgtx_pushpop_trace (2.3.25): every closed HGTX push/pop range with its
// place in its thread's range stack (level, parent, direct children).
#include <optional>
#include <string>
#include <unordered_map>

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

// The trace as a view over its range list (PushPopRanges: 32 bytes a
// range, folded from one scan of HGTX_EVENTS, never the table whole), which
// is in the rows' order; `rows` the ranges shown when the window or the
// name filter leaves some out (4 bytes a row), else empty. Each row's cells
// (a range stack's text is one of its own) are made when a page or a
// writer's chunk asks for them, never every row's at once.
class PushPopRows : public RowSource {
 public:
  PushPopRows(PushPopRanges ranges, std::vector<uint32_t> rows, const StringPool& strings)
      : r_(std::move(ranges)), rows_(std::move(rows)), strings_(strings) {}

  size_t rowCount() const override { return rows_.empty() ? r_.size() : rows_.size(); }

  void appendRows(size_t first, size_t count, Table& t) override {
    const PushPopRanges& r = r_;
    for (size_t row = first; row < first + count; ++row) {
      const size_t k = rows_.empty() ? row : rows_[row];
      const int64_t duration = r.duration.get(k), durChild = r.durChild.get(k);
      const int32_t level = r.level(k);
      t.setEvent(0, EventTable::Hgtx, r.event[k]);
      t.setInt(0, r.start[k]);
      t.setInt(1, r.start[k] + duration);
      t.setInt(2, duration);
      t.setInt(3, durChild);
      t.setInt(4, duration - durChild);
      const std::string_view name = strings_.get(r.name[k]);
      t.setText(5, name);
      const int64_t globalTid = r.globalTid(k);
      t.setInt(6, pidOf(globalTid));
      t.setInt(7, tidOf(globalTid));
      t.setInt(8, level);
      t.setInt(9, r.numChild[k]);
      t.setInt(10, r.rangeId(k));
      if (const uint32_t parent = r.parent(k); parent != kNoParent) t.setInt(11, r.rangeId(parent));  // a root's is "-"
      stackText_.clear();
      r.appendStack(k, stackText_);
      t.setText(12, stackText_);
      nameTree_.assign(static_cast<size_t>(level), '-');
      nameTree_ += name;
      t.setText(13, nameTree_);
      t.endRow();
    }
  }

 private:
  PushPopRanges r_;
  std::vector<uint32_t> rows_;  // positions in r_; empty: every range
  const StringPool& strings_;
  std::string stackText_, nameTree_;
};

Table compute(RuleContext& ctx) {
  Report& report = ctx.report;
  StringPool& strings = report.strings();
  std::optional<Regex> filter;
  if (auto pattern = ctx.options.value("range")) filter.emplace(*pattern, "range");
  PushPopRangeBuilder builder(strings);
  report.scanHgtx(hcol::ranges | hcol::rangeId,
                  [&](size_t first, const HgtxEvents& chunk) { builder.add(first, chunk); });
  PushPopRanges ranges = builder.finish();

  // Levels, parents and children are over every range; the rows are those
  // in the time window whose name the filter finds.
  std::unordered_map<uint32_t, bool> matches;  // per qualified name id
  auto nameMatches = [&](uint32_t name) {
    if (!filter) return true;
    auto [it, inserted] = matches.try_emplace(name, false);
    if (inserted) it->second = filter->search(strings.get(name));
    return it->second;
  };
  std::vector<uint32_t> rows;
  if (filter || !ctx.window.isAll()) {
    for (uint32_t k = 0; k < ranges.size(); ++k)
      if (ctx.window.overlaps(ranges.start[k], ranges.end(k)) && nameMatches(ranges.name[k])) rows.push_back(k);
    if (rows.empty()) ranges = {};  // no row (an empty list means every range)
    if (rows.size() == ranges.size()) std::vector<uint32_t>().swap(rows);  // every range: no list
  }
  Table t(columns(), std::make_shared<PushPopRows>(std::move(ranges), std::move(rows), strings));
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
      .memoryPerRow = 56,  // bench/rule-peaks.sh 2500: 491 MiB, 56 bytes a row (2026-12-04)
  };
  return rule;
}

}  // namespace asys
