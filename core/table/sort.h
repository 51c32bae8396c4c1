#pragma once
// Row order of a table sorted by one column, for the viewer's header clicks:
// computed in the engine so a million-row trace is never sorted in the UI.
#include <cstdint>
#include <vector>

#include "core/table/table.h"

namespace asys {

// Stable; numbers numerically, text by bytes; "-" cells last either way.
std::vector<uint32_t> sortedRowOrder(const Table& t, size_t column, bool descending);

}  // namespace asys
