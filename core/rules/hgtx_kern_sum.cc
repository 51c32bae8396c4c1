// hgtx_kern_sum (2.3.9): kernel time per HGTX range name, range thread and
// kernel name, over the kernels each range is associated with.
#include <algorithm>
#include <memory>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <tuple>

#include "core/analysis/grouped_values.h"
#include "core/analysis/key_groups.h"
#include "core/analysis/kernel_names.h"
#include "core/analysis/stats.h"
#include "core/analysis/text_order.h"
#include "core/base/stage_timer.h"
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
// fleet form: each kernel's name (a dense index), duration and ranges, each
// range's owner; a row is an (owner, kernel name) pair.
// The activity list is the lean one (ActivitySelection::durationsOnly: no
// start, end, device or kind, not sorted) and each kernel's name is found
// as HGGC_KERNEL is scanned (kernelTag), so no name column is held.
// Once associated, the kernels are put in name order (in activity order
// within a name), each as its ranges' entry and its duration (8 bytes a
// kernel): what the association held by activity (its tag, duration and
// launching call) and by call (the call's innermost range in the tree) goes,
// and no list of the kernels by name is held beside them
// (docs/big-reports.md, "The sweep's own ranges and hgtx_kern_sum's own
// step").
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
    // (sweepOnly), and the rule none of them after it. The owners' index
    // (a hash of a million keys at scale 2500) goes then too: only a
    // standalone kernel's owner (no range name) is looked up after.
    filters.rangesChosen = [this](const AssociationRanges& R) {
      StageTimer timer("hgtx_kern_sum: the ranges' owners");
      ownerOfSlot_.resize(R.size());
      for (size_t r = 0; r < R.size(); ++r)
        ownerOfSlot_[r] = ownerOf(R.name[r], R.startEnd[r] != 0, R.thread(r), kNoValue);
      rangeCount_ = R.size();
      owners_ = KeyGroups();
      std::vector<uint32_t>().swap(namedOwner_);
    };
    filters.sweepOnly = true;
    in_ = associateForRule(ctx, /*memoryToo=*/false, 0, std::move(filters));
    warning_ = unlaunchedWarning(in_.unlaunched, in_.memoryToo);
    in_.association.ranges = AssociationRanges{};
    StageTimer timer("hgtx_kern_sum: kernels by name");
    byName();
  }

  const std::string& warning() const { return warning_; }
  size_t rangeCount() const { return rangeCount_; }
  size_t nameCount() const { return nameBegin_.size() - 1; }
  uint32_t nameText(uint32_t n) const { return static_cast<uint32_t>(kernelNames_.key(n)); }
  const RowKey& key(uint32_t owner) const { return keys_[owner]; }
  size_t ownerCount() const { return keys_.size(); }
  // The owners' keys, by owner, for rows that name their owner (after the walk).
  std::vector<RowKey> takeKeys() { return std::move(keys_); }

  // Every (owner, kernel, range) of kernel name n's kernels (a kernel: its
  // place in name order, with duration(k)); a standalone kernel's has no
  // range (kNoMatch). The same sequence each time it is called.
  template <typename Emit>
  void forEachMembership(uint32_t n, Emit&& emit) const {
    const HgtxAssociation& as = in_.association;
    for (uint32_t k = nameBegin_[n]; k < nameBegin_[n + 1]; ++k) {
      const uint32_t v = entry_[k];
      if (v == kNoMatch) continue;
      if ((v & kTagMask) == kAlone) {
        emit(v & ~kTagMask, k, kNoMatch);
        continue;
      }
      const RangeList ranges = (v & kTagMask) == kGraph ? RangeList(as.graphRanges.of(v & ~kTagMask))
                                                          : as.callRanges.ofValue(v);
      for (uint32_t r : ranges) emit(ownerOfSlot_[r], k, r);
    }
  }
  int64_t duration(uint32_t k) const { return duration_.get(k); }

  // The kernels and their ranges are done with.
  void release() {
    in_ = AssociatedActivities{};
    std::vector<uint32_t>().swap(entry_);
    duration_ = NarrowInts();
    std::vector<uint32_t>().swap(ownerOfSlot_);
  }

 private:
  // A kernel's entry: what CallRanges holds for its launching call (its
  // innermost range, kListed | a list, or kNoMatch), or, tagged, its graph
  // list or a standalone kernel's owner.
  static constexpr uint32_t kTagMask = 0xE0000000u;
  static constexpr uint32_t kGraph = 0xC0000000u;
  static constexpr uint32_t kAlone = 0xE0000000u;  // kNoMatch aside
  static constexpr uint32_t kMaxTagged = 0x1FFFFFFEu;

  // The kernels in name order (entry_, duration_, nameBegin_), from the
  // association's lists by activity, given back as they are read.
  void byName() {
    PpuActivities& act = in_.activities;
    HgtxAssociation& as = in_.association;
    const size_t n = act.size();
    // Each activity's entry, in place of its launching call; the calls'
    // values go.
    std::vector<uint32_t>& entry = as.launchCall;
    std::vector<std::pair<uint32_t, uint32_t>> aloneCalls;  // (call, activity) of standalone kernels
    for (size_t a = 0; a < n; ++a) {
      if (const uint32_t list = as.graphListOf(a); list != kNoMatch) {
        entry[a] = kGraph | checkedTag(list);
        continue;
      }
      const uint32_t call = entry[a];
      const uint32_t v = call == kNoMatch ? kNoMatch : as.callRanges.valueOf(call);
      if (v != kNoMatch && (v & CallRanges::kListed)) checkedTag(v & ~CallRanges::kListed);
      entry[a] = v;
      if (v != kNoMatch || !standalone_) continue;
      if (call != kNoMatch) {
        aloneCalls.emplace_back(call, static_cast<uint32_t>(a));
      } else {
        entry[a] = kAlone | checkedTag(ownerOf(kNoString, false, kNoValue, act.processOf(a)));
      }
    }
    as.callRanges.dropCalls();
    std::vector<uint64_t>().swap(as.graphBits);
    std::vector<uint32_t>().swap(as.graphActivities);
    std::vector<uint8_t>().swap(as.graphVia);
    std::vector<std::pair<uint32_t, int64_t>>().swap(act.unlaunchedPid);
    // A standalone kernel's launching thread, read a chunk of HGGC_API at a
    // time for the calls that ask (the column is not loaded whole).
    if (!aloneCalls.empty()) {
      std::sort(aloneCalls.begin(), aloneCalls.end());
      size_t i = 0;
      report_.forEachHggcApiChunk(acol::globalTid, [&](const ApiCalls& rows, size_t first) {
        for (; i < aloneCalls.size() && aloneCalls[i].first < first + rows.size(); ++i)
          entry[aloneCalls[i].second] =
              kAlone | checkedTag(ownerOf(kNoString, false, rows.globalTid[aloneCalls[i].first - first], kNoValue));
      });
      std::vector<std::pair<uint32_t, uint32_t>>().swap(aloneCalls);
    }
    // Dense name ids, in place of each kernel's tag (its name's string id).
    std::vector<uint32_t> count;
    for (size_t a = 0; a < n; ++a) {
      const uint32_t name = kernelNames_.indexOf(act.tag[a]);
      act.tag[a] = name;
      if (name >= count.size()) count.resize(name + 1, 0);
      ++count[name];
    }
    nameBegin_.assign(count.size() + 1, 0);
    for (size_t k = 0; k < count.size(); ++k) nameBegin_[k + 1] = nameBegin_[k] + count[k];
    // By a counting sort, one column at a time, each given back once moved.
    {
      std::vector<uint32_t> next(nameBegin_.begin(), nameBegin_.end() - 1);
      entry_.resize(n);
      for (size_t a = 0; a < n; ++a) entry_[next[act.tag[a]]++] = entry[a];
      std::vector<uint32_t>().swap(entry);
    }
    {
      std::vector<uint32_t> next(nameBegin_.begin(), nameBegin_.end() - 1);
      duration_.assign(n, 0);
      for (size_t a = 0; a < n; ++a) duration_.set(next[act.tag[a]]++, act.duration.get(a));
      act.duration = NarrowInts();
      std::vector<uint32_t>().swap(act.tag);
    }
  }

  static uint32_t checkedTag(uint32_t v) {
    if (v > kMaxTagged) throw std::length_error("too many HGTX range owners or lists for hgtx_kern_sum");
    return v;
  }

  // A row's owner: a range name and style on a thread, or, for a
  // standalone kernel, its launching thread (its process when it has no
  // call). Dense owner ids per range slot: two small lookups per pair, no
  // hashing of tuples. The keys without a range name (a standalone
  // kernel's, or a range's without one) are indexed apart, so that they
  // can still be found once the ranges' index is given back.
  uint32_t ownerOf(uint32_t name, bool startEnd, int64_t globalTid, int64_t globalPid) {
    const bool byProcess = globalTid == kNoValue;
    const uint64_t place = places_.indexOf(static_cast<uint64_t>(byProcess ? globalPid : globalTid));
    const uint64_t key = (place << 34) | (static_cast<uint64_t>(byProcess) << 33) |
                         (static_cast<uint64_t>(startEnd) << 32) | name;
    KeyGroups& index = name == kNoString ? unnamedOwners_ : owners_;
    std::vector<uint32_t>& ownerOfGroup = name == kNoString ? unnamedOwner_ : namedOwner_;
    const uint32_t g = index.indexOf(key);
    if (g == ownerOfGroup.size()) {
      ownerOfGroup.push_back(static_cast<uint32_t>(keys_.size()));
      keys_.push_back({name, startEnd, globalTid, globalPid});
    }
    return ownerOfGroup[g];
  }

  Report& report_;
  const Kernels noKernels_;  // the namer reads the scan's chunks, never this
  KernelNamer namer_;
  const bool standalone_;
  AssociatedActivities in_;
  std::string warning_;
  std::vector<RowKey> keys_;  // by owner
  KeyGroups places_, owners_, unnamedOwners_, kernelNames_;
  std::vector<uint32_t> namedOwner_, unnamedOwner_;  // by group of owners_ and unnamedOwners_: the owner
  std::vector<uint32_t> ownerOfSlot_;
  size_t rangeCount_ = 0;
  std::vector<uint32_t> nameBegin_;  // by name: its first kernel in name order, and one past the last
  std::vector<uint32_t> entry_;      // by kernel in name order
  NarrowInts duration_;              // by kernel in name order
};

// One name's rows: each (owner, name) row's distinct ranges (HGTX Inst)
// and its kernels' durations (a kernel counts once per row, however many
// of the row's ranges, nested ranges of one name, it is associated with),
// in two passes over the name's memberships. `counted`: a bit by range
// slot, set for the ranges counted for this name (clear at first; the
// caller clears it for the next name: a bit a range, where the name each
// range was counted with last was 4 bytes).
// rowOf(owner) gives the row's index in `durations` and `hgtxInst`, made
// as rows are found in the first pass and found again in the second.
template <typename RowOf>
void foldName(KernSumWalk& walk, uint32_t n, std::vector<uint64_t>& counted, RowOf&& rowOf,
              GroupedValues& durations, std::vector<int64_t>& hgtxInst) {
  std::vector<uint32_t> lastActivity;
  walk.forEachMembership(n, [&](uint32_t owner, uint32_t a, uint32_t r) {
    const uint32_t g = rowOf(owner);
    if (g >= hgtxInst.size()) {
      hgtxInst.resize(g + 1, 0);
      lastActivity.resize(g + 1, kNoMatch);
    }
    if (r != kNoMatch && !((counted[r >> 6] >> (r & 63)) & 1)) {
      counted[r >> 6] |= uint64_t{1} << (r & 63);
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
  std::vector<uint64_t> counted((walk.rangeCount() + 63) / 64, 0);
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
    foldName(walk, n, counted, rowOf, durations, hgtxInst);
    std::fill(counted.begin(), counted.end(), 0);
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
  DurationStats stats;
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
// Inst and statistics (56 bytes a row: the average is the total over the
// count, as summarize makes it; the owners' keys, 24 bytes, once each),
// its cells made a chunk at a time, its texts read from the report's pool.
// The rows are held in chunks of 65,536, so that they never grow by
// copying while the association is held beside them (the rule's peak).
class KernSumRows : public RowSource {
 public:
  KernSumRows(const StringPool& strings) : strings_(strings) {}

  void add(uint32_t owner, uint32_t kernel, int64_t hgtxInst, const DurationStats& s) {
    if (size_ % kChunk == 0) {
      chunks_.emplace_back();
      chunks_.back().reserve(kChunk);
    }
    // Distinct ranges and kernels: fewer than 2^32 (kernels are numbered by uint32_t).
    chunks_.back().push_back({owner, kernel, static_cast<uint32_t>(hgtxInst), static_cast<uint32_t>(s.count),
                              s.total, s.med, s.min, s.max, s.stddev});
    ++size_;
  }
  // After the last add: the owners' keys, and the rows in output order.
  void sort(std::vector<RowKey> keys) {
    keys_ = std::move(keys);
    std::vector<uint32_t> rangeId(size_);
    for (size_t i = 0; i < size_; ++i) rangeId[i] = keys_[row(i).owner].range;
    const std::vector<uint32_t> rangeRank = idRanks(rangeId, strings_);
    for (size_t i = 0; i < size_; ++i) rangeId[i] = row(i).kernel;
    const std::vector<uint32_t> kernelRank = idRanks(rangeId, strings_);
    std::vector<uint32_t>().swap(rangeId);
    // The sort reads each row's key many times, in no order: one copy a
    // row while it sorts (after the association is given back, below the
    // rule's peak), not a lookup through the owner each time.
    std::vector<RowKey> rowKeys(size_);
    for (size_t i = 0; i < size_; ++i) rowKeys[i] = keys_[row(i).owner];
    order_ = rowOrder(size_, [&](uint32_t i) { return rowAt(rowKeys[i], i, /*withAverage=*/false); }, rangeRank,
                      kernelRank);
  }

  size_t rowCount() const override { return order_.size(); }
  void appendRows(size_t first, size_t count, Table& t) override {
    for (size_t o = first; o < first + count && o < order_.size(); ++o) appendRow(t, rowAt(order_[o]));
  }

 private:
  struct Row {
    uint32_t owner, kernel, hgtxInst, count;
    int64_t total, med, min, max, stddev;
  };
  static constexpr size_t kChunk = 65536;
  const Row& row(size_t i) const { return chunks_[i / kChunk][i % kChunk]; }
  SumRow rowAt(uint32_t i) const { return rowAt(keys_[row(i).owner], i); }
  // withAverage false: the sort's, which reads no average (a division a
  // comparison saved).
  SumRow rowAt(const RowKey& k, uint32_t i, bool withAverage = true) const {
    const Row& r = row(i);
    const int64_t count = r.count;
    const int64_t avg = withAverage && count ? r.total / count : 0;
    const DurationStats stats{r.total, count, avg, r.med, r.min, r.max, r.stddev};
    return SumRow{k.range != kNoString, strings_.get(k.range), k.startEnd, r.hgtxInst, k.globalTid, k.globalPid,
                  stats,                strings_.get(r.kernel)};
  }

  const StringPool& strings_;
  std::vector<RowKey> keys_;  // by owner
  std::vector<std::vector<Row>> chunks_;
  size_t size_ = 0;
  std::vector<uint32_t> order_;
};

// One report: a kernel name's durations are summarised as soon as its
// rows are complete, so no more than one name's are held.
Table compute(RuleContext& ctx) {
  KernSumWalk walk(ctx);
  auto rows = std::make_shared<KernSumRows>(ctx.report.strings());
  std::optional<StageTimer> timer(std::in_place, "hgtx_kern_sum: rows by range and kernel name");
  foldNames(walk, [&](uint32_t n, const std::vector<uint32_t>& owners, const std::vector<int64_t>& inst,
                      GroupedValues& values) {
    for (size_t g = 0; g < owners.size(); ++g) rows->add(owners[g], walk.nameText(n), inst[g], summarize(values.of(g)));
  });
  const std::string warning = walk.warning();
  walk.release();
  timer.emplace("hgtx_kern_sum: rows in order");
  rows->sort(walk.takeKeys());
  timer.reset();
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
