#pragma once
// Rows of a report's table read a page at a time, for a result that is a
// view: a trace of ten million kernels reads the cells of the page it writes
// (a few blocks of rows, in as few range scans as the blocks make runs),
// not the table's columns whole. A table in (nearly) the page's order is
// read about once in all; one in another order would be read many times
// over, so pagingMode() tells beforehand, and such a view loads the columns
// whole instead (the Loaded mode), as rules did before.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "core/report/column_loader.h"
#include "core/report/report.h"

namespace asys {

enum class PagingMode : uint8_t { Paged, Loaded };

// Whether paging pays: the rows a view would read page by page, when its
// output row r shows row `rowOf(r)` of a table of `tableRows` rows (or
// UINT32_MAX: none, a memcpy row of a kernel trace), against the table's
// rows. One linear pass.
template <typename RowOf>
PagingMode pagingMode(size_t tableRows, size_t outputRows, size_t pageRows, RowOf rowOf) {
  constexpr size_t every = ColumnLoad::kRowidMarkEvery;
  std::vector<uint32_t> lastPage((tableRows + every - 1) / every, UINT32_MAX);
  size_t read = 0;
  for (size_t r = 0; r < outputRows; ++r) {
    const uint32_t row = rowOf(r);
    if (row == UINT32_MAX) continue;
    uint32_t& seen = lastPage[row / every];
    if (seen != r / pageRows) {
      seen = static_cast<uint32_t>(r / pageRows);
      read += every;
    }
  }
  // Reading each row about once (a block at each page's two ends again) is
  // what paging is for; past 3 times the table, loading it whole is faster.
  return read <= 3 * std::max(tableRows, every) ? PagingMode::Paged : PagingMode::Loaded;
}

// Calls `page(begin, end)` for the pages of `pageRows` rows that make up a
// view's rows [first, first + count).
template <typename Page>
void forEachPage(size_t first, size_t count, size_t pageRows, Page page) {
  for (size_t begin = first; begin < first + count; begin += pageRows) page(begin, std::min(first + count, begin + pageRows));
}

// `Rows` is a report's columnar struct (Kernels, ApiCalls).
template <typename Rows>
class RowPages {
 public:
  // Reads positions [first, last) from a block start at or before `first`
  // into `into`, returning that start (Report::readKernelRows).
  using Reader = std::function<size_t(size_t first, size_t last, Rows& into)>;
  // Paged (`loaded` null): rows are read by read(). Otherwise every row is in
  // `loaded`, which must outlive the pages.
  RowPages(Reader reader, const Rows* loaded) : reader_(std::move(reader)), loaded_(loaded) {}
  // Every row in `rows`, which the pages own (a view's own copy: the
  // report's columns may be released while the view lives on).
  static RowPages owning(Rows rows) {
    RowPages pages(nullptr, nullptr);
    pages.own_ = std::make_unique<Rows>(std::move(rows));
    pages.loaded_ = pages.own_.get();
    return pages;
  }

  // Makes the rows `rows` (positions in the table's rowid order, any order,
  // repeats allowed) available to at(). Throws Error on a broken cell.
  // Nearby blocks are read in one range scan; a block asked for a few rows
  // only (a page of a sorted trace, whose rows lie anywhere) is read a run
  // of rows at a time, not whole (Report::readKernelRows reads them by rowid).
  void read(const std::vector<uint32_t>& rows) {
    if (loaded_) return;
    constexpr size_t every = ColumnLoad::kRowidMarkEvery;
    sorted_.assign(rows.begin(), rows.end());
    std::sort(sorted_.begin(), sorted_.end());
    sorted_.erase(std::unique(sorted_.begin(), sorted_.end()), sorted_.end());
    size_t used = 0;
    auto readRun = [&](size_t first, size_t last) {
      if (used == runs_.size()) runs_.emplace_back();
      Run& run = runs_[used++];
      run.firstRow = first;
      run.base = reader_(first, last, run.rows);
    };
    for (size_t i = 0; i < sorted_.size();) {
      // The rows of the blocks joined with this one.
      size_t j = i + 1;
      while (j < sorted_.size() && sorted_[j] / every - sorted_[j - 1] / every <= kJoinGap) ++j;
      const size_t firstBlock = sorted_[i] / every, lastBlock = sorted_[j - 1] / every;
      if (firstBlock == lastBlock && j - i <= kFewRows) {
        // Each run of consecutive rows by itself.
        for (size_t k = i; k < j;) {
          size_t e = k + 1;
          while (e < j && sorted_[e] == sorted_[e - 1] + 1) ++e;
          readRun(sorted_[k], sorted_[e - 1] + size_t{1});
          k = e;
        }
      } else {
        readRun(firstBlock * every, (lastBlock + 1) * every);
      }
      i = j;
    }
    runs_.resize(used);
  }

  struct At {
    const Rows* rows;
    size_t row;
  };
  // Where row `row` (one that read() was given) is.
  At at(uint32_t row) const {
    if (loaded_) return {loaded_, row};
    auto it = std::upper_bound(runs_.begin(), runs_.end(), static_cast<size_t>(row),
                               [](size_t r, const Run& run) { return r < run.firstRow; });
    const Run& run = *(it - 1);  // read() was given the row: a run before `it` holds it
    return {&run.rows, row - run.base};
  }

  // A view's rows [first, first + count), a page of `pageRows` at a time:
  // reads the table rows the page shows (`rowOf(r)`, UINT32_MAX for an
  // output row that shows none), then calls `emit(r)` for each of its rows.
  template <typename RowOf, typename Emit>
  void forEachRow(size_t first, size_t count, size_t pageRows, RowOf rowOf, Emit emit) {
    forEachPage(first, count, pageRows, [&](size_t begin, size_t end) {
      pageRows_.clear();
      for (size_t r = begin; r < end; ++r)
        if (const uint32_t row = rowOf(r); row != UINT32_MAX) pageRows_.push_back(row);
      read(pageRows_);
      for (size_t r = begin; r < end; ++r) emit(r);
    });
  }

 private:
  // Blocks this close are read in one range scan with the ones between.
  static constexpr size_t kJoinGap = 2;
  // A lone block asked for at most this many rows is read by its rows.
  static constexpr size_t kFewRows = 16;
  struct Run {
    size_t firstRow = 0;  // the first row asked for that it holds
    size_t base = 0;      // the table position of rows' row 0 (at most firstRow)
    Rows rows;
  };
  Reader reader_;
  const Rows* loaded_;
  std::unique_ptr<Rows> own_;  // owning(): what loaded_ points at
  std::vector<Run> runs_;
  std::vector<uint32_t> sorted_;    // read()'s scratch
  std::vector<uint32_t> pageRows_;  // forEachRow()'s
};

using KernelPages = RowPages<Kernels>;
using ApiPages = RowPages<ApiCalls>;

// A table's `columns`, paged through `read` (Report::readKernelRows,
// readHggcApiRows), or loaded now into the pages' own copy: never the
// report's columns, which the timeline may release while a view lives on.
template <typename Rows>
RowPages<Rows> pagesOf(Report& report, uint32_t columns, PagingMode mode,
                       size_t (Report::*read)(size_t, size_t, uint32_t, Rows&)) {
  if (mode == PagingMode::Loaded) {
    Rows rows;
    (report.*read)(0, SIZE_MAX, columns, rows);
    return RowPages<Rows>::owning(std::move(rows));
  }
  return RowPages<Rows>([&report, columns, read](size_t first, size_t last,
                                                 Rows& into) { return (report.*read)(first, last, columns, into); },
                        nullptr);
}

// HGGC_KERNEL's `columns` (kcol bits).
inline KernelPages kernelPages(Report& report, uint32_t columns, PagingMode mode) {
  return pagesOf(report, columns, mode, &Report::readKernelRows);
}

// HGGC_API's `columns` (acol bits).
inline ApiPages hggcApiPages(Report& report, uint32_t columns, PagingMode mode) {
  return pagesOf(report, columns, mode, &Report::readHggcApiRows);
}

// The report's own HGGC_KERNEL `columns`, loaded now if they are not: for
// one pass that ends before anything can release them (a sort's column).
inline KernelPages borrowedKernelPages(Report& report, uint32_t columns) {
  return KernelPages(nullptr, &report.kernels(columns));
}

}  // namespace asys
