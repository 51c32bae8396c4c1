#pragma once
// A column put in another order: element i becomes v[order[i]] (order: a
// permutation of positions, or a selection of them). An empty column (one a
// caller did not fill) stays empty.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <utility>
#include <vector>

namespace asys {

template <typename T>
void permute(std::vector<T>& v, const std::vector<uint32_t>& order) {
  if (v.empty()) return;
  std::vector<T> out(order.size());
  for (size_t i = 0; i < order.size(); ++i) out[i] = v[order[i]];
  v.swap(out);
}

// The same for several columns at once and in place, following the
// permutation's cycles: no column is copied (a sort of ten million rows
// puts five columns in order in the memory of the order alone). `order`
// must be a permutation; it is used up. Empty columns stay empty.
template <typename... Columns>
void permuteInPlace(std::vector<uint32_t>& order, Columns&... columns) {
  constexpr uint32_t kPlaced = UINT32_MAX;
  for (size_t i = 0; i < order.size(); ++i) {
    if (order[i] == kPlaced || order[i] == i) continue;
    // Cycle i <- order[i] <- ...: hold i's values, move each along, put
    // them where the cycle closes.
    auto held = std::make_tuple((columns.empty() ? typename Columns::value_type{} : columns[i])...);
    size_t j = i;
    for (;;) {
      const size_t from = order[j];
      order[j] = kPlaced;
      if (from == i) {
        std::apply([&](auto&... value) { ((columns.empty() ? void() : void(columns[j] = value)), ...); }, held);
        break;
      }
      ((columns.empty() ? void() : void(columns[j] = columns[from])), ...);
      j = from;
    }
  }
}

// A stretch of a column put in another order: element first + i becomes
// v[first + order[i]] (order: a permutation of 0..m-1), through a copy of
// the stretch only (a list sorted a window at a time: sortNearlySorted).
// An empty column stays empty.
template <typename T>
void permuteStretch(std::vector<T>& v, size_t first, const uint32_t* order, size_t m) {
  if (v.empty()) return;
  std::vector<T> out(m);
  for (size_t i = 0; i < m; ++i) out[i] = v[first + order[i]];
  std::copy(out.begin(), out.end(), v.begin() + static_cast<std::ptrdiff_t>(first));
}

}  // namespace asys
