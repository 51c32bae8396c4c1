#include "core/rules/op_rows.h"

#include <algorithm>
#include <numeric>
#include <tuple>
#include <unordered_map>

#include "core/analysis/hgtx_projection.h"
#include "core/analysis/key_groups.h"
#include "core/report/report.h"
#include "core/base/stage_timer.h"
#include "core/rules/op_options.h"

namespace asys {

namespace {

enum TextCol : size_t { kTypeText, kKeyText, kNameText };
enum GroupKind : int64_t { kRowGroup = 0, kNameGroup = 1 };
enum IdCol : size_t { kKindId, kStartId };
constexpr size_t kActiveSum = 0, kUtilSums = 1;

}  // namespace

GroupedDurations operatorGroups(const OperatorSet& ops, const TopLevelSpans& spans, const DevicePeaks& peaks,
                                const StringPool& names, Report* report) {
  KeyGroups groups;
  std::vector<int64_t> active, firstStart;
  std::vector<UtilisationSum> util;
  GroupedDurations out;
  // One value an instance with activities: reserved, not grown by doubling.
  size_t instances = 0;
  for (uint32_t i = 0; i < ops.size(); ++i) instances += spans.has(i);
  out.groupOf.reserve(instances);
  out.values.reserve(instances);
  for (uint32_t i = 0; i < ops.size(); ++i) {
    if (!spans.has(i)) continue;  // nested: its activities count in their top-level operator
    const uint32_t g = groups.indexOf((static_cast<uint64_t>(ops.type(i)) << 32) | ops.key(i));
    if (g == active.size()) {
      active.push_back(0);
      firstStart.push_back(spans.start[i]);
      util.emplace_back();
    }
    const int64_t duration = spans.end[i] - spans.start[i];
    firstStart[g] = std::min(firstStart[g], spans.start[i]);
    active[g] += spans.active[i];
    util[g].add(ops.work(i), ops.deviceOf(i), duration, peaks);
    out.groupOf.push_back(g);
    out.values.push_back(duration);
  }
  // The earliest instance names the row (smallestFirstNames): only those
  // instances' names are read (a deferred one from the file).
  std::vector<uint32_t> candidateGroup, candidateName;
  for (uint32_t i = 0, v = 0; i < ops.size(); ++i) {
    if (!spans.has(i)) continue;
    const uint32_t g = out.groupOf[v++];
    if (spans.start[i] != firstStart[g]) continue;
    candidateGroup.push_back(g);
    candidateName.push_back(ops.name[i]);
  }
  const std::vector<std::string_view> firstName =
      smallestFirstNames(report, names, active.size(), candidateGroup, std::move(candidateName));
  const size_t rows = groups.size();
  out.texts.resize(3);
  out.ids = {{IdKind::kPlain, {}}, {IdKind::kTime, {}}};
  out.sums.resize(kUtilSums + UtilisationSum::kParts);
  for (size_t kind = 0; kind < 2; ++kind) {
    for (size_t g = 0; g < rows; ++g) {
      out.texts[kTypeText].emplace_back(ops.recognizer.typeName(static_cast<uint32_t>(groups.key(g) >> 32)));
      out.texts[kKeyText].emplace_back(ops.recognizer.keyText(static_cast<uint32_t>(groups.key(g))));
      out.ids[kKindId].values.push_back(static_cast<int64_t>(kind));
      if (kind == kRowGroup) {
        out.texts[kNameText].emplace_back();
        out.ids[kStartId].values.push_back(kNoValue);
        out.sums[kActiveSum].push_back(active[g]);
        util[g].appendParts(out.sums, kUtilSums);
      } else {
        out.texts[kNameText].emplace_back(firstName[g]);
        out.ids[kStartId].values.push_back(firstStart[g]);
        for (auto& column : out.sums) column.push_back(0);
      }
    }
  }
  out.groupCount = 2 * rows;
  return out;
}

GroupedDurations operatorGroups(RuleContext& ctx) {
  OperatorQuery query = operatorQuery(ctx);
  query.levels = false;  // the rows count each activity in its top-level operator only
  query.endsAsDurations = true;
  // A row shows the name of its first instance alone: the range texts are
  // read back for those, not held (docs/big-reports.md, "The range texts").
  query.deferNames = true;
  query.groupsOnly = true;  // top-level instances only, kernels named as the list is read
  OperatorSet ops = buildOperators(ctx.report, std::move(query));
  StageTimer timer("operators: spans and groups");
  // The spans read the activities' start and end alone: their device,
  // kind and row (9 bytes an activity) go before the spans are made.
  keepOnlySpans(ops.activities);
  const TopLevelSpans spans = topLevelSpans(ops);
  // The groups read the instances and their spans, not the activities.
  ops.activities = PpuActivities();
  std::vector<uint32_t>().swap(ops.top);
  GroupedDurations out = operatorGroups(ops, spans, DevicePeaks(ctx.report), ctx.report.strings(), &ctx.report);
  Table warnings({});
  addOperatorWarnings(warnings, ops);
  out.warnings = warnings.warnings();
  return out;
}

OpRows operatorRows(MergedGroups groups) {
  OpRows out;
  out.groups = std::move(groups);
  const MergedGroups& g = out.groups;
  std::unordered_map<std::string_view, std::unordered_map<std::string_view, uint32_t>> rowOf;  // type, key
  std::vector<size_t> named;  // by row: its earliest kNameGroup
  auto row = [&](size_t i) {
    const auto [at, added] = rowOf[g.texts[kTypeText][i]].try_emplace(g.texts[kKeyText][i],
                                                                       static_cast<uint32_t>(out.rows.size()));
    if (added) {
      out.rows.emplace_back();
      out.rows.back().type = g.texts[kTypeText][i];
      out.rows.back().key = g.texts[kKeyText][i];
      named.push_back(SIZE_MAX);
    }
    return at->second;
  };
  const auto& start = g.ids[kStartId].values;
  const auto& name = g.texts[kNameText];
  for (size_t i = 0; i < g.size(); ++i) {
    const uint32_t r = row(i);
    OpRow& o = out.rows[r];
    if (g.ids[kKindId].values[i] == kRowGroup) {
      o.stats = g.stats[i];
      o.active = g.sums[kActiveSum][i];
      o.util = UtilisationSum::ofParts(g.sums, kUtilSums, i);
      out.totalTime += o.stats.total;
    } else if (named[r] == SIZE_MAX || std::tie(start[i], name[i]) < std::tie(start[named[r]], name[named[r]])) {
      named[r] = i;
      o.name = name[i];
    }
  }
  return out;
}

OpRows operatorRows(const OperatorSet& ops, const TopLevelSpans& spans, const DevicePeaks& peaks,
                    const StringPool& names) {
  return operatorRows(mergedGroupsOf(operatorGroups(ops, spans, peaks, names)));
}

std::vector<uint32_t> orderRows(const OpRows& rows, std::string_view orderBy) {
  const std::vector<OpRow>& r = rows.rows;
  std::vector<uint32_t> order(r.size());
  std::iota(order.begin(), order.end(), 0u);
  auto utilOf = [&](const OpRow& row) -> double {
    std::optional<double> v = orderBy == "compute-util"    ? row.util.compute()
                              : orderBy == "hbm-load-util" ? row.util.load()
                                                           : row.util.store();
    return v ? *v : -1;
  };
  // Compared exactly: active / total as cross products.
  auto activeLess = [](const OpRow& a, const OpRow& b) {
    return static_cast<__int128>(a.active) * b.stats.total < static_cast<__int128>(b.active) * a.stats.total;
  };
  std::stable_sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) {
    const OpRow &a = r[x], &b = r[y];
    if (orderBy == "name") {
      if (a.name != b.name) return a.name < b.name;
    } else if (orderBy == "instances") {
      if (a.stats.count != b.stats.count) return a.stats.count > b.stats.count;
    } else if (orderBy == "avg") {
      if (a.stats.avg != b.stats.avg) return a.stats.avg > b.stats.avg;
    } else if (orderBy == "max") {
      if (a.stats.max != b.stats.max) return a.stats.max > b.stats.max;
    } else if (orderBy == "active-percent") {
      if (activeLess(a, b) != activeLess(b, a)) return activeLess(b, a);
    } else if (orderBy == "compute-util" || orderBy == "hbm-load-util" || orderBy == "hbm-store-util") {
      const double ua = utilOf(a), ub = utilOf(b);
      if (ua != ub) return ua > ub;
    }
    if (a.stats.total != b.stats.total) return a.stats.total > b.stats.total;
    return std::tie(a.name, a.type, a.key) < std::tie(b.name, b.type, b.key);
  });
  return order;
}

void setPercent(Table& t, size_t col, int64_t part, int64_t whole) {
  if (whole > 0) t.setDecimal(col, percent1(part, whole));
}

void setUtil(Table& t, size_t col, const std::optional<double>& v) {
  if (v) t.setDecimal(col, *v);
}

}  // namespace asys
