// --filter-time START/END and --filter-hgtx NAME[@DOMAIN][/INDEX], resolved
// against a small generated report (its capture start and HGTX ranges).
// A resolved window must be well formed; bad text is a one-line asys::Error.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "core/analysis/time_window.h"
#include "core/base/error.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

void resolve(const std::string& filterTime, const std::string& filterHgtx) {
  try {
    asys::TimeWindow w = asys::resolveTimeWindow(asys::fuzz::sampleReport(), filterTime, filterHgtx);
    if (w.end < w.start) std::abort();  // a window that ends before it starts would count nothing silently
  } catch (const asys::Error&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  resolve(text, "");
  resolve("", text);
  return 0;
}
