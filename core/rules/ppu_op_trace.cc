// ppu_op_trace (2.3.26, PPU算子跟踪): one row per PPU operator and PPU
// activity, operators by start, each operator's activities by start.
#include <algorithm>
#include <numeric>

#include "core/analysis/memcpy_names.h"
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

Table compute(RuleContext& ctx) {
  Report& report = ctx.report;
  const OperatorSet ops = buildOperators(ctx.report, operatorQuery(ctx), kcol::place);
  const PpuActivities& act = ops.activities;
  const GroupUnions spans = topLevelSpans(ops);
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
    if (spans.count[i] > 0) order.push_back(i);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    if (spans.start[a] != spans.start[b]) return spans.start[a] < spans.start[b];
    if (spans.end[a] != spans.end[b]) return spans.end[a] > spans.end[b];
    return a < b;
  });
  std::vector<uint32_t> offset(ops.size() + 1, 0), members(act.size());
  for (uint32_t t : ops.top)
    if (t != OperatorSet::kNone) ++offset[t + 1];
  for (size_t i = 0; i < ops.size(); ++i) offset[i + 1] += offset[i];
  {
    std::vector<uint32_t> next(offset.begin(), offset.end() - 1);
    for (uint32_t a = 0; a < act.size(); ++a)
      if (ops.top[a] != OperatorSet::kNone) members[next[ops.top[a]]++] = a;
  }

  const int64_t kernelRows = static_cast<int64_t>(k.size()), copyRows = static_cast<int64_t>(copies.size());
  Table t(columns());
  t.declareSpans({"PPU Operator", "Device Activity"});
  int64_t opId = 0;
  for (uint32_t i : order) {
    ++opId;
    const std::string_view type = ops.recognizer.typeName(ops.type[i]), name = strings.get(ops.name[i]);
    for (uint32_t p = offset[i]; p < offset[i + 1]; ++p) {
      const uint32_t a = members[p], row = act.row[a];
      t.setText(kType, type);
      t.setText(kName, name);
      t.setInt(kOpStart, spans.start[i]);
      t.setInt(kOpDuration, spans.end[i] - spans.start[i]);
      t.setInt(kOpId, opId);
      t.setInt(kPid, pidOf(act.globalPid[a]));
      t.setInt(kDevice, act.deviceId[a]);
      t.setInt(kStart, act.start[a]);
      t.setInt(kDuration, act.end[a] - act.start[a]);
      int32_t context = -1, stream = -1;
      switch (act.kind[a]) {
        case ActivityKind::Kernel:
          t.setInt(kActivityId, row + 1);
          context = k.contextId[row];
          stream = k.streamId[row];
          t.setText(kActivityName, strings.get(namer.nameId(row)));
          break;
        case ActivityKind::Memcpy:
          t.setInt(kActivityId, kernelRows + row + 1);
          context = copies.contextId[row];
          stream = copies.streamId[row];
          t.setText(kActivityName, memcpyNames.name(copies.copyKind[row], copies.dstKind[row]));
          break;
        case ActivityKind::Memset:
          t.setInt(kActivityId, kernelRows + copyRows + row + 1);
          context = sets.contextId[row];
          stream = sets.streamId[row];
          t.setText(kActivityName, "Memset");
          break;
      }
      if (context >= 0) t.setInt(kContext, context);
      if (stream >= 0) t.setInt(kStream, stream);
      t.setSpan(0, spans.start[i], spans.end[i]);
      t.setSpan(1, act.start[a], act.end[a]);
      t.endRow();
    }
  }
  addOperatorWarnings(t, ops);
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
  };
  return rule;
}

}  // namespace asys
