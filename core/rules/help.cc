#include "core/rules/help.h"

#include <sstream>

namespace asys {

namespace {

void indented(std::ostringstream& out, const std::string& text, const std::string& indent) {
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) out << indent << line << '\n';
}

std::string helpUnit(const ColumnSpec& c) { return c.unit.empty() ? "" : " [" + c.unit + "]"; }

}  // namespace

std::string ruleHelp(const RuleSpec& rule) {
  std::ostringstream out;
  out << rule.name << " -- " << rule.title << "\n\n    Options:\n";
  if (rule.options.empty()) out << "        This rule has no options.\n";
  for (const auto& o : rule.options) {
    if (o.kind == OptionKind::ExclusiveFlags) {
      for (const auto& f : o.flags) {
        out << "        " << f.name << '\n';
        indented(out, f.help, "            ");
      }
      continue;
    }
    out << "        " << o.name;
    if (o.kind != OptionKind::Flag) out << '=' << o.placeholder;
    out << '\n';
    if (o.kind == OptionKind::Choice || o.kind == OptionKind::ChoiceList) {  // first, as the documentation's help shows it
      std::string values;
      for (size_t i = 0; i < o.choices.size(); ++i) {
        values += (i == 0 ? "'" : i + 1 == o.choices.size() ? " or '" : ", '") + o.choices[i] + "'";
      }
      out << "            Possible values are " << values << ".\n";
    }
    indented(out, o.help, "            ");
  }
  out << "        Use --filter-time / --filter-hgtx to specify report time range.\n";
  for (const std::string& name : rule.globalOptions) {
    if (const GlobalOptionSpec* g = findGlobalOption(name)) out << "        Use --" << g->name << " to " << g->purpose << ".\n";
  }
  out << "        Try 'asys " << (rule.command == RuleCommand::Analyze ? "analyze" : "stats")
      << " --help' for more information.\n\n    Output:\n";
  out << "        Row# : " << rule.rowHelp << '\n';
  for (const auto& c : rule.columns) out << "        " << c.name << helpUnit(c) << " : " << c.help << '\n';
  out << '\n';
  indented(out, rule.description, "    ");
  return out.str();
}

std::string ruleListHelp(RuleCommand command) {
  std::ostringstream out;
  for (const RuleSpec* r : allRules())
    if (r->command == command) out << r->name << " -- " << r->title << '\n';
  return out.str();
}

}  // namespace asys
