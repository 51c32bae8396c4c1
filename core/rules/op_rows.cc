#include "core/rules/op_rows.h"

#include <algorithm>
#include <numeric>

#include "core/analysis/key_groups.h"

namespace asys {

OpRows operatorRows(const OperatorSet& ops, const GroupUnions& spans, const DevicePeaks& peaks) {
  OpRows out;
  KeyGroups groups;
  std::vector<uint32_t> groupOf;   // by kept instance
  std::vector<int64_t> durations;  // by kept instance
  for (uint32_t i = 0; i < ops.size(); ++i) {
    if (spans.count[i] == 0) continue;  // nested: its activities count in their top-level operator
    const uint32_t g = groups.indexOf((static_cast<uint64_t>(ops.type[i]) << 32) | ops.key[i]);
    if (g == out.rows.size()) {
      out.rows.emplace_back();
      out.rows.back().type = ops.type[i];
      out.rows.back().key = ops.key[i];
    }
    OpRow& row = out.rows[g];
    const int64_t duration = spans.end[i] - spans.start[i];
    if (spans.start[i] < row.firstStart) {
      row.firstStart = spans.start[i];
      row.name = ops.name[i];
    }
    row.active += spans.active[i];
    row.util.add(ops.work(i), ops.device[i], duration, peaks);
    groupOf.push_back(g);
    durations.push_back(duration);
  }
  const std::vector<DurationStats> stats = summarizeGroups(groupOf, durations, out.rows.size());
  for (size_t g = 0; g < out.rows.size(); ++g) {
    out.rows[g].stats = stats[g];
    out.totalTime += stats[g].total;
  }
  return out;
}

std::vector<uint32_t> orderRows(const OpRows& rows, const OperatorSet& ops, const StringPool& names,
                                std::string_view orderBy) {
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
      const std::string_view na = names.get(a.name), nb = names.get(b.name);
      if (na != nb) return na < nb;
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
    const std::string_view na = names.get(a.name), nb = names.get(b.name);
    if (na != nb) return na < nb;
    return ops.recognizer.typeName(a.type) < ops.recognizer.typeName(b.type);
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
