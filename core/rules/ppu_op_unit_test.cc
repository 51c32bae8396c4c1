// ppu_op_unit_test (2.3.30, PPU算子单元测试, experimental in the profiler):
// the PyTorch calls a report recorded (TorchFunction ranges,
// --pytorch=dispatch-function) grouped per operator and argument
// combination as ppu_op_sum groups them, timed from their PPU activities,
// and one runnable Python test per group (unit_test_code.h). The table is
// the list of tests; the file is the table's companion (Table::files).
#include <map>

#include "core/analysis/hgtx_projection.h"
#include "core/base/error.h"
#include "core/report/report.h"
#include "core/rules/common.h"
#include "core/rules/hgtx_association_options.h"
#include "core/rules/op_options.h"
#include "core/rules/op_rows.h"
#include "core/rules/registry.h"
#include "core/rules/unit_test_code.h"
#include "core/operators/torch_function.h"

namespace asys {

namespace {

enum Col : size_t { kTest, kType, kTotal, kPercent, kInstances, kAvg, kMin, kMax, kNotGenerated, kName };

std::vector<ColumnSpec> columns() {
  return {
      {"Test", "", CellKind::Text, "Name of the operator's test in the generated file", ColumnRole::Key},
      {"OP Type", "", CellKind::Text, "PPU operator type"},
      {"Total Time", "ns", CellKind::Int, "Total time of all instances of this operator and argument combination"},
      {"Percent", "%", CellKind::Decimal1, "Percentage of 'Total Time'"},
      {"Instances", "", CellKind::Int, "Number of calls"},
      {"Avg", "ns", CellKind::Int, "Average execution time (what the test prints beside its own)"},
      {"Min", "ns", CellKind::Int, "Smallest execution time"},
      {"Max", "ns", CellKind::Int, "Largest execution time"},
      {"Not Generated", "", CellKind::Text, "Why no test could be generated ('-': the test was generated)"},
      {"OP Name", "", CellKind::Text, "The recorded call (the earliest instance's TorchFunction range)",
       ColumnRole::Attribute},
  };
}

// What a report needs: PPU activities, and the dispatch ranges themselves.
const DataNeed& dispatchNeed() {
  static const DataNeed need{"HGTX_EVENTS", "PyTorch dispatch function ranges ('TorchFunction: ...')",
                             "--trace hgtx --pytorch=dispatch-function"};
  return need;
}

bool hasTorchFunctionText(const StringPool& names) {
  for (uint32_t id = 0; id < names.size(); ++id)
    if (names.get(id).rfind(kTorchFunctionPrefix, 0) == 0) return true;
  return false;
}

Table compute(RuleContext& ctx) {
  OperatorQuery query = operatorQuery(ctx);
  // The PyTorch family alone, and of it the dispatch ranges alone: every
  // other recogniser (a MoE layer outranking the calls inside it, a custom
  // --ppu-op-config rule, autograd ranges nested in a call) would take
  // activities from the calls the tests reproduce.
  query.recognition.enabled.fill(false);
  query.recognition.enabled[static_cast<size_t>(OpFamily::PyTorch)] = true;
  query.recognition.torchFunctionOnly = true;
  query.recognition.custom = nullptr;
  query.levels = false;
  // The rows read the top-level instances and their spans alone, as
  // ppu_op_sum's (op_rows.cc), and the names of their first instances
  // alone: the range texts are read back for those (deferNames), and the
  // test below is told whether the scan met a TorchFunction text.
  query.endsAsDurations = true;
  query.groupsOnly = true;
  query.deferNames = true;
  query.hgtxTextPrefix = kTorchFunctionPrefix;
  OperatorSet ops = buildOperators(ctx.report, std::move(query));
  const StringPool& names = ctx.report.strings();
  if (!ops.hgtxTextPrefixSeen && !hasTorchFunctionText(names)) {
    throw MissingDataError(ctx.report.path() + " does not contain " + dispatchNeed().missingText());
  }
  keepOnlySpans(ops.activities);
  const TopLevelSpans spans = topLevelSpans(ops);
  ops.activities = PpuActivities();
  std::vector<uint32_t>().swap(ops.top);
  const DevicePeaks peaks(ctx.report);
  const OpRows rows = operatorRows(mergedGroupsOf(operatorGroups(ops, spans, peaks, names, &ctx.report)));

  // Names in Total Time order, numbered per operator: mm_1, mm_2, add_Tensor_1.
  // The generated tests come first, then the groups without one.
  std::vector<UnitTestEntry> tests, notGenerated;
  std::vector<const OpRow*> testRows, notGeneratedRows;
  std::map<std::string, int> seen;
  for (uint32_t i : orderRows(rows, "percent")) {
    const OpRow& r = rows.rows[i];
    const std::string_view text = r.name;
    UnitTestEntry e;
    const std::string stem = unitTestStem(text);
    if (!stem.empty()) e.name = stem + "_" + std::to_string(++seen[stem]);
    const std::optional<TorchCall> call = parseTorchFunction(text);
    if (call) {
      e.target = call->head.substr(kTorchFunctionPrefix.size());
      e.code = unitTestCode(e.name, text);
    } else {  // an others kernel (op=others)
      e.target = text;
      e.code.reason = "a kernel no TorchFunction range launched: no call to reproduce";
    }
    e.avg = r.stats.avg;
    e.instances = r.stats.count;
    const bool generated = !e.code.function.empty();
    (generated ? tests : notGenerated).push_back(std::move(e));
    (generated ? testRows : notGeneratedRows).push_back(&r);
  }

  Table t(columns());
  auto emit = [&](const UnitTestEntry& e, const OpRow& r) {
    if (!e.name.empty()) t.setText(kTest, e.name);
    t.setText(kType, r.type);
    t.setInt(kTotal, r.stats.total);
    setPercent(t, kPercent, r.stats.total, rows.totalTime);
    t.setInt(kInstances, r.stats.count);
    t.setInt(kAvg, r.stats.avg);
    t.setInt(kMin, r.stats.min);
    t.setInt(kMax, r.stats.max);
    if (!e.code.reason.empty()) t.setText(kNotGenerated, e.code.reason);
    t.setText(kName, r.name);
    t.endRow();
  };
  for (size_t i = 0; i < tests.size(); ++i) emit(tests[i], *testRows[i]);
  for (size_t i = 0; i < notGenerated.size(); ++i) emit(notGenerated[i], *notGeneratedRows[i]);
  t.addFile("ppu_op_unit_test.py", unitTestFile(tests, notGenerated));
  addOperatorWarnings(t, ops);
  return t;
}

}  // namespace

const RuleSpec& ppuOpUnitTestRule() {
  static const RuleSpec rule{
      .name = "ppu_op_unit_test",
      .title = "PPU Operator Unit Test",
      .titleZh = "PPU算子单元测试（实验特性）",
      .rowHelp = "Row number of the test list",
      .topic = "Operators",
      .description =
          "Generates runnable PyTorch unit tests of the report's operators (experimental):\n"
          "the PyTorch calls recorded as TorchFunction ranges (--pytorch=dispatch-function)\n"
          "grouped per operator and argument combination (arguments of little effect, a\n"
          "tensor's device and requires_grad, ignored unless no-merge-pytorch-parameter),\n"
          "each call timed from its PPU activities (first start to last end). Writes one\n"
          "test per group, in descending Total Time, to <report>_ppu_op_unit_test.py (or\n"
          "the --output path): it builds inputs of the recorded shapes, dtypes, strides and\n"
          "values, calls the recorded torch.ops operator and prints its measured average\n"
          "beside the report's. Run it with python3 FILE [--top N] [--warm-up N]\n"
          "[--repeat N] [--test a,b] [--device DEV] [--list]. The table lists the tests;\n"
          "operators no test can be generated for (a library's own namespace, an argument\n"
          "the report cannot recreate) come last, with the reason, as in the file.",
      .descriptionZh =
          "PPU算子的执行时间统计方式为：\n"
          "每个PPU算子在PPU侧的执行时间为：本算子关联的PPU侧第一个活动开始，到最后一个活动结束的持续时间。\n"
          "PPU算子的执行信息汇总时，若两个PPU算子之间大部分参数相同，仅少量对应能影响较小的参数差异，默认会忽略参数差异，按照相同的PPU算子合并汇总。\n"
          "汇总结果组织如下：每PPU算子参数组合（默认忽略性能影响较小的参数差异），汇总每个算子的执行时间信息，结果按照Total Time列降序逐个生成单元测试代码。\n"
          "注意：部分算子不支持生成单元测试代码，所有PPU算子汇总的单元测试名称在报告尾部列出。\n"
          "运行生成的单元测试示例如下，默认运行所有的单元测试各一次，可通过选项控制运行的用例和次数：\n"
          "python report_ppu_op_unit_test.py --top 3 --warm-up 5 --repeat 5",
      .options = {deviceOption(), rangeIncludeOption(), rangeExcludeOption(), opFilterOption(),
                  noMergeOption("no-merge-pytorch-parameter", "Merge PyTorch parameters", "合并PyTorch算子参数")},
      .columns = columns(),
      .needs = {ppuActivityNeed(), dispatchNeed()},
      .pie = {"Total Time", {"Test", "OP Type"}},
      .sumColumns = {"Total Time", "Percent"},
      .compute = compute,
      .memoryPerRow = 64,  // native peaks 110,724 / 394,408 / 986,600 KiB at scale 250 / 1000 / 2500: 58, 52, 52 bytes a row (2026-12-05)
  };
  return rule;
}

}  // namespace asys
