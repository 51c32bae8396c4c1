#pragma once
// A rule's result: a typed, columnar table. Rules fill it, writers (CSV, JSON,
// column text) and the WebAssembly bridge read it. Text cells are interned in
// one per-table pool so a million-row trace holds each distinct name once.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/string_pool.h"

namespace asys {

enum class CellKind : uint8_t {
  Int,       // integer, written bare
  Decimal1,  // already rounded to one decimal, written with exactly one
  Text,      // written quoted
};

// What a column is to the compare layer: the key that identifies a row
// across reports (a kernel name), a value measured per row (a total time),
// or an attribute that describes a row without identifying it.
enum class ColumnRole : uint8_t { Value, Key, Attribute };

// The report table an event a row stands for comes from (Table::setEvent):
// its index in the report's loaded table of that kind (Report::kernels(),
// memcpys(), memsets(), hggcApi(), hgtx()), the index the timeline's tracks
// keep per event (TimelineTrack::row), so the viewer finds the very event,
// not a time band. Names on the bridge: bridge_schema.h kEventTableNames.
enum class EventTable : uint8_t { None, Kernel, Memcpy, Memset, Api, Hgtx };

struct ColumnSpec {
  std::string name;  // display name, without unit
  std::string unit;  // "ns", "%", "bytes", "B/s", "Hz" or empty
  CellKind kind;
  std::string help;  // the documentation's one-line description
  ColumnRole role = ColumnRole::Value;
  // Header text as the CSV writes it: `Name (unit)`.
  std::string header() const { return unit.empty() ? name : name + " (" + unit + ")"; }
};

class Table;

// A result's rows made on demand: a trace of ten million rows refers to the
// report's rows in its order (a permutation) and formats a page or a
// writer's chunk at a time, instead of holding every cell.
class RowSource {
 public:
  virtual ~RowSource() = default;
  virtual size_t rowCount() const = 0;
  // Appends rows [first, first + count) to `into`, an empty table of the
  // result's columns and spans. May throw Error (a broken cell read now).
  virtual void appendRows(size_t first, size_t count, Table& into) = 0;
  // The same rows with only column `col` filled as appendRows fills it (the
  // others may be "-"): a sort's key. A source that can read one column for
  // less than a row overrides it.
  virtual void appendColumn(size_t col, size_t first, size_t count, Table& into) {
    (void)col;
    appendRows(first, count, into);
  }
  // True when the rows are made only of what the source holds (no report's
  // columns or names it refers to), so that they can be read after the
  // report is given back.
  virtual bool holdsItsRows() const { return false; }
  // False when a text seldom comes back in other rows (a summary's row is
  // its group's, with its own name): a writer's chunk then appends each
  // text as it comes (ChunkTexts::Appended) where interning would look for
  // equals it does not find. A trace's names repeat row after row: interned,
  // a 65,536-row chunk holds each once (appended, hgtx_kern_trace's peak
  // grew 22 MB at scale 2500).
  virtual bool textsRepeat() const { return true; }
};

class Table {
 public:
  explicit Table(std::vector<ColumnSpec> columns);
  // A view: its rows come from `source`, a chunk at a time (forEachChunk).
  // Its cells cannot be read one by one (intAt and the others are for
  // tables that hold them); materialize() makes it one that does.
  Table(std::vector<ColumnSpec> columns, std::shared_ptr<RowSource> source);

  const std::vector<ColumnSpec>& columns() const { return columns_; }
  size_t rowCount() const { return source_ ? std::min(source_->rowCount(), limit_) : rows_; }
  bool isView() const { return source_ != nullptr; }
  // A view whose source holds what its rows are made of (RowSource::holdsItsRows).
  bool viewHoldsItsRows() const { return source_ && source_->holdsItsRows(); }
  // A view's rows held as cells (no-op for a table that holds them).
  void materialize();
  // Rows [first, first + count) of this table into `into` (emptied first):
  // the view's source makes them; a table that holds its cells copies them.
  void copyRows(size_t first, size_t count, Table& into) const;
  // The same with only column `col` filled (RowSource::appendColumn); the
  // chunk holds no other column: only `col` may be read from it.
  void copyColumn(size_t col, size_t first, size_t count, Table& into) const;
  // An empty table of the same columns and spans, for copyRows.
  Table emptyLike() const;
  // Empties the cells (keeps columns, spans' names, warnings and files).
  void clearRows();
  // From now on each text cell is appended to the pool as it comes, equal
  // texts not looked for (StringPool::append): a chunk that a writer fills
  // from a view, reads once and empties (forEachChunk's ChunkTexts::Appended).
  // Its text ids then say nothing about equal texts.
  void appendTexts() { appendTexts_ = true; }
  // Whether its texts may repeat across rows: a view's source says
  // (RowSource::textsRepeat); a table that holds its cells, yes.
  bool textsRepeat() const { return !source_ || source_->textsRepeat(); }

  // Appending: call one set* per column in order, then endRow(). A column
  // left unset in a row is "-" (does not apply).
  void setInt(size_t col, int64_t v);
  void setDecimal(size_t col, double v);
  void setText(size_t col, std::string_view v);
  // A text cell given as id `id` of a caller's text table (`source`: a
  // report's string pool, a rule's label list), `textOf(id)` its text: the
  // chunk interns each pair once and sets its id from then on, where
  // setText would hash the text again in every row (a trace's kernel and
  // call names come back row after row).
  template <typename TextOf>
  void setTextOf(size_t col, const void* source, uint32_t id, TextOf&& textOf) {
    if (!keeps(col)) return;
    TextMemo& m = textMemo(source, id);
    if (m.generation != memoGeneration_ || m.id != id || m.source != source)
      m = {source, id, appendTexts_ ? pool_.append(textOf(id)) : pool_.intern(textOf(id)), memoGeneration_};
    texts_[col].push_back(m.own);
    rowSet_[col] = 1;
  }
  void setTextOf(size_t col, const StringPool& pool, uint32_t id) {
    setTextOf(col, &pool, id, [&pool](uint32_t i) { return pool.get(i); });
  }
  void endRow();
  // Appends row `row` of `from` (a table that holds its cells, of the same
  // columns and spans): its cells, "-" cells and spans.
  void appendRowOf(const Table& from, size_t row);

  bool isMissing(size_t row, size_t col) const { return missing_[col][row] != 0; }
  int64_t intAt(size_t row, size_t col) const { return ints_[col][row]; }
  double decimalAt(size_t row, size_t col) const { return reals_[col][row]; }
  uint32_t textIdAt(size_t row, size_t col) const { return texts_[col][row]; }
  std::string_view textAt(size_t row, size_t col) const { return pool_.get(texts_[col][row]); }
  // Every distinct text of the table once; text cells are ids into it.
  const StringPool& textPool() const { return pool_; }

  // Keeps the first n rows.
  void truncate(size_t n);

  // What the user should know about a result that is not an error: input the
  // rule had to leave out ("3 releases without an allocation"). The CLI prints
  // each as one stderr line after the table; the viewer shows them above it.
  void addWarning(std::string text) { warnings_.push_back(std::move(text)); }
  const std::vector<std::string>& warnings() const { return warnings_; }

  // A file the rule makes besides its table (ppu_op_unit_test's Python
  // tests): the CLI writes it beside the table's output as
  // <report>_<name>, the viewer offers it for download. `name` is
  // "<rule>.<extension>".
  struct File {
    std::string name, text;
  };
  void addFile(std::string name, std::string text) { files_.push_back({std::move(name), std::move(text)}); }
  const std::vector<File>& files() const { return files_; }

  // Time spans a row stands for (a trace row's HGTX range, its device
  // activity), so a viewer can zoom its timeline to them. Declared once,
  // before the first row; set per row before endRow() (unset: kNoSpan).
  static constexpr int64_t kNoSpan = INT64_MIN;
  void declareSpans(std::vector<std::string> names);
  void setSpan(size_t which, int64_t start, int64_t end);
  const std::vector<std::string>& spanNames() const { return spanNames_; }
  const std::vector<int64_t>& spanStarts(size_t which) const { return spanStart_[which]; }
  const std::vector<int64_t>& spanEnds(size_t which) const { return spanEnd_[which]; }

  // The report events a row stands for (a trace row's kernel, its launching
  // API call), by identity: their table and index (EventTable). Declared
  // once like spans, set per row before endRow() (unset: EventTable::None).
  void declareEvents(std::vector<std::string> names);
  void setEvent(size_t which, EventTable table, uint32_t index);
  const std::vector<std::string>& eventNames() const { return eventNames_; }
  const std::vector<EventTable>& eventTables(size_t which) const { return eventTable_[which]; }
  const std::vector<uint32_t>& eventIndexes(size_t which) const { return eventIndex_[which]; }

 private:
  std::vector<ColumnSpec> columns_;
  size_t rows_ = 0;
  std::vector<std::vector<int64_t>> ints_;
  std::vector<std::vector<double>> reals_;
  std::vector<std::vector<uint32_t>> texts_;
  std::vector<std::vector<uint8_t>> missing_;
  std::vector<uint8_t> rowSet_;  // which columns the current row set
  // copyColumn's chunk keeps one column: the others' cells are dropped as
  // they are set and endRow writes nothing for them (a sort's pass over a
  // 20-column trace fills one vector, not twenty). kEveryColumn otherwise.
  static constexpr size_t kEveryColumn = SIZE_MAX;
  size_t onlyColumn_ = kEveryColumn;
  bool keeps(size_t col) const { return onlyColumn_ == kEveryColumn || col == onlyColumn_; }
  std::vector<std::string> warnings_;
  std::vector<File> files_;
  std::vector<std::string> spanNames_;
  std::vector<std::vector<int64_t>> spanStart_, spanEnd_;
  std::vector<int64_t> rowSpanStart_, rowSpanEnd_;  // the current row's
  std::vector<std::string> eventNames_;
  std::vector<std::vector<EventTable>> eventTable_;
  std::vector<std::vector<uint32_t>> eventIndex_;
  std::vector<EventTable> rowEventTable_;  // the current row's
  std::vector<uint32_t> rowEventIndex_;
  StringPool pool_;
  bool appendTexts_ = false;  // appendTexts()
  // setTextOf's: a caller's (source, id) -> pool_ id, direct-mapped; a slot
  // of another generation is empty (clearRows starts a new one with pool_).
  struct TextMemo {
    const void* source = nullptr;
    uint32_t id = 0, own = 0, generation = 0;
  };
  static constexpr unsigned kMemoBits = 12;  // 4096 slots
  std::vector<TextMemo> memo_;
  uint32_t memoGeneration_ = 1;
  TextMemo& textMemo(const void* source, uint32_t id) {
    if (memo_.empty()) memo_.resize(size_t{1} << kMemoBits);
    // Fibonacci hashing: the product's top bits pick the slot.
    const uint32_t mixed = (id ^ static_cast<uint32_t>(reinterpret_cast<uintptr_t>(source) >> 4)) * 2654435761u;
    return memo_[mixed >> (32 - kMemoBits)];
  }
  std::shared_ptr<RowSource> source_;  // a view's rows
  size_t limit_ = SIZE_MAX;            // a view's truncate()
};

// Calls `fn(chunk, firstRow)` over rows [first, first + count) of the table
// in order, in chunks of at most `chunkRows`: all of a table that holds its
// cells is one chunk, itself; a view's chunks (and a part of a held table)
// are made one at a time in one reused table, so a writer's memory is one
// chunk whatever the rows.
// With ChunkTexts::Appended a view's chunk appends its texts unsearched
// (Table::appendTexts) when its source says they seldom repeat
// (RowSource::textsRepeat): for a caller that reads each cell's text and
// never compares ids (the writers).
constexpr size_t kChunkRows = 1 << 16;
enum class ChunkTexts { Interned, Appended };
void forEachChunk(const Table& t, const std::function<void(const Table& chunk, size_t firstRow)>& fn,
                  size_t chunkRows = kChunkRows, size_t first = 0, size_t count = SIZE_MAX,
                  ChunkTexts texts = ChunkTexts::Interned);

}  // namespace asys
