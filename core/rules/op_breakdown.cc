#include "core/rules/op_breakdown.h"

#include <algorithm>
#include <numeric>
#include <optional>

#include "core/analysis/key_groups.h"
#include "core/analysis/kernel_names.h"
#include "core/analysis/memcpy_names.h"
#include "core/base/error.h"
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

// Items open while the activities pass, by a 64-bit key (an instance, a
// (library, unit) pair): an open-addressing table with linear probing and
// erase by backward shift, sized by the items open at once (the operators
// running at a time), not by the report.
class OpenIndex {
 public:
  static constexpr uint32_t kAbsent = 0xFFFFFFFFu;
  uint32_t find(uint64_t key) const {
    if (slots_.empty()) return kAbsent;
    for (size_t s = mix(key) & mask_;; s = (s + 1) & mask_) {
      if (slots_[s].value == kAbsent) return kAbsent;
      if (slots_[s].key == key) return slots_[s].value;
    }
  }
  // `key` is not in the index.
  void insert(uint64_t key, uint32_t value) {
    if ((size_ + 1) * 2 > slots_.size()) grow();
    size_t s = mix(key) & mask_;
    while (slots_[s].value != kAbsent) s = (s + 1) & mask_;
    slots_[s] = {key, value};
    ++size_;
  }
  // `key` is in the index.
  void erase(uint64_t key) {
    size_t hole = mix(key) & mask_;
    while (slots_[hole].value == kAbsent || slots_[hole].key != key) hole = (hole + 1) & mask_;
    for (size_t j = (hole + 1) & mask_; slots_[j].value != kAbsent; j = (j + 1) & mask_) {
      // The entry at j moves into the hole when the hole lies between its
      // home slot and j (cyclically).
      const size_t home = mix(slots_[j].key) & mask_;
      if (((j - home) & mask_) >= ((j - hole) & mask_)) {
        slots_[hole] = slots_[j];
        hole = j;
      }
    }
    slots_[hole].value = kAbsent;
    --size_;
  }
  size_t size() const { return size_; }

 private:
  struct Slot {
    uint64_t key = 0;
    uint32_t value = kAbsent;
  };
  static uint64_t mix(uint64_t k) {
    k ^= k >> 33;
    k *= 0xFF51AFD7ED558CCDull;
    k ^= k >> 33;
    return k;
  }
  void grow() {
    std::vector<Slot> old(std::max<size_t>(64, slots_.size() * 2));
    old.swap(slots_);
    mask_ = slots_.size() - 1;
    for (const Slot& o : old) {
      if (o.value == kAbsent) continue;
      size_t s = mix(o.key) & mask_;
      while (slots_[s].value != kAbsent) s = (s + 1) & mask_;
      slots_[s] = o;
    }
  }
  std::vector<Slot> slots_;
  size_t mask_ = 0, size_ = 0;
};

// A pool of records reused once given back (their vectors keep their room).
template <typename T>
class Pool {
 public:
  uint32_t take() {
    if (!free_.empty()) {
      const uint32_t i = free_.back();
      free_.pop_back();
      return i;
    }
    items_.emplace_back();
    return static_cast<uint32_t>(items_.size() - 1);
  }
  void give(uint32_t i) { free_.push_back(i); }
  T& operator[](uint32_t i) { return items_[i]; }

 private:
  std::vector<T> items_;
  std::vector<uint32_t> free_;
};

struct Block {
  int64_t start, end;
};

// A top-level instance (a "unit": level 1's framework operator, or the
// top-level operator of a Native group) while its activities pass: its
// projection so far (first start, latest end), its level-1 group, and for a
// framework operator what its Idle is made of: its native activities'
// union so far (disjoint blocks in start order: they come in start order)
// and its library pieces.
struct OpenUnit {
  uint32_t instance = kNone, group = 0;
  bool framework = false;
  int64_t start = 0, end = 0;
  std::vector<Block> native;
  std::vector<uint32_t> pieces;  // OpenPiece indices, in start order
};

// A library instance's piece in one unit while it is open: its projection
// so far and the gaps between its activities (its Idle), its level-2 group
// and its rank among the pieces (first seen first).
struct OpenPiece {
  uint32_t library = kNone, group = 0;
  uint64_t rank = 0;
  int64_t start = 0, end = 0, gaps = 0;
};

// The Idle time of a group's children, added once the activities have
// passed, in the order of `first` (the groups were made in that order).
struct IdleSum {
  uint64_t first = UINT64_MAX;
  int64_t time = 0, instances = 0;
  void add(uint64_t order, int64_t idle) {
    first = std::min(first, order);
    time += idle;
    ++instances;
  }
};

// The length of the union of two lists of blocks, each in start order,
// within [from, to].
int64_t unionLength(const std::vector<Block>& a, const std::vector<Block>& b, int64_t from, int64_t to) {
  int64_t covered = 0, coveredTo = INT64_MIN;
  size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    const Block& x = j == b.size() || (i < a.size() && a[i].start <= b[j].start) ? a[i++] : b[j++];
    const int64_t s = std::max(x.start, from), e = std::min(x.end, to);
    if (e <= s || e <= coveredTo) continue;
    covered += e - std::max(s, coveredTo);
    coveredTo = e;
  }
  return covered;
}

}  // namespace

// One pass over the activities in start order, each top-level instance
// (unit) and library piece held only while its activities pass: a unit is
// closed at its last activity (found by a pass backwards: one bit an
// activity), its pieces with it (a piece's activities are its unit's).
// What a closed unit and its pieces add (their projections' times, the
// library utilisation, the Idle times) is summed into their groups; the
// groups themselves are made as the activities come, in the order the
// earlier passes made them (rows tie on time by that order), the Idle ones
// after the rest, ordered by their first framework instance or piece.
// The union an Idle time subtracts does not depend on the order it is
// taken in, so a framework operator's is taken when it closes, over its
// pieces' final projections and its native activities. Nothing here is by
// instance or by piece (the dense index, the projections, the pieces'
// unions and the idle sweep: 366 MiB over the operator set at scale 2500
// were); what is open at once is the operators running at a time.
Breakdown computeBreakdown(RuleContext& ctx, OperatorSet& ops, bool kernels) {
  Breakdown b;
  Report& report = ctx.report;
  StringPool& strings = report.strings();
  // Read neither here nor by the callers after: the activities' device, and
  // without the kernel level their kind and row (read only for the kernels'
  // names).
  // (With more than 64 devices the list holds the device and kind columns
  // in place of `place`: OperatorSet's ActivitySelection::packPlaces.)
  std::vector<int32_t>().swap(ops.activities.deviceId);
  if (!kernels) {
    std::vector<ActivityKind>().swap(ops.activities.kind);
    std::vector<uint8_t>().swap(ops.activities.place);
    std::vector<int32_t>().swap(ops.activities.placeDevices);
    std::vector<uint32_t>().swap(ops.activities.row);
  }
  const PpuActivities& act = ops.activities;
  const size_t n = act.size();
  const DevicePeaks peaks(report);

  // Each unit's last activity: one bit an activity, found backwards with
  // one bit an instance.
  std::vector<uint64_t> last((n + 63) / 64, 0);
  {
    std::vector<uint64_t> seen((ops.size() + 63) / 64, 0);
    for (size_t a = n; a-- > 0;) {
      const uint32_t t = ops.top[a];
      if (t == kNone || (seen[t >> 6] >> (t & 63)) & 1) continue;
      seen[t >> 6] |= uint64_t{1} << (t & 63);
      last[a >> 6] |= uint64_t{1} << (a & 63);
    }
  }

  Level l1(b.level[0]), l2(b.level[1]), l3(b.level[2]);
  std::vector<uint32_t> nativeGroup2;  // level-1 group -> its Native level-2 group
  std::vector<IdleSum> frameworkIdle;  // by level-1 group, first: framework instance
  std::vector<IdleSum> libraryIdle;    // by level-2 group, first: piece rank
  // The kernel level's names.
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
    switch (act.kindOf(a)) {
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

  OpenIndex openUnits, openPieces;  // by unit instance; by (library, unit instance)
  Pool<OpenUnit> units;
  Pool<OpenPiece> pieces;
  uint64_t pieceRank = 0;
  std::vector<Block> pieceBlocks;
  // A unit's last activity has passed: its pieces' and its own times, and
  // a framework operator's Idle, go to their groups.
  auto close = [&](uint32_t u) {
    OpenUnit& U = units[u];
    l1[U.group].time += U.end - U.start;
    pieceBlocks.clear();
    for (uint32_t p : U.pieces) {
      const OpenPiece& P = pieces[p];
      const int64_t d = P.end - P.start;
      BreakdownGroup& grp = l2[P.group];
      grp.time += d;
      // The library level's utilisation (shown without the kernel level,
      // whose set keeps no instance data type or device: OperatorQuery::work).
      if (!kernels) grp.util.add(ops.work(P.library), ops.deviceOf(P.library), d, peaks);
      // A library operator's Idle: its projection less its activities' union.
      if (kernels && P.gaps > 0) {
        if (P.group >= libraryIdle.size()) libraryIdle.resize(P.group + 1);
        libraryIdle[P.group].add(P.rank, P.gaps);
      }
      if (U.framework) pieceBlocks.push_back({P.start, P.end});
      openPieces.erase(pack(P.library, U.instance));
      pieces.give(p);
    }
    if (U.framework) {
      // Its projection less the union of its pieces' and native activities'.
      const int64_t idle = U.end - U.start - unionLength(pieceBlocks, U.native, U.start, U.end);
      if (idle > 0) {
        if (U.group >= frameworkIdle.size()) frameworkIdle.resize(U.group + 1);
        frameworkIdle[U.group].add(U.instance, idle);
      }
    }
    openUnits.erase(U.instance);
    units.give(u);
  };

  for (size_t a = 0; a < n; ++a) {
    const uint32_t t = ops.top[a];
    if (t == kNone) continue;
    // Level 1: the framework operator (a framework instance is its
    // activities' top-level one), else "Native" of the top-level operator's type.
    const bool framework = ops.level(t) == OpLevel::Framework;
    const uint32_t l = ops.libraryOf(a);
    const int64_t start = act.start[a], end = act.endOf(a), extent = std::max(end, start);
    uint32_t u = openUnits.find(t);
    if (u == OpenIndex::kAbsent) {
      u = units.take();
      openUnits.insert(t, u);
      const uint32_t g = framework ? l1.of(ops.type(t), ops.key(t), BreakdownKind::Operator)
                                   : l1.of(ops.type(t), kNativeKey, BreakdownKind::Native);
      BreakdownGroup& grp = l1[g];
      grp.type = ops.type(t);
      ++grp.instances;
      if (framework) nameOnce(grp, ops.name[t], start);
      OpenUnit& U = units[u];
      U.instance = t;
      U.group = g;
      U.framework = framework;
      U.start = start;
      U.end = extent;
      U.native.clear();
      U.pieces.clear();
    } else {
      units[u].end = std::max(units[u].end, extent);
    }
    OpenUnit& U = units[u];
    const uint32_t g1 = U.group;
    // Level 2: the library operator (its piece in this unit), else "Native".
    uint32_t g2;
    if (l != kNone) {
      const uint64_t key = pack(l, t);
      uint32_t p = openPieces.find(key);
      if (p == OpenIndex::kAbsent) {
        p = pieces.take();
        openPieces.insert(key, p);
        OpenPiece& P = pieces[p];
        P.library = l;
        P.rank = pieceRank++;
        P.start = start;
        P.end = extent;
        P.gaps = 0;
        P.group = l2.of(g1, ops.key(l), BreakdownKind::Operator);
        BreakdownGroup& grp = l2[P.group];
        ++grp.instances;
        nameOnce(grp, ops.name[l], start);
        U.pieces.push_back(p);
      } else {
        OpenPiece& P = pieces[p];
        if (start > P.end) {  // a gap: the open block is complete
          P.gaps += start - P.end;
          P.end = extent;
        } else {
          P.end = std::max(P.end, extent);
        }
      }
      g2 = pieces[p].group;
    } else {
      if (g1 >= nativeGroup2.size()) nativeGroup2.resize(g1 + 1, kNone);
      if (nativeGroup2[g1] == kNone) nativeGroup2[g1] = l2.of(g1, kNativeKey, BreakdownKind::Native);
      g2 = nativeGroup2[g1];
      l2[g2].time += end - start;
      ++l2[g2].instances;
      if (framework && end > start) {
        if (!U.native.empty() && start <= U.native.back().end) U.native.back().end = std::max(U.native.back().end, end);
        else U.native.push_back({start, end});
      }
    }
    if (kernels) {
      const uint32_t name = activityName(a);
      const uint32_t g3 = l3.of(g2, name, BreakdownKind::Operator);
      l3[g3].name = name;
      l3[g3].time += end - start;
      ++l3[g3].instances;
    }
    if ((last[a >> 6] >> (a & 63)) & 1) close(u);
  }
  if (openUnits.size() != 0 || openPieces.size() != 0) throw Error("breakdown: an operator was left open");

  // Idle inside each framework operator, added as the groups were before:
  // the level-1 groups in the order of their first framework instance with
  // Idle time.
  auto byFirst = [](const std::vector<IdleSum>& sums) {
    std::vector<uint32_t> order;
    for (uint32_t g = 0; g < sums.size(); ++g)
      if (sums[g].instances > 0) order.push_back(g);
    std::sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) { return sums[x].first < sums[y].first; });
    return order;
  };
  for (uint32_t g1 : byFirst(frameworkIdle)) {
    const IdleSum& idle = frameworkIdle[g1];
    const uint32_t g2 = l2.of(g1, kIdleKey, BreakdownKind::Idle);
    l2[g2].time += idle.time;
    l2[g2].instances += idle.instances;
    if (kernels) {
      const uint32_t g3 = l3.of(g2, kIdleKey, BreakdownKind::Idle);
      l3[g3].time += idle.time;
      l3[g3].instances += idle.instances;
    }
  }
  // Idle inside each library operator: its projection minus its activities'
  // union, in the order of the groups' first piece with Idle time.
  for (uint32_t g2 : byFirst(libraryIdle)) {
    const uint32_t g3 = l3.of(g2, kIdleKey, BreakdownKind::Idle);
    l3[g3].time += libraryIdle[g2].time;
    l3[g3].instances += libraryIdle[g2].instances;
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
