#pragma once
// What `asys merge` must renumber, column by column: every table and column
// of the asysrep schema, in its order, with the id space it belongs to, as
// the tables' descriptors declare them (core/report/asysrep_tables.h: IdKind,
// and why most ids need nothing). The merge renumbers each kind per input
// (merge_plan.h).
#include <vector>

#include "core/report/asysrep_tables.h"

namespace asys {

struct MergeColumn {
  const char* name;
  IdKind kind;
};

// How a table's rows are carried over.
enum class TableMerge {
  kRows,        // every input's rows, ids renumbered (INSERT ... SELECT)
  kDictionary,  // id -> text rows merged by content (the enums, the metric list)
  kMeta,        // META_DATA: one merged set of keys (report_merge.cc)
};

struct MergeTable {
  const char* name;
  TableMerge merge;
  std::vector<MergeColumn> columns;
};

// Every table of the schema, in its order.
const std::vector<MergeTable>& mergeTables();

}  // namespace asys
