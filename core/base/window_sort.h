#pragma once
// A stable sort of a list that is nearly in order already, a window at a
// time, in the memory of one window: no order of the whole list (4 bytes
// an element) is held. The PPU activity list comes so (each stream's
// activities in start order, the streams' rows interleaved in runs: no
// kernel more than 512 places from its place in start order at scale 250
// or 2500),
// and the whole list's order beside its columns was a projection rule's
// peak (docs/big-reports.md, projlist18).
//
// The windows overlap by half: a window of w elements from s is sorted
// (its first half was sorted by the window before), then its first half is
// final. That is the stable sort of the whole list when every element is
// less than w / 2 places from its place in it; where one is farther, the
// elements put in a window's final half are not the smallest left, which
// the next window sees (its first element is less than the last final
// one): the sort stops there and answers false. Either way each step is a
// stable sort of a stretch, so the list is still a permutation of what it
// was with equal keys in the same relative order: a stable sort of the
// whole list from there (or one that breaks ties by position) gives the
// same result as from the start.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <vector>

namespace asys {

// keyAt(i): element i's key (Key has operator<; its order is the sort's,
// ties kept in list order). apply(first, order, keys, m): puts elements
// first .. first + m - 1 in the order found (element first + k becomes the
// old element first + order[k]); keys[order[k]] is its key. `window` is
// even and a multiple of any block the caller moves together.
template <typename Key, typename KeyAt, typename Apply>
bool sortNearlySorted(size_t n, size_t window, KeyAt&& keyAt, Apply&& apply) {
  if (n < 2) return true;
  const size_t half = window / 2;
  std::vector<Key> keys(std::min(window, n));
  std::vector<uint32_t> order(keys.size());
  Key lastFinal{};
  for (size_t first = 0;; first += half) {
    const size_t m = std::min(window, n - first);
    for (size_t k = 0; k < m; ++k) keys[k] = keyAt(first + k);
    std::iota(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(m), 0u);
    auto less = [&keys](uint32_t x, uint32_t y) { return keys[x] < keys[y]; };
    // The first half is in order from the window before: the rest sorted
    // and merged into it (both stable: a tie keeps the earlier element first).
    const size_t inOrder = first == 0 ? 0 : std::min(half, m);
    const auto begin = order.begin(), mid = begin + static_cast<std::ptrdiff_t>(inOrder),
               end = begin + static_cast<std::ptrdiff_t>(m);
    std::stable_sort(mid, end, less);
    std::inplace_merge(begin, mid, end, less);
    if (first > 0 && keys[order[0]] < lastFinal) return false;  // an element came from farther than half a window
    apply(first, order.data(), keys.data(), m);
    if (first + m == n) return true;
    lastFinal = keys[order[half - 1]];
  }
}

}  // namespace asys
