#include "core/rules/op_breakdown.h"

#include <algorithm>
#include <numeric>
#include <optional>

#include "core/analysis/intervals.h"
#include "core/analysis/key_groups.h"
#include "core/analysis/kernel_names.h"
#include "core/analysis/memcpy_names.h"
#include "core/operators/device_peaks.h"
#include "core/rules/common.h"

namespace asys {

namespace {

constexpr uint32_t kNone = OperatorSet::kNone;
// Key values no recognizer or string id takes: the Native and Idle groups.
constexpr uint32_t kNativeKey = 0xFFFFFFFFu, kIdleKey = 0xFFFFFFFEu;

uint64_t pack(uint32_t hi, uint32_t lo) { return (static_cast<uint64_t>(hi) << 32) | lo; }

// Dense groups of one level, by (parent, key).
class Level {
 public:
  explicit Level(std::vector<BreakdownGroup>& groups) : groups_(groups) {}
  uint32_t of(uint32_t parent, uint32_t key, BreakdownKind kind) {
    const uint32_t g = index_.indexOf(pack(parent, key));
    if (g == groups_.size()) {
      groups_.emplace_back();
      groups_.back().parent = parent;
      groups_.back().kind = kind;
      groups_.back().key = key;
    }
    return g;
  }
  BreakdownGroup& operator[](uint32_t g) { return groups_[g]; }

 private:
  std::vector<BreakdownGroup>& groups_;
  KeyGroups index_;
};

void nameOnce(BreakdownGroup& g, uint32_t name, int64_t start) {
  if (start < g.firstStart) {
    g.firstStart = start;
    g.name = name;
  }
}

// By top-level instance, the projection of the activities it is the
// top-level operator of: the first one's start (they come in start order)
// and the latest end (an end before its start counts as the start, as
// unionByGroupSorted has it). An instance with none has no projection.
// The projections and what is kept beside them (the framework idle sweep,
// the level-1 groups) are by a dense index of the top-level instances, in
// instance order (`top`, 4 bytes an instance): 530,004 of the 906,004
// instances at scale 250, where 16 bytes each were held for every
// instance.
class InstanceProjections {
 public:
  explicit InstanceProjections(const OperatorSet& ops) : top(ops.size(), kNone) {
    const PpuActivities& act = ops.activities;
    for (size_t a = 0; a < act.size(); ++a)
      if (ops.top[a] != kNone) top[ops.top[a]] = 0;
    uint32_t n = 0;
    for (uint32_t& d : top)
      if (d != kNone) d = n++;
    start.assign(n, kNoStart);
    end.assign(n, 0);
    for (size_t a = 0; a < act.size(); ++a) {
      const uint32_t t = ops.top[a];
      if (t == kNone) continue;
      const uint32_t d = top[t];
      const int64_t s = act.start[a], e = std::max(act.endOf(a), s);
      if (start[d] == kNoStart) {
        start[d] = s;
        end[d] = e;
      } else {
        end[d] = std::max(end[d], e);
      }
    }
  }
  size_t size() const { return start.size(); }
  std::vector<uint32_t> top;        // by instance: its dense index, kNone without a projection
  std::vector<int64_t> start, end;  // by dense index

 private:
  static constexpr int64_t kNoStart = INT64_MIN;
};

// Idle inside each framework operator: its projection minus the union of
// its children's (library pieces, native activities). The children come in
// start order as the activities pass (a piece starts with its first
// activity), so each operator's union is one sweep: the end of what it
// covers so far and its length (16 bytes an operator while it runs), not
// the children's spans grouped by operator. Answers by instance (0 for the
// others).
std::vector<int64_t> idleOfFrameworks(const OperatorSet& ops, const InstanceProjections& fw,
                                      const std::vector<uint32_t>& pieceOf, const GroupUnions& piece) {
  const PpuActivities& act = ops.activities;
  std::vector<int64_t> covered(fw.size(), 0);  // by dense index
  {
    std::vector<int64_t> coveredTo(fw.size(), INT64_MIN);
    auto cover = [&](uint32_t f, int64_t from, int64_t to) {
      const uint32_t d = fw.top[f];
      from = std::max(from, fw.start[d]);  // only where it overlaps the operator
      to = std::min(to, fw.end[d]);
      if (to <= from || to <= coveredTo[d]) return;
      covered[d] += to - std::max(from, coveredTo[d]);
      coveredTo[d] = to;
    };
    std::vector<uint8_t> pieceCovered(piece.start.size(), 0);
    for (size_t a = 0; a < act.size(); ++a) {
      const uint32_t f = ops.frameworkOf(a);
      if (ops.top[a] == kNone || f == kNone) continue;
      if (ops.library[a] == kNone) {
        cover(f, act.start[a], act.endOf(a));
      } else if (const uint32_t p = pieceOf[a]; !pieceCovered[p]) {
        pieceCovered[p] = 1;
        cover(f, piece.start[p], piece.end[p]);
      }
    }
  }
  // In place: the covered length becomes the idle time.
  for (uint32_t f = 0; f < ops.size(); ++f) {
    const uint32_t d = fw.top[f];
    if (d == kNone) continue;
    covered[d] = ops.level(f) == OpLevel::Framework ? fw.end[d] - fw.start[d] - covered[d] : 0;
  }
  return covered;
}

}  // namespace

Breakdown computeBreakdown(RuleContext& ctx, OperatorSet& ops, bool kernels) {
  Breakdown b;
  Report& report = ctx.report;
  StringPool& strings = report.strings();
  // Read neither here nor by the callers after: the activities' device, and
  // without the kernel level their kind and row (9 bytes an activity,
  // beside this function's peak in idleOfFrameworks).
  std::vector<int32_t>().swap(ops.activities.deviceId);
  if (!kernels) {
    std::vector<ActivityKind>().swap(ops.activities.kind);
    std::vector<uint32_t>().swap(ops.activities.row);
  }
  const PpuActivities& act = ops.activities;
  const size_t n = act.size();
  const DevicePeaks peaks(report);

  // Each top-level instance's projection (first start, last end): a
  // framework instance is the top-level one of all its activities, so this
  // is also every framework operator's projection, and the PPU active time
  // (an instance's union) is not needed here. 16 bytes an instance, where a
  // framework and a top-level GroupUnions held 72.
  const InstanceProjections spans(ops);
  // A library instance nearly always runs under one framework instance: its
  // first piece is found directly, any other through a hash.
  std::vector<uint32_t> pieceOf(n, kNone), pieceLib, pieceFw;
  {
    KeyGroups pieceIndex;
    std::vector<uint32_t> firstPiece(ops.size(), kNone);
    for (size_t a = 0; a < n; ++a) {
      const uint32_t l = ops.library[a], f = ops.frameworkOf(a);
      if (ops.top[a] == kNone || l == kNone) continue;
      uint32_t p = firstPiece[l];
      if (p == kNone || pieceFw[p] != f) {
        p = pieceIndex.indexOf(pack(l, f));
        if (p == pieceLib.size()) {
          pieceLib.push_back(l);
          pieceFw.push_back(f);
        }
        if (firstPiece[l] == kNone) firstPiece[l] = p;
      }
      pieceOf[a] = p;
    }
  }
  const GroupUnions piece =
      unionByGroupSortedBy(act.start, [&act](size_t a) { return act.endOf(a); }, pieceOf, pieceLib.size());
  // By framework instance, its Idle time (below), worked out before the
  // groups are made so that the sweep's state is given back first.
  const std::vector<int64_t> frameworkIdle = idleOfFrameworks(ops, spans, pieceOf, piece);

  Level l1(b.level[0]), l2(b.level[1]), l3(b.level[2]);
  std::vector<uint32_t> unitGroup1(spans.size(), kNone);  // top-level instance (dense) -> its level-1 group
  std::vector<uint32_t> nativeGroup2;                      // level-1 group -> its Native level-2 group
  std::vector<uint32_t> pieceGroup2(pieceLib.size(), kNone);
  // The kernel level's names (their kinds and rows are kept for it alone).
  std::optional<KernelNamer> namer;
  if (kernels) {
    const KernelNameMode mode = kernelNameMode(ctx.options);
    namer.emplace(kernelNamesFor(report, act, mode), strings, mode);
  }
  MemcpyNames memcpyNames(report);
  const MemoryOps& copies = report.memcpys();
  const uint32_t memsetName = strings.intern("Memset");
  KeyGroups memcpyIds;
  std::vector<uint32_t> memcpyNameId;
  auto activityName = [&](size_t a) -> uint32_t {
    const uint32_t row = act.row[a];
    switch (act.kind[a]) {
      case ActivityKind::Kernel: return namer->nameId(row);
      case ActivityKind::Memcpy: {
        const uint32_t g = memcpyIds.indexOf(pack(static_cast<uint32_t>(copies.copyKind[row]),
                                                  static_cast<uint32_t>(copies.dstKind[row])));
        if (g == memcpyNameId.size())
          memcpyNameId.push_back(strings.intern(memcpyNames.name(copies.copyKind[row], copies.dstKind[row])));
        return memcpyNameId[g];
      }
      case ActivityKind::Memset: return memsetName;
    }
    return kNoString;
  };

  for (size_t a = 0; a < n; ++a) {
    const uint32_t t = ops.top[a];
    if (t == kNone) continue;
    const uint32_t f = ops.frameworkOf(a), l = ops.library[a];
    // Level 1: the framework operator, else "Native" of the top-level operator's type.
    // (A framework instance is its activities' top-level one: `unit` is t.)
    const uint32_t unit = f != kNone ? f : t;
    const uint32_t u = spans.top[unit];
    if (unitGroup1[u] == kNone) {
      const uint32_t g = f != kNone ? l1.of(ops.type(f), ops.key(f), BreakdownKind::Operator)
                                    : l1.of(ops.type(t), kNativeKey, BreakdownKind::Native);
      unitGroup1[u] = g;
      BreakdownGroup& grp = l1[g];
      grp.type = ops.type(unit);
      grp.time += spans.end[u] - spans.start[u];
      ++grp.instances;
      if (f != kNone) nameOnce(grp, ops.name[f], spans.start[u]);
    }
    const uint32_t g1 = unitGroup1[u];
    // Level 2: the library operator (its piece in this framework operator), else "Native".
    uint32_t g2;
    if (l != kNone) {
      const uint32_t p = pieceOf[a];
      if (pieceGroup2[p] == kNone) {
        pieceGroup2[p] = l2.of(g1, ops.key(l), BreakdownKind::Operator);
        BreakdownGroup& grp = l2[pieceGroup2[p]];
        const int64_t d = piece.end[p] - piece.start[p];
        grp.time += d;
        ++grp.instances;
        grp.util.add(ops.work(l), ops.device[l], d, peaks);
        nameOnce(grp, ops.name[l], piece.start[p]);
      }
      g2 = pieceGroup2[p];
    } else {
      if (g1 >= nativeGroup2.size()) nativeGroup2.resize(g1 + 1, kNone);
      if (nativeGroup2[g1] == kNone) nativeGroup2[g1] = l2.of(g1, kNativeKey, BreakdownKind::Native);
      g2 = nativeGroup2[g1];
      l2[g2].time += act.endOf(a) - act.start[a];
      ++l2[g2].instances;
    }
    if (!kernels) continue;
    const uint32_t name = activityName(a);
    const uint32_t g3 = l3.of(g2, name, BreakdownKind::Operator);
    l3[g3].name = name;
    l3[g3].time += act.endOf(a) - act.start[a];
    ++l3[g3].instances;
  }

  // Idle inside each framework operator (worked out above), added as the
  // groups were before: framework instances in id order.
  for (uint32_t f = 0; f < ops.size(); ++f) {
    const uint32_t d = spans.top[f];
    if (d == kNone || ops.level(f) != OpLevel::Framework || unitGroup1[d] == kNone) continue;
    const int64_t idle = frameworkIdle[d];
    if (idle <= 0) continue;
    const uint32_t g2 = l2.of(unitGroup1[d], kIdleKey, BreakdownKind::Idle);
    l2[g2].time += idle;
    ++l2[g2].instances;
    if (kernels) {
      const uint32_t g3 = l3.of(g2, kIdleKey, BreakdownKind::Idle);
      l3[g3].time += idle;
      ++l3[g3].instances;
    }
  }
  // Idle inside each library operator: its projection minus its activities' union.
  if (kernels) {
    for (uint32_t p = 0; p < pieceLib.size(); ++p) {
      const int64_t idle = piece.end[p] - piece.start[p] - piece.active[p];
      if (idle <= 0 || pieceGroup2[p] == kNone) continue;
      const uint32_t g3 = l3.of(pieceGroup2[p], kIdleKey, BreakdownKind::Idle);
      l3[g3].time += idle;
      ++l3[g3].instances;
    }
  }
  for (const BreakdownGroup& g : b.level[0]) b.totalTime += g.time;
  // The framework and library groups' names, deferred ones read from the
  // file (OperatorQuery::deferNames): a group's, not every instance's.
  std::vector<uint32_t> groupNames;
  for (int level : {0, 1})
    for (const BreakdownGroup& g : b.level[level]) groupNames.push_back(g.name);
  resolveDeferredNames(report, groupNames);
  size_t k = 0;
  for (int level : {0, 1})
    for (BreakdownGroup& g : b.level[level]) g.name = groupNames[k++];
  return b;
}

std::string_view breakdownName(const BreakdownGroup& g, const StringPool& names) {
  switch (g.kind) {
    case BreakdownKind::Native: return "Native";
    case BreakdownKind::Idle: return "Idle";
    case BreakdownKind::Operator: return names.get(g.name);
  }
  return "";
}

std::string breakdownKey(const BreakdownGroup& g, const OperatorSet& ops, const StringPool& names, int level) {
  if (g.kind != BreakdownKind::Operator) return std::string(breakdownName(g, names));
  return std::string(level == 2 ? names.get(g.key) : ops.recognizer.keyText(g.key));
}

std::vector<uint32_t> breakdownLeaves(const Breakdown& b, const OperatorSet& ops, const StringPool& names,
                                      bool kernels, const std::string& orderBy, int64_t limit) {
  // Siblings ordered by order-by, then time, then name (level 1: then type).
  auto less = [&](const BreakdownGroup& x, const BreakdownGroup& y, bool types) {
    if (orderBy == "avg") {
      const int64_t ax = x.instances ? x.time / x.instances : 0, ay = y.instances ? y.time / y.instances : 0;
      if (ax != ay) return ax > ay;
    } else if (orderBy == "instances") {
      if (x.instances != y.instances) return x.instances > y.instances;
    } else if (orderBy == "name") {
      const std::string_view nx = breakdownName(x, names), ny = breakdownName(y, names);
      if (nx != ny) return nx < ny;
    }
    if (x.time != y.time) return x.time > y.time;
    const std::string_view nx = breakdownName(x, names), ny = breakdownName(y, names);
    if (nx != ny) return nx < ny;
    return types && ops.recognizer.typeName(x.type) < ops.recognizer.typeName(y.type);
  };
  const int depth = kernels ? 3 : 2;
  // Children lists per group, each sorted.
  std::vector<std::vector<uint32_t>> children[2];
  for (int lv = 0; lv + 1 < depth; ++lv) {
    children[lv].resize(b.level[lv].size());
    for (uint32_t g = 0; g < b.level[lv + 1].size(); ++g) children[lv][b.level[lv + 1][g].parent].push_back(g);
    for (auto& list : children[lv])
      std::stable_sort(list.begin(), list.end(),
                       [&](uint32_t x, uint32_t y) { return less(b.level[lv + 1][x], b.level[lv + 1][y], false); });
  }
  std::vector<uint32_t> roots(b.level[0].size());
  std::iota(roots.begin(), roots.end(), 0u);
  std::stable_sort(roots.begin(), roots.end(),
                   [&](uint32_t x, uint32_t y) { return less(b.level[0][x], b.level[0][y], true); });
  std::vector<uint32_t> leaves;
  for (uint32_t r : roots) {
    for (uint32_t g2 : children[0][r]) {
      if (!kernels) {
        leaves.push_back(g2);
        continue;
      }
      for (uint32_t g3 : children[1][g2]) leaves.push_back(g3);
    }
  }
  if (limit >= 0 && static_cast<size_t>(limit) < leaves.size()) {
    // Keep the largest leaves, in the order above.
    const std::vector<BreakdownGroup>& lv = b.level[depth - 1];
    std::vector<uint32_t> rank(leaves.size());
    std::iota(rank.begin(), rank.end(), 0u);
    std::stable_sort(rank.begin(), rank.end(),
                     [&](uint32_t x, uint32_t y) { return lv[leaves[x]].time > lv[leaves[y]].time; });
    std::vector<uint8_t> keep(leaves.size(), 0);
    for (int64_t i = 0; i < limit; ++i) keep[rank[i]] = 1;
    std::vector<uint32_t> kept;
    for (size_t i = 0; i < leaves.size(); ++i)
      if (keep[i]) kept.push_back(leaves[i]);
    leaves = std::move(kept);
  }
  return leaves;
}

}  // namespace asys
