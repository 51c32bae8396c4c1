#pragma once
// `asys merge`: several asysrep reports written as one, each input's
// processes and devices kept apart, every id renumbered where two inputs'
// ids could collide (merge_columns.h, merge_plan.h; docs/merge-and-ranks.md).
// Rows are copied table by table with SQL (the input ATTACHed read-only,
// INSERT ... SELECT with the renumbering as expressions), so no report is
// ever held in memory.
#include <string>
#include <vector>

namespace asys {

// Writes the merged report at outPath (as OUT.partial, renamed when
// complete), replacing it. Every input is checked first; an error is one
// line naming the file (asys::Error).
void mergeReports(const std::vector<std::string>& inputs, const std::string& outPath);

}  // namespace asys
