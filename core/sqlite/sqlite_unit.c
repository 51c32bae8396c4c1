/* The SQLite amalgamation and the engine's row sink in one translation unit
 * (see row_sink.h). */
#include "sqlite3.c"

#include "core/sqlite/row_sink.h"

void asys_row_sink(sqlite3_context* context, int count, sqlite3_value** cells) {
  AsysRowSink* sink = (AsysRowSink*)sqlite3_user_data(context);
  for (int i = 0; i < count; ++i) {
    const int type = sqlite3_value_type(cells[i]);
    sink->types[i] = (unsigned char)type;
    if (type == SQLITE_INTEGER) sink->ints[i] = sqlite3_value_int64(cells[i]);
  }
  const int rc = sink->take(sink->owner, cells, sink->types, sink->ints);
  if (rc < 0) {
    sqlite3_result_error(context, "column load stopped", -1);
  } else {
    sqlite3_result_int(context, rc);
  }
}
