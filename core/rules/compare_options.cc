#include "core/rules/compare_options.h"

namespace asys {

OptionSpec matchedOnlyOption() {
  return {.name = "matched-only", .kind = OptionKind::Flag, .label = "Show matched only",
          .help = "Only the rows both reports have (hides every row with a '-' side)."};
}

}  // namespace asys
