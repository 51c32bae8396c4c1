// The id kind of every column of asysrep v1, from the tables' descriptors
// (core/report/asysrep_tables.h), so a column added to a table is classified
// where it is declared. tests/unit/merge_command_test.cc checks that this
// list and a written report's schema have the same tables and columns.
#include "core/import/merge_columns.h"

#include <string_view>

namespace asys {

namespace {

// How the merge carries a table's rows over: META_DATA is merged key by key,
// the enums and the metric list by content, every other table row by row.
TableMerge mergeOf(std::string_view table) {
  if (table == "META_DATA") return TableMerge::kMeta;
  if (table == "ENUM_HGGC_MEMCPY_OPER" || table == "ENUM_HGGC_MEM_KIND" || table == "TARGET_INFO_PPU_METRICS") {
    return TableMerge::kDictionary;
  }
  return TableMerge::kRows;
}

}  // namespace

const std::vector<MergeTable>& mergeTables() {
  static const std::vector<MergeTable> tables = [] {
    std::vector<MergeTable> all;
    for (const AsysTableInfo& t : kAsysrepTables) {
      MergeTable m{t.name, mergeOf(t.name), {}};
      for (size_t c = 0; c < t.columnCount; ++c) m.columns.push_back({t.columns[c].name, t.columns[c].id});
      all.push_back(std::move(m));
    }
    return all;
  }();
  return tables;
}

}  // namespace asys
