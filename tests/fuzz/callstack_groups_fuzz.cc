// --callstack-group-config NAME=FRAME_RE[/FRAME_RE...]: one entry parsed
// (regexes compiled under the engine's PCRE2 limits), then, when accepted,
// both device-memory rules run with it on a small generated report, so the
// frame regexes are matched against real call stacks.
#include <cstdint>
#include <string>

#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  asys::fuzz::runRulesWithConfig("callstack-group-config", std::string(reinterpret_cast<const char*>(data), size),
                                 {"device_memory_usage_summary", "device_memory_usage_detail"});
  return 0;
}
