#pragma once
// A column put in another order: element i becomes v[order[i]] (order: a
// permutation of positions, or a selection of them). An empty column (one a
// caller did not fill) stays empty.
#include <cstdint>
#include <vector>

namespace asys {

template <typename T>
void permute(std::vector<T>& v, const std::vector<uint32_t>& order) {
  if (v.empty()) return;
  std::vector<T> out(order.size());
  for (size_t i = 0; i < order.size(); ++i) out[i] = v[order[i]];
  v.swap(out);
}

}  // namespace asys
