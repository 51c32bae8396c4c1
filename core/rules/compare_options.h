#pragma once
// What every compare rule declares alike: its "Show matched only" switch
// and the wording of its ratio direction.
#include "core/rules/rule.h"

namespace asys {

OptionSpec matchedOnlyOption();

// The sentence each compare rule's help ends with.
inline constexpr const char* kRatioDirection =
    "Ratios are base / target with one decimal: above 1.0 the target takes less\n"
    "time (is faster); '-' when a side has no match or a zero. Cells read\n"
    "\"base / target\", '-' for the side without a match.";

}  // namespace asys
