#pragma once
// The rule declarations and a report's summary as JSON, for the viewer: its
// rule list, settings panel and pie chart are generated from these.
#include <string>

namespace asys {

class Report;

// Every rule's declaration; with a report, each rule also says whether the
// report has its data (`available`) and, if not, why (`missing`).
std::string rulesJson(Report* report);
std::string summaryJson(Report& report);

}  // namespace asys
