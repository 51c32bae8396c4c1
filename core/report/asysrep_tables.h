#pragma once
// Every table of asysrep format v1 (/work/shared/spec/asysrep-format-v1.md),
// declared once, as data: the layers expand these lists into what they need
// (docs/adding-a-rule.md, "Adding an asysrep column"):
//   - core/writer/asysrep_schema.cc: the CREATE TABLE statements;
//   - core/writer/report_writer.h/.cc: the row structs, the INSERTs and
//     their binds;
//   - core/import/merge_columns.cc: the id kind of every column for `asys
//     merge`;
//   - core/report/report.h/.cc, report_tables.cc: the reader structs, their
//     column bits and load targets (core/report/loaded_columns.h).
// Perfetto declares its tables once and generates the code from them with
// Python; here the preprocessor does it, so that the build needs no step of
// its own: each table is an X-macro, one COL(...) line per column, in the
// table's order, and each expansion passes its own COL.
//
// COL(name, cell, sql, id, def, load):
//   name  the column, and the field of the writer's row and reader's struct;
//   cell  what a cell holds (namespace asys::cell below): the C++ type the
//         writer binds and the reader loads into;
//   sql   the declared type, as the CREATE TABLE statement spells it;
//   id    the id space of its values (IdKind: what `asys merge` renumbers);
//   def   the default of the writer's row field: {} (0, nullptr), or
//         {kNull} for a column written as NULL unless a producer sets it;
//   load  how the derived reader (core/report/report.h) loads it: with the
//         NULL policy of ColumnLoad::Null (Error, Present, Allowed, Noted),
//         into a vector named as the column, of the cell's Read type;
//         As(field, cell, null), into the reader's `field`, of `cell`'s Read
//         type, with NULL policy `null` (a reader whose consumers name the
//         column otherwise, or read an Int32 column as int64 so that NULL is
//         kNoValue); Unread, the reader never reads it; ByHand, the reader
//         reads it by hand (core/report/report.cc, report_tables.cc), where
//         it differs from the table (docs/adding-a-rule.md, "Adding an
//         asysrep column", says where and why).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace asys {

// The id space of a column's values. Two reports' values of one kind may
// name different things (pid 4242 on two hosts, device 0 of two processes,
// StringIds id 7), so `asys merge` renumbers each kind per input
// (core/import/merge_plan.h). A column whose ids the engine only joins within
// one process (correlationId, graph ids, HGTX domain ids, range ids) or
// within one device (context and stream ids) needs nothing once processes and
// devices are apart: kPlain.
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
  // A kernel's position in HGGC_KERNEL (rowid order, 0-based): a merged
  // report holds each input's rows after the earlier inputs'. No column has
  // it; an asys fleet key does (core/rules/common.h).
  kKernelRow,
};

// What a cell holds. Write: the writer's field type, with its NULL value
// (core/writer/report_writer.h: kNull, kNull32, kNoStringId, nullptr).
// Read: what the reader's vector holds. kSql: the SQL type the column's
// declaration starts with (checked below).
namespace cell {
struct Int64 {  // times, global ids, sizes
  using Write = int64_t;
  using Read = int64_t;  // NULL reads as kNoValue
  static constexpr std::string_view kSql = "INTEGER";
};
struct Int32 {  // device, context and stream ids, grid sizes, enums
  using Write = int32_t;
  using Read = int32_t;  // NULL reads as -1
  static constexpr std::string_view kSql = "INTEGER";
};
struct StringId {  // a StringIds id; the reader holds the pool id of its text
  using Write = uint32_t;
  using Read = uint32_t;
  static constexpr std::string_view kSql = "INTEGER";
};
struct Text {  // inline text; the reader interns it
  using Write = const char*;
  using Read = uint32_t;
  static constexpr std::string_view kSql = "TEXT";
};
struct OwnedText {  // inline text the row owns (device names)
  using Write = std::string;
  using Read = uint32_t;
  static constexpr std::string_view kSql = "TEXT";
};
struct Bytes {  // text of a known length that may hold a NUL (StringIds values)
  using Write = std::string_view;
  using Read = uint32_t;
  static constexpr std::string_view kSql = "TEXT";
};
struct Real {
  using Write = double;
  using Read = double;
  static constexpr std::string_view kSql = "REAL";
};
}  // namespace cell

// clang-format off
#define ASYSREP_META_DATA(COL) \
  COL(name,  Text, "TEXT PRIMARY KEY", Plain, {}, ByHand) \
  COL(value, Text, "TEXT",             Plain, {}, ByHand)

#define ASYSREP_StringIds(COL) \
  COL(id,    Int64, "INTEGER PRIMARY KEY", String, {}, ByHand) \
  COL(value, Bytes, "TEXT NOT NULL",       Plain,  {}, ByHand)

#define ASYSREP_PROCESSES(COL) \
  COL(globalPid, Int64, "INTEGER PRIMARY KEY", Thread, {}, Allowed) \
  COL(pid,       Int64, "INTEGER",             Pid,    {}, Allowed) \
  COL(name,      Text,  "TEXT",                Plain,  {}, Allowed)

#define ASYSREP_ThreadNames(COL) \
  COL(globalTid, Int64,    "INTEGER", Thread, {}, Allowed)                      \
  COL(nameId,    StringId, "INTEGER", String, {}, Allowed)                      \
  COL(priority,  Int32,    "INTEGER", Plain,  {}, As(priority, Int64, Allowed))

#define ASYSREP_TARGET_INFO_PPU(COL) \
  COL(id,            Int64,     "INTEGER PRIMARY KEY", Device, {}, Allowed) \
  COL(name,          OwnedText, "TEXT",                Plain,  {}, Allowed) \
  COL(busLocation,   OwnedText, "TEXT",                Plain,  {}, Allowed) \
  COL(hostName,      OwnedText, "TEXT",                Plain,  {}, Allowed) \
  COL(uuid,          OwnedText, "TEXT",                Plain,  {}, Allowed) \
  COL(computeMajor,  Int64,     "INTEGER",             Plain,  {}, Allowed) \
  COL(computeMinor,  Int64,     "INTEGER",             Plain,  {}, Allowed) \
  COL(ceCount,       Int64,     "INTEGER",             Plain,  {}, Allowed) \
  COL(cuCount,       Int64,     "INTEGER",             Plain,  {}, Allowed) \
  COL(totalMemory,   Int64,     "INTEGER",             Plain,  {}, Allowed) \
  COL(cuClock,       Int64,     "INTEGER",             Plain,  {}, Allowed) \
  COL(memoryClock,   Int64,     "INTEGER",             Plain,  {}, Allowed) \
  COL(peakFlopsFp32, Real,      "REAL",                Plain,  {}, Allowed) \
  COL(peakFlopsFp16, Real,      "REAL",                Plain,  {}, Allowed) \
  COL(peakFlopsBf16, Real,      "REAL",                Plain,  {}, Allowed) \
  COL(peakFlopsFp8,  Real,      "REAL",                Plain,  {}, Allowed) \
  COL(peakFlopsInt8, Real,      "REAL",                Plain,  {}, Allowed) \
  COL(hbmBandwidth,  Real,      "REAL",                Plain,  {}, Allowed)

// OSRT_API is read by this table's reader too (ApiCalls, acol bits): the
// columns it lacks (correlationId) read as NULL. (OSRT_API's own lines say
// ByHand: they make its schema and writer row, not a reader.)
#define ASYSREP_HGGC_API(COL) \
  COL(start,         Int64,    "INTEGER", Time,      {},      Error)   \
  COL(end,           Int64,    "INTEGER", Time,      {},      Present) \
  COL(eventClass,    Int32,    "INTEGER", Plain,     {},      Unread)  \
  COL(globalTid,     Int64,    "INTEGER", Thread,    {},      Allowed) \
  COL(correlationId, Int64,    "INTEGER", Plain,     {},      Allowed) \
  COL(nameId,        StringId, "INTEGER", String,    {},      Allowed) \
  COL(returnValue,   Int64,    "INTEGER", Plain,     {},      Allowed) \
  COL(callchainId,   Int64,    "INTEGER", Callchain, {kNull}, Unread)

#define ASYSREP_HGGC_KERNEL(COL) \
  COL(start,               Int64,    "INTEGER", Time,   {},      Error)   \
  COL(end,                 Int64,    "INTEGER", Time,   {},      Present) \
  COL(deviceId,            Int32,    "INTEGER", Device, {},      Noted)   \
  COL(contextId,           Int32,    "INTEGER", Plain,  {},      Noted)   \
  COL(streamId,            Int32,    "INTEGER", Plain,  {},      Noted)   \
  COL(correlationId,       Int64,    "INTEGER", Plain,  {},      Allowed) \
  COL(globalPid,           Int64,    "INTEGER", Thread, {},      Allowed) \
  COL(demangledName,       StringId, "INTEGER", String, {},      Allowed) \
  COL(shortName,           StringId, "INTEGER", String, {},      Allowed) \
  COL(mangledName,         StringId, "INTEGER", String, {},      Allowed) \
  COL(gridX,               Int32,    "INTEGER", Plain,  {},      Allowed) \
  COL(gridY,               Int32,    "INTEGER", Plain,  {},      Allowed) \
  COL(gridZ,               Int32,    "INTEGER", Plain,  {},      Allowed) \
  COL(blockX,              Int32,    "INTEGER", Plain,  {},      Allowed) \
  COL(blockY,              Int32,    "INTEGER", Plain,  {},      Allowed) \
  COL(blockZ,              Int32,    "INTEGER", Plain,  {},      Allowed) \
  COL(registersPerThread,  Int32,    "INTEGER", Plain,  {},      Allowed) \
  COL(staticSharedMemory,  Int32,    "INTEGER", Plain,  {},      Allowed) \
  COL(dynamicSharedMemory, Int32,    "INTEGER", Plain,  {},      Allowed) \
  COL(graphNodeId,         Int64,    "INTEGER", Plain,  {kNull}, Allowed) \
  COL(graphId,             Int64,    "INTEGER", Plain,  {kNull}, Allowed)

#define ASYSREP_HGGC_MEMCPY(COL) \
  COL(start,         Int64, "INTEGER", Time,     {},      Error)                        \
  COL(end,           Int64, "INTEGER", Time,     {},      Present)                      \
  COL(deviceId,      Int32, "INTEGER", Device,   {},      Noted)                        \
  COL(contextId,     Int32, "INTEGER", Plain,    {},      Noted)                        \
  COL(streamId,      Int32, "INTEGER", Plain,    {},      Noted)                        \
  COL(correlationId, Int64, "INTEGER", Plain,    {},      Allowed)                      \
  COL(globalPid,     Int64, "INTEGER", Thread,   {},      Allowed)                      \
  COL(bytes,         Int64, "INTEGER", Plain,    {},      Allowed)                      \
  COL(copyKind,      Int32, "INTEGER", CopyKind, {},      As(copyKind, Int64, Allowed)) \
  COL(srcKind,       Int32, "INTEGER", MemKind,  {},      As(srcKind, Int64, Allowed))  \
  COL(dstKind,       Int32, "INTEGER", MemKind,  {},      As(dstKind, Int64, Allowed))  \
  COL(srcDeviceId,   Int64, "INTEGER", Device,   {kNull}, Unread)                       \
  COL(dstDeviceId,   Int64, "INTEGER", Device,   {kNull}, Unread)                       \
  COL(graphNodeId,   Int64, "INTEGER", Plain,    {kNull}, Allowed)                      \
  COL(graphId,       Int64, "INTEGER", Plain,    {kNull}, Allowed)

#define ASYSREP_HGGC_MEMSET(COL) \
  COL(start,         Int64, "INTEGER", Time,    {},      Error)                       \
  COL(end,           Int64, "INTEGER", Time,    {},      Present)                     \
  COL(deviceId,      Int32, "INTEGER", Device,  {},      Noted)                       \
  COL(contextId,     Int32, "INTEGER", Plain,   {},      Noted)                       \
  COL(streamId,      Int32, "INTEGER", Plain,   {},      Noted)                       \
  COL(correlationId, Int64, "INTEGER", Plain,   {},      Allowed)                     \
  COL(globalPid,     Int64, "INTEGER", Thread,  {},      Allowed)                     \
  COL(value,         Int32, "INTEGER", Plain,   {},      Unread)                      \
  COL(bytes,         Int64, "INTEGER", Plain,   {},      Allowed)                     \
  COL(memKind,       Int32, "INTEGER", MemKind, {},      As(srcKind, Int64, Allowed)) \
  COL(graphNodeId,   Int64, "INTEGER", Plain,   {kNull}, Allowed)                     \
  COL(graphId,       Int64, "INTEGER", Plain,   {kNull}, Allowed)

#define ASYSREP_ENUM_HGGC_MEMCPY_OPER(COL) \
  COL(id,    Int32, "INTEGER PRIMARY KEY", CopyKind, {}, ByHand) \
  COL(name,  Text,  "TEXT",                Plain,    {}, ByHand) \
  COL(label, Text,  "TEXT",                Plain,    {}, ByHand)

#define ASYSREP_ENUM_HGGC_MEM_KIND(COL) \
  COL(id,    Int32, "INTEGER PRIMARY KEY", MemKind, {}, ByHand) \
  COL(name,  Text,  "TEXT",                Plain,   {}, ByHand) \
  COL(label, Text,  "TEXT",                Plain,   {}, ByHand)

#define ASYSREP_HGGC_GRAPH_NODE_EVENTS(COL) \
  COL(start,               Int64,    "INTEGER", Time,   {}, Error)   \
  COL(end,                 Int64,    "INTEGER", Time,   {}, Present) \
  COL(globalTid,           Int64,    "INTEGER", Thread, {}, Allowed) \
  COL(nameId,              StringId, "INTEGER", String, {}, Unread)  \
  COL(graphNodeId,         Int64,    "INTEGER", Plain,  {}, Allowed) \
  COL(originalGraphNodeId, Int64,    "INTEGER", Plain,  {}, Allowed) \
  COL(graphId,             Int64,    "INTEGER", Plain,  {}, Allowed)

// argsId is a project column (docs/asysrep-format.md, "A column the project
// adds"): the arguments an importer recorded with a range.
#define ASYSREP_HGTX_EVENTS(COL) \
  COL(start,        Int64, "INTEGER", Time,   {},      Error)                         \
  COL(end,          Int64, "INTEGER", Time,   {},      Present)                       \
  COL(eventType,    Int32, "INTEGER", Plain,  {},      Error)                         \
  COL(rangeId,      Int64, "INTEGER", Plain,  {kNull}, Allowed)                       \
  COL(category,     Int64, "INTEGER", Plain,  {kNull}, Unread)                        \
  COL(color,        Int64, "INTEGER", Plain,  {kNull}, Unread)                        \
  COL(text,         Text,  "TEXT",    Plain,  {},      ByHand)                        \
  COL(globalTid,    Int64, "INTEGER", Thread, {},      Allowed)                       \
  COL(endGlobalTid, Int64, "INTEGER", Thread, {kNull}, Allowed)                       \
  COL(textId,       Int64, "INTEGER", String, {kNull}, As(nameId, StringId, Allowed)) \
  COL(domainId,     Int64, "INTEGER", Plain,  {kNull}, Allowed)                       \
  COL(argsId,       Int64, "INTEGER", String, {kNull}, ByHand)

#define ASYSREP_OSRT_API(COL) \
  COL(start,        Int64,    "INTEGER", Time,      {},      ByHand) \
  COL(end,          Int64,    "INTEGER", Time,      {},      ByHand) \
  COL(eventClass,   Int32,    "INTEGER", Plain,     {},      ByHand) \
  COL(globalTid,    Int64,    "INTEGER", Thread,    {},      ByHand) \
  COL(nameId,       StringId, "INTEGER", String,    {},      ByHand) \
  COL(returnValue,  Int64,    "INTEGER", Plain,     {},      ByHand) \
  COL(nestingLevel, Int32,    "INTEGER", Plain,     {},      ByHand) \
  COL(callchainId,  Int64,    "INTEGER", Callchain, {kNull}, ByHand)

#define ASYSREP_CALLCHAINS(COL) \
  COL(id,         Int64,    "INTEGER", Callchain, {}, Error)                   \
  COL(stackDepth, Int32,    "INTEGER", Plain,     {}, As(depth, Int32, Error)) \
  COL(symbol,     StringId, "INTEGER", String,    {}, Allowed)                 \
  COL(module,     StringId, "INTEGER", String,    {}, Allowed)                 \
  COL(unresolved, Int32,    "INTEGER", Plain,     {}, Unread)

#define ASYSREP_PPU_MEMORY_USAGE_EVENTS(COL) \
  COL(start,               Int64, "INTEGER", Time,      {}, Error)                           \
  COL(globalPid,           Int64, "INTEGER", Thread,    {}, Allowed)                         \
  COL(globalTid,           Int64, "INTEGER", Thread,    {}, Allowed)                         \
  COL(deviceId,            Int32, "INTEGER", Device,    {}, Noted)                           \
  COL(contextId,           Int32, "INTEGER", Plain,     {}, As(contextId, Int64, Allowed))   \
  COL(eventId,             Int64, "INTEGER", EventId,   {}, Allowed)                         \
  COL(address,             Int64, "INTEGER", Plain,     {}, Allowed)                         \
  COL(bytes,               Int64, "INTEGER", Plain,     {}, Allowed)                         \
  COL(memKind,             Int32, "INTEGER", MemKind,   {}, Unread)                          \
  COL(memoryOperationType, Int32, "INTEGER", Plain,     {}, As(operation, Int32, Allowed))   \
  COL(accessFlags,         Int32, "INTEGER", Plain,     {}, As(accessFlags, Int64, Allowed)) \
  COL(correlationId,       Int64, "INTEGER", Plain,     {}, Unread)                          \
  COL(callchainId,         Int64, "INTEGER", Callchain, {}, Allowed)

#define ASYSREP_TARGET_INFO_PPU_METRICS(COL) \
  COL(metricId,   Int32, "INTEGER PRIMARY KEY", Metric, {}, ByHand) \
  COL(metricName, Text,  "TEXT",                Plain,  {}, ByHand) \
  COL(unit,       Text,  "TEXT",                Plain,  {}, ByHand)

#define ASYSREP_PPU_METRICS(COL) \
  COL(deviceId, Int32, "INTEGER", Device, {}, Allowed) \
  COL(start,    Int64, "INTEGER", Time,   {}, Error)   \
  COL(duration, Int64, "INTEGER", Plain,  {}, Allowed) \
  COL(metricId, Int32, "INTEGER", Metric, {}, ByHand)  \
  COL(value,    Real,  "REAL",    Plain,  {}, Allowed)

#define ASYSREP_PCCL_STAGE_EVENTS(COL) \
  COL(start,       Int64,    "INTEGER", Time,   {}, Error)                            \
  COL(end,         Int64,    "INTEGER", Time,   {}, Present)                          \
  COL(globalTid,   Int64,    "INTEGER", Thread, {}, Allowed)                          \
  COL(deviceId,    Int32,    "INTEGER", Device, {}, Allowed)                          \
  COL(channelId,   Int32,    "INTEGER", Plain,  {}, As(channelId, Int64, Allowed))    \
  COL(channelType, Text,     "TEXT",    Plain,  {}, As(channelTypeId, Text, Allowed)) \
  COL(nameId,      StringId, "INTEGER", String, {}, Allowed)

// Every table, in the contract's order (the order the writer creates them).
#define ASYSREP_TABLES(TABLE) \
  TABLE(META_DATA)               \
  TABLE(StringIds)               \
  TABLE(PROCESSES)               \
  TABLE(ThreadNames)             \
  TABLE(TARGET_INFO_PPU)         \
  TABLE(HGGC_API)                \
  TABLE(HGGC_KERNEL)             \
  TABLE(HGGC_MEMCPY)             \
  TABLE(HGGC_MEMSET)             \
  TABLE(ENUM_HGGC_MEMCPY_OPER)   \
  TABLE(ENUM_HGGC_MEM_KIND)      \
  TABLE(HGGC_GRAPH_NODE_EVENTS)  \
  TABLE(HGTX_EVENTS)             \
  TABLE(OSRT_API)                \
  TABLE(CALLCHAINS)              \
  TABLE(PPU_MEMORY_USAGE_EVENTS) \
  TABLE(TARGET_INFO_PPU_METRICS) \
  TABLE(PPU_METRICS)             \
  TABLE(PCCL_STAGE_EVENTS)
// clang-format on

// `...` when the column's `load` says the derived reader reads it, else
// nothing: how an expansion keeps to the columns the reader loads.
#define ASYS_IF_LOADED(load, ...) ASYS_IF_LOADED_##load(__VA_ARGS__)
#define ASYS_IF_LOADED_Error(...) __VA_ARGS__
#define ASYS_IF_LOADED_Present(...) __VA_ARGS__
#define ASYS_IF_LOADED_Allowed(...) __VA_ARGS__
#define ASYS_IF_LOADED_Noted(...) __VA_ARGS__
#define ASYS_IF_LOADED_As(...) ASYS_KEEP
#define ASYS_IF_LOADED_Unread(...)
#define ASYS_IF_LOADED_ByHand(...)
#define ASYS_KEEP(...) __VA_ARGS__
#define ASYS_DROP(...)

// The tables as an enum, in their order: index into kAsysrepTables.
enum class AsysTable : uint8_t {
#define ASYS_TABLE_ENUM(table) table,
  ASYSREP_TABLES(ASYS_TABLE_ENUM)
#undef ASYS_TABLE_ENUM
};

// The lists as plain data, for the code that walks every table and column
// (the CREATE statements, the INSERTs, the merge's column kinds).
struct AsysColumn {
  const char* name;
  std::string_view cellSql;  // the cell's SQL type (cell::*::kSql)
  const char* sql;           // the declaration: "INTEGER", "TEXT NOT NULL", ...
  IdKind id;
};

struct AsysTableInfo {
  const char* name;
  const AsysColumn* columns;
  size_t columnCount;
};

namespace detail {
#define ASYS_COLUMN_INFO(name, kind, sql, id, def, load) {#name, cell::kind::kSql, sql, IdKind::k##id},
#define ASYS_TABLE_COLUMNS(table) inline constexpr AsysColumn k##table##Columns[] = {ASYSREP_##table(ASYS_COLUMN_INFO)};
ASYSREP_TABLES(ASYS_TABLE_COLUMNS)
#undef ASYS_TABLE_COLUMNS
#undef ASYS_COLUMN_INFO
}  // namespace detail

inline constexpr AsysTableInfo kAsysrepTables[] = {
#define ASYS_TABLE_INFO(table) \
  {#table, detail::k##table##Columns, sizeof(detail::k##table##Columns) / sizeof(AsysColumn)},
    ASYSREP_TABLES(ASYS_TABLE_INFO)
#undef ASYS_TABLE_INFO
};
inline constexpr size_t kAsysrepTableCount = sizeof(kAsysrepTables) / sizeof(kAsysrepTables[0]);

constexpr const AsysTableInfo& asysTable(AsysTable t) { return kAsysrepTables[static_cast<size_t>(t)]; }

// A column's declaration starts with its cell's SQL type, so that what the
// writer binds is what the CREATE statement declares.
constexpr bool cellsMatchDeclarations() {
  for (const AsysTableInfo& t : kAsysrepTables)
    for (size_t c = 0; c < t.columnCount; ++c)
      if (!std::string_view(t.columns[c].sql).starts_with(t.columns[c].cellSql)) return false;
  return true;
}
static_assert(cellsMatchDeclarations(), "a column's cell and its SQL type disagree");

}  // namespace asys
