#include "core/table/table.h"

#include <algorithm>

namespace asys {

Table::Table(std::vector<ColumnSpec> columns)
    : columns_(std::move(columns)),
      ints_(columns_.size()),
      reals_(columns_.size()),
      texts_(columns_.size()),
      missing_(columns_.size()),
      rowSet_(columns_.size(), 0) {}

Table::Table(std::vector<ColumnSpec> columns, std::shared_ptr<RowSource> source) : Table(std::move(columns)) {
  source_ = std::move(source);
}

Table Table::emptyLike() const {
  Table t(columns_);
  if (!spanNames_.empty()) t.declareSpans(spanNames_);
  if (!eventNames_.empty()) t.declareEvents(eventNames_);
  return t;
}

void Table::clearRows() {
  onlyColumn_ = kEveryColumn;
  for (size_t c = 0; c < columns_.size(); ++c) {
    ints_[c].clear();
    reals_[c].clear();
    texts_[c].clear();
    missing_[c].clear();
    rowSet_[c] = 0;
  }
  for (size_t w = 0; w < spanNames_.size(); ++w) {
    spanStart_[w].clear();
    spanEnd_[w].clear();
    rowSpanStart_[w] = rowSpanEnd_[w] = kNoSpan;
  }
  for (size_t w = 0; w < eventNames_.size(); ++w) {
    eventTable_[w].clear();
    eventIndex_[w].clear();
    rowEventTable_[w] = EventTable::None;
    rowEventIndex_[w] = 0;
  }
  pool_ = StringPool();
  // The memo's slots name ids of the pool just emptied.
  if (++memoGeneration_ == 0) {
    memo_.clear();
    memoGeneration_ = 1;
  }
  rows_ = 0;
}

void Table::copyRows(size_t first, size_t count, Table& into) const {
  into.clearRows();
  first = std::min(first, rowCount());
  count = std::min(count, rowCount() - first);
  if (source_) {
    source_->appendRows(first, count, into);
    return;
  }
  for (size_t r = first; r < first + count; ++r) into.appendRowOf(*this, r);
}

void Table::appendRowOf(const Table& from, size_t r) {
  for (size_t c = 0; c < columns_.size(); ++c) {
    if (from.isMissing(r, c)) continue;
    switch (columns_[c].kind) {
      case CellKind::Int: setInt(c, from.intAt(r, c)); break;
      case CellKind::Decimal1: setDecimal(c, from.decimalAt(r, c)); break;
      case CellKind::Text: setText(c, from.textAt(r, c)); break;
    }
  }
  for (size_t w = 0; w < spanNames_.size(); ++w) setSpan(w, from.spanStart_[w][r], from.spanEnd_[w][r]);
  for (size_t w = 0; w < eventNames_.size(); ++w) setEvent(w, from.eventTable_[w][r], from.eventIndex_[w][r]);
  endRow();
}

void Table::copyColumn(size_t col, size_t first, size_t count, Table& into) const {
  if (!source_) return copyRows(first, count, into);
  into.clearRows();
  into.onlyColumn_ = col;
  first = std::min(first, rowCount());
  count = std::min(count, rowCount() - first);
  source_->appendColumn(col, first, count, into);
}

void Table::materialize() {
  if (!source_) return;
  Table whole = emptyLike();
  const size_t rows = rowCount();
  source_->appendRows(0, rows, whole);
  whole.warnings_ = std::move(warnings_);
  whole.files_ = std::move(files_);
  *this = std::move(whole);
}

void forEachChunk(const Table& t, const std::function<void(const Table& chunk, size_t firstRow)>& fn,
                  size_t chunkRows, size_t first, size_t count, ChunkTexts texts) {
  const size_t rows = t.rowCount();
  first = std::min(first, rows);
  const size_t end = first + std::min(count, rows - first);
  if (!t.isView() && first == 0 && end == rows) {
    fn(t, 0);
    return;
  }
  Table chunk = t.emptyLike();
  if (texts == ChunkTexts::Appended && !t.textsRepeat()) chunk.appendTexts();
  for (size_t at = first; at < end; at += chunkRows) {
    t.copyRows(at, std::min(chunkRows, end - at), chunk);
    fn(chunk, at);
  }
}

void Table::setInt(size_t col, int64_t v) {
  if (!keeps(col)) return;
  ints_[col].push_back(v);
  rowSet_[col] = 1;
}

void Table::setDecimal(size_t col, double v) {
  if (!keeps(col)) return;
  reals_[col].push_back(v);
  rowSet_[col] = 1;
}

void Table::setText(size_t col, std::string_view v) {
  if (!keeps(col)) return;
  texts_[col].push_back(appendTexts_ ? pool_.append(v) : pool_.intern(v));
  rowSet_[col] = 1;
}

void Table::endRow() {
  const size_t from = onlyColumn_ == kEveryColumn ? 0 : onlyColumn_;
  const size_t to = onlyColumn_ == kEveryColumn ? columns_.size() : onlyColumn_ + 1;
  for (size_t c = from; c < to; ++c) {
    missing_[c].push_back(rowSet_[c] ? 0 : 1);
    if (!rowSet_[c]) {
      // Keep every column's vector one entry per row.
      switch (columns_[c].kind) {
        case CellKind::Int: ints_[c].push_back(0); break;
        case CellKind::Decimal1: reals_[c].push_back(0); break;
        case CellKind::Text: texts_[c].push_back(0); break;
      }
    }
    rowSet_[c] = 0;
  }
  for (size_t w = 0; w < spanNames_.size(); ++w) {
    spanStart_[w].push_back(rowSpanStart_[w]);
    spanEnd_[w].push_back(rowSpanEnd_[w]);
    rowSpanStart_[w] = rowSpanEnd_[w] = kNoSpan;
  }
  for (size_t w = 0; w < eventNames_.size(); ++w) {
    eventTable_[w].push_back(rowEventTable_[w]);
    eventIndex_[w].push_back(rowEventIndex_[w]);
    rowEventTable_[w] = EventTable::None;
    rowEventIndex_[w] = 0;
  }
  ++rows_;
}

void Table::declareSpans(std::vector<std::string> names) {
  spanNames_ = std::move(names);
  spanStart_.assign(spanNames_.size(), {});
  spanEnd_.assign(spanNames_.size(), {});
  rowSpanStart_.assign(spanNames_.size(), kNoSpan);
  rowSpanEnd_.assign(spanNames_.size(), kNoSpan);
}

void Table::setSpan(size_t which, int64_t start, int64_t end) {
  rowSpanStart_[which] = start;
  rowSpanEnd_[which] = end;
}

void Table::declareEvents(std::vector<std::string> names) {
  eventNames_ = std::move(names);
  eventTable_.assign(eventNames_.size(), {});
  eventIndex_.assign(eventNames_.size(), {});
  rowEventTable_.assign(eventNames_.size(), EventTable::None);
  rowEventIndex_.assign(eventNames_.size(), 0);
}

void Table::setEvent(size_t which, EventTable table, uint32_t index) {
  rowEventTable_[which] = table;
  rowEventIndex_[which] = index;
}

void Table::truncate(size_t n) {
  if (source_) {
    limit_ = std::min(limit_, n);
    return;
  }
  if (n >= rows_) return;
  for (size_t c = 0; c < columns_.size(); ++c) {
    if (!ints_[c].empty()) ints_[c].resize(n);
    if (!reals_[c].empty()) reals_[c].resize(n);
    if (!texts_[c].empty()) texts_[c].resize(n);
    missing_[c].resize(n);
  }
  for (size_t w = 0; w < spanNames_.size(); ++w) {
    spanStart_[w].resize(n);
    spanEnd_[w].resize(n);
  }
  for (size_t w = 0; w < eventNames_.size(); ++w) {
    eventTable_[w].resize(n);
    eventIndex_[w].resize(n);
  }
  rows_ = n;
}

}  // namespace asys
