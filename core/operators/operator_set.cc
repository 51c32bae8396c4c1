#include "core/operators/operator_set.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

#include "core/analysis/associated_activities.h"
#include "core/analysis/hgtx_ranges.h"
#include "core/analysis/kernel_names.h"
#include "core/base/error.h"
#include "core/base/stage_timer.h"

namespace asys {

namespace {

constexpr uint32_t kNone = OperatorSet::kNone;

// The text an HGTX range's recognisers read: its own text, with the
// arguments an importer recorded beside it (`aten::mm, sizes = [...]`),
// made once per distinct pair.
class RangeTexts {
 public:
  explicit RangeTexts(StringPool& strings) : strings_(strings) {}
  uint32_t text(uint32_t name, uint32_t args) {
    if (args == kNoString || name == kNoString) return name;
    const uint32_t g = pairs_.indexOf((static_cast<uint64_t>(name) << 32) | args);
    if (g == joined_.size()) {
      std::string t(strings_.get(name));
      t += ", ";
      t += strings_.get(args);
      joined_.push_back(strings_.intern(t));
    }
    return joined_[g];
  }

 private:
  StringPool& strings_;
  KeyGroups pairs_;
  std::vector<uint32_t> joined_;
};

// By range slot, what the operators read of a range's HGTX event once the
// events are given back: its recogniser op, and for its OP Name its own name
// and arguments (both empty when no chosen range has arguments: the OP Name
// is then the range's qualified name).
struct SlotEvents {
  std::vector<uint32_t> op, name, args;
  // The flash attention library ranges (slot, AssociationRanges::
  // threadIndex), ascending by slot: the prefill/decode pairing reads
  // these alone, so the association gives the thread column back
  // (RangeSelection::threadAfterSweep).
  std::vector<std::pair<uint32_t, uint32_t>> faThread;
};

// The HGTX ranges recognised as operators and the PPU activities associated
// with them.
struct OperatorRanges {
  AssociatedActivities in;
  SlotEvents slots;
};

// The operator ranges as the association's scan of HGTX_EVENTS finds them,
// in event order (keepNamedRange is asked in event order): what `chosen`
// turns into SlotEvents, 8 bytes a range, where the events held whole while
// the ranges were chosen cost 60 an event, and their op by event 4 more.
// A range's own name and arguments matter only when it has arguments
// (slotDisplayName): held for those alone (none in most reports; they were
// 8 bytes a range, at the heap's peak while the ranges are chosen).
struct FoundOperatorRanges {
  std::vector<uint32_t> event, op;
  std::vector<uint32_t> argsEvent, argsName, argsArgs;  // the ranges with arguments, in event order
  void add(uint32_t e, uint32_t o, const RangeNaming& n) {
    event.push_back(e);
    op.push_back(o);
    if (n.args != kNoString) {
      argsEvent.push_back(e);
      argsName.push_back(n.own);
      argsArgs.push_back(n.args);
    }
  }
  // By slot, once the ranges are chosen: each chosen range was found (it
  // was kept by keepNamedRange), so its event is in `event`.
  SlotEvents bySlot(const AssociationRanges& R) {
    SlotEvents s;
    s.op.resize(R.size());
    const bool anyArgs = !argsEvent.empty();
    if (anyArgs) {
      s.name.assign(R.size(), kNoString);  // read only where the range has arguments
      s.args.assign(R.size(), kNoString);
    }
    for (size_t slot = 0; slot < R.size(); ++slot) {
      const size_t k = static_cast<size_t>(std::lower_bound(event.begin(), event.end(), R.event[slot]) - event.begin());
      s.op[slot] = op[k];
      if (anyArgs) {
        const auto it = std::lower_bound(argsEvent.begin(), argsEvent.end(), R.event[slot]);
        if (it != argsEvent.end() && *it == R.event[slot]) {
          const size_t j = static_cast<size_t>(it - argsEvent.begin());
          s.name[slot] = argsName[j];
          s.args[slot] = argsArgs[j];
        }
      }
    }
    for (auto* v : {&event, &op, &argsEvent, &argsName, &argsArgs}) std::vector<uint32_t>().swap(*v);
    return s;
  }
};

// Recognises every range once per distinct text and associates the kernels,
// memcpys and memsets with the operator ranges only (the others take no
// part). The ranges are recognised as the association's scan of HGTX_EVENTS
// finds them (their own text, arguments and qualified name: keepNamedRange),
// so the table is never held whole for them; what the operators need of a
// chosen range's event is kept by slot. Events an earlier rule loaded are
// given back once the ranges are chosen. Kernel names: the demangled ones;
// the other two only when a kernel lacks one.
OperatorRanges associateOperatorRanges(Report& report, OperatorQuery& query, uint32_t kernelColumns,
                                       RangeTexts& texts, OpRecognizer& rec, size_t& events, bool& prefixSeen) {
  OperatorRanges out;
  FoundOperatorRanges found;
  const bool customHgtx = query.recognition.custom && query.recognition.custom->has(CustomOpSource::Hgtx);
  RangeSelection ranges;
  ranges.graphMapping = query.graphMapping;
  ranges.include = std::move(query.rangeInclude);
  ranges.exclude = std::move(query.rangeExclude);
  ranges.keepNamedRange = [&](uint32_t event, const RangeNaming& n) {
    const uint32_t text = texts.text(n.own, n.args);
    if (text == kNoString) return false;
    // A custom hgtx: rule matches the domain-qualified name (range-include's).
    const uint32_t op = rec.range(text, customHgtx ? n.qualified : text);
    if (op == kNone) return false;
    found.add(event, op, n);
    return true;
  };
  ranges.alsoScan = [&, prefix = query.hgtxTextPrefix](size_t, const HgtxEvents& chunk) {
    events += chunk.size();
    // Read while the scan's texts are the report strings' overlay (deferTexts).
    const StringPool& strings = report.strings();
    for (size_t i = 0; i < chunk.nameId.size() && !prefix.empty() && !prefixSeen; ++i)
      prefixSeen = chunk.nameId[i] != kNoString && strings.get(chunk.nameId[i]).starts_with(prefix);
  };
  ranges.chosen = [&](const AssociationRanges& R) {
    out.slots = found.bySlot(R);
    for (uint32_t slot = 0; slot < R.size(); ++slot) {
      const OpInfo& info = rec.info(out.slots.op[slot]);
      if (info.family == OpFamily::FlashAttention && info.level == OpLevel::Library)
        out.slots.faThread.emplace_back(slot, R.threadIndex[slot]);
    }
    // Every range is recognised by now: the memo by text goes (16 bytes a
    // distinct text) before the activities are read.
    rec.forgetRanges();
  };
  ranges.releaseEvents = true;
  ranges.deferTexts = query.deferNames;
  // What the operators read of a range's event is taken by slot in
  // `chosen`; its style no one reads.
  ranges.eventsInChosenOnly = true;
  // Nor a range's time once the calls are swept (given back below otherwise).
  ranges.startAfterSweep = false;
  ranges.durationAfterSweep = false;
  ranges.threadAfterSweep = false;  // the pairing's few are in SlotEvents::faThread
  ranges.noStyles = true;
  ActivitySelection sel;
  sel.memory = true;
  // The kernel names are read after the association (kernelNamesFor, when
  // the instances are made), not kept by its scan: held through the
  // activity list's sort they were 4 bytes a kernel at its peak.
  sel.kernelColumns = kernelColumns;
  sel.devices = std::move(query.devices);
  sel.window = query.window;
  sel.processes = query.processes;
  sel.endsAsDurations = query.endsAsDurations;
  sel.chunkColumns = query.chunkColumns;
  sel.onKernelChunk = std::move(query.onKernelChunk);
  // Every operator rule reads an activity's device and kind through
  // deviceOf and kindOf: one byte an activity (where two columns held 5)
  // from the kernel scan on. HGGC_MEMCPY and HGGC_MEMSET (loaded by the
  // scan) go once the list is read: the rules that name a memory operation
  // (the breakdowns, ppu_op_trace) load them again in their own step, after
  // the set's peak.
  sel.releaseMemoryOps = true;
  sel.packPlaces = true;
  if (query.groupsOnly) {
    // Each kernel's name id (its demangled name, else its row) in place
    // of its row, read with the chunk the list is made from.
    sel.chunkColumns |= kcol::demangledName;
    auto first = std::make_shared<size_t>(0);
    sel.onKernelChunk = [first, then = std::move(sel.onKernelChunk)](const Kernels& k, size_t at) {
      *first = at;
      if (then) then(k, at);
    };
    sel.kernelTag = [first](const Kernels& k, size_t i) {
      const uint32_t name = i < k.demangledName.size() ? k.demangledName[i] : kNoString;
      return name != kNoString ? name : kKernelRowTag | static_cast<uint32_t>(*first + i);
    };
  }
  out.in = associateActivities(report, std::move(sel), std::move(ranges));
  return out;
}

// Which recognised operators the rule keeps (op=), decided once per type.
class TypeFilter {
 public:
  TypeFilter(const OpRecognizer& rec, const OperatorQuery& query) : rec_(rec), query_(query) {}
  bool keptType(uint32_t type) {
    if (type >= kept_.size()) kept_.resize(type + 1, -1);
    if (kept_[type] < 0) {
      const std::string_view t = rec_.typeName(type);
      kept_[type] = query_.allTypes || std::find(query_.types.begin(), query_.types.end(), t) != query_.types.end();
    }
    return kept_[type] == 1;
  }
  bool selected(uint32_t op) { return op != kNone && keptType(rec_.info(op).type); }

 private:
  const OpRecognizer& rec_;
  const OperatorQuery& query_;
  std::vector<int8_t> kept_;  // by type id: -1 not decided yet
};

// An activity's range slots of its innermost selected framework and library
// operator, and what else its instances need of its ranges. Made again
// whenever asked (one walk of the activity's ranges), never held per
// activity.
struct ActivitySlots {
  uint32_t framework = kNone, library = kNone;
  bool inRange = false;  // associated with any operator range
  uint8_t viaGraph = 0;  // bit 0: the framework pair, bit 1: the library pair
  // The innermost library operator whatever op= selects: the data type of
  // the framework operator around it (a MoE layer is bf16 because its
  // DeepGemm is, with op=MoE too).
  uint32_t libraryOp = kNone;
};

// Each activity's innermost selected framework and library range (the
// ranges of an activity come in start order: the last one of a level is
// the innermost). At the framework level the layer annotations (MoE, the
// user's hgtx: rules) outrank PyTorch ranges: a MoE layer keeps the
// kernels of the aten:: ops inside it.
// A range associated through an HGGC graph node (captured once, launched
// many times) is one instance per graph launch: `viaGraph` notes it.
class InnermostSlots {
 public:
  // `slotOp`: by range slot, its recogniser op.
  InnermostSlots(const HgtxAssociation& as, const std::vector<uint32_t>& slotOp, const OpRecognizer& rec,
                 TypeFilter& filter)
      : as_(as), slotOp_(slotOp), rec_(rec), filter_(filter) {}

  ActivitySlots of(size_t a) const {
    ActivitySlots s;
    int fwRank = 0;
    const RangeList ranges = as_.rangesOf(a);
    for (size_t j = 0; j < ranges.size(); ++j) {
      const uint32_t slot = ranges[j];
      s.inRange = true;
      const uint32_t op = slotOp_[slot];
      if (rec_.info(op).level == OpLevel::Library) s.libraryOp = op;
      if (!filter_.selected(op)) continue;
      const uint8_t graph = as_.viaGraph(a, j) ? 1 : 0;
      if (rec_.info(op).level == OpLevel::Framework) {
        if (rank(op) < fwRank) continue;
        fwRank = rank(op);
        s.framework = slot;
        s.viaGraph = static_cast<uint8_t>((s.viaGraph & 2) | graph);
      } else {
        s.library = slot;
        s.viaGraph = static_cast<uint8_t>((s.viaGraph & 1) | (graph << 1));
      }
    }
    return s;
  }

 private:
  int rank(uint32_t op) const { return rec_.info(op).family == OpFamily::PyTorch ? 1 : 2; }
  const HgtxAssociation& as_;
  const std::vector<uint32_t>& slotOp_;
  const OpRecognizer& rec_;
  TypeFilter& filter_;
};

// By range slot: its operator and OP Name, for the slots some activity uses;
// a paired decode's slot redirected to its prefill's (kNone: none). The op
// and name are not held by slot (8 bytes a range): a used slot's op is its
// range's recogniser op (SlotEvents::op), its name the range's qualified
// name, and the few that differ are held aside: a paired prefill's (both
// op and name) and, when an importer recorded arguments, every used
// slot's name (made in slot order, as before, so the report's string ids
// come in the same order).
struct SlotOperators {
  const std::vector<uint32_t>* eventOp = nullptr;  // SlotEvents::op
  const std::vector<uint32_t>* rangeName = nullptr;  // AssociationRanges::name
  std::vector<uint32_t> name;                      // by slot, only with arguments
  std::unordered_map<uint32_t, std::pair<uint32_t, uint32_t>> paired;  // slot -> (op, name)
  std::vector<uint8_t> used;
  std::vector<uint32_t> redirect;
  // An upper bound of the instances the activities make (assignInstances),
  // counted as the used slots are found: the instances' columns are
  // reserved to it instead of grown by doubling.
  size_t instanceBound = 0;
  uint32_t op(uint32_t slot) const {
    if (!paired.empty()) {
      const auto it = paired.find(slot);
      if (it != paired.end()) return it->second.first;
    }
    return (*eventOp)[slot];
  }
  uint32_t nameOf(uint32_t slot) const {
    if (!paired.empty()) {
      const auto it = paired.find(slot);
      if (it != paired.end()) return it->second.second;
    }
    return name.empty() ? (*rangeName)[slot] : name[slot];
  }
  uint32_t library(uint32_t slot) const {
    return slot == kNone || redirect.empty() || redirect[slot] == kNone ? slot : redirect[slot];
  }
};

// A range's OP Name: its domain-qualified name, with the arguments an
// importer recorded beside it.
uint32_t slotDisplayName(uint32_t slot, const AssociationRanges& R, const SlotEvents& events, RangeTexts& texts,
                         StringPool& strings) {
  const uint32_t args = events.args.empty() ? kNoString : events.args[slot];
  if (args == kNoString) return R.name[slot];
  // A deferred name (RangeSelection::deferTexts) is the range's own text:
  // joined with its arguments as the range was recognised (texts has it).
  return events.name[slot] == R.name[slot] || deferredEvent(R.name[slot]) != kNoString
             ? texts.text(events.name[slot], args)
             : strings.intern(std::string(strings.get(R.name[slot])) + ", " + std::string(strings.get(args)));
}

SlotOperators usedSlotOperators(const InnermostSlots& slots, const PpuActivities& act, const AssociationRanges& R,
                                const SlotEvents& events, RangeTexts& texts, StringPool& strings, bool rangeInclude,
                                bool topLevelOnly, OpRecognizer& rec, TypeFilter& filter, bool others) {
  SlotOperators s;
  s.eventOp = &events.op;
  s.rangeName = &R.name;
  s.used.assign(R.size(), 0);
  size_t bound = 0;
  const size_t activities = act.size();
  for (size_t a = 0; a < activities; ++a) {
    const ActivitySlots x = slots.of(a);
    if (x.framework != kNone) s.used[x.framework] = 1;
    if (x.library != kNone) s.used[x.library] = 1;
    // A graph launch's instance is one per (slot, launch): at most one an
    // activity and level. A kernel in neither level makes at most one.
    // With topLevelOnly, only the activity's top-level one (bit 2 marks a
    // slot whose own instance is some activity's top-level one: a decode
    // slot may stand for its prefill's, one instance for the two).
    if (!topLevelOnly) {
      bound += (x.viaGraph & 1 ? 1 : 0) + (x.viaGraph & 2 ? 1 : 0);
    } else if (x.framework != kNone) {
      if (x.viaGraph & 1) ++bound; else s.used[x.framework] |= 2;
    } else if (x.library != kNone) {
      if (x.viaGraph & 2) ++bound; else s.used[x.library] |= 2;
    }
    if (x.framework == kNone && x.library == kNone && !rangeInclude && act.kindOf(a) == ActivityKind::Kernel) {
      // With topLevelOnly a kernel named by its tag is recognised here
      // already (the recogniser's memo answers again when the instance is
      // made): counted only when it makes one, as assignInstances decides
      // (ppu_op_unit_test recognises no kernel: its bound was every kernel).
      const uint32_t tag = topLevelOnly && !act.tag.empty() ? act.tag[a] : kKernelRowTag;
      if (tag & kKernelRowTag) {
        ++bound;
      } else if (const uint32_t op = rec.kernel(tag); op != kNone ? filter.keptType(rec.info(op).type)
                                                                   : others && !x.inRange) {
        ++bound;
      }
    }
  }
  if (!events.args.empty()) s.name.assign(R.size(), kNoString);
  for (uint32_t slot = 0; slot < R.size(); ++slot) {
    if (!s.used[slot]) continue;
    if (!topLevelOnly || (s.used[slot] & 2)) ++bound;  // its own instance
    if (!events.args.empty()) s.name[slot] = slotDisplayName(slot, R, events, texts, strings);
  }
  s.instanceBound = bound;
  return s;
}

// A flash attention prefill and the decode that follows it on its thread
// become one operator: the decode's slot is redirected to the prefill's,
// which takes the paired operator and both names.
void pairPrefillWithDecode(SlotOperators& s, const AssociationRanges& R, const SlotEvents& events, OpRecognizer& rec,
                           Report& report) {
  StringPool& strings = report.strings();
  std::vector<std::pair<uint32_t, uint32_t>> pairs;  // (prefill, decode) slots
  std::vector<uint32_t> ops;                         // by pair: the paired op
  std::vector<uint32_t>& redirect = s.redirect;
  // Per thread, the used flash attention library slots in start order
  // (thread, slot).
  std::vector<std::pair<uint32_t, uint32_t>> fa;
  for (const auto& [slot, thread] : events.faThread)
    if (s.used[slot]) fa.emplace_back(thread, slot);
  std::sort(fa.begin(), fa.end());
  for (size_t i = 0; i + 1 < fa.size(); ++i) {
    const uint32_t p = fa[i].second, d = fa[i + 1].second;
    if (fa[i].first != fa[i + 1].first) continue;
    const OpInfo &pi = rec.info(s.op(p)), &di = rec.info(s.op(d));
    if (pi.phase != AttentionPhase::Prefill || di.phase != AttentionPhase::Decode || pi.pairKey != di.pairKey) continue;
    if (redirect.empty()) redirect.assign(R.size(), kNone);
    redirect[d] = p;
    ops.push_back(rec.paired(s.op(p), s.op(d)));
    pairs.emplace_back(p, d);
    ++i;  // the decode is taken
  }
  // Both names, read first where deferred; joined in the pairs' order.
  std::vector<uint32_t> names;
  for (const auto& [p, d] : pairs) {
    names.push_back(s.nameOf(p));
    names.push_back(s.nameOf(d));
  }
  resolveDeferredNames(report, names);
  for (size_t k = 0; k < pairs.size(); ++k) {
    const uint32_t name =
        strings.intern(std::string(strings.get(names[2 * k])) + " + " + std::string(strings.get(names[2 * k + 1])));
    s.paired[pairs[k].first] = {ops[k], name};
  }
}

// Appends operator instances to `ops`: one per used slot (a range's own
// launches) or per (slot, graph launch), and kernel-level and others ones.
class InstanceBuilder {
 public:
  InstanceBuilder(OperatorSet& ops, const SlotOperators& slots, const HgtxAssociation& as, bool work,
                  bool topLevelOnly)
      : ops_(ops), rec_(ops.recognizer), slots_(slots), as_(as), work_(work), topLevelOnly_(topLevelOnly),
        slotInstance_(as.ranges.size(), kNone) {
    ops_.op.reserve(slots.instanceBound);
    ops_.name.reserve(slots.instanceBound);
    if (work_) {
      ops_.dtype.reserve(slots.instanceBound);
      ops_.deviceIndex.reserve(slots.instanceBound);
    }
  }

  uint32_t add(uint32_t op, uint32_t name, int32_t dev) { return addAt(op, name, deviceIndex(dev)); }

  // The instance of `slot` that activity `a` runs in: the slot's own, or
  // with `graph` that of the graph launch that ran `a`. With topLevelOnly,
  // one is made only when it is `a`'s top-level instance (`top`); before,
  // the device of the first activity is noted in its place (kNone back).
  uint32_t ofSlot(uint32_t slot, size_t a, bool graph, bool top = true) {
    const int32_t dev = ops_.activities.deviceOf(a);
    if (!graph) return instanceIn(slotInstance_[slot], slot, dev, top);
    const uint32_t g = slotLaunch_.indexOf((static_cast<uint64_t>(slot) << 32) | as_.launchCall[a]);
    if (g == graphInstance_.size()) graphInstance_.push_back(kNone);
    return instanceIn(graphInstance_[g], slot, dev, top);
  }

 private:
  // Marks a noted device, not made yet (topLevelOnly): the low bits index OperatorSet::devices.
  static constexpr uint32_t kNoted = 0x80000000u;

  // A device's index in OperatorSet::devices (few: a search, the last
  // one found first).
  uint32_t deviceIndex(int32_t dev) {
    std::vector<int32_t>& d = ops_.devices;
    if (lastDevice_ < d.size() && d[lastDevice_] == dev) return lastDevice_;
    lastDevice_ = static_cast<uint32_t>(std::find(d.begin(), d.end(), dev) - d.begin());
    if (lastDevice_ == d.size()) d.push_back(dev);
    return lastDevice_;
  }

  uint32_t addAt(uint32_t op, uint32_t name, uint32_t deviceIndex) {
    ops_.op.push_back(op);
    ops_.name.push_back(name);
    if (work_) {
      ops_.dtype.push_back(rec_.info(op).work.dtype);
      ops_.deviceIndex.push_back(deviceIndex);
    }
    return static_cast<uint32_t>(ops_.op.size() - 1);
  }

  uint32_t instanceIn(uint32_t& held, uint32_t slot, int32_t dev, bool top) {
    if (held != kNone && !(held & kNoted)) return held;
    if (!topLevelOnly_ || top) {
      held = addAt(slots_.op(slot), slots_.nameOf(slot), held == kNone ? deviceIndex(dev) : held & ~kNoted);
      return held;
    }
    if (held == kNone) held = kNoted | deviceIndex(dev);
    return kNone;
  }

  OperatorSet& ops_;
  OpRecognizer& rec_;
  const SlotOperators& slots_;
  const HgtxAssociation& as_;
  const bool work_;  // OperatorQuery::work: dtype and device kept
  const bool topLevelOnly_;  // OperatorQuery::groupsOnly
  uint32_t lastDevice_ = 0;
  std::vector<uint32_t> slotInstance_;  // by slot
  KeyGroups slotLaunch_;                // (slot, launching call) -> graphInstance_ index
  std::vector<uint32_t> graphInstance_;
};

// Each activity's framework, library and top-level instance: the top one is
// its framework instance, else its library one, else (for a kernel, without
// range-include) its recognised kernel-level operator, else with op=others
// an "others" instance of its own when it is in no operator range.
// An operator whose own name has no data type (a MoE layer, aten::mm with
// sizes only) takes that of the first library operator it runs that has one.
void assignInstances(OperatorSet& ops, const InnermostSlots& slots, const SlotOperators& slotOps,
                     const HgtxAssociation& as, Report& report, TypeFilter& filter, const OperatorQuery& query,
                     bool rangeInclude) {
  StringPool& strings = report.strings();
  OpRecognizer& rec = ops.recognizer;
  const PpuActivities& act = ops.activities;
  const size_t n = act.size();
  InstanceBuilder instances(ops, slotOps, as, query.work, query.groupsOnly);
  ops.othersType = rec.internType(kTypeOthers);
  // A kernel's name: by its row, or (groupsOnly) its tag; a tag that is a
  // row (no demangled name) reads every name column, as kernelNamesFor
  // loads them when some kernel has no demangled name. The column is
  // loaded before the activities' instance columns are made (8 bytes an
  // activity with the levels: the breakdowns' load step held them).
  std::optional<KernelNamer> namerK;
  if (act.tag.empty())
    namerK.emplace(kernelNamesFor(report, act, KernelNameMode::Demangled), strings, KernelNameMode::Demangled);
  if (query.levels) ops.libraryFromTop.resize(n);
  ops.top.assign(n, kNone);
  auto kernelName = [&](size_t a) {
    if (act.tag.empty()) return namerK->nameId(act.row[a]);
    const uint32_t tag = act.tag[a];
    if (!(tag & kKernelRowTag)) return tag;
    if (!namerK) namerK.emplace(report.kernels(kcol::names), strings, KernelNameMode::Demangled);
    return namerK->nameId(tag & ~kKernelRowTag);
  };
  for (size_t a = 0; a < n; ++a) {
    const ActivitySlots x = slots.of(a);
    const uint32_t library = slotOps.library(x.library);
    const uint32_t f = x.framework != kNone ? instances.ofSlot(x.framework, a, x.viaGraph & 1) : kNone;
    const uint32_t l = library != kNone ? instances.ofSlot(library, a, x.viaGraph & 2, f == kNone) : kNone;
    // Under a framework operator, the library instance by its distance
    // from it (OperatorSet::libraryOf); without one, it is the top-level.
    if (query.levels && f != kNone && l != kNone) {
      const uint64_t z = zigzag(int64_t{l} - int64_t{f});
      if (z >= 0xFFFFFFFEull) throw Error("operators: too many operator instances");
      ops.libraryFromTop.set(a, static_cast<uint32_t>(z + 1));
    }
    if (query.work && f != kNone && x.libraryOp != kNone && ops.dtype[f] == DataType::Unknown)
      ops.dtype[f] = rec.info(x.libraryOp).work.dtype;
    if (f != kNone) {
      ops.top[a] = f;
    } else if (l != kNone) {
      ops.top[a] = l;
    } else if (act.kindOf(a) == ActivityKind::Kernel && !rangeInclude) {
      const uint32_t name = kernelName(a);
      const uint32_t op = rec.kernel(name);
      if (op != kNone) {
        if (filter.keptType(rec.info(op).type)) ops.top[a] = instances.add(op, name, act.deviceOf(a));
      } else if (query.others && !x.inRange) {
        ops.top[a] = instances.add(rec.others(name), name, act.deviceOf(a));
      }
    }
  }
}

// The types op= asks for that no operator of the report has.
std::vector<std::string> typesWithoutOperators(const OpRecognizer& rec, const std::vector<std::string>& types) {
  std::vector<std::string> unknown;
  for (const std::string& t : types) {
    bool found = false;
    for (uint32_t i = 0; i < rec.typeCount() && !found; ++i) found = rec.typeName(i) == t;
    if (!found) unknown.push_back(t);
  }
  return unknown;
}

}  // namespace

OperatorSet buildOperators(Report& report, OperatorQuery query, uint32_t kernelColumns) {
  StringPool& strings = report.strings();
  OperatorSet ops(strings, query.recognition);
  OpRecognizer& rec = ops.recognizer;
  RangeTexts texts(strings);
  // Read before the association takes the includes.
  const bool rangeInclude = !query.rangeInclude.empty();
  // HGTX_EVENTS is read in the association's scan, never held whole (an
  // earlier rule's loaded events are given back once the ranges are chosen:
  // a later rule loads them again): the activities, the sweep, the
  // instances and the rule's own work do not stand on them (60 bytes an
  // event).
  size_t events = 0;
  OperatorRanges ranges =
      associateOperatorRanges(report, query, kernelColumns, texts, rec, events, ops.hgtxTextPrefixSeen);
  ops.noHgtx = events == 0;
  ops.activities = std::move(ranges.in.activities);
  // The nesting reads a range's name and thread (and its event, for the
  // ranges' count), not its time or style (17 bytes a range): they go
  // before the instances are made.
  AssociationRanges& R = ranges.in.association.ranges;
  std::vector<int64_t>().swap(R.start);
  R.duration = NarrowInts();
  std::vector<uint8_t>().swap(R.startEnd);
  std::vector<uint32_t>().swap(R.threadIndex);  // when the calls were not swept as scanned
  std::vector<int64_t>().swap(R.threads);
  // Each activity's ranges by the activity, not its launching call: the
  // calls' innermost ranges (4 bytes a call, 41 MiB at scale 2500) go
  // before the instances are made.
  ranges.in.association.holdCallValuesByActivity();
  const HgtxAssociation& as = ranges.in.association;
  ops.unlaunched = ranges.in.unlaunched;

  StageTimer timer("operators: nesting and instances");
  TypeFilter filter(rec, query);
  const InnermostSlots slots(as, ranges.slots.op, rec, filter);
  SlotOperators slotOps =
      usedSlotOperators(slots, ops.activities, as.ranges, ranges.slots, texts, strings, rangeInclude,
                        query.groupsOnly, rec, filter, query.others);
  if (query.pairPrefillDecode) pairPrefillWithDecode(slotOps, as.ranges, ranges.slots, rec, report);
  std::vector<uint8_t>().swap(slotOps.used);  // read by the pairing alone (1 byte a range)
  assignInstances(ops, slots, slotOps, as, report, filter, query, rangeInclude);
  ops.unknownTypes = typesWithoutOperators(rec, query.types);
  // The association (ranges, the calls' range lists, each activity's
  // launching call) is given back before the instances' columns, grown by
  // doubling, are fitted to their size: what the rules allocate next sits
  // beside the set alone.
  profileNote("operators: " + std::to_string(ops.size()) + " instances, " + std::to_string(slotOps.instanceBound) +
              " reserved");
  { OperatorRanges done = std::move(ranges); }
  if (query.groupsOnly) {  // read by no one after
    std::vector<uint32_t>().swap(ops.activities.tag);
    std::vector<uint8_t>().swap(ops.activities.place);
  }
  ops.op.shrink_to_fit();
  ops.name.shrink_to_fit();
  ops.dtype.shrink_to_fit();
  ops.deviceIndex.shrink_to_fit();
  if (!query.work) std::vector<int32_t>().swap(ops.devices);  // no instance's device kept
  return ops;
}

void resolveDeferredNames(Report& report, std::vector<uint32_t>& names) {
  std::vector<uint32_t> events, at;
  for (uint32_t k = 0; k < names.size(); ++k) {
    const uint32_t e = deferredEvent(names[k]);
    if (e == kNoString) continue;
    events.push_back(e);
    at.push_back(k);
  }
  if (events.empty()) return;
  const std::vector<uint32_t> ids = report.hgtxTexts(events);
  // A deferred name is a text the scan read: never NULL (the file changed).
  for (size_t j = 0; j < at.size(); ++j) {
    if (ids[j] == kNoString) throw Error(report.path() + ": table HGTX_EVENTS changed while the report was open");
    names[at[j]] = ids[j];
  }
}

std::vector<std::string_view> smallestFirstNames(Report* report, const StringPool& names, size_t groups,
                                                 const std::vector<uint32_t>& candidateGroup,
                                                 std::vector<uint32_t> candidateName) {
  if (report) resolveDeferredNames(*report, candidateName);
  std::vector<std::string_view> out(groups);
  std::vector<uint8_t> named(groups, 0);
  for (size_t k = 0; k < candidateGroup.size(); ++k) {
    const uint32_t g = candidateGroup[k];
    const std::string_view name = names.get(candidateName[k]);
    if (!named[g] || name < out[g]) {
      out[g] = name;
      named[g] = 1;
    }
  }
  return out;
}

const Kernels& kernelNamesFor(Report& report, const PpuActivities& act, KernelNameMode mode) {
  const uint32_t own = mode == KernelNameMode::Base      ? kcol::shortName
                       : mode == KernelNameMode::Mangled ? kcol::mangledName
                                                         : kcol::demangledName;
  const Kernels& k = report.kernels(own | kcol::demangledName);
  const std::vector<uint32_t>& first = mode == KernelNameMode::Base      ? k.shortName
                                       : mode == KernelNameMode::Mangled ? k.mangledName
                                                                         : k.demangledName;
  for (size_t a = 0; a < act.size(); ++a) {
    const uint32_t row = act.row[a];
    if (act.kindOf(a) == ActivityKind::Kernel && first[row] == kNoString && k.demangledName[row] == kNoString)
      return report.kernels(kcol::names);
  }
  return k;
}

void addOperatorWarnings(Table& t, const OperatorSet& ops) {
  if (ops.noHgtx) {
    t.addWarning("the report has no HGTX ranges (collected with --trace hgtx): operators are recognised from kernel "
                 "names only");
  }
  if (!ops.unknownTypes.empty()) {
    std::vector<std::string> types;
    for (uint32_t i = 0; i < ops.recognizer.typeCount(); ++i)
      if (ops.recognizer.typeName(i) != kTypeOthers) types.emplace_back(ops.recognizer.typeName(i));
    std::sort(types.begin(), types.end());
    std::string known;
    for (const std::string& type : types) known += type + ", ";
    std::string list;
    for (const std::string& t : ops.unknownTypes) list += (list.empty() ? "'" : ", '") + t + "'";
    t.addWarning("op=: no operator of type " + list + " in this report" +
                 (known.empty() ? std::string() : " (its operator types: " + known.substr(0, known.size() - 2) + ")"));
  }
  const std::string unlaunched = unlaunchedWarning(ops.unlaunched, /*memoryToo=*/true);
  if (!unlaunched.empty()) t.addWarning(unlaunched);
}

TopLevelSpans topLevelSpans(const OperatorSet& ops) {
  // unionByGroupSorted's sweep, with the open block's start folded into
  // `active` while it runs (the closed blocks' sum less the open block's
  // start), so that no array of open blocks is held beside.
  TopLevelSpans u;
  const size_t n = ops.size();
  u.start.assign(n, 0);
  u.end.assign(n, TopLevelSpans::kNoEnd);
  u.active.assign(n, 0);
  const PpuActivities& act = ops.activities;
  for (size_t a = 0; a < act.size(); ++a) {
    const uint32_t g = ops.top[a];
    if (g == kNone) continue;
    const int64_t s = act.start[a], e = std::max(act.endOf(a), s);
    if (u.end[g] == TopLevelSpans::kNoEnd) {
      u.start[g] = s;
      u.active[g] = -s;
      u.end[g] = e;
    } else if (s > u.end[g]) {  // a gap: the open block [.., end] is complete
      u.active[g] += u.end[g] - s;
      u.end[g] = e;
    } else {
      u.end[g] = std::max(u.end[g], e);
    }
  }
  for (size_t g = 0; g < n; ++g)
    if (u.end[g] != TopLevelSpans::kNoEnd) u.active[g] += u.end[g];
  return u;
}

}  // namespace asys
