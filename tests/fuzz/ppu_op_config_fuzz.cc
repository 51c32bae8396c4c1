// --ppu-op-config TYPE=kernel:REGEX | TYPE=hgtx:REGEX: one entry parsed,
// then, when accepted, ppu_op_sum runs with it on a small generated report,
// so the user's rule is tried on every kernel name and HGTX range first.
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
    config.add("ppu-op-config", entry);
  } catch (const asys::Error&) {
    return 0;
  }
  const asys::RuleSpec* rule = asys::findRule("ppu_op_sum");
  try {
    asys::runRule(*rule, asys::fuzz::sampleReport(), asys::parseRuleOptions(*rule, {}), {}, config);
  } catch (const asys::Error&) {
  }
  return 0;
}
