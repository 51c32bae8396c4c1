#include "core/base/memory_budget.h"

#include <unistd.h>
#ifdef __EMSCRIPTEN__
#include <emscripten/heap.h>
#endif

#include <cstdio>
#include <cstdlib>

namespace asys {

namespace {
std::optional<uint64_t>& setBudget() {
  static std::optional<uint64_t> budget;
  return budget;
}
}  // namespace

std::optional<uint64_t> parseBytes(const std::string& text) {
  if (text.empty()) return std::nullopt;
  uint64_t value = 0;
  size_t i = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
    if (value > (UINT64_MAX - 9) / 10) return std::nullopt;
    value = value * 10 + static_cast<uint64_t>(text[i] - '0');
  }
  if (i == 0) return std::nullopt;
  if (i == text.size()) return value;
  if (i + 1 != text.size()) return std::nullopt;
  const int shift = text[i] == 'K' ? 10 : text[i] == 'M' ? 20 : text[i] == 'G' ? 30 : -1;
  if (shift < 0 || value > (UINT64_MAX >> shift)) return std::nullopt;
  return value << shift;
}

uint64_t memoryBudget() {
  if (const char* env = std::getenv("ASYS_MEMORY_BUDGET")) {
    if (auto bytes = parseBytes(env)) return *bytes;
  }
  if (setBudget()) return *setBudget();
#ifdef __EMSCRIPTEN__
  return emscripten_get_heap_max();
#else
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(page) : UINT64_MAX;
#endif
}

void setMemoryBudget(uint64_t bytes) { setBudget() = bytes; }

std::string bytesText(uint64_t bytes) {
  const char* unit = "bytes";
  double value = static_cast<double>(bytes);
  if (bytes >= (uint64_t{1} << 30)) {
    value /= double(uint64_t{1} << 30);
    unit = "GB";
  } else if (bytes >= (uint64_t{1} << 20)) {
    value /= double(uint64_t{1} << 20);
    unit = "MB";
  } else if (bytes >= (uint64_t{1} << 10)) {
    value /= double(uint64_t{1} << 10);
    unit = "KB";
  } else {
    return std::to_string(bytes) + " bytes";
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.1f %s", value, unit);
  return text;
}

}  // namespace asys
