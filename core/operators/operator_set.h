#pragma once
// The operators of a report: PPU activities grouped into operator instances
// at three levels, what every operator rule reads (docs/operators.md).
//
// - An HGTX range is an operator when a recogniser claims its text
//   (op_recognizer.h); its PPU activities are those the HGTX <-> PPU
//   association gives it (launched inside it on its thread, or through an
//   HGGC graph node created inside it). Operator ranges of one level that
//   nest hand each activity to the innermost: aten::linear around aten::mm
//   has no activity of its own, aten::mm has the GEMM. A range captured
//   into an HGGC graph is one instance per launch of the graph. At the framework
//   level MoE layers and the user's hgtx: rules outrank PyTorch ranges (a
//   MoE layer keeps the kernels of the aten:: ops inside it).
// - Each activity so has at most one framework and one library operator;
//   a kernel with neither is a kernel-level operator when its name is
//   recognised, else (with op=others) an "others" operator of its own.
// - An activity's top-level operator is its framework operator, else its
//   library operator, else its kernel-level or others operator: the flat
//   rules (ppu_op_sum, ppu_op_type_sum, ppu_op_trace) count each activity
//   once, in its top-level operator.
// - Before nesting, operators are selected: op= keeps types (a GEMM inside
//   an unselected MoE becomes top-level), range-include / range-exclude keep
//   ranges as every HGTX rule does (with range-include, kernel-level and
//   others operators are left out: they have no range to match).
// - A flash attention prefill and the decode right after it on the same
//   thread (same heads, head_dim, data type) are one operator unless
//   no-merge-flash-attention-prefill-decode-operator.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/analysis/hgtx_association.h"
#include "core/analysis/intervals.h"
#include "core/analysis/kernel_names.h"
#include "core/analysis/time_window.h"
#include "core/base/regex.h"
#include "core/base/small_ids.h"
#include "core/base/zigzag.h"
#include "core/operators/op_recognizer.h"
#include "core/table/table.h"

namespace asys {

struct OperatorQuery {
  OpRecognizerSettings recognition;
  bool pairPrefillDecode = true;
  // op=: the types kept (allTypes: every recognised type); `others` adds
  // the kernels no operator claims.
  bool allTypes = true;
  std::vector<std::string> types;
  bool others = false;

  // The activities and ranges the operators are made of, as every HGTX
  // rule selects them (the rules fill these from device=, the statistics
  // time range, no-graph-mapping, range-include and range-exclude).
  std::optional<std::vector<int64_t>> devices;  // absent = every device
  TimeWindow window;  // activities overlapping it
  bool graphMapping = true;  // ranges also get the activities of graph nodes made inside them
  // Searches in a range's full name (domain:name): kept when some include
  // matches (or there is none) and no exclude does. With an include,
  // kernel-level and others operators are left out: they have no range.
  std::vector<Regex> rangeInclude, rangeExclude;

  // Keep each activity's library instance (the breakdowns and moe_op_sum
  // read it, OperatorSet::libraryOf, and its framework instance,
  // frameworkOf); the flat rules read the top-level one only.
  bool levels = true;
  // Keep each activity's process (ActivitySelection::processes: 8 bytes an
  // activity): ppu_op_trace shows it; the other rules read none.
  bool processes = false;
  // Hold each activity's end as a duration (ActivitySelection::
  // endsAsDurations, 4 bytes an activity less): for the rules that read
  // ends through PpuActivities::endOf only (every operator rule but
  // ppu_op_unit_test, which keeps the end column).
  bool endsAsDurations = false;
  // HGGC_KERNEL columns (kcol bits) read with each chunk the activity list
  // is made from, and the chunk (ActivitySelection::chunkColumns,
  // onKernelChunk): for a rule that folds a kernel's cells as the table is
  // scanned instead of keeping its columns (ppu_op_trace: its place).
  // Keep each instance's data type and device (OperatorSet::dtype, device,
  // work(): 5 bytes an instance), what the utilisation columns read; a
  // rule that shows none (ppu_op_trace) sets it false and they stay empty.
  bool work = true;
  uint32_t chunkColumns = 0;
  std::function<void(const Kernels& chunk, size_t first)> onKernelChunk;
  // The ranges' own texts are not interned (RangeSelection::deferTexts): an
  // instance's name may be a deferred id, which the rule reads through
  // resolveDeferredNames. For the rules that show few of the names (the
  // operator summaries: a row's first instance); the others hold every
  // range text, as they show them.
  bool deferNames = false;
  // The rule reads only the top-level instances (their spans, operator,
  // name, data type and device) and no activity's row or memory operation
  // after (the operator summaries: ppu_op_sum, ppu_op_type_sum, their
  // compares, ppu_op_unit_test; with `levels` false). Then an instance is
  // made only where it is some activity's top-level one (a library range
  // nested in a framework one makes none: 3.8 M of 9.1 M at scale 2500),
  // taking the device its range's first activity had, as when every
  // instance was made; ids come in another order, which no summary reads.
  // A kernel's name id is kept in place of its row (PpuActivities::tag:
  // read with each chunk of HGGC_KERNEL, so the name column is not loaded
  // whole after; a kernel without a demangled name keeps its row,
  // kKernelRowTag). (For every rule, HGGC_MEMCPY and HGGC_MEMSET go once
  // the list is read, and each activity's device and kind are one byte:
  // PpuActivities::place.)
  bool groupsOnly = false;
  // Whether some HGTX event's name starts with this (OperatorSet::
  // hgtxTextPrefixSeen), tested as the association's scan reads the
  // events: with deferNames their inline texts never reach the report's
  // strings, where ppu_op_unit_test looked for its TorchFunction ranges.
  std::string_view hgtxTextPrefix;
};

// In PpuActivities::tag under OperatorQuery::groupsOnly: a kernel with no
// demangled name is tagged kKernelRowTag | its row (named from every name
// column, loaded then), any other with its demangled name's id.
inline constexpr uint32_t kKernelRowTag = 0x80000000u;

struct OperatorSet {
  static constexpr uint32_t kNone = 0xFFFFFFFFu;

  explicit OperatorSet(const StringPool& names, const OpRecognizerSettings& s) : recognizer(names, s) {}

  PpuActivities activities;  // kernels, memcpys, memsets in start order
  OpRecognizer recognizer;
  uint32_t othersType = kNone;  // recognizer.typeName() id of "others"

  // By activity: its top-level instance (kNone: in no selected operator).
  std::vector<uint32_t> top;
  // An activity's library instance (kNone: none), with OperatorQuery::
  // levels: its top-level one when that is a library operator, else (under
  // a framework operator) held as its distance from the framework instance
  // (zigzag, plus one; 0: none), in 1 byte an activity while every distance
  // is below 127 (SmallIds): a library instance is made with, or soon
  // after, the framework instance it runs under (every one of the 3.76 M
  // such activities at scale 2500), where a column held 4 bytes.
  SmallIds libraryFromTop;
  uint32_t libraryOf(size_t a) const {
    const uint32_t t = top[a];
    if (t == kNone) return kNone;
    const uint32_t v = libraryFromTop.get(a);
    if (v == 0) return level(t) == OpLevel::Library ? t : kNone;
    return static_cast<uint32_t>(int64_t{t} + unzigzag(v - 1));
  }
  // An activity's framework instance (kNone: none): its top-level one when
  // that is a framework operator, as a framework instance is always its
  // activities' top-level one; no column of its own (4 bytes an activity,
  // held through the instances' making and the breakdowns' and
  // moe_op_sum's own steps). Reads the instance columns.
  uint32_t frameworkOf(size_t a) const {
    const uint32_t t = top[a];
    return t != kNone && level(t) == OpLevel::Framework ? t : kNone;
  }

  // By instance (ids in no particular order; trace rules sort by start),
  // 7 to 11 bytes: what its operator does not say. Its type, key and level
  // are its operator's (an "others" kernel is an operator of the
  // recogniser's too: OpRecognizer::others). The op and device are small
  // numbers (SmallIds: 1 byte each while the recogniser has fewer than 255
  // ops and the instances run on fewer than 255 devices, 2 below 65,535),
  // where they were 4 bytes each (9.06 M instances at scale 2500).
  SmallIds op;                     // recognizer op id: opOf
  std::vector<uint32_t> name;      // report string id: the OP Name of this instance
  std::vector<DataType> dtype;     // its own, else a nested library operator's (empty unless OperatorQuery::work)
  // Its first activity's device (empty unless OperatorQuery::work), as an
  // index into `devices`: deviceOf.
  SmallIds deviceIndex;
  std::vector<int32_t> devices;
  size_t size() const { return op.size(); }
  uint32_t opOf(uint32_t instance) const { return op.get(instance); }
  int32_t deviceOf(uint32_t instance) const { return devices[deviceIndex.get(instance)]; }
  uint32_t type(uint32_t instance) const { return recognizer.info(opOf(instance)).type; }  // recognizer type id
  // Recognizer key id: instances of one (type, key) are one row.
  uint32_t key(uint32_t instance) const { return recognizer.info(opOf(instance)).key; }
  OpLevel level(uint32_t instance) const { return recognizer.info(opOf(instance)).level; }
  // One execution's work: its operator's, with the instance's data type.
  OpWork work(uint32_t instance) const {
    OpWork w = recognizer.info(opOf(instance)).work;
    w.dtype = dtype[instance];
    return w;
  }

  // For the warnings: no HGTX data at all; activities no launching call
  // ties to a range.
  bool noHgtx = false;
  bool hgtxTextPrefixSeen = false;  // OperatorQuery::hgtxTextPrefix
  size_t unlaunched = 0;
  // op= types no recognised operator has (a misspelt type selects nothing).
  std::vector<std::string> unknownTypes;
};

// Builds the operators of a report under the query.
// `kernelColumns`: further HGGC_KERNEL columns (kcol bits) the rule reads.
OperatorSet buildOperators(Report& report, OperatorQuery query, uint32_t kernelColumns = 0);

// Instance names (OperatorSet::name) as ids of the report's strings: the
// deferred ones (OperatorQuery::deferNames) read from HGTX_EVENTS and
// interned, in one pass over the table's blocks that hold them; the others
// as they are.
void resolveDeferredNames(Report& report, std::vector<uint32_t>& names);

// A row's name when the earliest of its instances names it and, of those
// starting together, the smallest name (an order every report and their
// merge share): candidate k (an instance starting at its group's earliest
// start) is of group candidateGroup[k] and named candidateName[k]. The
// deferred names are read back first (from `report`; none when it is
// null). By group, "" where none is a candidate. Views of `names`.
std::vector<std::string_view> smallestFirstNames(Report* report, const StringPool& names, size_t groups,
                                                 const std::vector<uint32_t>& candidateGroup,
                                                 std::vector<uint32_t> candidateName);

// Adds what the user should know about the operators to a rule's result.
void addOperatorWarnings(Table& t, const OperatorSet& ops);

// Per instance over the activities it is the top-level operator of: its
// projection (first start, last end) and PPU active time (their union).
// 24 bytes an instance (a GroupUnions held 36 with its count and the sweep's
// open block); an instance with no such activity (a nested one) has none.
struct TopLevelSpans {
  static constexpr int64_t kNoEnd = INT64_MIN;
  std::vector<int64_t> start, end, active;  // an instance without activities: end kNoEnd
  bool has(uint32_t i) const { return end[i] != kNoEnd; }
};
TopLevelSpans topLevelSpans(const OperatorSet& ops);

// The kernel names a name mode reads, loaded for the kernels among
// `activities`: the mode's own column and the demangled one (a scan of 10 M
// rows per column), the third only when some kernel has neither.
const Kernels& kernelNamesFor(Report& report, const PpuActivities& activities, KernelNameMode mode);

}  // namespace asys
