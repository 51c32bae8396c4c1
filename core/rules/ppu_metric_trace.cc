// ppu_metric_trace (2.3.24): every PPU metric sample, one row per device,
// metric and sample time.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>
#include <unordered_map>

#include "core/base/regex.h"
#include "core/report/report.h"
#include "core/rules/common.h"
#include "core/rules/registry.h"

namespace asys {

namespace {

std::vector<ColumnSpec> columns() {
  return {
      {"Device ID", "", CellKind::Int, "PPU device identifier"},
      {"Start", "ns", CellKind::Int, "Timestamp when metric sample begin"},
      {"Duration", "ns", CellKind::Int, "Length of metric sample"},
      {"Name", "", CellKind::Text, "PPU metric name"},
      {"Value", "", CellKind::Decimal1, "PPU metric value"},
      {"Unit", "", CellKind::Text, "PPU metric unit"},
  };
}

OptionSpec metricsOption() {
  OptionSpec o{.name = "metrics", .kind = OptionKind::Regex, .placeholder = "<regex_filter>",
               .label = "Metric Name Filter",
               .labelZh = "PPU metric name过滤",
               .help = "Regular expression (Perl-compatible) searched in each PPU metric name;\n"
                       "only matching metrics are output. Default is all PPU metrics.",
               .helpZh = "指定参与统计的PPU metrics过滤正则表达式。若不指定，默认统计所有PPU metrics。"};
  o.defaultLabel = "All";
  return o;
}

// One decimal, half away from zero (the writer prints exactly one decimal).
double round1(double v) {
  double r = std::round(v * 10.0) / 10.0;
  return r == 0.0 ? 0.0 : r;  // no "-0.0"
}

// The trace as a view: the samples in order (4 bytes a row) over the
// report's loaded samples, which it shares, each row's cells made when a
// page or a writer's chunk asks for it.
class MetricTraceRows : public RowSource {
 public:
  MetricTraceRows(std::shared_ptr<const MetricSamples> samples, const StringPool& strings, std::vector<uint32_t> rows)
      : m_(std::move(samples)), strings_(strings), rows_(std::move(rows)) {}

  size_t rowCount() const override { return rows_.size(); }

  void appendRows(size_t first, size_t count, Table& t) override {
    const MetricSamples& m = *m_;
    for (size_t r = first; r < first + count; ++r) {
      const uint32_t i = rows_[r];
      if (m.deviceId[i] >= 0) t.setInt(0, m.deviceId[i]);
      t.setInt(1, m.start[i]);
      if (m.duration[i] != kNoValue) t.setInt(2, m.duration[i]);
      t.setTextOf(3, strings_, m.nameId[i]);
      if (!std::isnan(m.value[i])) t.setDecimal(4, round1(m.value[i]));
      t.setTextOf(5, strings_, m.unitId[i]);
      t.endRow();
    }
  }

 private:
  std::shared_ptr<const MetricSamples> m_;
  const StringPool& strings_;
  std::vector<uint32_t> rows_;
};

Table compute(RuleContext& ctx) {
  std::shared_ptr<const MetricSamples> samples = ctx.report.sharedMetrics();
  const MetricSamples& m = *samples;
  StringPool& strings = ctx.report.strings();
  const auto devices = ctx.options.idList("device");
  std::optional<Regex> filter;
  if (auto pattern = ctx.options.value("metrics")) filter.emplace(*pattern, "metrics");
  std::unordered_map<uint32_t, bool> matches;  // per metric name id
  auto nameMatches = [&](uint32_t name) {
    if (!filter) return true;
    auto [it, inserted] = matches.try_emplace(name, false);
    if (inserted) it->second = filter->search(strings.get(name));
    return it->second;
  };

  std::vector<uint32_t> rows;
  for (size_t i = 0; i < m.size(); ++i) {
    if (!inList(devices, m.deviceId[i])) continue;
    int64_t end = m.duration[i] == kNoValue ? m.start[i] : m.start[i] + m.duration[i];
    if (!ctx.window.overlaps(m.start[i], end) || !nameMatches(m.nameId[i])) continue;
    rows.push_back(static_cast<uint32_t>(i));
  }
  // Sample start ascending, then device; samples of one device and time keep
  // the order of PPU_METRICS (the profiler writes them in metric id order).
  std::stable_sort(rows.begin(), rows.end(), [&](uint32_t a, uint32_t b) {
    if (m.start[a] != m.start[b]) return m.start[a] < m.start[b];
    return m.deviceId[a] < m.deviceId[b];
  });
  return Table(columns(), std::make_shared<MetricTraceRows>(std::move(samples), strings, std::move(rows)));
}

}  // namespace

const RuleSpec& ppuMetricTraceRule() {
  static const RuleSpec rule{
      .name = "ppu_metric_trace",
      .title = "PPU Metric Trace",
      .titleZh = "PPU metric跟踪",
      .rowHelp = "Row number of the PPU metric trace",
      .topic = "Device",
      .description =
          "Every PPU metric sample: one row per PPU device, metric name and sample time,\n"
          "sorted by sample start ascending, then by device ID. Values have one decimal.",
      .descriptionZh =
          "导出结果组织如下：每PPU设备、每PPU metric名称、每采样时间导出一行数据，按照采样时间升序输出。",
      .options = {deviceOption(), metricsOption()},
      .columns = columns(),
      .needs = {{"PPU_METRICS", "PPU metric data", "--ppu-metrics-device all"}},
      .pie = {},
      .compute = compute,
      .memoryPerRow = 64,  // bench/rule-peaks.sh 250: 51 MiB
  };
  return rule;
}

}  // namespace asys
