#pragma once
// Minimal JSON output helpers (the engine only writes JSON, never reads it).
#include <cstdint>
#include <string>
#include <string_view>

namespace asys {

// `s` as a JSON string literal, quotes included.
std::string jsonQuote(std::string_view s);

// Compact JSON built by structure, so no caller writes punctuation: commas and
// the colon after a key are placed here. Names say the type (a string literal
// would otherwise convert to bool before string_view).
class JsonWriter {
 public:
  JsonWriter& beginObject() { return open('{'); }
  JsonWriter& endObject() { return close('}'); }
  JsonWriter& beginArray() { return open('['); }
  JsonWriter& endArray() { return close(']'); }
  // The next value's key inside an object.
  JsonWriter& key(std::string_view name);
  JsonWriter& string(std::string_view v) { return raw(jsonQuote(v)); }
  JsonWriter& boolean(bool v) { return raw(v ? "true" : "false"); }
  JsonWriter& integer(int64_t v) { return raw(std::to_string(v)); }
  JsonWriter& null() { return raw("null"); }
  // A finite double, in text that reads back the same (null if not finite).
  JsonWriter& real(double v);
  // `key` with a string array.
  template <typename Strings>
  JsonWriter& strings(std::string_view name, const Strings& items) {
    key(name).beginArray();
    for (const auto& s : items) string(s);
    return endArray();
  }
  const std::string& text() const { return out_; }

 private:
  JsonWriter& open(char c);
  JsonWriter& close(char c);
  JsonWriter& raw(std::string_view v);
  void separate();

  std::string out_;
  std::string firsts_;  // per open container: '1' until its first item
  bool afterKey_ = false;
};

}  // namespace asys
