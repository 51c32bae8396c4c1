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
// The same in Chinese: the documentation's 报告对比统计结果表格 and its compare
// tables' "比较结果通过/分隔，未匹配的列通过-表示".
inline constexpr const char* kRatioDirectionZh =
    "部分性能指标给出了Perf Ratio，表示target报告相比base报告的性能表现，Perf Ratio > 1.0表示target报告在该性能指标上优于"
    "base报告，反之则表示base报告性能更优。\n"
    "比较结果通过/分隔，未匹配的列通过-表示。";

}  // namespace asys
