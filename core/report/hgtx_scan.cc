// Report::scanHgtx: HGTX_EVENTS read in chunks, for readers that keep a few
// of the events (the association's ranges keep 33 bytes of a range, the
// table whole costs 60 bytes an event).
#include "core/report/report.h"
#include "core/report/sqlite_db.h"

namespace asys {

namespace {
// Rows a chunk: 65,536 rows of the seven columns is about 3.5 MB.
constexpr size_t kHgtxChunkRows = 64 * ColumnLoad::kRowidMarkEvery;
}  // namespace

void Report::scanHgtx(const std::function<void(size_t firstEvent, const HgtxEvents& chunk)>& onChunk) {
  if (hgtx_) {
    // Loaded already (by a rule that reads them after): no second read.
    onChunk(0, *hgtx_);
    return;
  }
  HgtxEvents chunk;
  std::vector<uint32_t> inlineText;
  // The columns and NULL rules of hgtx()'s load, but for rangeId and argsId.
  ColumnLoad load(*db_, strings(), "HGTX_EVENTS", &notes_);
  load.int64("start", chunk.start, ColumnLoad::Null::Error)
      .int64("end", chunk.end, ColumnLoad::Null::Present)
      .int32("eventType", chunk.eventType, ColumnLoad::Null::Error)
      .int64("globalTid", chunk.globalTid)
      .int64("endGlobalTid", chunk.endGlobalTid)
      .int64("domainId", chunk.domainId)
      .name("textId", chunk.nameId)
      .text("text", inlineText);
  // runInChunks cuts every target to the chunk's rows before each call.
  load.runInChunks(kHgtxChunkRows, [&](size_t first, size_t rows) {
    for (size_t i = 0; i < rows; ++i)
      if (chunk.nameId[i] == kNoString) chunk.nameId[i] = inlineText[i];
    onChunk(first, chunk);
  });
}

}  // namespace asys
