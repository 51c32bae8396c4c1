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

namespace permute_detail {
// Follows order's cycles (order[new] = old), moving each column's values
// along; `marks` says which positions are placed already and marks them.
template <typename Marks, typename... Columns>
void alongCycles(const std::vector<uint32_t>& order, Marks& marks, Columns&... columns) {
  for (size_t i = 0; i < order.size(); ++i) {
    if (marks.placed(i) || order[i] == i) continue;
    // Cycle i <- order[i] <- ...: hold i's values, move each along, put
    // them where the cycle closes.
    auto held = std::make_tuple((columns.empty() ? typename Columns::value_type{} : columns[i])...);
    size_t j = i;
    for (;;) {
      const size_t from = order[j];
      marks.place(j);
      if (from == i) {
        std::apply([&](auto&... value) { ((columns.empty() ? void() : void(columns[j] = value)), ...); }, held);
        break;
      }
      ((columns.empty() ? void() : void(columns[j] = columns[from])), ...);
      j = from;
    }
  }
}
}  // namespace permute_detail

// The same for several columns at once and in place, following the
// permutation's cycles: no column is copied (a sort of ten million rows
// puts five columns in order in the memory of the order alone). `order`
// must be a permutation; it is used up (its cells mark the places done).
// Empty columns stay empty.
template <typename... Columns>
void permuteInPlace(std::vector<uint32_t>& order, Columns&... columns) {
  struct InOrder {  // a placed position's cell is overwritten
    std::vector<uint32_t>& order;
    bool placed(size_t i) const { return order[i] == UINT32_MAX; }
    void place(size_t i) { order[i] = UINT32_MAX; }
  } marks{order};
  permute_detail::alongCycles(order, marks, columns...);
}

// permuteInPlace for a caller that reads the order after (a bit a position
// marks the places done, not the order's own cells).
template <typename... Columns>
void permuteInPlaceKeepingOrder(const std::vector<uint32_t>& order, Columns&... columns) {
  struct Bits {
    std::vector<bool> done;
    bool placed(size_t i) const { return done[i]; }
    void place(size_t i) { done[i] = true; }
  } marks{std::vector<bool>(order.size(), false)};
  permute_detail::alongCycles(order, marks, columns...);
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
