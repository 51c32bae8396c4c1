#pragma once
// Minimal JSON output helpers (the engine only writes JSON, never reads it).
#include <cstdint>
#include <string>
#include <string_view>

namespace asys {

// `s` as a JSON string literal, quotes included.
std::string jsonQuote(std::string_view s);

}  // namespace asys
