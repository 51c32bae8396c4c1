#include "core/rules/compare_options.h"

namespace asys {

OptionSpec matchedOnlyOption() {
  return {.name = "matched-only", .kind = OptionKind::Flag, .label = "Show matched only",
          .labelZh = "仅展示成功匹配结果",
          .help = "Only the rows both reports have (hides every row with a '-' side)."};
}

}  // namespace asys
