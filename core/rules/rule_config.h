#pragma once
// Configuration given once for every rule of a run: the CLI's repeatable
// global options (`--callstack-group-config`, `--ppu-op-config`), and the
// viewer's equivalent settings. Each
// option is declared once (GlobalOptionSpec) for the CLI parser, the help,
// and the viewer's list editor; values are parsed and checked when given,
// before any rule runs.
#include <string>
#include <utility>
#include <vector>

#include "core/analysis/callstack_groups.h"
#include "core/operators/custom_ops.h"

namespace asys {

struct GlobalOptionSpec {
  std::string name;         // the CLI's `--<name>`
  std::string placeholder;  // NAME=FRAME_RE[/FRAME_RE...]
  std::string label;        // the settings panel's label
  std::string labelZh;      // the same in Chinese
  std::string help;         // what one entry means, may span lines
  std::string helpZh;       // the same in Chinese (the documentation's wording), for the viewer
  std::string purpose;      // the help line: "Use --<name> to <purpose>."
  // The entries that apply when none is given (the panel's starting list).
  std::vector<std::string> defaults;
};

const std::vector<GlobalOptionSpec>& globalOptions();
const GlobalOptionSpec* findGlobalOption(const std::string& name);

class RuleConfig {
 public:
  // Adds one value of a global option (the CLI's `--NAME VALUE`, one entry
  // of the viewer's list). Throws Error, one line naming the option and what
  // is wrong with the value.
  void add(const std::string& option, const std::string& value);

  // The groups of --callstack-group-config, or the built-in groups when none
  // was given.
  const CallstackGroups& callstackGroups() const;
  // The rules of --ppu-op-config, in the order given (none: built-ins only).
  const CustomOpRules& customOperators() const { return customOperators_; }
  // The values given, per option (for messages and the viewer's command line).
  const std::vector<std::pair<std::string, std::string>>& given() const { return given_; }

  static const RuleConfig& defaults();

 private:
  CallstackGroups callstackGroups_;
  CustomOpRules customOperators_;
  std::vector<std::pair<std::string, std::string>> given_;
};

}  // namespace asys
