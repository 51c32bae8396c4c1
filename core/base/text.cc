#include "core/base/text.h"

#include <charconv>

namespace asys {

std::vector<std::string> splitUnescaped(const std::string& s, char sep) {
  std::vector<std::string> parts(1);
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size()) {
      parts.back() += s[i];
      parts.back() += s[++i];
    } else if (s[i] == sep) {
      parts.emplace_back();
    } else {
      parts.back() += s[i];
    }
  }
  return parts;
}

std::string unescapeSeparators(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size() && (s[i + 1] == ',' || s[i + 1] == ':')) ++i;
    out += s[i];
  }
  return out;
}

bool parseInt64(std::string_view s, int64_t& out) {
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return !s.empty() && ec == std::errc() && p == s.data() + s.size();
}

bool isValidUtf8(std::string_view s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const size_t n = s.size();
  size_t i = 0;
  while (i < n) {
    const unsigned char c = p[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    size_t more;
    unsigned char lo = 0x80, hi = 0xBF;  // the second byte's range (Unicode 15, table 3-7)
    if (c >= 0xC2 && c <= 0xDF) more = 1;
    else if (c == 0xE0) more = 2, lo = 0xA0;
    else if (c == 0xED) more = 2, hi = 0x9F;  // no surrogates
    else if (c >= 0xE1 && c <= 0xEF) more = 2;
    else if (c == 0xF0) more = 3, lo = 0x90;
    else if (c == 0xF4) more = 3, hi = 0x8F;  // nothing above U+10FFFF
    else if (c >= 0xF1 && c <= 0xF3) more = 3;
    else return false;
    if (i + more >= n) return false;  // cut short
    if (p[i + 1] < lo || p[i + 1] > hi) return false;
    for (size_t k = 2; k <= more; ++k)
      if (p[i + k] < 0x80 || p[i + k] > 0xBF) return false;
    i += more + 1;
  }
  return true;
}

}  // namespace asys
