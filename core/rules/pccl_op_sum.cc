// pccl_op_sum (2.3.23): PCCL operators (HGTX operator annotations) merged
// across devices by communicator, type, element count and data type, with
// the time their kernels really transferred and the bandwidth that gives.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>

#include "core/analysis/key_groups.h"
#include "core/analysis/pccl_kernels.h"
#include "core/analysis/pccl_operators.h"
#include "core/analysis/stats.h"
#include "core/base/string_pool.h"
#include "core/report/report.h"
#include "core/rules/common.h"
#include "core/rules/hgtx_association_options.h"
#include "core/rules/registry.h"

namespace asys {

namespace {

enum Col : size_t { kTrans, kPercent, kTotal, kInstances, kMask, kSize, kBandwidth, kName };

std::vector<ColumnSpec> columns() {
  return {
      {"Trans Time", "ns", CellKind::Int, "Transmission time used by all kernel instances of this operator"},
      {"Trans Percent", "%", CellKind::Decimal1, "Percentage of actual transmission time relative to 'Total Time'"},
      {"Total Time", "ns", CellKind::Int, "Total time used by all kernel instances of this operator"},
      {"Instances", "", CellKind::Int, "Number of grouped transmission of this PCCL operator"},
      {"Device Mask", "", CellKind::Text, "PPU device mask of this PCCL operator"},
      {"Trans Size", "bytes", CellKind::Int, "Total transmission data size of this operator"},
      {"Trans Bandwidth", "B/s", CellKind::Int, "Transmission bandwidth"},
      {"OP Name", "", CellKind::Text, "Name of the PCCL operator"},
  };
}

constexpr uint32_t kNotOperator = 0xFFFFFFFFu;
constexpr uint32_t kUnparsed = 0xFFFFFFFEu;

// An operator key's transfer (from the first text of the key).
struct KeyRow {
  PcclTransfer transfer;
};

// "0xF": the mask in upper-case hexadecimal, no leading zeros.
std::string hexMask(const std::vector<uint64_t>& mask) {
  static const char kDigits[] = "0123456789ABCDEF";
  std::string out = "0x";
  bool started = false;
  for (size_t w = mask.size(); w-- > 0;) {
    for (int shift = 60; shift >= 0; shift -= 4) {
      const unsigned digit = (mask[w] >> shift) & 0xF;
      if (!started && digit == 0) continue;
      started = true;
      out += kDigits[digit];
    }
  }
  if (!started) out += '0';
  return out;
}

// Operator ranges by their text: parsed once per distinct text; texts of
// one merge key share a row.
class OperatorRows {
 public:
  explicit OperatorRows(const StringPool& strings) : strings_(strings) {}
  uint32_t rowOf(uint32_t text) {
    if (text == kNoString) return kNotOperator;
    if (text >= rowOfText_.size()) rowOfText_.resize(std::max<size_t>(text + 1, strings_.size()), kUnparsed);
    uint32_t& row = rowOfText_[text];
    if (row != kUnparsed) return row;
    const std::optional<PcclOperator> op = parsePcclOperator(strings_.get(text));
    if (!op) return row = kNotOperator;
    key_.assign(op->hash).append("\x1f").append(op->type).append("\x1f").append(op->count).append("\x1f").append(op->dataType);
    const uint32_t id = keys_.intern(key_);
    if (id == rows.size()) rows.push_back({pcclTransfer(*op)});
    return row = id;
  }
  std::string_view keyText(uint32_t row) const { return keys_.get(row); }
  std::vector<KeyRow> rows;

 private:
  const StringPool& strings_;
  std::vector<uint32_t> rowOfText_;
  StringPool keys_;
  std::string key_;
};

// The rule's state (RuleSpec::groupedDurations), which merges across the
// reports of ranks (asys fleet, docs/fleet.md): every group names its
// operator row by the row's key text (communicator, type, count, data type),
// and is one of
enum GroupKind : int64_t {
  kExecution = 0,  // execution k of a collective (id kExecutionIndex): a value per participating device, its time
  kPointToPoint,   // a point-to-point row's executions: sums kTimeSum and kExecutions
  kMaskDevice,     // a device that took part (id kDeviceId, renumbered as asys merge does)
  kFirstRange,     // the report's earliest operator range of the row (text kTextName; ids kStart..kEvent)
};
// Execution k of a key pairs the k-th range of every device, and a device
// belongs to one report: the ranks' executions k are one group, as in the
// merged report, whatever the report. The earliest range of a row in the
// merged report is the least (start, later end first, report, HGTX event)
// of the reports' earliest (the merged report's slot order; the report's
// place is its first kernel's position in the merged HGGC_KERNEL, kKernelRow:
// a report with an operator range has PCCL kernels).
enum IdCol : size_t { kKind, kExecutionIndex, kDeviceId, kStart, kEnd, kOrigin, kEvent };
enum TextCol : size_t { kTextKey, kTextName };
enum SumCol : size_t { kTimeSum, kExecutions };

GroupedDurations groupedDurations(RuleContext& ctx) {
  Report& report = ctx.report;
  StringPool& strings = report.strings();
  OperatorRows ops(strings);
  // No table is held whole: the association reads HGGC_KERNEL, HGGC_API and
  // HGTX_EVENTS a chunk at a time and keeps only the PCCL kernels and the
  // operator ranges (docs/result-views.md). The classifier reads each
  // chunk's kernel names as the activity list is made.
  PcclKernelClassifier classifier(strings);
  const Kernels* chunk = nullptr;
  size_t chunkFirst = 0;
  // The operator ranges' own names (the text an operator is parsed from; the
  // chosen names are domain-qualified), by HGTX event, as they are found.
  std::vector<std::pair<uint32_t, uint32_t>> ownName;

  // Operator ranges and PCCL kernels only. Over the whole capture: instance k
  // pairs the k-th operators of each device, which a time range cutting one
  // device's collective but not another's would misalign; the range selects
  // participants below.
  AssociationFilters filters;
  filters.kernelChunkColumns = kcol::shortName | kcol::demangledName;
  filters.onKernelChunk = [&](const Kernels& k, size_t first) {
    chunk = &k;
    chunkFirst = first;
  };
  filters.keepKernel = [&](uint32_t row) {
    return classifier.isPccl(chunk->shortName[row - chunkFirst], chunk->demangledName[row - chunkFirst]);
  };
  // Refused by its own name as found: the other ranges are not held while
  // they wait for their domain's name (every range after the first in a
  // domain waits).
  filters.keepOwnName = [&](uint32_t own) { return ops.rowOf(own) != kNotOperator; };
  filters.keepNamedRange = [&](uint32_t event, const RangeNaming& naming) {
    if (ops.rowOf(naming.own) == kNotOperator) return false;
    ownName.emplace_back(event, naming.own);
    return true;
  };
  filters.wholeCapture = true;
  filters.releaseEvents = true;
  filters.processes = false;
  filters.endsAsDurations = true;
  AssociatedActivities in = associateForRule(ctx, /*memoryToo=*/false, 0, std::move(filters));
  const PpuActivities& act = in.activities;
  const AssociationRanges& R = in.association.ranges;
  // Asked in event order; sorted all the same, as the lookup needs it.
  std::sort(ownName.begin(), ownName.end());
  auto ownNameOf = [&](uint32_t event) {
    return std::lower_bound(ownName.begin(), ownName.end(), std::pair<uint32_t, uint32_t>{event, 0})->second;
  };
  const ActivitiesByRange byRange = activitiesByRange(in.association);

  GroupedDurations out;
  out.texts.resize(2);
  out.ids = {{IdKind::kPlain, {}}, {IdKind::kPlain, {}}, {IdKind::kDevice, {}}, {IdKind::kTime, {}},
             {IdKind::kTime, {}}, {IdKind::kKernelRow, {}}, {IdKind::kPlain, {}}};
  out.sums.resize(2);
  auto newGroup = [&](GroupKind kind, uint32_t row) {
    out.texts[kTextKey].emplace_back(ops.keyText(row));
    out.texts[kTextName].emplace_back();
    for (IdColumn& c : out.ids) c.values.push_back(kNoValue);
    out.ids[kKind].values.back() = kind;
    for (auto& c : out.sums) c.push_back(0);
    return static_cast<uint32_t>(out.groupCount++);
  };

  KeyGroups perDevice, executionKeys, maskKeys;
  std::vector<uint32_t> nextIndex;   // by (row, device): the k of its next operator range
  std::vector<uint32_t> executionGroup, maskGroup;  // by executionKeys / maskKeys index
  std::vector<uint32_t> pointGroup, firstGroup;     // by row
  struct Participant {
    int32_t device;
    int64_t time;
    bool inWindow;
  };
  std::vector<Participant> parts;  // of one range, reused
  // Ranges in slot (start) order, so the k-th range of a device is its k-th by start.
  for (uint32_t r = 0; r < R.size(); ++r) {
    const auto activities = byRange.of(r);
    if (activities.empty()) continue;
    const uint32_t name = ownNameOf(R.event[r]);
    const uint32_t rowId = ops.rowOf(name);
    const bool collective = ops.rows[rowId].transfer.kind == PcclOpKind::Collective;
    if (rowId >= pointGroup.size()) {
      pointGroup.resize(ops.rows.size(), kNotOperator);
      firstGroup.resize(ops.rows.size(), kNotOperator);
    }
    // One participant per device the range's kernels ran on.
    parts.clear();
    for (uint32_t a : activities) {
      auto p = std::find_if(parts.begin(), parts.end(), [&](const Participant& x) { return x.device == act.deviceId[a]; });
      if (p == parts.end()) {
        parts.push_back({act.deviceId[a], 0, false});
        p = parts.end() - 1;
      }
      p->time += act.endOf(a) - act.start[a];
      p->inWindow = p->inWindow || ctx.window.overlaps(act.start[a], act.endOf(a));
    }
    for (const Participant& p : parts) {
      if (collective) {
        const uint32_t d = perDevice.indexOf((static_cast<uint64_t>(rowId) << 32) | static_cast<uint32_t>(p.device));
        if (d == nextIndex.size()) nextIndex.push_back(0);
        const uint32_t k = nextIndex[d]++;
        if (!p.inWindow) continue;
        const uint32_t e = executionKeys.indexOf((static_cast<uint64_t>(rowId) << 32) | k);
        if (e == executionGroup.size()) {
          executionGroup.push_back(newGroup(kExecution, rowId));
          out.ids[kExecutionIndex].values.back() = k;
        }
        out.groupOf.push_back(executionGroup[e]);
        out.values.push_back(p.time);
      } else {
        // Point to point: each execution is an instance of its own.
        if (!p.inWindow) continue;
        if (pointGroup[rowId] == kNotOperator) pointGroup[rowId] = newGroup(kPointToPoint, rowId);
        out.sums[kTimeSum][pointGroup[rowId]] += p.time;
        ++out.sums[kExecutions][pointGroup[rowId]];
      }
      const uint32_t m = maskKeys.indexOf((static_cast<uint64_t>(rowId) << 32) | static_cast<uint32_t>(p.device));
      if (m == maskGroup.size()) {
        maskGroup.push_back(newGroup(kMaskDevice, rowId));
        out.ids[kDeviceId].values.back() = p.device;
      }
      if (firstGroup[rowId] == kNotOperator) {
        const uint32_t g = firstGroup[rowId] = newGroup(kFirstRange, rowId);
        out.texts[kTextName][g] = strings.get(name);
        out.ids[kStart].values[g] = R.start[r];
        out.ids[kEnd].values[g] = R.end(r);
        out.ids[kOrigin].values[g] = 0;
        out.ids[kEvent].values[g] = R.event[r];
      }
    }
  }
  if (classifier.unclassified() > 0) out.warnings.push_back(unclassifiedPcclWarning(classifier.unclassified()));
  // PCCL kernels in the time range that no launching call ties to a range.
  in.unlaunched = 0;
  for (size_t a = 0; a < act.size(); ++a)
    if (in.association.launchCall[a] == kNoMatch && in.association.rangesOf(a).empty() &&
        ctx.window.overlaps(act.start[a], act.endOf(a)))
      ++in.unlaunched;
  if (const std::string w = unlaunchedWarning(in.unlaunched, in.memoryToo); !w.empty()) out.warnings.push_back(w);
  return out;
}

// One output row: the operators of one key, and what they add up to.
struct Row {
  PcclTransfer transfer;
  std::string_view name;  // the earliest operator range's
  int64_t trans = 0, total = 0, instances = 0, bytes = 0;
  bool bytesKnown = true;
  std::vector<uint64_t> mask;  // participating device ids as bits
  void addDevice(int64_t device) {
    if (device < 0) return;
    const size_t word = static_cast<size_t>(device) / 64;
    if (word >= mask.size()) mask.resize(word + 1, 0);
    mask[word] |= 1ull << (device % 64);
  }
  void addBytes(int64_t b, int64_t times) {
    if (b < 0) bytesKnown = false;
    else bytes += b * times;
  }
};

Table groupsTable(const MergedGroups& g, const RuleOptions&) {
  const auto& kind = g.ids[kKind].values;
  std::unordered_map<std::string_view, uint32_t> rowOfKey;
  std::vector<Row> rows;
  std::vector<uint32_t> rowOf(g.size());
  std::vector<size_t> first;  // by row: its earliest kFirstRange group
  auto earlier = [&](size_t a, size_t b) {
    const auto key = [&](size_t x) {
      return std::make_tuple(g.ids[kStart].values[x], -g.ids[kEnd].values[x], g.ids[kOrigin].values[x],
                             g.ids[kEvent].values[x]);
    };
    return key(a) < key(b);
  };
  for (size_t i = 0; i < g.size(); ++i) {
    const auto [at, added] = rowOfKey.try_emplace(g.texts[kTextKey][i], static_cast<uint32_t>(rows.size()));
    if (added) {
      rows.emplace_back();
      first.push_back(SIZE_MAX);
    }
    rowOf[i] = at->second;
    if (kind[i] == kFirstRange && (first[at->second] == SIZE_MAX || earlier(i, first[at->second])))
      first[at->second] = i;
  }
  for (uint32_t r = 0; r < rows.size(); ++r) {
    if (first[r] == SIZE_MAX) continue;  // not in the time range
    rows[r].name = g.texts[kTextName][first[r]];
    if (const std::optional<PcclOperator> op = parsePcclOperator(rows[r].name)) rows[r].transfer = pcclTransfer(*op);
  }
  for (size_t i = 0; i < g.size(); ++i) {
    Row& row = rows[rowOf[i]];
    switch (kind[i]) {
      case kExecution: {
        // Trans Time: the shortest participant's kernel time x participants.
        const DurationStats& s = g.stats[i];
        row.trans += s.min * s.count;
        row.total += s.total;
        ++row.instances;
        row.addBytes(row.transfer.bytes(s.count), 1);
        break;
      }
      case kPointToPoint:
        row.trans += g.sums[kTimeSum][i];
        row.total += g.sums[kTimeSum][i];
        row.instances += g.sums[kExecutions][i];
        row.addBytes(row.transfer.bytes(1), g.sums[kExecutions][i]);
        break;
      case kMaskDevice: row.addDevice(g.ids[kDeviceId].values[i]); break;
      default: break;
    }
  }

  // Trans Time descending, then OP Name (byte order; a row's name holds its key).
  std::vector<uint32_t> order;
  for (uint32_t i = 0; i < rows.size(); ++i)
    if (rows[i].instances > 0) order.push_back(i);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    if (rows[a].trans != rows[b].trans) return rows[a].trans > rows[b].trans;
    return rows[a].name < rows[b].name;
  });

  Table t(columns());
  for (uint32_t i : order) {
    const Row& row = rows[i];
    t.setInt(kTrans, row.trans);
    if (row.total > 0) t.setDecimal(kPercent, percent1(row.trans, row.total));
    t.setInt(kTotal, row.total);
    t.setInt(kInstances, row.instances);
    t.setText(kMask, hexMask(row.mask));
    if (row.bytesKnown) {
      t.setInt(kSize, row.bytes);
      // floor(bytes * 1e9 / ns): bytes per second.
      if (row.trans > 0) t.setInt(kBandwidth, static_cast<int64_t>(static_cast<__int128>(row.bytes) * 1000000000 / row.trans));
    }
    t.setText(kName, row.name);
    t.endRow();
  }
  return t;
}

}  // namespace

const RuleSpec& pcclOpSumRule() {
  static const RuleSpec rule{
      .name = "pccl_op_sum",
      .title = "PCCL Operator Summary",
      .titleZh = "PCCL算子汇总",
      .rowHelp = "Row number of the PCCL operator summary",
      .topic = "PCCL",
      .description =
          "PCCL operators: HGTX ranges named 'TYPE, p:., c:COUNT, d:DTYPE, r:RANK, w:WORLD,\n"
          "h:HASH, t:., b:...' (d in NCCL's data type numbering) and the PCCL kernels\n"
          "(as pccl_desync_trace classifies them) associated with them as hgtx_kern_sum\n"
          "associates kernels: launched inside the range on its thread, or through an HGGC\n"
          "graph node created inside it. Operators of one communicator (h), type, element\n"
          "count (c) and data type (d) are one row; the k-th such range by start on each\n"
          "device is execution k of the collective (numbered over the whole capture; with\n"
          "a time range, a device takes part when its kernels overlap it). Per execution:\n"
          "Trans Time += the shortest participating device's kernel time x participants;\n"
          "Total Time += every participant's kernel time; Trans Size += per-rank traffic x\n"
          "participants, per-rank traffic = count x sizeof(d) x (AllReduce 2(w-1)/w;\n"
          "AllGather, ReduceScatter, AllToAll, Gather, Scatter (w-1)/w; Broadcast, Reduce\n"
          "1; '-' for other types). Send, Recv and SendRecv are point to point: each\n"
          "execution is an instance, Trans Time = Total Time = its kernel time, Trans Size\n"
          "= count x sizeof(d). Trans Bandwidth = Trans Size / Trans Time in bytes per\n"
          "second (truncated); Device Mask has a bit per participating device id. Sorted\n"
          "by Trans Time descending; OP Name is the row's earliest operator range.",
      .descriptionZh =
          "PCCL算子的合并规则为：相同通信组、相同的PCCL算子类型（如AllReduce）、相同数据量的多个PPU设备的算子合并计算。\n"
          "PCCL算子类型分为如下两类：collective类型，如AllReduce、Broadcast；point to point类型，如Send、Recv。\n"
          "对于collective类型的PCCL算子，统计规则如下：\n"
          "对于每次PCCL算子通信，将参与通信的PPU设备中执行时间最短的PCCL kernel的执行时间，作为本次通信的传输时间Trans Time，所有参与通信的PPU设备的传输时间的累加，作为统计结果的Trans Time的取值。\n"
          "统计结果的Instances列表示PCCL算子通信发生的次数，对于PCCL算子通信涉及多个PPU设备的场景，多个PPU设备不会导致Instances累加多次。\n"
          "对于每次PCCL算子通信，将每个PPU设备传输数据量进行累加，作为统计结果的Trans Size的取值。\n"
          "对于point to point类型的PCCL算子，统计规则如下：\n"
          "每次PCCL算子通信的kernel执行时间即认为是算子的传输时间，作为统计结果的Trans Time的取值。\n"
          "PCCL算子通信的kernel执行次数，作为统计结果的Instances的取值。\n"
          "输出结果按照Trans Time降序输出。\n"
          "Device Mask列表示本算子涉及的PPU设备的bitmap，每个bit表示参与的PPU设备索引。",
      .options = {deviceOption(), rangeIncludeOption(), rangeExcludeOption(), graphMappingOption()},
      .columns = columns(),
      .needs = associationNeeds(false),
      .pie = {"Trans Time", {"OP Name"}},
      .sumColumns = {"Trans Time", "Total Time", "Trans Size"},
      .compute = [](RuleContext& ctx) { return groupsRuleTable(pcclOpSumRule(), ctx); },
      .groupedDurations = groupedDurations,
      .groupsTable = groupsTable,
      .memoryPerRow = 16,  // scale 2500: 371,764 KiB, 12.7 bytes a row (2026-12-05; main 1,640,656 KiB)
  };
  return rule;
}

}  // namespace asys
