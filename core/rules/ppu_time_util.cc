// ppu_time_util (asys analyze, the full manual's expert rules): the stretches
// of time in which a PPU is mostly idle.
#include <algorithm>
#include <tuple>

#include "core/analysis/ppu_busy.h"
#include "core/analysis/stats.h"
#include "core/report/report.h"
#include "core/rules/common.h"
#include "core/rules/hgtx_association_options.h"
#include "core/rules/registry.h"

namespace asys {

namespace {

std::vector<ColumnSpec> columns() {
  return {
      {"In-Use", "%", CellKind::Decimal1, "PPU utilisation of this stretch of time"},
      {"Duration", "ns", CellKind::Int, "Duration of the stretch"},
      {"Start", "ns", CellKind::Int, "Start timestamp of the stretch"},
      {"PID", "", CellKind::Int, "Process ID (\"-\" with merge-process-id)"},
      {"Device ID", "", CellKind::Int, "PPU device ID"},
  };
}

OptionSpec intOption(const char* name, const char* label, const char* labelZh, const char* help,
                     const char* helpZh, int64_t def, int64_t min, std::optional<int64_t> max) {
  OptionSpec o{.name = name, .kind = OptionKind::Int, .placeholder = "<n>", .label = label, .labelZh = labelZh,
               .help = help, .helpZh = helpZh};
  o.defaultValue = o.defaultLabel = std::to_string(def);
  o.minValue = min;
  o.maxValue = max;
  return o;
}

OptionSpec timeRangeModeOption() {
  OptionSpec o = rangeModeOption();
  o.help =
      "The time range divided into chunks:\n"
      "  active: from the first to the last PPU activity of each process and device\n"
      "          (of each device with merge-process-id), the default;\n"
      "  full:   the statistics time range (--filter-time / --filter-hgtx), else the\n"
      "          report's whole capture range, the same for all.";
  o.helpZh =
      "等分为时间分段的统计时间范围：\n"
      "active：默认模式，时间范围从每进程、每PPU设备（使能merge-process-id时为每PPU设备）的第一个PPU活动开始，到最后一个PPU活动结束截止。\n"
      "full：时间范围选取为用户指定的统计时间范围，若没有指定统计时间范围，则统计报告整体的时间范围，所有设备相同。";
  return o;
}

struct Stretch {
  int64_t busy, length, start, pid;  // pid kNoValue with merge-process-id
  int32_t device;
};

// One group a stretch: keys PID (kNoValue with merge-process-id), Device ID
// and Start, sums busy time and length. With range-mode=active each
// process's (device's) range is its own, so across reports the groups only
// join; range-mode=full divides a range all reports share (asys fleet
// refuses it).
GroupedDurations groupedDurations(RuleContext& ctx) {
  ActivitySelection sel;
  sel.window = ctx.window;
  const int64_t threshold = *ctx.options.intValue("threshold");
  const int64_t chunkCount = *ctx.options.intValue("chunks");
  const bool full = ctx.options.value("range-mode") == "full";
  const bool perDevice = ctx.options.flag("merge-process-id");

  const GroupedBusy b = groupedBusy(ctx.report, sel, [perDevice](const auto& t, size_t i) {
    const uint64_t pid = perDevice ? 0 : static_cast<uint64_t>(pidOf(t.globalPid[i]));
    return (pid << 32) | static_cast<uint32_t>(t.deviceId[i]);
  });
  const KeyGroups& groups = b.groups;
  const SpanGroups& busy = b.busy;
  const std::vector<Span>& extent = b.extent;
  const Span all = b.all;
  const Span fullRange = statisticsRange(ctx.report, ctx.window, all);

  std::vector<Stretch> out;
  for (size_t g = 0; g < groups.size(); ++g) {
    const auto blocks = busy.group(g);
    Span range = full ? fullRange : extent[g];
    if (!full) {  // the key's own activities, inside the statistics time range
      range.start = std::max(range.start, ctx.window.start);
      range.end = std::min(range.end, ctx.window.end);
    }
    const int64_t length = range.length();
    if (length <= 0) continue;
    // Chunk i is [from + i*L/N, from + (i+1)*L/N): equal to within 1 ns, none
    // empty (fewer chunks than nanoseconds).
    const int64_t n = std::min(chunkCount, length);
    auto boundary = [&](int64_t i) {
      return range.start + static_cast<int64_t>(static_cast<__int128>(length) * i / n);
    };
    const int64_t pid = perDevice ? kNoValue : static_cast<int64_t>(groups.key(g) >> 32);
    const int32_t device = static_cast<int32_t>(static_cast<uint32_t>(groups.key(g)));
    bool open = false;  // merging a run of adjacent low chunks
    for (int64_t i = 0; i < n; ++i) {
      const int64_t from = boundary(i), to = boundary(i + 1);
      const int64_t used = coveredLength(blocks, from, to);
      // Strictly below the threshold, exactly: used / len < threshold / 100.
      const bool low = static_cast<__int128>(used) * 100 < static_cast<__int128>(threshold) * (to - from);
      if (!low) {
        open = false;
        continue;
      }
      if (open) {
        out.back().busy += used;
        out.back().length += to - from;
      } else {
        out.push_back({used, to - from, from, pid, device});
        open = true;
      }
    }
  }
  GroupedDurations g;
  g.groupCount = out.size();
  g.ids = {{IdKind::kPid, {}}, {IdKind::kDevice, {}}, {IdKind::kTime, {}}};
  g.sums.resize(2);
  for (const Stretch& s : out) {
    g.ids[0].values.push_back(s.pid);
    g.ids[1].values.push_back(s.device);
    g.ids[2].values.push_back(s.start);
    g.sums[0].push_back(s.busy);
    g.sums[1].push_back(s.length);
  }
  return g;
}

// Utilisation ascending (exact ratios), then start, process, device.
Table groupsTable(const MergedGroups& g, const RuleOptions&) {
  const std::vector<int64_t>&pid = g.ids[0].values, &device = g.ids[1].values, &start = g.ids[2].values,
                         &busy = g.sums[0], &length = g.sums[1];
  std::vector<uint32_t> order(g.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const __int128 l = static_cast<__int128>(busy[a]) * length[b], r = static_cast<__int128>(busy[b]) * length[a];
    if (l != r) return l < r;
    return std::make_tuple(start[a], pid[a], static_cast<int32_t>(device[a])) <
           std::make_tuple(start[b], pid[b], static_cast<int32_t>(device[b]));
  });
  Table t(columns());
  t.declareSpans({"Stretch"});
  for (uint32_t i : order) {
    t.setDecimal(0, percent1(busy[i], length[i]));
    t.setInt(1, length[i]);
    t.setInt(2, start[i]);
    if (pid[i] != kNoValue) t.setInt(3, pid[i]);
    t.setInt(4, device[i]);
    t.setSpan(0, start[i], start[i] + length[i]);
    t.endRow();
  }
  return t;
}

}  // namespace

const RuleSpec& ppuTimeUtilRule() {
  static const RuleSpec rule{
      .name = "ppu_time_util",
      .title = "PPU Time Utilization",
      .titleZh = "PPU时间利用率",
      .rowHelp = "Row number of the low-utilization stretch",
      .topic = "Expert rules",
      .description =
          "Where the PPUs are mostly idle: per process and device (per device with\n"
          "merge-process-id), the time range of range-mode is cut into `chunks` equal\n"
          "chunks; a chunk's utilisation is the union of its PPU activities' busy time\n"
          "over its length (never above 100%). Chunks strictly below `threshold` percent\n"
          "are kept; adjacent kept chunks merge into one stretch whose In-Use is the\n"
          "duration-weighted utilisation. Sorted by In-Use ascending, then Start.\n"
          "Whole-report utilisation: ppu_time_util:threshold=100:chunks=1:range-mode=full\n"
          "(no row when a PPU is busy all the time).",
      .descriptionZh =
          "统计PPU时间利用率较低的时间段：对每进程、每PPU设备（使能merge-process-id时为每PPU设备），将range-mode指定的时间范围等分为chunks个时间分段，每个分段的时间利用率为分段内PPU活动的繁忙时间（重叠部分不会被多次计入）/ 分段长度，不会超过100%。\n"
          "保留时间利用率严格低于threshold百分比的分段，相邻的保留分段合并为一个时间段，其In-Use为按时长加权的时间利用率。\n"
          "结果按照In-Use升序排列，相同时按照Start升序排列。\n"
          "统计整个报告的时间利用率：ppu_time_util:threshold=100:chunks=1:range-mode=full（PPU始终繁忙时没有输出行）。",
      .options = {rowsOption("stretches", 50),
                  intOption("threshold", "Utilization threshold (%)", "时间利用率阈值 (%)",
                            "Keep chunks whose utilisation is strictly below this percentage. Default is 50.",
                            "保留时间利用率严格低于此百分比的时间分段。默认为50。", 50, 0, 100),
                  intOption("chunks", "Number of chunks", "时间分段数", "Number of equal chunks the time range is cut into. Default is 100.",
                            "统计时间范围等分成的时间分段数。默认为100。", 100, 1, std::nullopt),
                  timeRangeModeOption(),
                  {.name = "merge-process-id", .kind = OptionKind::Flag, .label = "Merge processes",
                   .labelZh = "合并进程",
                   .help = "One utilisation per device, over the activities of all processes.",
                   .helpZh = "每PPU设备统计一个时间利用率，包含所有进程的PPU活动。"}},
      .columns = columns(),
      .needs = {ppuActivityNeed()},
      .pie = {"Duration", {"Device ID", "PID"}},
      .compute = [](RuleContext& ctx) { return groupsRuleTable(ppuTimeUtilRule(), ctx); },
      .groupedDurations = groupedDurations,
      .groupsTable = groupsTable,
      .command = RuleCommand::Analyze,
      .memoryPerRow = 24,  // 20 bytes an activity (core/analysis/ppu_busy.h)
  };
  return rule;
}

}  // namespace asys
