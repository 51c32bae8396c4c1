// ppu_op_trace (2.3.26, PPU算子跟踪): one row per PPU operator and PPU
// activity, operators by start, each operator's activities by start.
#include <algorithm>
#include <numeric>
#include <unordered_map>

#include "core/analysis/memcpy_names.h"
#include "core/base/error.h"
#include "core/base/stage_timer.h"
#include "core/base/small_ids.h"
#include "core/rules/common.h"
#include "core/rules/hgtx_association_options.h"
#include "core/rules/op_options.h"
#include "core/rules/registry.h"

namespace asys {

namespace {

enum Col : size_t {
  kType, kName, kOpStart, kOpDuration, kOpId, kActivityId, kPid, kDevice, kContext, kStream, kStart, kDuration,
  kActivityName
};

// The example's columns (output-conventions.md: they win over the list).
std::vector<ColumnSpec> columns() {
  return {
      {"OP Type", "", CellKind::Text, "PPU operator type"},
      {"OP Name", "", CellKind::Text, "Name of the PPU operator"},
      {"OP Start", "ns", CellKind::Int, "Start timestamp of PPU operator"},
      {"OP Duration", "ns", CellKind::Int, "Duration of PPU operator"},
      {"OP ID", "", CellKind::Int, "Identifier of the PPU operator in this trace (1 = the first to start)"},
      {"Activity ID", "", CellKind::Int,
       "Identifier of the PPU activity: its row in HGGC_KERNEL, after the kernels its row in HGGC_MEMCPY, then "
       "HGGC_MEMSET"},
      {"PID", "", CellKind::Int, "Process identifier"},
      {"Device ID", "", CellKind::Int, "PPU device identifier"},
      {"Context ID", "", CellKind::Int, "Context identifier"},
      {"Stream ID", "", CellKind::Int, "Stream identifier"},
      {"Activity Start", "ns", CellKind::Int, "Start timestamp of the PPU activity"},
      {"Activity Duration", "ns", CellKind::Int, "Duration of the PPU activity"},
      {"Activity Name", "", CellKind::Text, "Name of the PPU activity (kernel, memcpy or memset)"},
  };
}

// Where an activity ran and for which process: (process, device, context,
// stream), each distinct one once. A trace's rows have few of them (tens),
// so an activity's place is a small index, not 24 bytes of columns.
struct Place {
  int64_t globalPid;
  int32_t device, context, stream;  // context, stream -1: NULL
  bool operator==(const Place& o) const {
    return globalPid == o.globalPid && device == o.device && context == o.context && stream == o.stream;
  }
};
struct PlaceHash {
  size_t operator()(const Place& p) const {
    uint64_t h = static_cast<uint64_t>(p.globalPid) * 0x9E3779B97F4A7C15ull;
    h ^= (static_cast<uint64_t>(static_cast<uint32_t>(p.device)) << 40) ^
         (static_cast<uint64_t>(static_cast<uint32_t>(p.context)) << 20) ^ static_cast<uint32_t>(p.stream);
    return static_cast<size_t>(h * 0xC2B2AE3D27D4EB4Full);
  }
};
class Places {
 public:
  uint32_t id(const Place& p) {
    auto [it, added] = ids_.try_emplace(p, static_cast<uint32_t>(places_.size()));
    if (added) places_.push_back(p);
    return it->second;
  }
  const Place& operator[](uint32_t id) const { return places_[id]; }
  void dropIndex() { std::unordered_map<Place, uint32_t, PlaceHash>().swap(ids_); }

 private:
  std::vector<Place> places_;
  std::unordered_map<Place, uint32_t, PlaceHash> ids_;
};

// The trace as a view (issue 20, 2026-12-06, traces9): what a row shows is
// held once, in the order the rows are written, and its cells are made when
// a writer or the viewer asks.
// - By operator, in trace order (the top-level instances that have
//   activities: 16 bytes each): its type, name, length and first row (its
//   start is that row's activity's). The operator set's instance columns
//   are not kept, nor any span by instance (2026-12-06, brk11).
// - By row (27 bytes): its activity (the row's place in the activity
//   list), and by activity the list's start, duration, kind and row, its
//   place (1 byte while there are fewer than 255 places) and name id.
//   The activities' process and device columns, each one's top-level
//   instance and the kernels' place columns are not kept.
// The report's kernel and memory tables are not referred to, so releasing
// them leaves the view whole. Its HGTX_EVENTS is: an operator's name that
// is a range text is read from it when the operator's rows are asked
// (OperatorQuery::deferNames), so the view reads its report.
class OpTraceRows : public RowSource {
 public:
  // An operator's start is its first row's activity's (its activities are
  // in start order, and its projection starts with the first).
  struct Operators {
    std::vector<uint32_t> type, name;  // recognizer type id; report string id (or a deferred one)
    NarrowInts duration;               // its projection's: the first start to the latest end
    std::vector<uint32_t> firstRow;    // by place, and one past the last
  };
  OpTraceRows(OperatorSet ops, Operators byOrder, std::vector<uint32_t> members, Places places, SmallIds placeOf,
              std::vector<uint32_t> nameOf, int64_t kernelRows, int64_t copyRows, Report& report)
      : ops_(std::move(ops)),
        op_(std::move(byOrder)),
        members_(std::move(members)),
        places_(std::move(places)),
        placeOf_(std::move(placeOf)),
        nameOf_(std::move(nameOf)),
        kernelRows_(kernelRows),
        copyRows_(copyRows),
        report_(report),
        strings_(report.strings()) {}

  size_t rowCount() const override { return members_.size(); }
  const OperatorSet& operators() const { return ops_; }

  void appendRows(size_t first, size_t count, Table& t) override {
    if (count == 0) return;
    const PpuActivities& act = ops_.activities;
    // The names of the rows' operators that are range texts (deferred:
    // OperatorQuery::deferNames) read from the file, into a pool of these
    // rows' own: the report's strings do not hold every operator's text.
    const size_t firstOp = operatorOf(first), lastOp = operatorOf(first + count - 1);
    StringPool texts;
    std::vector<uint32_t> textOf(lastOp - firstOp + 1, kNoString);  // by operator from firstOp: an id of `texts`
    {
      std::vector<uint32_t> events, at;
      for (size_t o = firstOp; o <= lastOp; ++o) {
        const uint32_t e = deferredEvent(op_.name[o]);
        if (e == kNoString) continue;
        events.push_back(e);
        at.push_back(static_cast<uint32_t>(o - firstOp));
      }
      if (!events.empty()) {
        const std::vector<uint32_t> ids = report_.hgtxTexts(events, &texts);
        for (size_t k = 0; k < ids.size(); ++k) {
          // A deferred name is a text the scan read: never NULL.
          if (ids[k] == kNoString)
            throw Error(report_.path() + ": table HGTX_EVENTS changed while the report was open");
          textOf[at[k]] = ids[k] & ~StringPool::kOverlayBit;
        }
      }
    }
    // Each row's operator, by its place in the trace.
    size_t o = firstOp;
    int64_t opStart = 0, opEnd = 0;
    for (size_t r = first; r < first + count; ++r) {
      if (r == first || r >= op_.firstRow[o + 1]) {
        while (op_.firstRow[o + 1] <= r) ++o;
        opStart = act.start[members_[op_.firstRow[o]]];
        opEnd = opStart + op_.duration.get(o);
      }
      const uint32_t text = textOf[o - firstOp];
      const uint32_t a = members_[r], row = act.row[a];
      const Place& p = places_[placeOf_.get(a)];
      const int64_t start = act.start[a], end = act.endOf(a);
      t.setText(kType, ops_.recognizer.typeName(op_.type[o]));
      t.setText(kName, text != kNoString ? texts.get(text) : strings_.get(op_.name[o]));
      t.setInt(kOpStart, opStart);
      t.setInt(kOpDuration, opEnd - opStart);
      t.setInt(kOpId, static_cast<int64_t>(o) + 1);
      t.setInt(kPid, pidOf(p.globalPid));
      t.setInt(kDevice, p.device);
      t.setInt(kStart, start);
      t.setInt(kDuration, end - start);
      // Activity ids number kernels, then memcpys, then memsets.
      switch (act.kindOf(a)) {
        case ActivityKind::Kernel: t.setInt(kActivityId, row + 1); break;
        case ActivityKind::Memcpy: t.setInt(kActivityId, kernelRows_ + row + 1); break;
        case ActivityKind::Memset: t.setInt(kActivityId, kernelRows_ + copyRows_ + row + 1); break;
      }
      if (p.context >= 0) t.setInt(kContext, p.context);
      if (p.stream >= 0) t.setInt(kStream, p.stream);
      t.setTextOf(kActivityName, strings_, nameOf_[a]);
      t.setSpan(0, opStart, opEnd);
      t.setSpan(1, start, end);
      t.setEvent(0, eventTableOf(act.kindOf(a)), row);
      t.endRow();
    }
  }

 private:
  // The operator of row r (by its place in the trace).
  size_t operatorOf(size_t r) const {
    return static_cast<size_t>(std::upper_bound(op_.firstRow.begin(), op_.firstRow.end(), r) - op_.firstRow.begin()) - 1;
  }
  OperatorSet ops_;  // its activity list (start, duration, kind, row) and recognizer only
  Operators op_;
  std::vector<uint32_t> members_;  // by row: its activity
  Places places_;
  SmallIds placeOf_;               // by activity
  std::vector<uint32_t> nameOf_;   // by activity: a report string id
  int64_t kernelRows_, copyRows_;
  Report& report_;  // the deferred names' texts
  const StringPool& strings_;
};

Table compute(RuleContext& ctx) {
  Report& report = ctx.report;
  // Kernel columns loaded before the rule, or planned for later rules, stay.
  const uint32_t keptKernels = report.loadedKernelColumns() | report.plannedKernelColumns();
  OperatorQuery query = operatorQuery(ctx);
  query.levels = false;  // each activity's row is its top-level operator's
  query.endsAsDurations = true;
  query.work = false;  // no utilisation column: the instances' data type and device are not kept
  // The range texts are not interned (every PyTorch range has its own,
  // 160-200 MiB of them at scale 2500): an operator's name that is one is
  // read from the file when its rows are written or paged (OpTraceRows).
  query.deferNames = true;
  // Each kernel's place (process, device, context, stream) folded into a
  // small index as the association scans HGGC_KERNEL (1 byte a kernel),
  // instead of its columns kept (20 bytes a kernel) and the activity
  // list's process (8 bytes an activity).
  query.processes = false;
  Places places;
  SmallIds kernelPlace;
  // Room for every kernel (the table's largest rowid), so that the index
  // does not grow by copying as the chunks come.
  kernelPlace.reserve(static_cast<size_t>(report.rowEstimate("HGGC_KERNEL")));
  query.chunkColumns = kcol::contextId | kcol::streamId;  // the list reads globalPid and device anyway
  query.onKernelChunk = [&](const Kernels& k, size_t first) {
    if (kernelPlace.size() < first + k.size()) kernelPlace.resize(first + k.size());
    for (size_t i = 0; i < k.size(); ++i)
      kernelPlace.set(first + i, places.id({k.globalPid[i], k.deviceId[i], k.contextId[i], k.streamId[i]}));
  };
  OperatorSet ops = buildOperators(ctx.report, std::move(query));
  // The rule's own step (ASYS_PROFILE: its peak apart from the operator set's).
  StageTimer timer("ppu_op_trace: rows");
  PpuActivities& act = ops.activities;
  // The list's device is each activity's place's now (below).
  std::vector<int32_t>().swap(act.deviceId);
  const size_t n = act.size();
  constexpr uint32_t kNone = OperatorSet::kNone;

  // Each activity's place and name, first: a kernel's from its row, a
  // memory operation's from its table. Then the kernels' places and the
  // name columns this rule loaded go, before the operators are ordered.
  const MemoryOps& copies = report.memcpys();
  const MemoryOps& sets = report.memsets();
  StringPool& strings = report.strings();
  const int64_t copyRows = static_cast<int64_t>(copies.size());
  int64_t kernelRows = 0;
  SmallIds placeOf;
  placeOf.resize(n);
  std::vector<uint32_t> nameOf(n, kNoString);
  {
    const Kernels& k = kernelNamesFor(report, act, KernelNameMode::Demangled);
    kernelRows = static_cast<int64_t>(k.size());
    KernelNamer namer(k, strings, KernelNameMode::Demangled);
    MemcpyNames memcpyNames(report);
    const uint32_t memsetName = strings.intern("Memset");
    for (uint32_t a = 0; a < n; ++a) {
      if (ops.top[a] == kNone) continue;
      const uint32_t row = act.row[a];
      switch (act.kindOf(a)) {
        case ActivityKind::Kernel:
          placeOf.set(a, kernelPlace.get(row));
          nameOf[a] = namer.nameId(row);
          break;
        case ActivityKind::Memcpy:
          placeOf.set(a, places.id({copies.globalPid[row], copies.deviceId[row], copies.contextId[row],
                                    copies.streamId[row]}));
          nameOf[a] = strings.intern(memcpyNames.name(copies.copyKind[row], copies.dstKind[row]));
          break;
        case ActivityKind::Memset:
          placeOf.set(a, places.id({sets.globalPid[row], sets.deviceId[row], sets.contextId[row],
                                    sets.streamId[row]}));
          nameOf[a] = memsetName;
          break;
      }
    }
  }
  places.dropIndex();
  kernelPlace = SmallIds();
  report.releaseKernelColumns(kcol::names & ~keptKernels);

  // The operators: the top-level instances with activities, numbered as
  // their first activity comes (so in start order), each activity's
  // top-level instance replaced by that number. Their type and name are
  // taken by number, and the instance columns go.
  std::vector<uint32_t> unitInstance;
  {
    std::vector<uint32_t> unitOf(ops.size(), kNone);
    size_t units = 0;
    for (uint32_t t : ops.top)
      if (t != kNone && unitOf[t] == kNone) unitOf[t] = static_cast<uint32_t>(units++);
    unitInstance.resize(units);
    for (uint32_t& t : ops.top) {
      if (t == kNone) continue;
      unitInstance[unitOf[t]] = t;
      t = unitOf[t];
    }
  }
  const size_t units = unitInstance.size();
  OpTraceRows::Operators byOrder;
  byOrder.type.resize(units);
  byOrder.name.resize(units);
  for (size_t u = 0; u < units; ++u) {
    byOrder.type[u] = ops.type(unitInstance[u]);
    byOrder.name[u] = ops.name[unitInstance[u]];
  }
  ops.op = SmallIds();
  std::vector<uint32_t>().swap(ops.name);
  // Each one's projection: its first activity's start to the latest end
  // (an end before its start counts as the start), held as a length.
  std::vector<uint32_t> firstActivity(units, kNone);
  byOrder.duration.assign(units, 0);
  for (uint32_t a = 0; a < n; ++a) {
    const uint32_t u = ops.top[a];
    if (u == kNone) continue;
    if (firstActivity[u] == kNone) firstActivity[u] = a;
    const int64_t s = act.start[firstActivity[u]], e = std::max(act.endOf(a), act.start[a]);
    if (e - s > byOrder.duration.get(u)) byOrder.duration.set(u, e - s);
  }

  // Operators by start (an enclosing one before those it holds: longer
  // first), then by instance: they are numbered in start order, so only a
  // run of equal starts is sorted.
  std::vector<uint32_t> order(units);
  std::iota(order.begin(), order.end(), 0u);
  for (size_t i = 0; i < units;) {
    const int64_t s = act.start[firstActivity[i]];
    size_t j = i + 1;
    while (j < units && act.start[firstActivity[j]] == s) ++j;
    if (j - i > 1)
      std::sort(order.begin() + i, order.begin() + j, [&](uint32_t x, uint32_t y) {
        const int64_t dx = byOrder.duration.get(x), dy = byOrder.duration.get(y);
        if (dx != dy) return dx > dy;
        return unitInstance[x] < unitInstance[y];
      });
    i = j;
  }
  std::vector<uint32_t>().swap(firstActivity);
  std::vector<uint32_t>().swap(unitInstance);
  // The rows in order: operator by operator, each one's activities (in
  // start order). Each operator's rows are counted by number, turned into
  // its first row by its place in `order`, and the activities placed there
  // directly.
  std::vector<uint32_t> members;
  {
    std::vector<uint32_t> next(units, 0);  // by number: its activities, then its next row
    for (uint32_t u : ops.top)
      if (u != kNone) ++next[u];
    byOrder.firstRow.assign(units + 1, 0);
    uint32_t row = 0;
    for (size_t o = 0; o < units; ++o) {
      byOrder.firstRow[o] = row;
      const uint32_t count = next[order[o]];
      next[order[o]] = row;
      row += count;
    }
    byOrder.firstRow[units] = row;
    members.resize(row);
    for (uint32_t a = 0; a < n; ++a)
      if (ops.top[a] != kNone) members[next[ops.top[a]]++] = a;
  }
  std::vector<uint32_t>().swap(ops.top);
  // The operators' type, name and length by place in the trace, in place
  // (each permutation cycle followed once).
  {
    std::vector<uint8_t> done(units, 0);
    for (size_t i = 0; i < units; ++i) {
      if (done[i]) continue;
      const uint32_t type = byOrder.type[i], name = byOrder.name[i];
      const int64_t duration = byOrder.duration.get(i);
      size_t j = i;
      for (;;) {
        done[j] = 1;
        const size_t k = order[j];
        if (k == i) {
          byOrder.type[j] = type;
          byOrder.name[j] = name;
          byOrder.duration.set(j, duration);
          break;
        }
        byOrder.type[j] = byOrder.type[k];
        byOrder.name[j] = byOrder.name[k];
        byOrder.duration.set(j, byOrder.duration.get(k));
        j = k;
      }
    }
  }
  std::vector<uint32_t>().swap(order);

  auto rows = std::make_shared<OpTraceRows>(std::move(ops), std::move(byOrder), std::move(members), std::move(places),
                                            std::move(placeOf), std::move(nameOf), kernelRows, copyRows, report);
  Table t(columns(), rows);
  t.declareSpans({"PPU Operator", "Device Activity"});
  t.declareEvents({"Device Activity"});
  addOperatorWarnings(t, rows->operators());
  return t;
}

}  // namespace

const RuleSpec& ppuOpTraceRule() {
  static const RuleSpec rule{
      .name = "ppu_op_trace",
      .title = "PPU Operator Trace",
      .titleZh = "PPU算子跟踪",
      .rowHelp = "Row number of the PPU operator trace",
      .topic = "Operators",
      .description = std::string(
                         "One row per PPU operator and PPU activity (kernel, memcpy, memset): the\n"
                         "operators of ppu_op_sum (each activity in its top-level operator), by start,\n"
                         "each operator's activities by start. OP Start / OP Duration: the operator's\n"
                         "first activity's start to its last one's end. OP Name is the operator's own\n"
                         "name (not merged); a flash attention prefill paired with its decode reads\n"
                         "'PREFILL + DECODE'. Each row carries the spans 'PPU Operator' and 'Device\n"
                         "Activity' for a timeline.\n") +
                     kCustomRulesHelp,
      .descriptionZh = std::string(
              "PPU算子的执行时间统计方式为：\n"
              "每个PPU算子在PPU侧的执行时间为：本算子关联的PPU侧第一个活动开始，到最后一个活动结束的持续时间\n"
              "跟踪导出结果组织如下：每PPU算子、每PPU活动输出一行数据，按照PPU算子开始时间升序排列，相同PPU算子内的PPU活动按照活动起始时间升序排列。\n") +
          kCustomRulesHelpZh,
      .options = {deviceOption(), rangeIncludeOption(), rangeExcludeOption(), opFilterOption(),
                  noMergeOption("no-merge-flash-attention-prefill-decode-operator",
                                "Merge flash attention prefill decode operators",
                                "合并flash attention的prefill和decode算子"),
                  parseFromOption()},
      .globalOptions = {"ppu-op-config"},
      .columns = columns(),
      .needs = operatorNeeds(),
      .pie = {"Activity Duration", {"OP Type", "OP Name"}},
      .compute = compute,
      .memoryPerRow = 128,  // 124,500 / 933,420 KiB at scale 250 / 2500: 123.3, 92.4 bytes a row (2026-12-06, traces9)
  };
  return rule;
}

}  // namespace asys
