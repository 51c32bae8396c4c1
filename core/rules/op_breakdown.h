#pragma once
// The three-level performance breakdown ppu_op_kernel_breakdown and
// ppu_op_breakdown print (2.3.28, 2.3.29): every PPU activity of a top-level
// operator on the path framework operator -> library operator -> kernel,
//   - a missing level is "Native" (a library operator no framework operator
//     runs, a kernel no library operator runs);
//   - "Idle" is the time inside an operator's PPU projection that none of
//     its children's projections covers (a framework operator: its library
//     operators and native activities; a library operator: its activities);
//   - groups merge instances as ppu_op_sum does (OP Type and merged
//     parameters at the framework and library levels, kernel name in the
//     rule's name mode at the kernel level);
//   - Total Time is the sum of the top-level operators' durations, and each
//     group's Time (%) its summed durations over it.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/operators/operator_set.h"
#include "core/operators/utilisation.h"
#include "core/rules/rule.h"

namespace asys {

enum class BreakdownKind : uint8_t { Operator, Native, Idle };

struct BreakdownGroup {
  uint32_t parent = 0;          // the group one level up (unused at level 1)
  BreakdownKind kind = BreakdownKind::Operator;
  uint32_t type = 0;            // level 1: recognizer type id
  uint32_t key = 0;             // recognizer key id (operators) or report string id (kernels)
  uint32_t name = kNoString;    // report string id of the name shown (operators, kernels)
  int64_t firstStart = INT64_MAX;
  int64_t time = 0, instances = 0;
  UtilisationSum util;          // level 2 operators
};

struct Breakdown {
  std::vector<BreakdownGroup> level[3];  // framework, library, kernel groups
  int64_t totalTime = 0;
};

// `kernels`: compute the kernel level too, and not the library level's
// utilisation (`ops` need not keep its instances' work then).
Breakdown computeBreakdown(RuleContext& ctx, OperatorSet& ops, bool kernels);

// The leaf groups (level 3 with `kernels`, else level 2) in output order:
// each level by order-by (percent: time descending), ties by time, then
// name; only the `limit` leaves with the largest time when limit >= 0.
std::vector<uint32_t> breakdownLeaves(const Breakdown& b, const OperatorSet& ops, const StringPool& names,
                                      bool kernels, const std::string& orderBy, int64_t limit);

// The text shown for a group: its name, "Native" or "Idle".
std::string_view breakdownName(const BreakdownGroup& g, const StringPool& names);
// The match key of a group (compare rules): its key text, "Native" or "Idle".
std::string breakdownKey(const BreakdownGroup& g, const OperatorSet& ops, const StringPool& names, int level);

}  // namespace asys
