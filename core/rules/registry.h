#pragma once
// Every rule's declaration, one function per rule file.
#include "core/rules/rule.h"

namespace asys {

const RuleSpec& hggcApiSumRule();
const RuleSpec& hggcPpuKernSumRule();
const RuleSpec& hgtxSumRule();
const RuleSpec& osrtSumRule();
const RuleSpec& ppuDeviceAttributeRule();

}  // namespace asys
