#pragma once
// What `asys merge` learns of one input before writing anything: that the
// engine can open it, its META_DATA, which tables and columns it has, and
// the ids of each kind it uses (merge_columns.h) -- the sets of pids and
// devices, the ranges of the shifted ids, its dictionary rows. Every big
// table is scanned by SQLite itself (SELECT DISTINCT, min/max), so nothing
// per row reaches C++ and memory stays as small as the distinct ids.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/import/merge_plan.h"

namespace asys {

// The smallest and largest integer of an id kind; empty when none.
struct IdRange {
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  bool empty() const { return lo > hi; }
  void add(int64_t v) {
    lo = v < lo ? v : lo;
    hi = v > hi ? v : hi;
  }
};

struct InputSurvey {
  std::string path;
  std::vector<std::pair<std::string, std::string>> meta;  // in table order
  std::vector<std::vector<std::string>> columns;           // per table of mergeTables()
  std::vector<int64_t> pids, devices;                      // sorted, distinct; devices >= 0
  IdRange strings, callchains, eventIds;
  std::vector<std::vector<DictionaryRow>> dictionaries;  // per table of mergeTables()

  // The META_DATA value of `name`, or nullptr.
  const std::string* metaValue(const std::string& name) const;
};

// Checks `path` as the engine opens a report and surveys it. Throws Error
// naming the file: missing, not an asysrep report (a foreign format is
// named, with the import that converts it), unreadable.
InputSurvey surveyInput(const std::string& path);

// What planIdChanges needs of a survey.
InputIds inputIds(const InputSurvey& s);

// The rows of the report's HGGC_KERNEL (0 without one): how far a merged
// report moves the next input's kernel positions.
int64_t kernelRowsOf(const std::string& path);

}  // namespace asys
