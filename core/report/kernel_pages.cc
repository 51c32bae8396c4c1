#include "core/report/kernel_pages.h"

namespace asys {

namespace {
constexpr size_t kEvery = ColumnLoad::kRowidMarkEvery;
// Blocks this close are read in one range scan with the ones between.
constexpr size_t kJoinGap = 2;
}  // namespace

KernelPages::KernelPages(Report& report, uint32_t columns, Mode mode) : report_(report), columns_(columns) {
  if (mode == Mode::Loaded) loaded_ = &report.kernels(columns);
}

void KernelPages::read(const std::vector<uint32_t>& kernels) {
  if (loaded_) return;
  blocks_.clear();
  for (uint32_t k : kernels) blocks_.push_back(k / kEvery);
  std::sort(blocks_.begin(), blocks_.end());
  blocks_.erase(std::unique(blocks_.begin(), blocks_.end()), blocks_.end());
  size_t used = 0;
  for (size_t b = 0; b < blocks_.size();) {
    size_t e = b + 1;
    while (e < blocks_.size() && blocks_[e] - blocks_[e - 1] <= kJoinGap) ++e;
    if (used == runs_.size()) runs_.emplace_back();
    Run& run = runs_[used++];
    run.firstBlock = blocks_[b];
    run.endBlock = blocks_[e - 1] + 1;
    run.base = report_.readKernelRows(run.firstBlock * kEvery, run.endBlock * kEvery, columns_, run.rows);
    b = e;
  }
  runs_.resize(used);
}

KernelPages::Row KernelPages::row(uint32_t kernel) const {
  if (loaded_) return {loaded_, kernel};
  const size_t block = kernel / kEvery;
  auto it = std::upper_bound(runs_.begin(), runs_.end(), block,
                             [](size_t b, const Run& run) { return b < run.firstBlock; });
  // read() was given this kernel, so a run before `it` holds its block.
  const Run& run = *(it - 1);
  return {&run.rows, kernel - run.base};
}

}  // namespace asys
