// hgtx_pushpop_trace (2.3.25): every closed HGTX push/pop range with its
// place in its thread's range stack (level, parent, direct children).
#include <algorithm>
#include <charconv>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>

#include "core/analysis/hgtx_ranges.h"
#include "core/base/regex.h"
#include "core/report/report.h"
#include "core/rules/registry.h"

namespace asys {

namespace {

constexpr uint32_t kNone = 0xFFFFFFFFu;

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
               .help = "Regular expression (Perl-compatible) searched in each range name (domain:name);\n"
                       "only matching ranges are output. Levels, parents and children are still\n"
                       "computed over all ranges. Default is all HGTX ranges."};
  o.defaultLabel = "All";
  return o;
}

// The stack structure of all closed push/pop ranges, by HGTX event index.
struct Stacks {
  std::vector<uint32_t> ranges;  // event indices of the ranges
  std::vector<uint32_t> parent;  // by event index: parent's event index or kNone
  std::vector<int32_t> level;
  std::vector<int64_t> numChild, durChild;
};

Stacks buildStacks(const HgtxEvents& h) {
  Stacks s;
  for (size_t i = 0; i < h.size(); ++i)
    if (h.eventType[i] == kHgtxPushPop && h.end[i] != kNoValue) s.ranges.push_back(static_cast<uint32_t>(i));
  s.parent.assign(h.size(), kNone);
  s.level.assign(h.size(), 0);
  s.numChild.assign(h.size(), 0);
  s.durChild.assign(h.size(), 0);
  // One sort by (thread, start, longer first, row), then one sweep per thread.
  std::vector<uint32_t> order = s.ranges;
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return std::make_tuple(h.globalTid[a], h.start[a], -h.end[a], a) <
           std::make_tuple(h.globalTid[b], h.start[b], -h.end[b], b);
  });
  std::vector<uint32_t> stack;
  int64_t thread = 0;
  for (uint32_t r : order) {
    if (stack.empty() || h.globalTid[r] != thread) {
      stack.clear();
      thread = h.globalTid[r];
    }
    // The top encloses r when top.start <= r.start (sort order) and
    // r.end <= top.end, and r starts before top ends.
    while (!stack.empty() && (h.end[stack.back()] <= h.start[r] || h.end[stack.back()] < h.end[r])) stack.pop_back();
    if (!stack.empty()) {
      uint32_t p = stack.back();
      s.parent[r] = p;
      s.numChild[p] += 1;
      s.durChild[p] += h.end[r] - h.start[r];
    }
    s.level[r] = static_cast<int32_t>(stack.size());
    stack.push_back(r);
  }
  return s;
}

Table compute(RuleContext& ctx) {
  Report& report = ctx.report;
  const HgtxEvents& h = report.hgtx();
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

  Stacks s = buildStacks(h);
  // RangeId: HGTX_EVENTS.rangeId, or the row's 1-based position when NULL.
  auto rangeId = [&](uint32_t i) { return h.rangeId[i] != kNoValue ? h.rangeId[i] : static_cast<int64_t>(i) + 1; };

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

  Table t(columns());
  std::vector<uint32_t> chain;
  std::string stackText, nameTree;
  for (uint32_t i : rows) {
    const int64_t duration = h.end[i] - h.start[i];
    t.setInt(0, h.start[i]);
    t.setInt(1, h.end[i]);
    t.setInt(2, duration);
    t.setInt(3, s.durChild[i]);
    t.setInt(4, duration - s.durChild[i]);
    std::string_view name = strings.get(nameOf[i]);
    t.setText(5, name);
    t.setInt(6, pidOf(h.globalTid[i]));
    t.setInt(7, tidOf(h.globalTid[i]));
    t.setInt(8, s.level[i]);
    t.setInt(9, s.numChild[i]);
    t.setInt(10, rangeId(i));
    if (s.parent[i] != kNone) t.setInt(11, rangeId(s.parent[i]));  // a root's is "-"
    chain.clear();
    for (uint32_t r = i; r != kNone; r = s.parent[r]) chain.push_back(r);
    stackText.clear();
    for (size_t c = chain.size(); c-- > 0;) {
      char buf[24];
      buf[0] = ':';
      auto [end, ec] = std::to_chars(buf + 1, buf + sizeof buf, rangeId(chain[c]));
      stackText.append(buf, end);
    }
    t.setText(12, stackText);
    nameTree.assign(static_cast<size_t>(s.level[i]), '-');
    nameTree += name;
    t.setText(13, nameTree);
    t.endRow();
  }
  return t;
}

}  // namespace

const RuleSpec& hgtxPushpopTraceRule() {
  static const RuleSpec rule{
      .name = "hgtx_pushpop_trace",
      .title = "HGTX Push/Pop Range Trace",
      .rowHelp = "Row number of the HGTX range trace",
      .topic = "HGTX",
      .description =
          "Every closed HGTX push/pop range (with or without a domain), sorted by start\n"
          "time ascending, with its thread's range stack when it began: level (from 0),\n"
          "the enclosing range, the stack of range IDs from the root, and its direct\n"
          "children (their number and summed duration; deeper ranges are not counted).\n"
          "A range in a named domain is shown as domain:range.",
      .options = {rangeOption()},
      .columns = columns(),
      .needs = {{"HGTX_EVENTS", "HGTX data", "--trace hgtx"}},
      .pie = {"Duration", {"Name"}},
      .compute = compute,
  };
  return rule;
}

}  // namespace asys
