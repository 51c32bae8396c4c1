#pragma once
// What `asys merge` must renumber, column by column: every table and column
// of the asysrep schema (core/writer/asysrep_schema.cc, in its order) with
// the id space it belongs to. Two reports' values of one kind may name
// different things (pid 4242 on two hosts, device 0 of two processes,
// StringIds id 7), so the merge renumbers each kind per input
// (merge_plan.h). A column whose ids the engine only joins within one
// process (correlationId, graph ids, HGTX domain ids, range ids) or within
// one device (context and stream ids) needs nothing once processes and
// devices are apart, and stays as it is.
#include <vector>

namespace asys {

enum class IdKind {
  kPlain,      // copied as it is
  kTime,       // ns on the report's clock: shifted when the clocks differ (epochOffset)
  kString,     // a StringIds id
  kThread,     // globalTid / globalPid: pid * 2^24 + tid, the pid bits renumbered
  kPid,        // PROCESSES.pid: the pid itself
  kDevice,     // a TARGET_INFO_PPU id; negative = no PPU, kept
  kCallchain,  // a CALLCHAINS id
  kEventId,    // PPU_MEMORY_USAGE_EVENTS.eventId, unique per report
  kCopyKind,   // an ENUM_HGGC_MEMCPY_OPER id
  kMemKind,    // an ENUM_HGGC_MEM_KIND id
  kMetric,     // a TARGET_INFO_PPU_METRICS metricId
};

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
