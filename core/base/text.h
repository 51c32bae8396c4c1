#pragma once
// Splitting of rule specifications: `-r a:opt,b` where `\,` and `\:` stand
// for a literal comma and colon inside option values.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace asys {

// Splits on `sep` not preceded by a backslash; keeps the escapes.
std::vector<std::string> splitUnescaped(const std::string& s, char sep);
// Turns `\,` and `\:` into `,` and `:`.
std::string unescapeSeparators(const std::string& s);

// A decimal int64 that is all of `s` (an optional '-', digits; nothing
// else, no overflow). False leaves `out` unspecified.
bool parseInt64(std::string_view s, int64_t& out);

// Whether `s` is well-formed UTF-8 (RFC 3629: no overlong forms, no
// surrogates, nothing above U+10FFFF).
bool isValidUtf8(std::string_view s);

}  // namespace asys
