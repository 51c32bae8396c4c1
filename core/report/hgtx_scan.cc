// Report::scanHgtx: HGTX_EVENTS read in chunks, for readers that keep a few
// of the events (the association's ranges keep 33 bytes of a range, the
// push/pop trace about 44; the table whole costs 60 bytes an event).
#include <algorithm>
#include <map>
#include <utility>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/report/column_loader.h"
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

void Report::scanHgtx(uint32_t columns, const HgtxChunk& onChunk, StringPool* inlineTexts) {
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
  if (names) load.text("text", inlineText, inlineTexts);
  // argsId as hgtx() reads it: only where the table has the column (else
  // the chunk's argsId stays empty, as the loaded table's does).
  if ((columns & hcol::args) != 0 && db_->hasTable("HGTX_EVENTS")) {
    const std::vector<std::string> all = db_->columnsOf("HGTX_EVENTS");
    if (std::find(all.begin(), all.end(), "argsId") != all.end()) load.name("argsId", chunk.argsId);
  }
  // A scan that leaves texts out of strings() notes where each block of
  // rows is (hgtxTexts reads them back by it), once; the others need not
  // read the rowid (1 % of a rule's instructions at s50).
  // runInChunks cuts every target to the chunk's rows before each call.
  scanInChunks(load, inlineTexts ? &hgtxMarks_ : nullptr, kHgtxChunkRows, [&](size_t first, size_t rows) {
    if (names)
      for (size_t i = 0; i < rows; ++i)
        if (chunk.nameId[i] == kNoString) chunk.nameId[i] = inlineText[i];
    onChunk(first, chunk);
  });
}

const std::map<std::pair<int64_t, int64_t>, uint32_t>& Report::hgtxDomainNames() {
  if (hgtx_) return hgtxDomains_;
  if (queriedDomains_) return *queriedDomains_;
  std::map<std::pair<int64_t, int64_t>, uint32_t>& domains = queriedDomains_.emplace();
  if (!db_->hasTable("HGTX_EVENTS")) return domains;
  const std::vector<std::string> all = db_->columnsOf("HGTX_EVENTS");
  auto has = [&](const char* c) { return std::find(all.begin(), all.end(), c) != all.end(); };
  if (!has("eventType") || !has("domainId")) return domains;
  auto column = [&](const char* c) { return has(c) ? std::string(c) : std::string("NULL"); };
  Statement st(*db_, "SELECT " + column("globalTid") + ", domainId, " + column("textId") + ", " + column("text") +
                         " FROM HGTX_EVENTS WHERE eventType = " + std::to_string(kHgtxDomainCreate) +
                         " AND domainId IS NOT NULL ORDER BY rowid");
  StringPool& pool = strings();
  while (st.step()) {
    // As the scan reads a name: textId's string, else the inline text.
    uint32_t name = st.isNull(2) ? kNoString : pool.fromStored(st.int64(2));
    if (name == kNoString && !st.isNull(3)) name = pool.intern(st.text(3));
    domains[{pidOf(st.int64(0)), st.int64(1)}] = name;
  }
  return domains;
}

std::vector<uint32_t> Report::hgtxTexts(const std::vector<uint32_t>& events, StringPool* pool) {
  std::vector<uint32_t> ids(events.size(), kNoString);
  if (events.empty()) return ids;
  if (!hgtxMarks_.read) throw Error(path_ + ": HGTX_EVENTS' texts asked for before the table was scanned");
  std::vector<uint32_t> order(events.size());
  for (uint32_t k = 0; k < order.size(); ++k) order[k] = k;
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return events[a] < events[b]; });
  // One read a block of rows (a row's own rowid where the block's rowids
  // step by one: readRows), from the first event asked in it to the last.
  constexpr size_t every = ColumnLoad::kRowidMarkEvery;
  std::vector<uint32_t> text;
  for (size_t k = 0; k < order.size();) {
    const size_t block = events[order[k]] / every;
    size_t end = k;
    while (end < order.size() && events[order[end]] / every == block) ++end;
    const size_t first = events[order[k]], last = static_cast<size_t>(events[order[end - 1]]) + 1;
    size_t read = 0;
    const size_t from = readRows("HGTX_EVENTS", hgtxMarks_, first, last,
                                 [&](ColumnLoad& load) { load.text("text", text, pool); }, read);
    for (size_t j = k; j < end; ++j) {
      const size_t at = events[order[j]] - from;
      if (at >= read) throw Error(path_ + ": table HGTX_EVENTS changed while the report was open");
      ids[order[j]] = text[at];
    }
    k = end;
  }
  return ids;
}

}  // namespace asys
