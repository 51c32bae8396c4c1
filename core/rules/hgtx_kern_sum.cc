// hgtx_kern_sum (2.3.9): kernel time per HGTX range name, range thread and
// kernel name, over the kernels each range is associated with.
#include <algorithm>
#include <memory>
#include <numeric>
#include <string_view>
#include <tuple>

#include "core/analysis/grouped_values.h"
#include "core/analysis/key_groups.h"
#include "core/analysis/kernel_names.h"
#include "core/analysis/stats.h"
#include "core/analysis/text_order.h"
#include "core/report/report.h"
#include "core/rules/common.h"
#include "core/rules/hgtx_association_options.h"
#include "core/rules/registry.h"

namespace asys {

namespace {

enum Col : size_t { kRange, kStyle, kPid, kTid, kHgtxInst, kKernInst, kTotal, kAvg, kMed, kMin, kMax, kStdDev, kName };

std::vector<ColumnSpec> columns() {
  return {
      {"HGTX Range", "", CellKind::Text, "Name of the range"},
      {"Style", "", CellKind::Text, "Range style; Start/End or Push/Pop"},
      {"PID", "", CellKind::Int, "Process ID for this set of ranges and kernels"},
      {"TID", "", CellKind::Int, "Thread ID for this set of ranges and kernels"},
      {"HGTX Inst", "", CellKind::Int, "Number of HGTX range instances"},
      {"Kern Inst", "", CellKind::Int, "Number of HGGC kernel instances"},
      {"Total Time", "ns", CellKind::Int, "Total time used by all kernel instances of this range"},
      {"Avg", "ns", CellKind::Int, "Average execution time of this kernel"},
      {"Med", "ns", CellKind::Int, "Median execution time of this kernel"},
      {"Min", "ns", CellKind::Int, "Smallest execution time of this kernel"},
      {"Max", "ns", CellKind::Int, "Largest execution time of this kernel"},
      {"StdDev", "ns", CellKind::Int, "Standard deviation of the time of this kernel"},
      {"Kernel Name", "", CellKind::Text, "Name of the kernel"},
  };
}

// What a row is keyed by, apart from the kernel name.
struct RowKey {
  uint32_t range = kNoString;  // kNoString: standalone (no range)
  bool startEnd = false;
  int64_t globalTid = kNoValue;  // the range's thread, or the launching thread
  int64_t globalPid = kNoValue;  // for a standalone kernel with no launching call
};

// The association as the summary reads it, shared by its table and its
// fleet form: each kernel's name (a dense index), duration, launching call
// and ranges, each range's owner; a row is an (owner, kernel name) pair.
// The activity list is the lean one (ActivitySelection::durationsOnly: no
// start, end, device or kind, not sorted) and each kernel's name is found
// as HGGC_KERNEL is scanned (kernelTag), so no name column is held.
class KernSumWalk {
 public:
  explicit KernSumWalk(RuleContext& ctx)
      : report_(ctx.report),
        namer_(noKernels_, ctx.report.strings(), kernelNameMode(ctx.options)),
        standalone_(ctx.options.flag("standalone")) {
    AssociationFilters filters;
    filters.releaseEvents = true;  // a range's thread and name are all it reads
    filters.durationsOnly = true;
    filters.kernelTag = [this](const Kernels& chunk, size_t i) { return namer_.nameId(chunk, i); };
    filters.kernelChunkColumns = kcol::names;
    // A range is its row's owner (name, style, thread), taken as the ranges
    // are chosen: the association keeps only their spans for its sweep
    // (sweepOnly), and the rule none of them after it.
    filters.rangesChosen = [this](const AssociationRanges& R) {
      ownerOfSlot_.resize(R.size());
      for (size_t r = 0; r < R.size(); ++r)
        ownerOfSlot_[r] = ownerOf(R.name[r], R.startEnd[r] != 0, R.thread(r), kNoValue);
      rangeCount_ = R.size();
    };
    filters.sweepOnly = true;
    in_ = associateForRule(ctx, /*memoryToo=*/false, 0, std::move(filters));
    warning_ = unlaunchedWarning(in_.unlaunched, in_.memoryToo);
    PpuActivities& act = in_.activities;
    in_.association.ranges = AssociationRanges{};
    // A standalone kernel's launching thread.
    if (standalone_) callThread_ = &report_.hggcApi(acol::globalTid).globalTid;
    // The activities by kernel name (dense name ids, in activity order
    // within a name), so that the distinct ranges of a row (HGTX Inst) are
    // counted with one entry per range: the last name each range was seen
    // with. Each kernel's tag (its name's string id) becomes its name's
    // dense id in place, and goes once they are grouped.
    for (size_t a = 0; a < act.size(); ++a) {
      act.tag[a] = kernelNames_.indexOf(act.tag[a]);
      byName_.count(act.tag[a]);
    }
    byName_.startFill(kernelNames_.size());
    for (size_t a = 0; a < act.size(); ++a) byName_.add(act.tag[a], static_cast<uint32_t>(a));
    std::vector<uint32_t>().swap(act.tag);
    // A kernel's process serves only a standalone kernel with no launching
    // call (the graph nodes are followed already).
    if (!standalone_) std::vector<std::pair<uint32_t, int64_t>>().swap(act.unlaunchedPid);
  }

  const std::string& warning() const { return warning_; }
  size_t rangeCount() const { return rangeCount_; }
  size_t nameCount() const { return byName_.groups(); }
  uint32_t nameText(uint32_t n) const { return static_cast<uint32_t>(kernelNames_.key(n)); }
  int64_t duration(uint32_t a) const { return in_.activities.duration.get(a); }
  const RowKey& key(uint32_t owner) const { return keys_[owner]; }
  size_t ownerCount() const { return keys_.size(); }
  // The owners' keys, by owner, for rows that name their owner (after the walk).
  std::vector<RowKey> takeKeys() { return std::move(keys_); }

  // Every (owner, activity, range) of kernel name n's activities; a
  // standalone kernel's has no range (kNoMatch). The same sequence each
  // time it is called.
  template <typename Emit>
  void forEachMembership(uint32_t n, Emit&& emit) {
    const HgtxAssociation& as = in_.association;
    for (const uint32_t a : byName_.of(n)) {
      const RangeList ranges = as.rangesOf(a);
      for (uint32_t r : ranges) emit(ownerOfSlot_[r], a, r);
      if (ranges.empty() && standalone_) {
        const uint32_t call = as.launchCall[a];
        const uint32_t owner = call == kNoMatch ? ownerOf(kNoString, false, kNoValue, in_.activities.processOf(a))
                                                : ownerOf(kNoString, false, (*callThread_)[call], kNoValue);
        emit(owner, a, kNoMatch);
      }
    }
  }

  // The activities and their ranges are done with.
  void release() {
    in_ = AssociatedActivities{};
    byName_ = GroupedLists<uint32_t>();
    std::vector<uint32_t>().swap(ownerOfSlot_);
  }

 private:
  // A row's owner: a range name and style on a thread, or, for a
  // standalone kernel, its launching thread (its process when it has no
  // call). Dense owner ids per range slot: two small lookups per pair, no
  // hashing of tuples.
  uint32_t ownerOf(uint32_t name, bool startEnd, int64_t globalTid, int64_t globalPid) {
    const bool byProcess = globalTid == kNoValue;
    const uint64_t place = places_.indexOf(static_cast<uint64_t>(byProcess ? globalPid : globalTid));
    const uint32_t owner = owners_.indexOf((place << 34) | (static_cast<uint64_t>(byProcess) << 33) |
                                           (static_cast<uint64_t>(startEnd) << 32) | name);
    if (owner == keys_.size()) keys_.push_back({name, startEnd, globalTid, globalPid});
    return owner;
  }

  Report& report_;
  const Kernels noKernels_;  // the namer reads the scan's chunks, never this
  KernelNamer namer_;
  const bool standalone_;
  AssociatedActivities in_;
  std::string warning_;
  std::vector<RowKey> keys_;  // by owner
  KeyGroups places_, owners_, kernelNames_;
  std::vector<uint32_t> ownerOfSlot_;
  size_t rangeCount_ = 0;
  const std::vector<int64_t>* callThread_ = nullptr;
  GroupedLists<uint32_t> byName_;
};

// One name's rows: each (owner, name) row's distinct ranges (HGTX Inst)
// and its kernels' durations (a kernel counts once per row, however many
// of the row's ranges, nested ranges of one name, it is associated with),
// in two passes over the name's memberships. `lastName`: by range slot, the
// name it was counted with last (kNoMatch at first), kept across names.
// rowOf(owner) gives the row's index in `durations` and `hgtxInst`, made
// as rows are found in the first pass and found again in the second.
template <typename RowOf>
void foldName(KernSumWalk& walk, uint32_t n, std::vector<uint32_t>& lastName, RowOf&& rowOf,
              GroupedValues& durations, std::vector<int64_t>& hgtxInst) {
  std::vector<uint32_t> lastActivity;
  walk.forEachMembership(n, [&](uint32_t owner, uint32_t a, uint32_t r) {
    const uint32_t g = rowOf(owner);
    if (g >= hgtxInst.size()) {
      hgtxInst.resize(g + 1, 0);
      lastActivity.resize(g + 1, kNoMatch);
    }
    if (r != kNoMatch && lastName[r] != n) {
      lastName[r] = n;
      ++hgtxInst[g];
    }
    if (lastActivity[g] != a) {
      lastActivity[g] = a;
      durations.count(g);
    }
  });
  durations.startFill(hgtxInst.size());
  std::fill(lastActivity.begin(), lastActivity.end(), kNoMatch);
  walk.forEachMembership(n, [&](uint32_t owner, uint32_t a, uint32_t) {
    const uint32_t g = rowOf(owner);
    if (lastActivity[g] == a) return;
    lastActivity[g] = a;
    durations.add(g, walk.duration(a));
  });
}

// Every row, a kernel name at a time: a name's rows are all found while
// its memberships are walked, so only one name's durations are held at
// once. done(n, owners, hgtxInst, durations): name n's rows, row g being
// (owners[g], n).
template <typename Done>
void foldNames(KernSumWalk& walk, Done&& done) {
  std::vector<uint32_t> lastName(walk.rangeCount(), kNoMatch);
  std::vector<uint32_t> rowOfOwner;  // the current name's row of an owner, or kNoMatch
  std::vector<uint32_t> owners;      // by row of the current name
  for (uint32_t n = 0; n < walk.nameCount(); ++n) {
    owners.clear();
    auto rowOf = [&](uint32_t owner) {
      if (owner >= rowOfOwner.size()) rowOfOwner.resize(owner + 1, kNoMatch);
      if (rowOfOwner[owner] == kNoMatch) {
        rowOfOwner[owner] = static_cast<uint32_t>(owners.size());
        owners.push_back(owner);
      }
      return rowOfOwner[owner];
    };
    GroupedValues durations;
    std::vector<int64_t> hgtxInst;
    foldName(walk, n, lastName, rowOf, durations, hgtxInst);
    for (const uint32_t owner : owners) rowOfOwner[owner] = kNoMatch;
    done(n, owners, hgtxInst, durations);
  }
}

// The fleet form: every row's durations, held at once (docs/fleet.md).
GroupedDurations groupedDurations(RuleContext& ctx) {
  KernSumWalk walk(ctx);
  StringPool& strings = ctx.report.strings();
  std::vector<uint32_t> rowOwner, rowKernel;  // by row; rowKernel: the name's string id
  std::vector<int64_t> hgtxInst;
  GroupedValues durations;
  foldNames(walk, [&](uint32_t n, const std::vector<uint32_t>& owners, const std::vector<int64_t>& inst,
                      GroupedValues& values) {
    for (size_t g = 0; g < owners.size(); ++g) {
      rowOwner.push_back(owners[g]);
      rowKernel.push_back(walk.nameText(n));
      hgtxInst.push_back(inst[g]);
      for (const int64_t d : values.of(g)) durations.append(d);
      durations.endGroup();
    }
  });
  walk.release();
  GroupedDurations out;
  out.groupCount = rowOwner.size();
  out.grouped = std::move(durations);
  // Keys: whether the row has a range (standalone rows have none), its
  // style, the range's (or launching) thread, the process of a kernel with
  // no launching call; the range and kernel names; HGTX Inst adds up (a
  // range belongs to one report).
  out.ids = {{IdKind::kPlain, {}}, {IdKind::kPlain, {}}, {IdKind::kThread, {}}, {IdKind::kThread, {}}};
  out.texts.resize(2);
  for (uint32_t g = 0; g < rowOwner.size(); ++g) {
    const RowKey& key = walk.key(rowOwner[g]);
    out.ids[0].values.push_back(key.range != kNoString);
    out.ids[1].values.push_back(key.startEnd);
    out.ids[2].values.push_back(key.globalTid);
    out.ids[3].values.push_back(key.globalPid);
    out.texts[0].emplace_back(key.range != kNoString ? strings.get(key.range) : std::string_view());
    out.texts[1].emplace_back(strings.get(rowKernel[g]));
  }
  out.sums = {std::move(hgtxInst)};
  if (!walk.warning().empty()) out.warnings.push_back(walk.warning());
  return out;
}

// A row as both forms show it.
struct SumRow {
  bool hasRange;
  std::string_view range;
  bool startEnd;
  int64_t hgtxInst, thread, process;  // thread: kNoValue for a kernel shown by its process
  const DurationStats& stats;
  std::string_view kernel;
};

void appendRow(Table& t, const SumRow& r) {
  const DurationStats& s = r.stats;
  if (r.hasRange) {
    t.setText(kRange, r.range);
    t.setText(kStyle, styleName(r.startEnd));
    t.setInt(kHgtxInst, r.hgtxInst);
  }
  if (r.thread != kNoValue) {
    t.setInt(kPid, pidOf(r.thread));
    t.setInt(kTid, tidOf(r.thread));
  } else {
    t.setInt(kPid, pidOf(r.process));
  }
  t.setInt(kKernInst, s.count);
  t.setInt(kTotal, s.total);
  t.setInt(kAvg, s.avg);
  t.setInt(kMed, s.med);
  t.setInt(kMin, s.min);
  t.setInt(kMax, s.max);
  t.setInt(kStdDev, s.stddev);
  t.setText(kName, r.kernel);
  t.endRow();
}

// Order: range name, PID, TID ascending (standalone rows last), then Total
// Time descending; ties by style, then kernel name. rowAt(i): row i's
// SumRow; rangeRank, kernelRank: the names' ranks in text order.
template <typename RowAt>
std::vector<uint32_t> rowOrder(size_t rows, RowAt&& rowAt, const std::vector<uint32_t>& rangeRank,
                               const std::vector<uint32_t>& kernelRank) {
  std::vector<uint32_t> order(rows);
  std::iota(order.begin(), order.end(), 0u);
  auto sortKey = [&](uint32_t i) {
    const SumRow r = rowAt(i);
    const int64_t pid = r.thread != kNoValue ? pidOf(r.thread) : pidOf(r.process);
    const int64_t tid = r.thread != kNoValue ? tidOf(r.thread) : -1;
    return std::make_tuple(!r.hasRange, rangeRank[i], pid, tid, r.startEnd, -r.stats.total, kernelRank[i]);
  };
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return sortKey(a) < sortKey(b); });
  return order;
}

// The fleet's table, from its merged groups.
Table groupsTable(const MergedGroups& g, const RuleOptions&) {
  const std::vector<int64_t>&hasRange = g.ids[0].values, &startEnd = g.ids[1].values,
                         &thread = g.ids[2].values, &process = g.ids[3].values;
  const std::vector<std::string>&range = g.texts[0], &kernel = g.texts[1];
  auto rowAt = [&](uint32_t i) {
    return SumRow{hasRange[i] != 0, range[i],  startEnd[i] != 0, g.sums[0][i], thread[i], process[i],
                  g.stats[i],       kernel[i]};
  };
  Table t(columns());
  for (uint32_t i : rowOrder(g.size(), rowAt, textRanks(range), textRanks(kernel))) appendRow(t, rowAt(i));
  return t;
}

// Ranks of string ids in their texts' order (equal texts, equal ranks),
// for the ids `ids` holds (kNoString reads as "").
std::vector<uint32_t> idRanks(const std::vector<uint32_t>& ids, const StringPool& strings) {
  std::vector<uint32_t> distinct(ids);
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  std::vector<uint32_t> byText(distinct.size());
  std::iota(byText.begin(), byText.end(), 0u);
  std::sort(byText.begin(), byText.end(),
            [&](uint32_t a, uint32_t b) { return strings.get(distinct[a]) < strings.get(distinct[b]); });
  std::vector<uint32_t> rankOfDistinct(distinct.size());
  for (size_t i = 0, r = 0; i < byText.size(); ++i) {
    if (i > 0 && strings.get(distinct[byText[i]]) != strings.get(distinct[byText[i - 1]])) ++r;
    rankOfDistinct[byText[i]] = static_cast<uint32_t>(r);
  }
  std::vector<uint32_t> rank(ids.size());
  for (size_t i = 0; i < ids.size(); ++i)
    rank[i] = rankOfDistinct[std::lower_bound(distinct.begin(), distinct.end(), ids[i]) - distinct.begin()];
  return rank;
}

// One report's table as a view: each row's owner, kernel name id, HGTX
// Inst and statistics (68 bytes a row; the owners' keys, 24 bytes, once
// each), its cells made a chunk at a time, its texts read from the
// report's pool.
class KernSumRows : public RowSource {
 public:
  KernSumRows(const StringPool& strings) : strings_(strings) {}

  void add(uint32_t owner, uint32_t kernel, int64_t hgtxInst, const DurationStats& stats) {
    owner_.push_back(owner);
    kernel_.push_back(kernel);
    hgtxInst_.push_back(static_cast<uint32_t>(hgtxInst));  // distinct ranges: fewer than 2^32
    stats_.push_back(stats);
  }
  // After the last add: the owners' keys, and the rows in output order.
  void sort(std::vector<RowKey> keys) {
    keys_ = std::move(keys);
    std::vector<uint32_t> rangeId(owner_.size());
    for (size_t i = 0; i < owner_.size(); ++i) rangeId[i] = keys_[owner_[i]].range;
    const std::vector<uint32_t> rangeRank = idRanks(rangeId, strings_);
    std::vector<uint32_t>().swap(rangeId);
    // The sort reads each row's key many times, in no order: one copy a
    // row while it sorts (after the association is given back, below the
    // rule's peak), not a lookup through the owner each time.
    std::vector<RowKey> rowKeys(owner_.size());
    for (size_t i = 0; i < owner_.size(); ++i) rowKeys[i] = keys_[owner_[i]];
    order_ = rowOrder(owner_.size(), [&](uint32_t i) { return rowAt(rowKeys[i], i); }, rangeRank,
                      idRanks(kernel_, strings_));
  }

  size_t rowCount() const override { return order_.size(); }
  void appendRows(size_t first, size_t count, Table& t) override {
    for (size_t o = first; o < first + count && o < order_.size(); ++o) appendRow(t, rowAt(order_[o]));
  }

 private:
  SumRow rowAt(uint32_t i) const { return rowAt(keys_[owner_[i]], i); }
  SumRow rowAt(const RowKey& k, uint32_t i) const {
    return SumRow{k.range != kNoString, strings_.get(k.range), k.startEnd, hgtxInst_[i], k.globalTid, k.globalPid,
                  stats_[i],           strings_.get(kernel_[i])};
  }

  const StringPool& strings_;
  std::vector<RowKey> keys_;  // by owner
  std::vector<uint32_t> owner_, kernel_, hgtxInst_;
  std::vector<DurationStats> stats_;
  std::vector<uint32_t> order_;
};

// One report: a kernel name's durations are summarised as soon as its
// rows are complete, so no more than one name's are held.
Table compute(RuleContext& ctx) {
  KernSumWalk walk(ctx);
  auto rows = std::make_shared<KernSumRows>(ctx.report.strings());
  foldNames(walk, [&](uint32_t n, const std::vector<uint32_t>& owners, const std::vector<int64_t>& inst,
                      GroupedValues& values) {
    const std::vector<DurationStats> stats = summarizeEach(values);
    for (size_t g = 0; g < owners.size(); ++g) rows->add(owners[g], walk.nameText(n), inst[g], stats[g]);
  });
  const std::string warning = walk.warning();
  walk.release();
  rows->sort(walk.takeKeys());
  Table t(columns(), std::move(rows));
  if (!warning.empty()) t.addWarning(warning);
  return t;
}

}  // namespace

const RuleSpec& hgtxKernSumRule() {
  static const RuleSpec rule{
      .name = "hgtx_kern_sum",
      .title = "HGTX Range Kernel Summary",
      .titleZh = "HGTX关联kernel汇总",
      .rowHelp = "Row number of the HGTX range kernel summary",
      .topic = "HGTX",
      .description =
          "Kernel time per HGTX range name, range thread and kernel name. A range is\n"
          "associated with the kernels whose launching HGGC API call ran on the range's\n"
          "thread inside the range (range.start <= call.start, call.end <= range.end), and,\n"
          "with graph mapping, with the kernels of the HGGC graph nodes created inside it.\n"
          "Nested ranges each count a kernel; a kernel counts once per row. HGTX Inst is\n"
          "the number of distinct ranges, Kern Inst the number of distinct kernels.\n"
          "A range never closed ends at the last HGTX timestamp; a start/end range that\n"
          "ended on another thread takes no part. Sorted by range name, PID and TID, then\n"
          "by Total Time descending; standalone kernels (standalone) come last.",
      .descriptionZh =
          "判断HGTX range和HGGC kernel的原则为：HGTX range持续时间范围内，相同线程的HGGC API触发的HGGC kernel，认为和此HGTX range关联。\n"
          "对每进程、每线程，将相同HGTX range名称且相同Kernel名称的Kernel执行信息进行汇总：Kernel执行时间、同名HGTX出现次数、同名Kernel出现次数等。\n"
          "统计结果组织如下：每线程，每HGTX range名称，每HGGC kernel名称导出一行数据，若选项standalone使能，未关联HGTX range的HGGC kernel所在行的HGTX相关信息将标记为无效符号-。统计结果排序方式如下：\n"
          "按照HGTX range名称、进程ID和线程ID升序排列。\n"
          "相同线程相同HGTX range名称的Kernel按照Total Time列降序排列。",
      .options = {kernelNameModeOption(), standaloneOption(), deviceOption(), graphMappingOption(),
                  rangeIncludeOption(), rangeExcludeOption()},
      .columns = columns(),
      .needs = associationNeeds(false),
      .pie = {"Total Time", {"HGTX Range", "PID", "Kernel Name"}},
      .compute = compute,
      .groupedDurations = groupedDurations,
      .groupsTable = groupsTable,
      .memoryPerRow = 40,  // 94,256 / 745,328 KiB at scale 250 / 2500: 32.3, 25.6 bytes a row (2026-12-06, calls9)
  };
  return rule;
}

}  // namespace asys
