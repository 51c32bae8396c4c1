// pccl_stage_sum (2.3.15): PCCL proxy stage durations per process, device,
// thread, channel, direction and stage name.
#include <algorithm>
#include <numeric>
#include <string_view>
#include <tuple>
#include <unordered_map>

#include "core/analysis/stats.h"
#include "core/report/report.h"
#include "core/rules/common.h"
#include "core/rules/registry.h"

namespace asys {

namespace {

std::vector<ColumnSpec> columns() {
  return {
      {"PID", "", CellKind::Int, "Process identifier"},
      {"Device ID", "", CellKind::Int, "PPU device identifier"},
      {"TID", "", CellKind::Int, "Thread identifier"},
      {"Channel ID", "", CellKind::Int, "PCCL channel identifier"},
      {"Channel Type", "", CellKind::Text, "PCCL channel type"},
      {"Name", "", CellKind::Text, "Stage name"},
      {"Total Time", "ns", CellKind::Int, "Stage total time"},
      {"Instances", "", CellKind::Int, "Number of this stage"},
      {"Avg", "ns", CellKind::Int, "Average of stage duration"},
      {"Med", "ns", CellKind::Int, "Median of stage duration"},
      {"Min", "ns", CellKind::Int, "Minimum of stage duration"},
      {"Max", "ns", CellKind::Int, "Maximum of stage duration"},
      {"Stdev", "ns", CellKind::Int, "Standard deviation of stage duration"},
  };
}

// One group: globalTid carries PID and TID.
struct StageKey {
  int64_t globalTid, channelId;
  int32_t deviceId;
  uint32_t channelType, name;
  bool operator==(const StageKey&) const = default;
};

struct StageKeyHash {
  size_t operator()(const StageKey& k) const {
    uint64_t h = static_cast<uint64_t>(k.globalTid) * 0x9E3779B97F4A7C15ull;
    h ^= static_cast<uint64_t>(k.channelId) + 0x632BE59BD9B4E019ull + (h << 6) + (h >> 2);
    h ^= static_cast<uint64_t>(static_cast<uint32_t>(k.deviceId)) + (h << 6) + (h >> 2);
    h ^= (static_cast<uint64_t>(k.channelType) << 32 | k.name) + (h << 6) + (h >> 2);
    return static_cast<size_t>(h);
  }
};

// The groups: ids globalTid (PID and TID), device, channel; texts channel
// type and stage name.
GroupedDurations groupedDurations(RuleContext& ctx) {
  const PcclStages& p = ctx.report.pcclStages();
  StringPool& strings = ctx.report.strings();
  std::unordered_map<StageKey, uint32_t, StageKeyHash> index;
  std::vector<StageKey> keys;
  GroupedDurations out;
  for (size_t i = 0; i < p.size(); ++i) {
    if (p.end[i] == kNoValue || !ctx.window.overlaps(p.start[i], p.end[i])) continue;
    StageKey key{p.globalTid[i], p.channelId[i], p.deviceId[i], p.channelTypeId[i], p.nameId[i]};
    auto [it, inserted] = index.try_emplace(key, static_cast<uint32_t>(keys.size()));
    if (inserted) keys.push_back(key);
    out.groupOf.push_back(it->second);
    out.values.push_back(p.end[i] - p.start[i]);
  }
  out.groupCount = keys.size();
  out.ids = {{IdKind::kThread, {}}, {IdKind::kDevice, {}}, {IdKind::kPlain, {}}};
  out.texts.resize(2);
  for (const StageKey& k : keys) {
    out.ids[0].values.push_back(k.globalTid);
    out.ids[1].values.push_back(k.deviceId);
    out.ids[2].values.push_back(k.channelId);
    out.texts[0].emplace_back(strings.get(k.channelType));
    out.texts[1].emplace_back(strings.get(k.name));
  }
  return out;
}

// Total Time descending; ties by PID, Device ID, TID, Channel ID (numbers
// ascending), then Channel Type and Name (byte order).
Table groupsTable(const MergedGroups& g, const RuleOptions&) {
  const std::vector<int64_t>&tid = g.ids[0].values, &device = g.ids[1].values, &channel = g.ids[2].values;
  const std::vector<std::string>&type = g.texts[0], &name = g.texts[1];
  std::vector<uint32_t> order(g.size());
  std::iota(order.begin(), order.end(), 0u);
  auto sortKey = [&](uint32_t i) {
    return std::make_tuple(-g.stats[i].total, pidOf(tid[i]), static_cast<int32_t>(device[i]), tidOf(tid[i]),
                           channel[i], std::string_view(type[i]), std::string_view(name[i]));
  };
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return sortKey(a) < sortKey(b); });

  Table t(columns());
  for (uint32_t i : order) {
    const DurationStats& s = g.stats[i];
    t.setInt(0, pidOf(tid[i]));
    if (device[i] >= 0) t.setInt(1, device[i]);  // NULL device: "-"
    t.setInt(2, tidOf(tid[i]));
    if (channel[i] != kNoValue) t.setInt(3, channel[i]);
    t.setText(4, type[i]);
    t.setText(5, name[i]);
    t.setInt(6, s.total);
    t.setInt(7, s.count);
    t.setInt(8, s.avg);
    t.setInt(9, s.med);
    t.setInt(10, s.min);
    t.setInt(11, s.max);
    t.setInt(12, s.stddev);
    t.endRow();
  }
  return t;
}

}  // namespace

const RuleSpec& pcclStageSumRule() {
  static const RuleSpec rule{
      .name = "pccl_stage_sum",
      .title = "PCCL Stage Summary",
      .titleZh = "PCCL传输各阶段汇总",
      .rowHelp = "Row number of the stage summary",
      .topic = "PCCL",
      .description =
          "Time spent in each PCCL transfer stage, per process, PPU device, thread, channel,\n"
          "channel type (TX / RX) and stage name: total, count, average, median, minimum,\n"
          "maximum and standard deviation of the stage durations, sorted by total time\n"
          "descending.",
      .descriptionZh =
          "按照每线程、每channel、每方向、每传输阶段，统计传输阶段的耗时（平均值、最大值、最小值等）、出现次数等指标，按照传输阶段总耗时降序输出。",
      .options = {},
      .columns = columns(),
      .needs = {{"PCCL_STAGE_EVENTS", "PCCL stage data", "--trace pccl"}},
      .pie = {"Total Time", {"Name", "PID", "Device ID"}},
      .compute = [](RuleContext& ctx) { return groupsRuleTable(pcclStageSumRule(), ctx); },
      .groupedDurations = groupedDurations,
      .groupsTable = groupsTable,
  };
  return rule;
}

}  // namespace asys
