#include "core/rules/compare_options.h"

namespace asys {

OptionSpec matchedOnlyOption() {
  return {.name = "matched-only", .kind = OptionKind::Flag, .label = "Show matched only",
          .labelZh = "仅展示成功匹配结果",
          .help = "Only the rows both reports have (hides every row with a '-' side).",
          .helpZh = "使能后仅展示base和target报告中都包含的成功匹配结果，即会隐藏所有包含无效结果“-”的行。默认不使能。"};
}

}  // namespace asys
