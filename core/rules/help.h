#pragma once
// `asys stats --help-report RULE` text, generated from the rule declaration
// in the layout the documentation shows.
#include <string>

#include "core/rules/rule.h"

namespace asys {

std::string ruleHelp(const RuleSpec& rule);
std::string ruleListHelp(RuleCommand command);  // --help-reports: one line per rule of the command

}  // namespace asys
