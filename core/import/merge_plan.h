#pragma once
// The plan of `asys merge`: every input checked and surveyed before anything
// is written, then each input's renumbering (merge_columns.h) chosen so that
// no two inputs share an id of any kind:
//   - pids and device ids: kept unless an earlier input has the same one;
//     then the smallest one no input uses (pids from 1, devices from 0);
//   - StringIds, CALLCHAINS and memory event ids: shifted past the ids of
//     the inputs before (the first input keeps its own);
//   - enum and metric ids: merged by their texts (one id per distinct
//     name/label or metricName/unit), an input's id renumbered only when an
//     earlier input used it for other texts;
//   - times: shifted onto the first input's clock when the inputs record
//     epochOffset (Kineto imports), unchanged otherwise.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace asys {

// old id -> new id, only for the ids that change.
using IdChanges = std::vector<std::pair<int64_t, int64_t>>;

struct InputPlan {
  std::string path;
  // Per table of mergeTables(): the input's columns, empty when it has no
  // such table.
  std::vector<std::vector<std::string>> columns;
  int64_t timeShift = 0;
  int64_t stringShift = 0, callchainShift = 0, eventIdShift = 0;
  IdChanges pids, devices, copyKinds, memKinds, metrics;
};

// A row of a dictionary table (an enum or the metric list): id and two texts.
struct DictionaryRow {
  int64_t id;
  std::optional<std::string> first, second;
};

struct MergePlan {
  std::vector<InputPlan> inputs;
  // Per table of mergeTables() (empty but for the dictionaries): the merged rows.
  std::vector<std::vector<DictionaryRow>> dictionaries;
  // The merged META_DATA, in order.
  std::vector<std::pair<std::string, std::string>> meta;
};

// The pid and device changes and the time shift of each input, as
// planMerge chooses them from the inputs' pids and device ids (each sorted
// and distinct, as surveyInput finds them) and epochOffsets, in input
// order: what a fleet run applies to each report's ids and times to name
// what the merged report names. Throws Error (naming the input's path) when
// the ids run out.
struct InputIds {
  std::string path;
  std::vector<int64_t> pids, devices;
  std::optional<int64_t> epochOffset;  // META_DATA.epochOffset, when recorded
  int64_t kernelRows = 0;              // HGGC_KERNEL's rows (kernelRowsOf)
};
struct IdPlan {
  IdChanges pids, devices;
  int64_t timeShift = 0;
  int64_t kernelRowShift = 0;  // the earlier inputs' kernels
};
std::vector<IdPlan> planIdChanges(const std::vector<InputIds>& inputs);

// Opens every input (an asysrep report the engine can read, all of one
// format version and, when they say so, alignable clocks) and plans the
// merge. Throws Error with one line naming the file at fault.
MergePlan planMerge(const std::vector<std::string>& inputs);

}  // namespace asys
