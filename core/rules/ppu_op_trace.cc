// ppu_op_trace (2.3.26, PPU算子跟踪): one row per PPU operator and PPU
// activity, operators by start, each operator's activities by start.
#include <algorithm>
#include <numeric>

#include "core/analysis/memcpy_names.h"
#include "core/report/row_pages.h"
#include "core/rules/common.h"
#include "core/rules/hgtx_association_options.h"
#include "core/rules/op_options.h"
#include "core/rules/registry.h"

namespace asys {

namespace {

enum Col : size_t {
  kType, kName, kOpStart, kOpDuration, kOpId, kActivityId, kPid, kDevice, kContext, kStream, kStart, kDuration,
  kActivityName
};

// The example's columns (output-conventions.md: they win over the list).
std::vector<ColumnSpec> columns() {
  return {
      {"OP Type", "", CellKind::Text, "PPU operator type"},
      {"OP Name", "", CellKind::Text, "Name of the PPU operator"},
      {"OP Start", "ns", CellKind::Int, "Start timestamp of PPU operator"},
      {"OP Duration", "ns", CellKind::Int, "Duration of PPU operator"},
      {"OP ID", "", CellKind::Int, "Identifier of the PPU operator in this trace (1 = the first to start)"},
      {"Activity ID", "", CellKind::Int,
       "Identifier of the PPU activity: its row in HGGC_KERNEL, after the kernels its row in HGGC_MEMCPY, then "
       "HGGC_MEMSET"},
      {"PID", "", CellKind::Int, "Process identifier"},
      {"Device ID", "", CellKind::Int, "PPU device identifier"},
      {"Context ID", "", CellKind::Int, "Context identifier"},
      {"Stream ID", "", CellKind::Int, "Stream identifier"},
      {"Activity Start", "ns", CellKind::Int, "Start timestamp of the PPU activity"},
      {"Activity Duration", "ns", CellKind::Int, "Duration of the PPU activity"},
      {"Activity Name", "", CellKind::Text, "Name of the PPU activity (kernel, memcpy or memset)"},
  };
}

// The trace as a view: the operators in order, each one's activities (4
// bytes a row), and what a row shows of its activity that the operator set
// does not hold (context, stream, name: 12 bytes an activity); a chunk's
// cells are made when a writer or the viewer asks. The report's kernel and
// memory tables are not referred to, so releasing them leaves the view whole.
class OpTraceRows : public RowSource {
 public:
  OpTraceRows(OperatorSet ops, TopLevelSpans spans, std::vector<uint32_t> order, std::vector<size_t> firstRow,
              std::vector<uint32_t> members, std::vector<int32_t> context, std::vector<int32_t> stream,
              std::vector<uint32_t> nameOf, int64_t kernelRows, int64_t copyRows, const StringPool& strings)
      : ops_(std::move(ops)),
        spans_(std::move(spans)),
        order_(std::move(order)),
        firstRow_(std::move(firstRow)),
        members_(std::move(members)),
        context_(std::move(context)),
        stream_(std::move(stream)),
        nameOf_(std::move(nameOf)),
        kernelRows_(kernelRows),
        copyRows_(copyRows),
        strings_(strings) {}

  size_t rowCount() const override { return members_.size(); }
  const OperatorSet& operators() const { return ops_; }

  void appendRows(size_t first, size_t count, Table& t) override {
    if (count == 0) return;
    const PpuActivities& act = ops_.activities;
    // Each row's operator, by its place in order_.
    GroupedRows walk(firstRow_, first);
    for (size_t r = first; r < first + count; ++r) {
      const size_t o = walk.groupOf(r);
      const uint32_t i = order_[o], a = members_[r], row = act.row[a];
      t.setText(kType, ops_.recognizer.typeName(ops_.type(i)));
      t.setText(kName, strings_.get(ops_.name[i]));
      t.setInt(kOpStart, spans_.start[i]);
      t.setInt(kOpDuration, spans_.end[i] - spans_.start[i]);
      t.setInt(kOpId, static_cast<int64_t>(o) + 1);
      t.setInt(kPid, pidOf(act.globalPid[a]));
      t.setInt(kDevice, act.deviceId[a]);
      t.setInt(kStart, act.start[a]);
      t.setInt(kDuration, act.endOf(a) - act.start[a]);
      // Activity ids number kernels, then memcpys, then memsets.
      switch (act.kind[a]) {
        case ActivityKind::Kernel: t.setInt(kActivityId, row + 1); break;
        case ActivityKind::Memcpy: t.setInt(kActivityId, kernelRows_ + row + 1); break;
        case ActivityKind::Memset: t.setInt(kActivityId, kernelRows_ + copyRows_ + row + 1); break;
      }
      if (context_[a] >= 0) t.setInt(kContext, context_[a]);
      if (stream_[a] >= 0) t.setInt(kStream, stream_[a]);
      t.setText(kActivityName, strings_.get(nameOf_[a]));
      t.setSpan(0, spans_.start[i], spans_.end[i]);
      t.setSpan(1, act.start[a], act.endOf(a));
      t.setEvent(0, eventTableOf(act.kind[a]), row);
      t.endRow();
    }
  }

 private:
  OperatorSet ops_;
  TopLevelSpans spans_;
  std::vector<uint32_t> order_;
  std::vector<size_t> firstRow_;  // by place in order_, and one past the last
  std::vector<uint32_t> members_;
  std::vector<int32_t> context_, stream_;  // by activity; -1: NULL
  std::vector<uint32_t> nameOf_;           // by activity: a report string id
  int64_t kernelRows_, copyRows_;
  const StringPool& strings_;
};

Table compute(RuleContext& ctx) {
  Report& report = ctx.report;
  OperatorQuery query = operatorQuery(ctx);
  query.levels = false;  // each activity's row is its top-level operator's
  query.processes = true;  // its PID column
  query.endsAsDurations = true;
  OperatorSet ops = buildOperators(ctx.report, std::move(query), kcol::place);
  const PpuActivities& act = ops.activities;
  TopLevelSpans spans = topLevelSpans(ops);
  const Kernels& k = report.kernels(kcol::place);
  const MemoryOps& copies = report.memcpys();
  const MemoryOps& sets = report.memsets();
  StringPool& strings = report.strings();
  KernelNamer namer(kernelNamesFor(report, act, KernelNameMode::Demangled), strings, KernelNameMode::Demangled);
  MemcpyNames memcpyNames(report);

  // Operators by start (an enclosing one before those it holds: longer
  // first), then by instance; each one's activities in start order.
  std::vector<uint32_t> order;
  for (uint32_t i = 0; i < ops.size(); ++i)
    if (spans.has(i)) order.push_back(i);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    if (spans.start[a] != spans.start[b]) return spans.start[a] < spans.start[b];
    if (spans.end[a] != spans.end[b]) return spans.end[a] > spans.end[b];
    return a < b;
  });
  // The PPU active time is no column of the trace.
  std::vector<int64_t>().swap(spans.active);
  // The rows in order: operator by operator, each one's activities (in
  // start order). Each instance's first row is counted by instance, then
  // turned into its place in `order`, and the activities placed there
  // directly (no list by instance copied into order after).
  std::vector<uint32_t> members;
  std::vector<size_t> firstRow(order.size() + 1, 0);
  {
    std::vector<uint32_t> next(ops.size(), 0);  // by instance: its activities, then its next row
    for (uint32_t t : ops.top)
      if (t != OperatorSet::kNone) ++next[t];
    size_t row = 0;
    for (size_t o = 0; o < order.size(); ++o) {
      firstRow[o] = row;
      const uint32_t count = next[order[o]];
      next[order[o]] = static_cast<uint32_t>(row);
      row += count;
    }
    firstRow[order.size()] = row;
    members.resize(row);
    for (uint32_t a = 0; a < act.size(); ++a)
      if (ops.top[a] != OperatorSet::kNone) members[next[ops.top[a]]++] = a;
  }

  // Each activity's context, stream and name, taken now from the tables.
  std::vector<int32_t> context(act.size(), -1), stream(act.size(), -1);
  std::vector<uint32_t> nameOf(act.size(), kNoString);
  const uint32_t memsetName = strings.intern("Memset");
  for (uint32_t a : members) {
    const uint32_t row = act.row[a];
    switch (act.kind[a]) {
      case ActivityKind::Kernel:
        context[a] = k.contextId[row];
        stream[a] = k.streamId[row];
        nameOf[a] = namer.nameId(row);
        break;
      case ActivityKind::Memcpy:
        context[a] = copies.contextId[row];
        stream[a] = copies.streamId[row];
        nameOf[a] = strings.intern(memcpyNames.name(copies.copyKind[row], copies.dstKind[row]));
        break;
      case ActivityKind::Memset:
        context[a] = sets.contextId[row];
        stream[a] = sets.streamId[row];
        nameOf[a] = memsetName;
        break;
    }
  }

  const int64_t kernelRows = static_cast<int64_t>(k.size()), copyRows = static_cast<int64_t>(copies.size());
  auto rows = std::make_shared<OpTraceRows>(std::move(ops), std::move(spans), std::move(order), std::move(firstRow),
                                            std::move(members), std::move(context), std::move(stream),
                                            std::move(nameOf), kernelRows, copyRows, strings);
  Table t(columns(), rows);
  t.declareSpans({"PPU Operator", "Device Activity"});
  t.declareEvents({"Device Activity"});
  addOperatorWarnings(t, rows->operators());
  return t;
}

}  // namespace

const RuleSpec& ppuOpTraceRule() {
  static const RuleSpec rule{
      .name = "ppu_op_trace",
      .title = "PPU Operator Trace",
      .titleZh = "PPU算子跟踪",
      .rowHelp = "Row number of the PPU operator trace",
      .topic = "Operators",
      .description = std::string(
                         "One row per PPU operator and PPU activity (kernel, memcpy, memset): the\n"
                         "operators of ppu_op_sum (each activity in its top-level operator), by start,\n"
                         "each operator's activities by start. OP Start / OP Duration: the operator's\n"
                         "first activity's start to its last one's end. OP Name is the operator's own\n"
                         "name (not merged); a flash attention prefill paired with its decode reads\n"
                         "'PREFILL + DECODE'. Each row carries the spans 'PPU Operator' and 'Device\n"
                         "Activity' for a timeline.\n") +
                     kCustomRulesHelp,
      .descriptionZh = std::string(
              "PPU算子的执行时间统计方式为：\n"
              "每个PPU算子在PPU侧的执行时间为：本算子关联的PPU侧第一个活动开始，到最后一个活动结束的持续时间\n"
              "跟踪导出结果组织如下：每PPU算子、每PPU活动输出一行数据，按照PPU算子开始时间升序排列，相同PPU算子内的PPU活动按照活动起始时间升序排列。\n") +
          kCustomRulesHelpZh,
      .options = {deviceOption(), rangeIncludeOption(), rangeExcludeOption(), opFilterOption(),
                  noMergeOption("no-merge-flash-attention-prefill-decode-operator",
                                "Merge flash attention prefill decode operators",
                                "合并flash attention的prefill和decode算子"),
                  parseFromOption()},
      .globalOptions = {"ppu-op-config"},
      .columns = columns(),
      .needs = operatorNeeds(),
      .pie = {"Activity Duration", {"OP Type", "OP Name"}},
      .compute = compute,
      .memoryPerRow = 152,  // scale 2500: 1,489 MiB, 151 bytes a row (2026-12-05, ops4; bench/README.md)
  };
  return rule;
}

}  // namespace asys
