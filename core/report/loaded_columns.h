#pragma once
// How the reader expands a table's descriptor (core/report/asysrep_tables.h)
// into what it loads column by column (HGGC_KERNEL, HGGC_API): one vector
// per column the descriptor marks as loaded, its bit in the table's column
// bits, its ColumnLoad target and its drop. A rule asks for columns by bit,
// so adding a column to the descriptor adds all four.
#include <cstdint>
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

}  // namespace asys

// In the table's struct: `std::vector<Read> name;` per loaded column.
#define ASYS_LOADED_VECTOR(name, kind, sql, id, def, load) ASYS_IF_LOADED(load, std::vector<cell::kind::Read> name;)
// In the column bits' `position` enum: the loaded columns numbered 0, 1, ...
#define ASYS_LOADED_POSITION(name, kind, sql, id, def, load) ASYS_IF_LOADED(load, name, )
// Beside `position`: `inline constexpr uint32_t name = 1u << position::name;`
// (constants, not enumerators, so that a table's named groups of bits mix
// with them without mixing two enum types).
#define ASYS_LOADED_BIT(name, kind, sql, id, def, load) \
  ASYS_IF_LOADED(load, inline constexpr uint32_t name = 1u << position::name;)
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
#define ASYS_LOADED_TARGET(name, kind, sql, id, def, load) \
  ASYS_IF_LOADED(load, if (want & bits::name) addTarget(columnLoad, cell::kind{}, #name, into.name, ColumnLoad::Null::load);)
// ... or each wanted column emptied.
#define ASYS_LOADED_DROP(name, kind, sql, id, def, load) ASYS_IF_LOADED(load, if (want & bits::name) dropColumn(into.name);)
