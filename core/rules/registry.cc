#include "core/rules/registry.h"

namespace asys {

const std::vector<const RuleSpec*>& allRules() {
  // In the documentation's order.
  static const std::vector<const RuleSpec*> rules = {
      &hggcApiSumRule(), &hggcPpuKernSumRule(), &hgtxSumRule(), &osrtSumRule(),
      &ppuDeviceAttributeRule(),
  };
  return rules;
}

}  // namespace asys
