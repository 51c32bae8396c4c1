// moe_op_sum (2.3.22, MoE算子汇总): MoE layer operators grouped by merged
// parameters: the kernel time of each execution, and the time and
// utilisation of its first and second (expert) GEMM.
#include <algorithm>
#include <numeric>
#include <string_view>
#include <tuple>
#include <unordered_map>

#include "core/analysis/key_groups.h"
#include "core/analysis/kernel_names.h"
#include "core/base/stage_timer.h"
#include "core/rules/common.h"
#include "core/rules/hgtx_association_options.h"
#include "core/rules/op_options.h"
#include "core/rules/op_rows.h"
#include "core/rules/registry.h"

namespace asys {

namespace {

enum Col : size_t {
  kTotal, kPercent, kGemm1Total, kGemm2Total, kInstances, kAvg, kMed, kMin, kMax, kStdDev, kGemm1Compute,
  kGemm2Compute, kGemm1Load, kGemm1Store, kGemm2Load, kGemm2Store, kName
};

std::vector<ColumnSpec> columns() {
  return {
      {"Total Time", "ns", CellKind::Int, "Total time used by all kernel instances of this operator"},
      {"Percent", "%", CellKind::Decimal1, "Percentage of 'Total Time'"},
      {"GEMM1 Total Time", "ns", CellKind::Int, "Total time used by GEMM 1 kernel"},
      {"GEMM2 Total Time", "ns", CellKind::Int, "Total time used by GEMM 2 kernel"},
      {"Instances", "", CellKind::Int, "Number of this MoE operator"},
      {"Avg", "ns", CellKind::Int, "Average execution time of this operator's kernel"},
      {"Med", "ns", CellKind::Int, "Median execution time of this operator's kernel"},
      {"Min", "ns", CellKind::Int, "Smallest execution time of this operator's kernel"},
      {"Max", "ns", CellKind::Int, "Largest execution time of this operator's kernel"},
      {"StdDev", "ns", CellKind::Int, "Standard deviation of the time of this operator's kernel"},
      {"GEMM1 Compute Util", "%", CellKind::Decimal1, "GEMM 1 utilization ratio of PPU compute capability"},
      {"GEMM2 Compute Util", "%", CellKind::Decimal1, "GEMM 2 utilization ratio of PPU compute capability"},
      {"GEMM1 HBM Load Util", "%", CellKind::Decimal1, "GEMM 1 Utilization ratio of PPU HBM load bandwidth"},
      {"GEMM1 HBM Store Util", "%", CellKind::Decimal1, "GEMM 1 Utilization ratio of PPU HBM Store bandwidth"},
      {"GEMM2 HBM Load Util", "%", CellKind::Decimal1, "GEMM 2 Utilization ratio of PPU HBM load bandwidth"},
      {"GEMM2 HBM Store Util", "%", CellKind::Decimal1, "GEMM 2 Utilization ratio of PPU HBM Store bandwidth"},
      {"OP Name", "", CellKind::Text, "Name of the MoE operator"},
  };
}

// A GEMM inside one MoE execution: a GEMM library operator (its kernels'
// time), or a kernel recognised as a GEMM when the layer has none. Its
// work is its instance's or its recogniser op's, read when it is summed
// (32 bytes a GEMM, where the work held was 64).
struct Gemm {
  uint32_t moe;      // MoE layer (moe_op_sum's dense number of its instance)
  uint32_t source;   // the library instance, or with `kernelOp` the kernel's recogniser op
  int64_t start;     // its first activity
  int64_t time = 0;  // kernel time
  int32_t device;
  bool grouped;
  bool kernelOp;
};

// The MoE layers among the instances, numbered densely in instance order: a
// bit an instance and a count before every 64 (a layer's number is its
// rank), not a number by instance (4 bytes an instance; the layers are few).
class DenseMembers {
 public:
  static constexpr uint32_t kNone = OperatorSet::kNone;
  explicit DenseMembers(size_t n) : bits_((n + 63) / 64, 0) {}
  void add(uint32_t i) { bits_[i >> 6] |= uint64_t{1} << (i & 63); }
  // After the last add.
  void index() {
    before_.resize(bits_.size());
    uint32_t count = 0;
    for (size_t w = 0; w < bits_.size(); ++w) {
      before_[w] = count;
      count += static_cast<uint32_t>(__builtin_popcountll(bits_[w]));
    }
  }
  uint32_t rankOf(uint32_t i) const {
    const uint64_t word = bits_[i >> 6], bit = uint64_t{1} << (i & 63);
    if (!(word & bit)) return kNone;
    return before_[i >> 6] + static_cast<uint32_t>(__builtin_popcountll(word & (bit - 1)));
  }

 private:
  std::vector<uint64_t> bits_;
  std::vector<uint32_t> before_;
};

struct MoeRow {
  std::string_view name;
  int64_t firstStart = INT64_MAX;
  int64_t gemmTime[2] = {0, 0};
  UtilisationSum util[2];
};

// The rule's state (RuleSpec::groupedDurations), which merges across the
// reports of ranks (asys fleet, docs/fleet.md): a group per merged
// parameters (text kKeyText) with its instances' kernel times as values and
// as sums the two GEMMs' times and utilisations' exact parts
// (UtilisationSum::appendParts); and per row and report a group naming its
// earliest instance (start a kTime id, name a text; ties: the smaller name).
enum TextCol : size_t { kKeyText, kNameText };
enum IdCol : size_t { kKindId, kStartId };
enum GroupKind : int64_t { kRowGroup = 0, kNameGroup = 1 };
constexpr size_t kGemmTimeSum = 0, kUtilSums = 2;

GroupedDurations groupedDurations(RuleContext& ctx) {
  OperatorQuery query = operatorQuery(ctx);
  query.recognition.custom = nullptr;  // moe_op_sum reads no --ppu-op-config
  query.endsAsDurations = true;
  // A row shows its first layer's name alone: the range texts are read
  // back for the candidates, not held (docs/big-reports.md, "The range texts").
  query.deferNames = true;
  OperatorSet ops = buildOperators(ctx.report, std::move(query));
  const PpuActivities& act = ops.activities;
  const OpRecognizer& rec = ops.recognizer;
  Report& report = ctx.report;
  // The MoE layers among the instances, numbered densely in instance order:
  // what is kept per layer below is kept per layer, not per instance (most
  // instances are no MoE layer).
  constexpr uint32_t kNone = OperatorSet::kNone;
  DenseMembers moeOf(ops.size());
  std::vector<uint32_t> moeInstance, layerName;
  for (uint32_t i = 0; i < ops.size(); ++i) {
    if (rec.info(ops.opOf(i)).family != OpFamily::Moe || ops.level(i) != OpLevel::Framework) continue;
    moeOf.add(i);
    moeInstance.push_back(i);
    layerName.push_back(ops.name[i]);
  }
  moeOf.index();
  // The instances' names are read for the layers alone (taken above), and
  // their device never (a GEMM's is its first kernel's): 8 bytes an
  // instance go before the layers are summed.
  std::vector<uint32_t>().swap(ops.name);
  ops.deviceIndex = SmallIds();
  // The rule's own step (ASYS_PROFILE: its peak apart from the operator set's).
  StageTimer timer("moe_op_sum: layers and rows");
  KernelNamer namer(kernelNamesFor(report, act, KernelNameMode::Demangled), report.strings(), KernelNameMode::Demangled);
  const size_t layers = moeInstance.size();

  // Per MoE layer: its kernel time, start and GEMMs.
  std::vector<int64_t> kernelTime(layers, 0), start(layers, INT64_MAX);
  std::vector<uint8_t> hasKernel(layers, 0), hasGemmOp(layers, 0);
  KeyGroups gemmOf;  // (MoE layer, GEMM library instance) -> gemms index
  std::vector<Gemm> gemms, kernelGemms;
  for (size_t a = 0; a < act.size(); ++a) {
    // A MoE layer is a framework instance, so its activities' top-level one
    // (OperatorSet::frameworkOf): no other instance is a layer.
    const uint32_t t = ops.top[a];
    const uint32_t f = t == kNone ? kNone : moeOf.rankOf(t);
    if (f == kNone) continue;
    start[f] = std::min(start[f], act.start[a]);
    if (act.kindOf(a) != ActivityKind::Kernel) continue;
    const int64_t d = act.endOf(a) - act.start[a];
    kernelTime[f] += d;
    hasKernel[f] = 1;
    const uint32_t l = ops.libraryOf(a);
    if (l != kNone && rec.info(ops.opOf(l)).family == OpFamily::Gemm) {
      const uint32_t g = gemmOf.indexOf((static_cast<uint64_t>(f) << 32) | l);
      if (g == gemms.size()) gemms.push_back({f, l, act.start[a], 0, act.deviceOf(a), rec.info(ops.opOf(l)).groups > 1, false});
      gemms[g].time += d;
      hasGemmOp[f] = 1;
    } else if (l == kNone) {
      const uint32_t op = ops.recognizer.kernel(namer.nameId(act.row[a]));
      if (op != OpRecognizer::kNone && rec.typeName(rec.info(op).type) == kTypeGemm)
        kernelGemms.push_back({f, op, act.start[a], d, act.deviceOf(a), false, true});
    }
  }
  moeOf = DenseMembers(0);
  for (const Gemm& g : kernelGemms)
    if (!hasGemmOp[g.moe]) gemms.push_back(g);
  std::vector<Gemm>().swap(kernelGemms);
  // By layer, each layer's in start order: they were found in start order
  // (a layer's GEMMs are all library operators or all kernels), so a
  // counting sort by layer (stable) orders them as sorting by (layer,
  // start) did, by index instead of moving them.
  std::vector<uint32_t> gemmOrder(gemms.size());
  {
    std::vector<uint32_t> next(layers + 1, 0);
    for (const Gemm& g : gemms) ++next[g.moe + 1];
    for (size_t m = 0; m < layers; ++m) next[m + 1] += next[m];
    for (uint32_t g = 0; g < gemms.size(); ++g) gemmOrder[next[gemms[g].moe]++] = g;
  }
  auto workOf = [&](const Gemm& g) { return g.kernelOp ? rec.info(g.source).work : ops.work(g.source); };

  // Rows by merged parameters.
  const DevicePeaks peaks(report);
  const StringPool& names = report.strings();
  KeyGroups rowOf;
  std::vector<MoeRow> rows;
  std::vector<uint32_t> layerRow(layers, kNone);
  GroupedDurations out;
  for (uint32_t m = 0; m < layers; ++m) {
    if (!hasKernel[m]) continue;
    const uint32_t i = moeInstance[m];
    const uint32_t r = rowOf.indexOf(ops.key(i));
    if (r == rows.size()) rows.emplace_back();
    rows[r].firstStart = std::min(rows[r].firstStart, start[m]);
    layerRow[m] = r;
    out.groupOf.push_back(r);
    out.values.push_back(kernelTime[m]);
  }
  // The earliest layer names the row (smallestFirstNames): only those
  // layers' names are read (a deferred one from the file), all before any
  // is held as a view.
  {
    std::vector<uint32_t> candidateRow, candidateName;
    for (uint32_t m = 0; m < layers; ++m) {
      if (layerRow[m] == kNone || start[m] != rows[layerRow[m]].firstStart) continue;
      candidateRow.push_back(layerRow[m]);
      candidateName.push_back(layerName[m]);
    }
    const std::vector<std::string_view> first =
        smallestFirstNames(&report, names, rows.size(), candidateRow, std::move(candidateName));
    for (size_t r = 0; r < rows.size(); ++r) rows[r].name = first[r];
  }
  // GEMM1 and GEMM2: the layer's first two grouped GEMMs when it has two,
  // else its first two GEMMs.
  for (size_t from = 0; from < gemmOrder.size();) {
    const uint32_t moe = gemms[gemmOrder[from]].moe;
    size_t to = from;
    while (to < gemmOrder.size() && gemms[gemmOrder[to]].moe == moe) ++to;
    const uint32_t r = layerRow[moe];
    size_t grouped = 0;
    for (size_t k = from; k < to; ++k) grouped += gemms[gemmOrder[k]].grouped;
    int taken = 0;
    for (size_t k = from; k < to && taken < 2 && r != OperatorSet::kNone; ++k) {
      const Gemm& g = gemms[gemmOrder[k]];
      if (grouped >= 2 && !g.grouped) continue;
      rows[r].gemmTime[taken] += g.time;
      rows[r].util[taken].add(workOf(g), g.device, g.time, peaks);
      ++taken;
    }
    from = to;
  }
  out.texts.resize(2);
  out.ids = {{IdKind::kPlain, {}}, {IdKind::kTime, {}}};
  out.sums.resize(kUtilSums + 2 * UtilisationSum::kParts);
  for (int64_t kind : {kRowGroup, kNameGroup}) {
    for (uint32_t r = 0; r < rows.size(); ++r) {
      out.texts[kKeyText].emplace_back(rec.keyText(static_cast<uint32_t>(rowOf.key(r))));
      out.ids[kKindId].values.push_back(kind);
      if (kind == kRowGroup) {
        out.texts[kNameText].emplace_back();
        out.ids[kStartId].values.push_back(kNoValue);
        out.sums[kGemmTimeSum].push_back(rows[r].gemmTime[0]);
        out.sums[kGemmTimeSum + 1].push_back(rows[r].gemmTime[1]);
        rows[r].util[0].appendParts(out.sums, kUtilSums);
        rows[r].util[1].appendParts(out.sums, kUtilSums + UtilisationSum::kParts);
      } else {
        out.texts[kNameText].emplace_back(rows[r].name);
        out.ids[kStartId].values.push_back(rows[r].firstStart);
        for (auto& column : out.sums) column.push_back(0);
      }
    }
  }
  out.groupCount = 2 * rows.size();
  Table warnings({});
  addOperatorWarnings(warnings, ops);
  out.warnings = warnings.warnings();
  return out;
}

// The table of the groups, of one report or of many merged.
Table groupsTable(const MergedGroups& g, const RuleOptions&) {
  std::unordered_map<std::string_view, uint32_t> rowOf;
  std::vector<MoeRow> rows;
  std::vector<DurationStats> stats;
  for (size_t i = 0; i < g.size(); ++i) {
    const auto [at, added] = rowOf.try_emplace(g.texts[kKeyText][i], static_cast<uint32_t>(rows.size()));
    if (added) {
      rows.emplace_back();
      stats.emplace_back();
    }
    MoeRow& row = rows[at->second];
    if (g.ids[kKindId].values[i] == kRowGroup) {
      stats[at->second] = g.stats[i];
      row.gemmTime[0] = g.sums[kGemmTimeSum][i];
      row.gemmTime[1] = g.sums[kGemmTimeSum + 1][i];
      row.util[0] = UtilisationSum::ofParts(g.sums, kUtilSums, i);
      row.util[1] = UtilisationSum::ofParts(g.sums, kUtilSums + UtilisationSum::kParts, i);
    } else {
      const int64_t start = g.ids[kStartId].values[i];
      const std::string_view name = g.texts[kNameText][i];
      if (row.name.data() == nullptr || std::tie(start, name) < std::tie(row.firstStart, row.name)) {
        row.firstStart = start;
        row.name = name;
      }
    }
  }
  int64_t sum = 0;
  for (const DurationStats& s : stats) sum += s.total;
  std::vector<uint32_t> order(rows.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    if (stats[a].total != stats[b].total) return stats[a].total > stats[b].total;
    return rows[a].name < rows[b].name;
  });
  Table t(columns());
  for (uint32_t r : order) {
    const DurationStats& s = stats[r];
    const MoeRow& row = rows[r];
    t.setInt(kTotal, s.total);
    setPercent(t, kPercent, s.total, sum);
    t.setInt(kGemm1Total, row.gemmTime[0]);
    t.setInt(kGemm2Total, row.gemmTime[1]);
    t.setInt(kInstances, s.count);
    t.setInt(kAvg, s.avg);
    t.setInt(kMed, s.med);
    t.setInt(kMin, s.min);
    t.setInt(kMax, s.max);
    t.setInt(kStdDev, s.stddev);
    setUtil(t, kGemm1Compute, row.util[0].compute());
    setUtil(t, kGemm2Compute, row.util[1].compute());
    setUtil(t, kGemm1Load, row.util[0].load());
    setUtil(t, kGemm1Store, row.util[0].store());
    setUtil(t, kGemm2Load, row.util[1].load());
    setUtil(t, kGemm2Store, row.util[1].store());
    t.setText(kName, row.name);
    t.endRow();
  }
  return t;
}

}  // namespace

const RuleSpec& moeOpSumRule() {
  static const RuleSpec rule{
      .name = "moe_op_sum",
      .title = "MoE Operator Summary",
      .titleZh = "MoE算子汇总",
      .rowHelp = "Row number of the MoE operator summary",
      .topic = "Operators",
      .description =
          "MoE layer operators (HGTX ranges 'MoE:M_..._E..._H..._In..._topk...' and\n"
          "'D_MoE,M_...'), one row per merged parameter set (topkids and unique ignored\n"
          "unless no-merge-moe-parameter). An execution's time is the sum of the durations\n"
          "of the kernels associated with its range (ppu_op_sum's association; aten:: ops\n"
          "inside the layer stay part of it). GEMM1 / GEMM2: the layer's first and second\n"
          "grouped GEMM library operators (DeepGemm groups > 1, ACBLAS batch > 1) when it\n"
          "has two, else its first and second GEMM operators, else its first two kernels\n"
          "recognised as GEMMs; their time is their kernels' time. GEMM Compute Util =\n"
          "FLOPs / (peak FLOP/s of its data type x time), HBM Load / Store Util = bytes\n"
          "read / written / (HBM bytes/s x time), summed over the executions; '-' when\n"
          "unknown. Percent is of the listed operators' Total Time. Sorted by Total Time\n"
          "descending.",
      .descriptionZh =
          "MoE算子的执行时间统计方式为：\n"
          "每个MoE算子在PPU侧的执行时间为：本算子关联的PPU侧kernel的执行时间累加。\n"
          "统计每个MoE算子的第一个和第二个GEMM算子的执行时间。\n"
          "MoE算子的执行信息汇总时，若两个MoE算子之间大部分参数相同，仅有少量影响较小的参数差异，默认会忽略参数差异，按照相同的MoE算子合并汇总。\n"
          "汇总结果组织如下：每MoE算子参数组合（默认忽略性能影响较小的参数差异），汇总每个算子的执行时间信息，结果按照Total Time列降序输出。\n"
          "GEMM算子的PPU计算能力利用率估算的计算方法为，第一个和第二个GEMM算子的利用率单独计算：\n"
          "本GEMM算子计算量 / (PPU计算每秒峰值能力 * GEMM kernel平均执行时间)\n"
          "GEMM算子的HBM load和store利用率估算的计算方法为：\n"
          "本GEMM算子的数据量 / (HBM每秒峰值吞吐能力 * GEMM kernel平均执行时间)\n"
          "注意“Percent”列是根据“Total Time”列的总和计算得出的，表示该MoE算子总耗时占所有列出的算子耗时总时长的百分比，而不是根据应用执行时间得到的百分比。",
      .options = {deviceOption(), rangeIncludeOption(), rangeExcludeOption(), graphMappingOption(),
                  noMergeOption("no-merge-moe-parameter", "Merge MoE parameters", "合并MoE算子参数")},
      .columns = columns(),
      .needs = operatorNeeds(),
      .pie = {"Total Time", {"OP Name"}},
      .sumColumns = {"Total Time", "Percent"},
      .compute = [](RuleContext& ctx) { return groupsRuleTable(moeOpSumRule(), ctx); },
      .groupedDurations = groupedDurations,
      .groupsTable = groupsTable,
      .memoryPerRow = 104,  // 865,372 / 104,124 KiB at scale 2500 / 250: 85.7, 103.1 bytes a row (2026-12-06, texts9)
  };
  return rule;
}

}  // namespace asys
