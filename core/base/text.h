#pragma once
// Splitting of rule specifications: `-r a:opt,b` where `\,` and `\:` stand
// for a literal comma and colon inside option values.
#include <string>
#include <vector>

namespace asys {

// Splits on `sep` not preceded by a backslash; keeps the escapes.
std::vector<std::string> splitUnescaped(const std::string& s, char sep);
// Turns `\,` and `\:` into `,` and `:`.
std::string unescapeSeparators(const std::string& s);

}  // namespace asys
