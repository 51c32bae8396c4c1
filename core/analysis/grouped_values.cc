#include "core/analysis/grouped_values.h"

namespace asys {

std::vector<DurationStats> summarizeEach(GroupedValues& values) {
  std::vector<DurationStats> out(values.groups());
  for (size_t g = 0; g < values.groups(); ++g) out[g] = summarize(values.of(g));
  return out;
}

}  // namespace asys
