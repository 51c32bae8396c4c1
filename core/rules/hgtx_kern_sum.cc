// hgtx_kern_sum (2.3.9): kernel time per HGTX range name, range thread and
// kernel name, over the kernels each range is associated with.
#include <algorithm>
#include <numeric>
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

// The result as a view (docs/result-views.md): each row's key, kernel name,
// range count and statistics, in output order; its cells are made a chunk
// at a time when written or paged, never held (about 100 bytes a row).
class KernSumRows : public RowSource {
 public:
  KernSumRows(std::vector<RowKey> keys, std::vector<uint32_t> rowOwner, std::vector<uint32_t> rowKernel,
              std::vector<uint32_t> hgtxInst, std::vector<DurationStats> stats, std::vector<uint32_t> order,
              const StringPool& strings)
      : keys_(std::move(keys)),
        rowOwner_(std::move(rowOwner)),
        rowKernel_(std::move(rowKernel)),
        hgtxInst_(std::move(hgtxInst)),
        stats_(std::move(stats)),
        order_(std::move(order)),
        strings_(strings) {}

  size_t rowCount() const override { return order_.size(); }

  void appendRows(size_t first, size_t count, Table& t) override {
    for (size_t i = first; i < first + count; ++i) {
      const uint32_t g = order_[i];
      const RowKey& key = keys_[rowOwner_[g]];
      const DurationStats& s = stats_[g];
      if (key.range != kNoString) {
        t.setText(kRange, strings_.get(key.range));
        t.setText(kStyle, styleName(key.startEnd));
        t.setInt(kHgtxInst, hgtxInst_[g]);
      }
      if (key.globalTid != kNoValue) {
        t.setInt(kPid, pidOf(key.globalTid));
        t.setInt(kTid, tidOf(key.globalTid));
      } else {
        t.setInt(kPid, pidOf(key.globalPid));
      }
      t.setInt(kKernInst, s.count);
      t.setInt(kTotal, s.total);
      t.setInt(kAvg, s.avg);
      t.setInt(kMed, s.med);
      t.setInt(kMin, s.min);
      t.setInt(kMax, s.max);
      t.setInt(kStdDev, s.stddev);
      t.setText(kName, strings_.get(rowKernel_[g]));
      t.endRow();
    }
  }

 private:
  std::vector<RowKey> keys_;
  std::vector<uint32_t> rowOwner_, rowKernel_, hgtxInst_;
  std::vector<DurationStats> stats_;
  std::vector<uint32_t> order_;
  const StringPool& strings_;
};

Table compute(RuleContext& ctx) {
  Report& report = ctx.report;
  AssociationFilters filters;
  filters.releaseEvents = true;  // a range's thread and name are all it reads
  // The kernel names are read once, into the rows' name groups below: then
  // they go, unless they were loaded before or are planned for later rules.
  const uint32_t namesKept = report.loadedKernelColumns() | report.plannedKernelColumns();
  AssociatedActivities in = associateForRule(ctx, /*memoryToo=*/false, kcol::names, std::move(filters));
  const PpuActivities& act = in.activities;
  const HgtxAssociation& as = in.association;
  const AssociationRanges& R = as.ranges;
  const Kernels& k = report.kernels(kcol::names);
  StringPool& strings = report.strings();
  KernelNamer namer(k, strings, kernelNameMode(ctx.options));
  const bool standalone = ctx.options.flag("standalone");

  // A row's owner: a range name and style on a thread, or, for a standalone
  // kernel, its launching thread (its process when it has no call). Dense
  // owner ids per range slot, then rows as (owner, kernel name): two small
  // lookups per pair, no hashing of tuples.
  std::vector<RowKey> keys;  // by owner
  KeyGroups places, owners, rows;
  auto ownerOf = [&](uint32_t name, bool startEnd, int64_t globalTid, int64_t globalPid) {
    const bool byProcess = globalTid == kNoValue;
    const uint64_t place = places.indexOf(static_cast<uint64_t>(byProcess ? globalPid : globalTid));
    const uint32_t owner = owners.indexOf((place << 34) | (static_cast<uint64_t>(byProcess) << 33) |
                                          (static_cast<uint64_t>(startEnd) << 32) | name);
    if (owner == keys.size()) keys.push_back({name, startEnd, globalTid, globalPid});
    return owner;
  };
  std::vector<uint32_t> ownerOfSlot(R.size());
  for (size_t r = 0; r < R.size(); ++r) ownerOfSlot[r] = ownerOf(R.name[r], R.startEnd[r] != 0, R.thread[r], kNoValue);
  // A standalone kernel's launching thread.
  const std::vector<int64_t>* callThread = standalone ? &report.hggcApi(acol::globalTid).globalTid : nullptr;

  // The activities by kernel name (dense name ids, in activity order within
  // a name), so that the distinct ranges of a row (HGTX Inst) are counted
  // with one entry per range: the last name each range was seen with.
  KeyGroups kernelNames;
  GroupedLists<uint32_t> byName;
  {
    std::vector<uint32_t> nameOf(act.size());
    for (size_t a = 0; a < act.size(); ++a) {
      nameOf[a] = kernelNames.indexOf(namer.nameId(act.row[a]));
      byName.count(nameOf[a]);
    }
    byName.startFill(kernelNames.size());
    for (size_t a = 0; a < act.size(); ++a) byName.add(nameOf[a], static_cast<uint32_t>(a));
  }
  report.releaseKernelColumns(kcol::names & ~namesKept);
  // From here on an activity is its duration (in its start's place) and,
  // standalone, its process, a range its owner: the rest of both lists goes
  // before the passes.
  const size_t rangeCount = R.size();
  std::vector<int64_t> duration = std::move(in.activities.start), process;
  for (size_t a = 0; a < duration.size(); ++a) duration[a] = act.end[a] - duration[a];
  if (standalone) process = std::move(in.activities.globalPid);
  in.activities = PpuActivities{};
  in.association.ranges = AssociationRanges{};
  const uint64_t nameCount = std::max<size_t>(kernelNames.size(), 1);
  std::vector<uint32_t> rowOwner, rowKernel;  // by row group; rowKernel: the name's string id
  auto rowOf = [&](uint32_t owner, uint32_t kernelName) {
    const uint32_t g = rows.indexOf(static_cast<uint64_t>(owner) * nameCount + kernelName);
    if (g == rowOwner.size()) {
      rowOwner.push_back(owner);
      rowKernel.push_back(static_cast<uint32_t>(kernelNames.key(kernelName)));
    }
    return g;
  };
  // Every (row, activity, range) of the association; a standalone kernel's
  // row has no range (kNoMatch). The same sequence each time it is called.
  auto forEachMembership = [&](auto&& emit) {
    for (uint32_t n = 0; n < byName.groups(); ++n) {
      for (const uint32_t a : byName.of(n)) {
        const std::span<const uint32_t> ranges = as.rangesOf(a);
        for (uint32_t r : ranges) emit(rowOf(ownerOfSlot[r], n), a, r, n);
        if (ranges.empty() && standalone) {
          const uint32_t call = as.launchCall[a];
          const uint32_t owner = call == kNoMatch ? ownerOf(kNoString, false, kNoValue, process[a])
                                                  : ownerOf(kNoString, false, (*callThread)[call], kNoValue);
          emit(rowOf(owner, n), a, kNoMatch, n);
        }
      }
    }
  };

  // First pass: the rows, each row's distinct ranges, and how many kernels
  // it has (a kernel counts once per row, however many of the row's ranges,
  // nested ranges of one name, it is associated with).
  std::vector<uint32_t> hgtxInst, lastActivity;
  std::vector<uint32_t> lastName(rangeCount, kNoMatch);
  GroupedValues durations;
  forEachMembership([&](uint32_t g, uint32_t a, uint32_t r, uint32_t n) {
    if (g == hgtxInst.size()) {
      hgtxInst.push_back(0);
      lastActivity.push_back(kNoMatch);
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
  std::vector<uint32_t>().swap(lastName);
  // Second pass: each row's kernel durations, held once.
  durations.startFill(rows.size());
  std::fill(lastActivity.begin(), lastActivity.end(), kNoMatch);
  forEachMembership([&](uint32_t g, uint32_t a, uint32_t, uint32_t) {
    if (lastActivity[g] == a) return;
    lastActivity[g] = a;
    durations.add(g, duration[a]);
  });
  // The activities and their pairs are done with: give them back before
  // the statistics.
  const std::string warning = unlaunchedWarning(in.unlaunched, in.memoryToo);
  std::vector<uint32_t>().swap(lastActivity);
  byName = GroupedLists<uint32_t>();
  in = AssociatedActivities{};
  // The rows' and owners' lookups too: rowOwner and rowKernel hold them.
  rows = KeyGroups();
  owners = KeyGroups();
  places = KeyGroups();
  std::vector<uint32_t>().swap(ownerOfSlot);
  std::vector<DurationStats> stats = summarizeEach(durations);
  durations = GroupedValues();

  // Order: range name, PID, TID ascending (standalone rows last), then Total
  // Time descending; ties by style, then kernel name.
  std::vector<uint32_t> order(stats.size());
  {
    std::vector<uint32_t> names = rowKernel;
    for (const RowKey& key : keys) names.push_back(key.range);
    const TextOrder byText(strings, names);
    std::vector<uint32_t>().swap(names);
    std::iota(order.begin(), order.end(), 0u);
    auto sortKey = [&](uint32_t g) {
      const RowKey& key = keys[rowOwner[g]];
      const int64_t pid = key.globalTid != kNoValue ? pidOf(key.globalTid) : pidOf(key.globalPid);
      const int64_t tid = key.globalTid != kNoValue ? tidOf(key.globalTid) : -1;
      return std::make_tuple(key.range == kNoString, byText.rank(key.range), pid, tid, key.startEnd,
                             -stats[g].total, byText.rank(rowKernel[g]));
    };
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return sortKey(a) < sortKey(b); });
  }

  Table t(columns(), std::make_shared<KernSumRows>(std::move(keys), std::move(rowOwner), std::move(rowKernel),
                                                   std::move(hgtxInst), std::move(stats), std::move(order), strings));
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
      .memoryPerRow = 56,  // scale 2500: 1,377 MiB, 48.4 bytes a row (2026-12-04, later; bench/README.md)
  };
  return rule;
}

}  // namespace asys
