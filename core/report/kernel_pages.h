#pragma once
// HGGC_KERNEL rows read a page at a time, for a result that is a view: a
// trace of ten million kernels reads the cells of the page it writes (a few
// blocks of rows, in as few range scans as the blocks make runs), not the
// table's 21 columns whole. A table in (nearly) the page's order is read
// once in all; one in another order would be read many times over, so
// `Paging::estimate` tells beforehand, and such a view loads its columns
// whole instead (KernelPages' loaded mode), as rules did before.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/report/column_loader.h"
#include "core/report/report.h"

namespace asys {

class KernelPages {
 public:
  // Paged: rows are read by read(); Loaded: the report's columns, loaded now.
  enum class Mode : uint8_t { Paged, Loaded };
  KernelPages(Report& report, uint32_t columns, Mode mode);

  // Makes the rows of `kernels` (indices in the report's kernel order, any
  // order, repeats allowed) available to row(). Throws Error on a broken cell.
  void read(const std::vector<uint32_t>& kernels);

  struct Row {
    const Kernels* rows;
    size_t row;
  };
  // Where kernel `kernel` (one read() was given) is.
  Row row(uint32_t kernel) const;

 private:
  struct Run {
    size_t firstBlock = 0, endBlock = 0;  // blocks [firstBlock, endBlock)
    size_t base = 0;                      // the kernel of rows' row 0
    Kernels rows;
  };
  Report& report_;
  uint32_t columns_;
  const Kernels* loaded_ = nullptr;  // Loaded mode
  std::vector<Run> runs_;
  std::vector<size_t> blocks_;  // read()'s scratch
};

// Whether paging pays: the rows a view would read page by page, when its
// output row r is kernel `kernelOf(r)` (or none: a memcpy row), against the
// table's rows. Linear, one pass; `kernelOf(r)` returns UINT32_MAX for none.
template <typename KernelOf>
KernelPages::Mode pagingMode(size_t kernels, size_t outputRows, size_t pageRows, KernelOf kernelOf) {
  constexpr size_t every = ColumnLoad::kRowidMarkEvery;
  const size_t blocks = (kernels + every - 1) / every;
  std::vector<uint32_t> lastPage(blocks, UINT32_MAX);
  size_t read = 0;
  for (size_t r = 0; r < outputRows; ++r) {
    const uint32_t k = kernelOf(r);
    if (k == UINT32_MAX) continue;
    const uint32_t page = static_cast<uint32_t>(r / pageRows);
    uint32_t& seen = lastPage[k / every];
    if (seen != page) {
      seen = page;
      read += every;
    }
  }
  // Reading each row about once (a block at each page's two ends again) is
  // what paging is for; past 3 times the table, loading it whole is faster.
  return read <= 3 * std::max<size_t>(kernels, every) ? KernelPages::Mode::Paged : KernelPages::Mode::Loaded;
}

}  // namespace asys
