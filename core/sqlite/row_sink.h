/* A row sink: an SQL function that hands each row's cells to C++ with the
 * integer cells already decoded. It is compiled in one translation unit with
 * the SQLite amalgamation (sqlite_unit.c), so sqlite3_value_type and
 * sqlite3_value_int64 inline into it: a table load asks them for every cell
 * (60 million times for a 10-million-kernel summary), and in WebAssembly a
 * call across translation units is not free. */
#ifndef ASYS_ROW_SINK_H
#define ASYS_ROW_SINK_H

#include "sqlite3.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct AsysRowSink {
  /* Called once per row. `types[i]` is sqlite3_value_type(cells[i]);
   * `ints[i]` its value when that is SQLITE_INTEGER. Returns 0 to go on,
   * 1 to go on and return a row from sqlite3_step, -1 to stop the scan with
   * an error (the owner keeps what went wrong). Must not throw. */
  int (*take)(void* owner, sqlite3_value** cells, const unsigned char* types, const sqlite3_int64* ints);
  void* owner;
  int count;             /* cells per row: the function's argument count */
  unsigned char* types;  /* count entries, filled per row */
  sqlite3_int64* ints;   /* count entries, filled per row */
} AsysRowSink;

/* The SQL function's implementation; its user data is an AsysRowSink. */
void asys_row_sink(sqlite3_context* context, int count, sqlite3_value** cells);

#ifdef __cplusplus
}
#endif

#endif
