// --callstack-group-config NAME=FRAME_RE[/FRAME_RE...]: one entry parsed
// (regexes compiled under the engine's PCRE2 limits), then, when accepted,
// both device-memory rules run with it on a small generated report, so the
// frame regexes are matched against real call stacks.
#include <cstdint>
#include <string>

#include "core/base/error.h"
#include "core/rules/rule.h"
#include "core/rules/rule_config.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string entry(reinterpret_cast<const char*>(data), size);
  asys::RuleConfig config;
  try {
    config.add("callstack-group-config", entry);
  } catch (const asys::Error&) {
    return 0;
  }
  for (const char* name : {"device_memory_usage_summary", "device_memory_usage_detail"}) {
    const asys::RuleSpec* rule = asys::findRule(name);
    try {
      asys::runRule(*rule, asys::fuzz::sampleReport(), asys::parseRuleOptions(*rule, {}), {}, config);
    } catch (const asys::Error&) {
    }
  }
  return 0;
}
