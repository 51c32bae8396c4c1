#include "core/base/json.h"

#include <cmath>
#include <cstdio>

namespace asys {

std::string jsonQuote(std::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

void JsonWriter::separate() {
  if (afterKey_) {
    afterKey_ = false;
    return;
  }
  if (!firsts_.empty()) {
    if (firsts_.back() == '1') firsts_.back() = '0';
    else out_ += ',';
  }
}

JsonWriter& JsonWriter::key(std::string_view name) {
  separate();
  out_ += jsonQuote(name);
  out_ += ':';
  afterKey_ = true;
  return *this;
}

JsonWriter& JsonWriter::open(char c) {
  separate();
  out_ += c;
  firsts_ += '1';
  return *this;
}

JsonWriter& JsonWriter::close(char c) {
  firsts_.pop_back();
  out_ += c;
  return *this;
}

JsonWriter& JsonWriter::real(double v) {
  if (!std::isfinite(v)) return null();  // JSON has no NaN or infinity
  char text[32];  // 17 significant digits read back as the same double
  const int n = std::snprintf(text, sizeof text, "%.17g", v);
  return raw(std::string_view(text, static_cast<size_t>(n)));
}

JsonWriter& JsonWriter::raw(std::string_view v) {
  separate();
  out_ += v;
  return *this;
}

}  // namespace asys
