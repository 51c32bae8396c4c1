#include "core/rules/common.h"

#include <algorithm>
#include <memory>
#include <numeric>

#include "core/analysis/grouped_values.h"
#include "core/base/error.h"
#include "core/report/report.h"

namespace asys {

OptionSpec rowsOption(const std::string& what, int64_t defaultLimit) {
  const std::string d = std::to_string(defaultLimit);
  OptionSpec o{.name = "rows", .kind = OptionKind::Int, .placeholder = "<limit>",
               .label = "Maximum number of results",
               .labelZh = "展示结果的最大行数",
               .help = "Maximum number of " + what + " to output" +
                       (defaultLimit < 0 ? ". Default is no limit (-1)." : " (-1 for no limit). Default is " + d + "."),
               // 2.3.7 rows=<limit>; 2.3.13 Maximum number of results.
               .helpZh = "限制输出结果的条数。\n" +
                         (defaultLimit < 0 ? std::string("默认为-1，表示无上限。") : "默认为" + d + "，-1表示无上限。")};
  o.defaultValue = d;
  o.defaultLabel = defaultLimit < 0 ? "-1 (no limit)" : d;
  o.defaultLabelZh = defaultLimit < 0 ? "-1（无上限）" : d;
  o.minValue = -1;
  return o;
}

OptionSpec deviceOption() {
  OptionSpec o{.name = "device", .kind = OptionKind::IdList, .placeholder = "<device_list>",
               .label = "PPU Devices",
               .labelZh = "PPU device过滤器",
               .help = "PPU device IDs to include, separated by '/' (e.g. device=0/1).\n"
                       "Default is all PPU devices.",
               .helpZh = "指定统计的PPU device ID列表，多个PPU device ID之间通过/分割。若不指定，默认统计所有PPU device。"};
  o.defaultLabel = "All";
  return o;
}

OptionSpec kernelNameModeOption() {
  OptionSpec o{.name = "name-mode", .kind = OptionKind::ExclusiveFlags, .label = "Kernel Name Mode",
               .labelZh = "Kernel Name的展示模式",
               .help = "Kernel name to group and print by. Default is the demangled name.",
               .helpZh = "Kernel Name的展示模式。\n默认导出HGGC Kernel的名称为demangle之后的名称。"};
  o.defaultLabel = "Demangled";
  // The documentation keeps the modes' names (Base, Mangled, Demangled) in
  // its Chinese text too; their help is its wording.
  o.flags = {
      {.name = "base", .label = "Base", .help = "Use the kernel's short name (function name only, no parameters).",
       .helpZh = "使用kernel的短名称（仅函数名，不包含参数）进行统计和输出。"},
      {.name = "mangled", .label = "Mangled", .help = "Use the kernel's mangled name.",
       .helpZh = "使用kernel的mangled名称进行统计和输出。"},
  };
  return o;
}

OptionSpec hgtxNameOption() {
  return {.name = "hgtx-name", .kind = OptionKind::Flag, .label = "Add HGTX name as a prefix",
          .labelZh = "名字前拼接最接近kernel launch的HGTX名称",
          .help = "Prefix each kernel's name with the innermost HGTX range around its launch\n"
                  "call on the launching thread, joined by '/'.",
          .helpZh = "kernel名字前通过/拼接最接近kernel launch的HGTX range名称。"};
}

OptionSpec processOption() {
  OptionSpec o{.name = "process", .kind = OptionKind::IdList, .placeholder = "<pid_list>",
               .label = "Processes",
               .labelZh = "指定统计的进程",
               .help = "Process IDs to include, separated by '/'. Default is all processes.",
               .helpZh = "指定统计的进程的PID列表，多个PID之间通过/分割。若不指定，默认统计所有进程。"};
  o.defaultLabel = "All";
  return o;
}

OptionSpec threadOption() {
  OptionSpec o{.name = "thread", .kind = OptionKind::IdList, .placeholder = "<tid_list>",
               .label = "Threads",
               .labelZh = "指定统计的线程",
               .help = "Thread IDs to include, separated by '/'. Default is all threads.\n"
                       "With process= too, a range counts if its thread or its process matches.",
               .helpZh = "指定统计的线程的TID列表，多个TID之间通过/分割。若不指定，默认统计所有线程。\n"
                         "若通过process/thread选项指定统计范围，线程匹配thread过滤条件或者所属进程匹配process过滤条件，均参与统计。"};
  o.defaultLabel = "All";
  return o;
}

KernelNameMode kernelNameMode(const RuleOptions& options) {
  auto v = options.value("name-mode");
  if (v == "base") return KernelNameMode::Base;
  if (v == "mangled") return KernelNameMode::Mangled;
  return KernelNameMode::Demangled;
}

DataNeed ppuActivityNeed() {
  return {.table = "HGGC_KERNEL", .what = "HGGC kernel, memcpy or memset data", .collection = "--trace hggc",
          .alternatives = {"HGGC_MEMCPY", "HGGC_MEMSET"}};
}

bool inList(const std::optional<std::vector<int64_t>>& list, int64_t id) {
  return !list || std::find(list->begin(), list->end(), id) != list->end();
}

std::vector<ColumnSpec> durationSummaryColumns(const std::string& countColumn,
                                               const std::string& countHelp,
                                               const std::string& subject,
                                               const std::string& totalHelp) {
  return {
      {"Time", "%", CellKind::Decimal1, "Percentage of 'Total Time'"},
      {"Total Time", "ns", CellKind::Int, totalHelp},
      {countColumn, "", CellKind::Int, countHelp},
      {"Avg", "ns", CellKind::Int, "Average execution time of this " + subject},
      {"Med", "ns", CellKind::Int, "Median execution time of this " + subject},
      {"Min", "ns", CellKind::Int, "Smallest execution time of this " + subject},
      {"Max", "ns", CellKind::Int, "Largest execution time of this " + subject},
      {"StdDev", "ns", CellKind::Int, "Standard deviation of the time of this " + subject},
  };
}

Table durationSummaryTable(std::vector<ColumnSpec> columns, GroupedDurations groups) {
  return durationSummaryTable(std::move(columns), mergedGroupsOf(std::move(groups)));
}

Table durationSummaryTable(std::vector<ColumnSpec> columns, const MergedGroups& groups) {
  std::vector<std::vector<std::string_view>> texts;
  for (const auto& column : groups.texts) texts.emplace_back(column.begin(), column.end());
  return durationSummaryTable(std::move(columns), groups.stats, texts);
}

MergedGroups mergedGroupsOf(GroupedDurations groups) {
  MergedGroups out;
  if (groups.valuesAreSpanLengths) {
    // The values read from the spans, grouped once with them.
    SpanGroupStats s = summarizeSpanGroupsInPlace(groups.groupOf, groups.spans, groups.groupCount);
    out.stats = std::move(s.stats);
    out.covered = std::move(s.covered);
  } else {
    // The spans' unions first: the spans (16 bytes and their group 4, a
    // value of hgtx_ppu_proj_sum's in a fleet state) go before the
    // statistics (56 bytes a group) are made beside the values. Neither
    // reads the other.
    if (!groups.spans.empty()) {
      const SpanGroups blocks(std::move(groups.spanGroup), std::move(groups.spans), groups.groupCount);
      out.covered.resize(groups.groupCount);
      for (size_t g = 0; g < groups.groupCount; ++g) out.covered[g] = totalLength(blocks.group(g));
    } else {
      out.covered.assign(groups.groupCount, 0);
    }
    if (groups.grouped.groups() != groups.groupCount) {
      // Values listed by group, not grouped yet: grouped in place (no copy).
      out.stats = summarizeGroupsInPlace(groups.groupOf, groups.values, groups.groupCount);
      std::vector<uint32_t>().swap(groups.groupOf);
      std::vector<int64_t>().swap(groups.values);
    } else {
      out.stats = summarizeEach(groups.grouped);
      groups.grouped = GroupedValues();
    }
  }
  out.texts = std::move(groups.texts);
  for (const std::vector<uint32_t>& column : groups.textIds) {  // texts by id: made whole for the table
    std::vector<std::string>& texts = out.texts.emplace_back();
    texts.reserve(column.size());
    for (uint32_t id : column) texts.emplace_back(groups.textPool.get(id));
  }
  out.ids = std::move(groups.ids);
  out.sums = std::move(groups.sums);
  return out;
}

void renumberIds(std::vector<IdColumn>& ids, std::span<const std::pair<int64_t, int64_t>> pids,
                 std::span<const std::pair<int64_t, int64_t>> devices, int64_t timeShift,
                 int64_t kernelRowShift) {
  auto changed = [](std::span<const std::pair<int64_t, int64_t>> changes, int64_t id) {
    for (const auto& [from, to] : changes)  // a report's changes: a few ids
      if (from == id) return to;
    return id;
  };
  for (IdColumn& column : ids) {
    for (int64_t& v : column.values) {
      if (v == kNoValue) continue;
      switch (column.kind) {
        case IdKind::kPid: v = changed(pids, v); break;
        case IdKind::kDevice:
          if (v >= 0) v = changed(devices, v);
          break;
        case IdKind::kThread: {
          const int64_t pid = (v >> 24) & 0xFFFFFF;
          v = (v & ~(static_cast<int64_t>(0xFFFFFF) << 24)) | (changed(pids, pid) << 24);
          break;
        }
        case IdKind::kTime: v += timeShift; break;
        case IdKind::kKernelRow: v += kernelRowShift; break;
        default: break;  // kPlain; the other kinds are no group's key
      }
    }
  }
}

Table tableOfGroups(const RuleSpec& rule, const MergedGroups& groups, const RuleOptions& options) {
  if (rule.groupsTable) return rule.groupsTable(groups, options);
  return durationSummaryTable(rule.columns, groups);
}

Table groupsRuleTable(const RuleSpec& rule, RuleContext& ctx) {
  GroupedDurations groups = rule.groupedDurations(ctx);
  const std::vector<std::string> warnings = std::move(groups.warnings);
  Table t = tableOfGroups(rule, mergedGroupsOf(std::move(groups)), ctx.options);
  for (const std::string& w : warnings) t.addWarning(w);
  return t;
}

std::vector<uint32_t> textRanks(const std::vector<std::string>& texts) {
  std::vector<uint32_t> order(texts.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return texts[a] < texts[b]; });
  std::vector<uint32_t> rank(texts.size());
  uint32_t r = 0;
  for (size_t i = 0; i < order.size(); ++i) {
    if (i > 0 && texts[order[i]] != texts[order[i - 1]]) ++r;
    rank[order[i]] = r;
  }
  return rank;
}

namespace {

// Groups by total time descending, then by the text columns ascending, the
// last (the name) first.
template <typename Total, typename Text>
std::vector<uint32_t> summaryOrderBy(size_t groups, Total total, size_t textColumns, Text text) {
  std::vector<uint32_t> order(groups);
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    if (total(a) != total(b)) return total(a) > total(b);
    for (size_t c = textColumns; c-- > 0;) {
      const std::string_view ta = text(c, a), tb = text(c, b);
      if (ta != tb) return ta < tb;
    }
    return false;
  });
  return order;
}

template <typename Text>
std::vector<uint32_t> summaryOrder(const std::vector<DurationStats>& stats, size_t textColumns, Text text) {
  return summaryOrderBy(stats.size(), [&](uint32_t g) { return stats[g].total; }, textColumns, text);
}

int64_t totalOf(const std::vector<DurationStats>& stats) {
  int64_t sum = 0;
  for (const auto& s : stats) sum += s.total;
  return sum;
}

// One summary row: Time (%) over `sum`, the statistics, then the texts.
template <typename Text>
void appendSummaryRow(Table& t, const DurationStats& s, int64_t sum, size_t textColumns, Text text) {
  t.setDecimal(0, percent1(s.total, sum));
  t.setInt(1, s.total);
  t.setInt(2, s.count);
  t.setInt(3, s.avg);
  t.setInt(4, s.med);
  t.setInt(5, s.min);
  t.setInt(6, s.max);
  t.setInt(7, s.stddev);
  for (size_t c = 0; c < textColumns; ++c) t.setText(8 + c, text(c));
  t.endRow();
}

class DurationSummaryRows : public RowSource {
 public:
  DurationSummaryRows(std::vector<DurationStats> stats, size_t textColumns, GroupText text)
      : stats_(std::move(stats)), textColumns_(textColumns), text_(std::move(text)) {
    order_ = summaryOrder(stats_, textColumns_, text_);
    sum_ = totalOf(stats_);
  }
  DurationSummaryRows(std::vector<DurationStats> stats, size_t textColumns, GroupText text, std::vector<uint32_t> order)
      : stats_(std::move(stats)), textColumns_(textColumns), text_(std::move(text)), order_(std::move(order)) {
    if (order_.size() != stats_.size()) throw Error("a duration summary's order has another size than its groups");
    sum_ = totalOf(stats_);
  }
  size_t rowCount() const override { return order_.size(); }
  bool textsRepeat() const override { return false; }  // a row is a group, named by its own texts
  // The rows' groups come in total-time order, scattered over the groups'
  // statistics and texts (hgtx_sum's: 338 k names in 35 MB on the fleet's
  // bench): each row's look-ups miss the cache. They are made first for all
  // the rows asked, a short loop whose rows do not wait on one another (the
  // misses overlap), and each text's bytes are prefetched a few rows before
  // they are copied: the fleet's hgtx_sum CSV spent a third of its write
  // waiting there, row after row (docs/fleet.md, item 28).
  void appendRows(size_t first, size_t count, Table& t) override {
    // In blocks of kBlock rows, so that the look-ups' memory stays small
    // when a whole view is made into a table (materialize: every row asked).
    constexpr size_t kBlock = 4096, kAhead = 8;
    const size_t cols = textColumns_;
    std::vector<std::string_view> texts(std::min(count, kBlock) * cols);
    std::vector<const DurationStats*> stats(std::min(count, kBlock));
    for (size_t at = first, end = first + count; at < end; at += kBlock) {
      const size_t n = std::min(kBlock, end - at);
      for (size_t i = 0; i < n; ++i) {
        const uint32_t g = order_[at + i];
        stats[i] = &stats_[g];
        for (size_t c = 0; c < cols; ++c) texts[i * cols + c] = text_(c, g);
      }
      for (size_t i = 0; i < n; ++i) {
        if (i + kAhead < n) {
          for (size_t c = 0; c < cols; ++c) __builtin_prefetch(texts[(i + kAhead) * cols + c].data());
          __builtin_prefetch(stats[i + kAhead]);
        }
        appendSummaryRow(t, *stats[i], sum_, cols, [&](size_t c) { return texts[i * cols + c]; });
      }
    }
  }

 private:
  std::vector<DurationStats> stats_;
  size_t textColumns_;
  GroupText text_;
  std::vector<uint32_t> order_;
  int64_t sum_ = 0;
};

}  // namespace

Table durationSummaryTable(std::vector<ColumnSpec> columns, const std::vector<DurationStats>& stats,
                           const std::vector<std::vector<std::string_view>>& texts) {
  auto text = [&](size_t c, uint32_t g) { return texts[c][g]; };
  const std::vector<uint32_t> order = summaryOrder(stats, texts.size(), text);
  const int64_t sum = totalOf(stats);
  Table t(std::move(columns));
  for (uint32_t g : order) appendSummaryRow(t, stats[g], sum, texts.size(), [&](size_t c) { return texts[c][g]; });
  return t;
}

Table durationSummaryView(std::vector<ColumnSpec> columns, std::vector<DurationStats> stats, size_t textColumns,
                          GroupText text) {
  return Table(std::move(columns), std::make_shared<DurationSummaryRows>(std::move(stats), textColumns, std::move(text)));
}

std::vector<uint32_t> durationSummaryOrder(const std::vector<int64_t>& totals, size_t textColumns, const GroupText& text) {
  return summaryOrderBy(totals.size(), [&](uint32_t g) { return totals[g]; }, textColumns, text);
}

Table durationSummaryView(std::vector<ColumnSpec> columns, std::vector<DurationStats> stats, size_t textColumns,
                          GroupText text, std::vector<uint32_t> order) {
  return Table(std::move(columns), std::make_shared<DurationSummaryRows>(std::move(stats), textColumns, std::move(text),
                                                                         std::move(order)));
}

}  // namespace asys
