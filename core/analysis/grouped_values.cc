#include "core/analysis/grouped_values.h"

namespace asys {

void GroupedValues::startFill(size_t groups) {
  begin_.resize(groups + 1, 0);
  for (size_t g = 0; g < groups; ++g) begin_[g + 1] += begin_[g];
  values_.resize(begin_.back());
  next_.assign(begin_.begin(), begin_.end() - 1);
}

std::vector<DurationStats> GroupedValues::summarize() {
  std::vector<DurationStats> out(groups());
  for (size_t g = 0; g < groups(); ++g) out[g] = asys::summarize(of(g));
  std::vector<size_t>().swap(next_);
  return out;
}

}  // namespace asys
