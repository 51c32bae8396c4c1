#pragma once
// How the reader expands a table's descriptor (core/report/asysrep_tables.h)
// into its struct and loader: one vector per column the descriptor marks as
// loaded (named as the column, or as its As(field, ...) says), its bit in the
// table's column bits where the table has them, its ColumnLoad target and its
// drop. A rule asks for columns by bit, so adding a column to the descriptor
// adds all four. Small dictionary tables read row by row (TARGET_INFO_PPU,
// PROCESSES) expand into a row struct instead (ASYS_READ_ROW_FIELD).
#include <cstdint>
#include <string>
#include <vector>

#include "core/report/asysrep_tables.h"
#include "core/report/column_loader.h"

namespace asys {

// A column's target on a load, by its cell. Names, inline text and reals
// have no NULL policy of their own: NULL reads as kNoString / 0.
inline void addTarget(ColumnLoad& l, cell::Int64, const char* c, std::vector<int64_t>& v, ColumnLoad::Null n) {
  l.int64(c, v, n);
}
inline void addTarget(ColumnLoad& l, cell::Int32, const char* c, std::vector<int32_t>& v, ColumnLoad::Null n) {
  l.int32(c, v, n);
}
inline void addTarget(ColumnLoad& l, cell::StringId, const char* c, std::vector<uint32_t>& v, ColumnLoad::Null) {
  l.name(c, v);
}
inline void addTarget(ColumnLoad& l, cell::Text, const char* c, std::vector<uint32_t>& v, ColumnLoad::Null) {
  l.text(c, v);
}
inline void addTarget(ColumnLoad& l, cell::Real, const char* c, std::vector<double>& v, ColumnLoad::Null) {
  l.real(c, v);
}

// Empties a column and gives back its memory.
template <typename T>
void dropColumn(std::vector<T>& v) {
  std::vector<T>().swap(v);
}

// A row struct's field, by its cell: integers default to kNoValue (NULL),
// text is owned, reals default to 0.
template <typename Cell>
struct RowField;
template <>
struct RowField<cell::Int64> {
  using Type = int64_t;
  static constexpr int64_t kDefault = INT64_MIN;  // kNoValue
};
template <>
struct RowField<cell::Text> {
  using Type = std::string;
  static inline const std::string kDefault;
};
template <>
struct RowField<cell::OwnedText> : RowField<cell::Text> {};
template <>
struct RowField<cell::Real> {
  using Type = double;
  static constexpr double kDefault = 0;
};

}  // namespace asys

// A loaded column as (column, field, cell, null): the field and cell are the
// column's own unless its `load` is As(field, cell, null).
#define ASYS_SPEC(name, kind, load) ASYS_SPEC_##load(name, kind)
#define ASYS_SPEC_Error(name, kind) (name, kind, Error)
#define ASYS_SPEC_Present(name, kind) (name, kind, Present)
#define ASYS_SPEC_Allowed(name, kind) (name, kind, Allowed)
#define ASYS_SPEC_Noted(name, kind) (name, kind, Noted)
#define ASYS_SPEC_Unread(name, kind) (name, kind, Allowed)  // expanded, then dropped by ASYS_IF_LOADED
#define ASYS_SPEC_ByHand(name, kind) (name, kind, Allowed)  // likewise
#define ASYS_SPEC_As(field, kind, null) (field, kind, null) ASYS_DROP
#define ASYS_UNPAREN(...) __VA_ARGS__
#define ASYS_CALL(m, column, spec) ASYS_CALL_I(m, column, ASYS_UNPAREN spec)
#define ASYS_CALL_I(m, ...) m(__VA_ARGS__)
// m(column, field, cell, null) for a column the reader loads, else nothing.
#define ASYS_READ(m, name, kind, load) ASYS_IF_LOADED(load, ASYS_CALL(m, name, ASYS_SPEC(name, kind, load)))

// In the table's struct: `std::vector<Read> field;` per loaded column.
#define ASYS_VECTOR_OF(column, field, kind, null) std::vector<cell::kind::Read> field;
#define ASYS_LOADED_VECTOR(name, kind, sql, id, def, load) ASYS_READ(ASYS_VECTOR_OF, name, kind, load)
// In the column bits' `position` enum: the loaded columns numbered 0, 1, ...
#define ASYS_POSITION_OF(column, field, kind, null) field,
#define ASYS_LOADED_POSITION(name, kind, sql, id, def, load) ASYS_READ(ASYS_POSITION_OF, name, kind, load)
// Beside `position`: `inline constexpr uint32_t field = 1u << position::field;`
// (constants, not enumerators, so that a table's named groups of bits mix
// with them without mixing two enum types).
#define ASYS_BIT_OF(column, field, kind, null) inline constexpr uint32_t field = 1u << position::field;
#define ASYS_LOADED_BIT(name, kind, sql, id, def, load) ASYS_READ(ASYS_BIT_OF, name, kind, load)
// The column bits of a table: a bit per loaded column, `count` of them and
// `all`; a table's named groups of bits follow it, written by hand.
#define ASYS_COLUMN_BITS(table)                                      \
  namespace position {                                               \
  enum : uint32_t { ASYSREP_##table(ASYS_LOADED_POSITION) count };   \
  static_assert(count < 32, "a table's column bits fit a uint32_t"); \
  }                                                                  \
  ASYSREP_##table(ASYS_LOADED_BIT)                                   \
  inline constexpr uint32_t count = position::count;                 \
  inline constexpr uint32_t all = (1u << count) - 1;

// In a function where `bits` names the table's column-bit namespace, `want`
// holds bits, `into` is the table's struct and `columnLoad` the load: each
// wanted column as a target, with the descriptor's NULL policy...
#define ASYS_TARGET_IF_WANTED(column, field, kind, null) \
  if (want & bits::field) addTarget(columnLoad, cell::kind{}, #column, into.field, ColumnLoad::Null::null);
#define ASYS_LOADED_TARGET(name, kind, sql, id, def, load) ASYS_READ(ASYS_TARGET_IF_WANTED, name, kind, load)
// ... or each wanted column emptied.
#define ASYS_DROP_IF_WANTED(column, field, kind, null) \
  if (want & bits::field) dropColumn(into.field);
#define ASYS_LOADED_DROP(name, kind, sql, id, def, load) ASYS_READ(ASYS_DROP_IF_WANTED, name, kind, load)
// ... or room made in each wanted column for `rows` rows ...
#define ASYS_RESERVE_IF_WANTED(column, field, kind, null) \
  if (want & bits::field) into.field.reserve(rows);
#define ASYS_LOADED_RESERVE(name, kind, sql, id, def, load) ASYS_READ(ASYS_RESERVE_IF_WANTED, name, kind, load)
// ... or each wanted column of a chunk `from` appended to `into`'s.
#define ASYS_APPEND_IF_WANTED(column, field, kind, null) \
  if (want & bits::field) into.field.insert(into.field.end(), from.field.begin(), from.field.end());
#define ASYS_LOADED_APPEND(name, kind, sql, id, def, load) ASYS_READ(ASYS_APPEND_IF_WANTED, name, kind, load)
// For a table loaded whole (no column bits): every loaded column as a target.
#define ASYS_TARGET_OF(column, field, kind, null) \
  addTarget(columnLoad, cell::kind{}, #column, into.field, ColumnLoad::Null::null);
#define ASYS_WHOLE_TARGET(name, kind, sql, id, def, load) ASYS_READ(ASYS_TARGET_OF, name, kind, load)

// A row struct (TARGET_INFO_PPU, PROCESSES): a field per loaded column,
// `RowField<cell>::Type field = default;` ...
#define ASYS_READ_ROW_FIELD_OF(column, field, kind, null) \
  RowField<cell::kind>::Type field = RowField<cell::kind>::kDefault;
#define ASYS_READ_ROW_FIELD(name, kind, sql, id, def, load) ASYS_READ(ASYS_READ_ROW_FIELD_OF, name, kind, load)
// ... the columns to select, in order, as strings...
#define ASYS_READ_ROW_COLUMN_OF(column, field, kind, null) #column,
#define ASYS_READ_ROW_COLUMN(name, kind, sql, id, def, load) ASYS_READ(ASYS_READ_ROW_COLUMN_OF, name, kind, load)
// ... and, where `st` is on a row selected so and `row` is the struct, each
// field read from its cell (`col` counts from 0) by readRowCell
// (core/report/report.cc).
#define ASYS_READ_ROW_CELL_OF(column, field, kind, null) readRowCell(st, col++, row.field);
#define ASYS_READ_ROW_CELL(name, kind, sql, id, def, load) ASYS_READ(ASYS_READ_ROW_CELL_OF, name, kind, load)
