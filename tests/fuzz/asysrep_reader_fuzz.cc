// The asysrep reader over arbitrary bytes: the bytes are a report file,
// opened through SQLite as the CLI opens one, then every single-report rule
// runs on it with its default options and the timeline is built. The only
// acceptable failure is asys::Error (a one-line message); anything else (a
// crash, a sanitizer report, another exception) is a finding.
#include <cstdint>

#include "core/base/error.h"
#include "core/report/report.h"
#include "core/rules/rule.h"
#include "core/timeline/timeline.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string path = asys::fuzz::scratchPath(".asysrep");
  asys::fuzz::writeFile(path, data, size);
  std::unique_ptr<asys::Report> report;
  try {
    report = asys::Report::open(path);
  } catch (const asys::Error&) {
    return 0;
  }
  for (const asys::RuleSpec* rule : asys::allRules()) {
    if (!rule->compute) continue;  // compare rules take two reports
    try {
      asys::runRule(*rule, *report, asys::parseRuleOptions(*rule, {}));
    } catch (const asys::Error&) {
    }
  }
  try {
    asys::Timeline::build(*report);
  } catch (const asys::Error&) {
  }
  return 0;
}
