#include "core/operators/operator_set.h"

#include <algorithm>
#include <string>

#include "core/analysis/associated_activities.h"
#include "core/analysis/hgtx_ranges.h"
#include "core/analysis/kernel_names.h"
#include "core/base/stage_timer.h"

namespace asys {

namespace {

constexpr uint32_t kNone = OperatorSet::kNone;

// The text an HGTX event's recognisers read: its own text, with the
// arguments an importer recorded beside it (`aten::mm, sizes = [...]`),
// made once per distinct pair.
class EventTexts {
 public:
  explicit EventTexts(Report& report) : h_(report.hgtx()), strings_(report.strings()) {}
  uint32_t text(uint32_t event) {
    const uint32_t name = h_.nameId[event];
    const uint32_t args = h_.argsId.empty() ? kNoString : h_.argsId[event];
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
  const HgtxEvents& h_;
  StringPool& strings_;
  KeyGroups pairs_;
  std::vector<uint32_t> joined_;
};

}  // namespace

OperatorSet buildOperators(Report& report, OperatorQuery query, uint32_t kernelColumns) {
  StringPool& strings = report.strings();
  OperatorSet ops(strings, query.recognition);
  OpRecognizer& rec = ops.recognizer;
  const HgtxEvents& h = report.hgtx();
  EventTexts texts(report);
  const bool customHgtx = query.recognition.custom && query.recognition.custom->has(CustomOpSource::Hgtx);
  RangeNamer namer(report);

  // Recognise every range once per distinct text; only operator ranges take
  // part in the association.
  std::vector<uint32_t> eventOp(h.size(), kNone);
  const bool rangeInclude = !query.rangeInclude.empty();
  RangeSelection ranges;
  ranges.graphMapping = query.graphMapping;
  ranges.include = std::move(query.rangeInclude);
  ranges.exclude = std::move(query.rangeExclude);
  ranges.keepRange = [&](uint32_t event) {
    const uint32_t text = texts.text(event);
    if (text == kNoString) return false;
    const uint32_t qualified = customHgtx ? namer.nameId(event) : text;
    eventOp[event] = rec.range(text, qualified == kNoString ? text : qualified);
    return eventOp[event] != kNone;
  };
  // Kernels, memcpys and memsets. Kernel names: the demangled ones; the
  // other two only when a kernel lacks one.
  ActivitySelection sel;
  sel.memory = true;
  sel.kernelColumns = kcol::demangledName | kernelColumns;
  sel.devices = std::move(query.devices);
  sel.window = query.window;
  AssociatedActivities in = associateActivities(report, std::move(sel), std::move(ranges));
  ops.activities = std::move(in.activities);
  const PpuActivities& act = ops.activities;
  const HgtxAssociation& as = in.association;
  const AssociationRanges& R = as.ranges;
  const size_t n = act.size();
  ops.noHgtx = h.size() == 0;
  ops.unlaunched = in.unlaunched;

  StageTimer timer("operators: nesting and instances");
  // Which recognised operators the rule keeps (op=).
  std::vector<int8_t> typeKept;  // by type id: -1 unknown
  auto keptType = [&](uint32_t type) {
    if (type >= typeKept.size()) typeKept.resize(type + 1, -1);
    if (typeKept[type] < 0) {
      const std::string_view t = rec.typeName(type);
      typeKept[type] = query.allTypes || std::find(query.types.begin(), query.types.end(), t) != query.types.end();
    }
    return typeKept[type] == 1;
  };
  auto selected = [&](uint32_t op) { return op != kNone && keptType(rec.info(op).type); };

  // Each activity's innermost selected framework and library range (the
  // ranges of an activity come in start order: the last one of a level is
  // the innermost). At the framework level the layer annotations (MoE, the
  // user's hgtx: rules) outrank PyTorch ranges: a MoE layer keeps the
  // kernels of the aten:: ops inside it.
  // A range associated through an HGGC graph node (captured once, launched
  // many times) is one instance per graph launch: `viaGraph` notes it.
  auto rank = [&](uint32_t op) { return rec.info(op).family == OpFamily::PyTorch ? 1 : 2; };
  std::vector<uint32_t> fwSlot(n, kNone), libSlot(n, kNone);
  std::vector<uint8_t> inRange(n, 0);  // associated with any operator range
  std::vector<uint8_t> viaGraph(n, 0);  // bit 0: the framework pair, bit 1: the library pair
  // The innermost library operator whatever op= selects: the data type of
  // the framework operator around it (a MoE layer is bf16 because its
  // DeepGemm is, with op=MoE too).
  std::vector<uint32_t> libraryOp(n, kNone);
  for (size_t a = 0; a < n; ++a) {
    int fwRank = 0;
    for (uint32_t p = as.activityOffset[a]; p < as.activityOffset[a + 1]; ++p) {
      const uint32_t slot = as.pairRange[p];
      inRange[a] = 1;
      const uint32_t op = eventOp[R.event[slot]];
      if (rec.info(op).level == OpLevel::Library) libraryOp[a] = op;
      if (!selected(op)) continue;
      const uint8_t graph = as.pairViaGraph[p];
      if (rec.info(op).level == OpLevel::Framework) {
        if (rank(op) < fwRank) continue;
        fwRank = rank(op);
        fwSlot[a] = slot;
        viaGraph[a] = static_cast<uint8_t>((viaGraph[a] & 2) | graph);
      } else {
        libSlot[a] = slot;
        viaGraph[a] = static_cast<uint8_t>((viaGraph[a] & 1) | (graph << 1));
      }
    }
  }

  // A flash attention prefill and the decode that follows it on its thread
  // become one operator: the decode's slot is redirected to the prefill's.
  std::vector<uint32_t> slotOp(R.size(), kNone), slotName(R.size(), kNoString);
  std::vector<uint8_t> slotUsed(R.size(), 0);
  for (size_t a = 0; a < n; ++a) {
    if (fwSlot[a] != kNone) slotUsed[fwSlot[a]] = 1;
    if (libSlot[a] != kNone) slotUsed[libSlot[a]] = 1;
  }
  auto displayName = [&](uint32_t slot) {
    const uint32_t event = R.event[slot];
    const uint32_t args = h.argsId.empty() ? kNoString : h.argsId[event];
    if (args == kNoString) return R.name[slot];
    return h.nameId[event] == R.name[slot] ? texts.text(event)
                                           : strings.intern(std::string(strings.get(R.name[slot])) + ", " +
                                                            std::string(strings.get(args)));
  };
  for (uint32_t slot = 0; slot < R.size(); ++slot) {
    if (!slotUsed[slot]) continue;
    slotOp[slot] = eventOp[R.event[slot]];
    slotName[slot] = displayName(slot);
  }
  std::vector<uint32_t> redirect(R.size(), kNone);
  if (query.pairPrefillDecode) {
    // Per thread, the used flash attention library slots in start order.
    std::vector<uint32_t> fa;
    for (uint32_t slot = 0; slot < R.size(); ++slot) {
      if (!slotUsed[slot]) continue;
      const OpInfo& info = rec.info(slotOp[slot]);
      if (info.family == OpFamily::FlashAttention && info.level == OpLevel::Library) fa.push_back(slot);
    }
    std::stable_sort(fa.begin(), fa.end(), [&](uint32_t x, uint32_t y) {
      return h.globalTid[R.event[x]] < h.globalTid[R.event[y]];
    });
    for (size_t i = 0; i + 1 < fa.size(); ++i) {
      const uint32_t p = fa[i], d = fa[i + 1];
      if (h.globalTid[R.event[p]] != h.globalTid[R.event[d]]) continue;
      const OpInfo &pi = rec.info(slotOp[p]), &di = rec.info(slotOp[d]);
      if (pi.phase != AttentionPhase::Prefill || di.phase != AttentionPhase::Decode || pi.pairKey != di.pairKey) continue;
      redirect[d] = p;
      slotOp[p] = rec.paired(slotOp[p], slotOp[d]);
      slotName[p] = strings.intern(std::string(strings.get(slotName[p])) + " + " + std::string(strings.get(slotName[d])));
      ++i;  // the decode is taken
    }
    for (size_t a = 0; a < n; ++a)
      if (libSlot[a] != kNone && redirect[libSlot[a]] != kNone) libSlot[a] = redirect[libSlot[a]];
  }

  // Instances: the used slots (in start order), then kernel-level and others
  // operators, one per kernel.
  // Instances by slot (a range's own launches), and by (slot, graph launch).
  std::vector<uint32_t> slotInstance(R.size(), kNone);
  KeyGroups slotLaunch;
  std::vector<uint32_t> graphInstance;
  KeyGroups othersKeyOfName;
  std::vector<uint32_t> othersKeys;
  auto addInstance = [&](uint32_t op, OpLevel level, uint32_t name, int32_t dev) {
    ops.op.push_back(op);
    ops.level.push_back(level);
    ops.name.push_back(name);
    if (op == OperatorSet::kOthersOp) {
      ops.type.push_back(ops.othersType);
      const uint32_t g = othersKeyOfName.indexOf(name);
      if (g == othersKeys.size()) othersKeys.push_back(rec.internKey(strings.get(name)));
      ops.key.push_back(othersKeys[g]);
      ops.dtype.push_back(DataType::Unknown);
    } else {
      ops.type.push_back(rec.info(op).type);
      ops.key.push_back(rec.info(op).key);
      ops.dtype.push_back(rec.info(op).work.dtype);
    }
    ops.device.push_back(dev);
    return static_cast<uint32_t>(ops.op.size() - 1);
  };
  ops.othersType = rec.internType(kTypeOthers);
  ops.framework.assign(n, kNone);
  ops.library.assign(n, kNone);
  ops.top.assign(n, kNone);
  auto slotInst = [&](uint32_t slot, size_t a, bool graph) {
    if (!graph) {
      if (slotInstance[slot] == kNone)
        slotInstance[slot] = addInstance(slotOp[slot], rec.info(slotOp[slot]).level, slotName[slot], act.deviceId[a]);
      return slotInstance[slot];
    }
    const uint32_t g = slotLaunch.indexOf((static_cast<uint64_t>(slot) << 32) | as.launchCall[a]);
    if (g == graphInstance.size()) {
      graphInstance.push_back(addInstance(slotOp[slot], rec.info(slotOp[slot]).level, slotName[slot], act.deviceId[a]));
    }
    return graphInstance[g];
  };
  KernelNamer namerK(kernelNamesFor(report, act, KernelNameMode::Demangled), strings, KernelNameMode::Demangled);
  for (size_t a = 0; a < n; ++a) {
    if (fwSlot[a] != kNone) ops.framework[a] = slotInst(fwSlot[a], a, viaGraph[a] & 1);
    if (libSlot[a] != kNone) ops.library[a] = slotInst(libSlot[a], a, viaGraph[a] & 2);
    if (ops.framework[a] != kNone) {
      ops.top[a] = ops.framework[a];
    } else if (ops.library[a] != kNone) {
      ops.top[a] = ops.library[a];
    } else if (act.kind[a] == ActivityKind::Kernel && !rangeInclude) {
      const uint32_t name = namerK.nameId(act.row[a]);
      const uint32_t op = rec.kernel(name);
      if (op != kNone) {
        if (keptType(rec.info(op).type)) ops.top[a] = addInstance(op, OpLevel::Kernel, name, act.deviceId[a]);
      } else if (query.others && !inRange[a]) {
        ops.top[a] = addInstance(OperatorSet::kOthersOp, OpLevel::Kernel, name, act.deviceId[a]);
      }
    }
  }

  // Types op= asks for that no operator of the report has.
  for (const std::string& t : query.types) {
    bool found = false;
    for (uint32_t i = 0; i < rec.typeCount() && !found; ++i) found = rec.typeName(i) == t;
    if (!found) ops.unknownTypes.push_back(t);
  }

  // An operator whose own name has no data type (a MoE layer, aten::mm with
  // sizes only) takes that of the first library operator it runs that has one.
  for (size_t a = 0; a < n; ++a) {
    const uint32_t f = ops.framework[a];
    if (f == kNone || libraryOp[a] == kNone || ops.dtype[f] != DataType::Unknown) continue;
    ops.dtype[f] = rec.info(libraryOp[a]).work.dtype;
  }
  return ops;
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
    if (act.kind[a] == ActivityKind::Kernel && first[row] == kNoString && k.demangledName[row] == kNoString)
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

GroupUnions topLevelSpans(const OperatorSet& ops) {
  return unionByGroupSorted(ops.activities.start, ops.activities.end, ops.top, ops.size());
}

}  // namespace asys
