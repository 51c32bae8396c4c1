// Report::scanHgtx: HGTX_EVENTS read in chunks, for readers that keep a few
// of the events (the association's ranges keep 33 bytes of a range, the
// push/pop trace about 44; the table whole costs 60 bytes an event).
#include <algorithm>
#include <string>
#include <vector>

#include "core/report/loaded_columns.h"
#include "core/report/report.h"
#include "core/report/sqlite_db.h"

namespace asys {

namespace {
// Rows a chunk: 65,536 rows of the eight columns is about 3.5 MB.
constexpr size_t kHgtxChunkRows = 64 * ColumnLoad::kRowidMarkEvery;

// The `want` columns (hcol bits) of HGTX_EVENTS as targets of `columnLoad`,
// into `into`, with the descriptor's NULL rules: the columns hgtx() loads.
void addHgtxTargets(ColumnLoad& columnLoad, HgtxEvents& into, uint32_t want) {
  namespace bits = hcol;
  ASYSREP_HGTX_EVENTS(ASYS_LOADED_TARGET)
}
}  // namespace

void Report::scanHgtx(uint32_t columns, const HgtxChunk& onChunk) {
  if (hgtx_) {
    // Loaded already (by a rule that reads them after): no second read.
    onChunk(0, *hgtx_);
    return;
  }
  HgtxEvents chunk;
  std::vector<uint32_t> inlineText;
  ColumnLoad load(*db_, strings(), "HGTX_EVENTS", &notes_);
  addHgtxTargets(load, chunk, columns & hcol::all);
  // A name is in textId or inline in text (by hand, as hgtx() reads it).
  const bool names = (columns & hcol::nameId) != 0;
  if (names) load.text("text", inlineText);
  // argsId as hgtx() reads it: only where the table has the column (else
  // the chunk's argsId stays empty, as the loaded table's does).
  if ((columns & hcol::args) != 0 && db_->hasTable("HGTX_EVENTS")) {
    const std::vector<std::string> all = db_->columnsOf("HGTX_EVENTS");
    if (std::find(all.begin(), all.end(), "argsId") != all.end()) load.name("argsId", chunk.argsId);
  }
  // runInChunks cuts every target to the chunk's rows before each call.
  load.runInChunks(kHgtxChunkRows, [&](size_t first, size_t rows) {
    if (names)
      for (size_t i = 0; i < rows; ++i)
        if (chunk.nameId[i] == kNoString) chunk.nameId[i] = inlineText[i];
    onChunk(first, chunk);
  });
}

}  // namespace asys
