#include "core/rules/rule_config.h"

#include "core/base/error.h"

namespace asys {

const std::vector<GlobalOptionSpec>& globalOptions() {
  static const std::vector<GlobalOptionSpec> options = {
      {
          .name = "callstack-group-config",
          .placeholder = "NAME=FRAME_RE[/FRAME_RE...]",
          .label = "Group Config",
          .labelZh = "分组配置",
          .help = "One group per entry: NAME=FRAME_RE/FRAME_RE/..., the frame regexes from the\n"
                  "parent function towards the child. A frame matches a regex found in its\n"
                  "library (module) name or its function signature; a call stack matches when\n"
                  "matching frames appear in that order, other frames allowed in between.\n"
                  "Write a literal '/' inside a regex as '\\/'. Entries with the same name form\n"
                  "one group. Without any entry the built-in groups apply.",
          .purpose = "create report group configuration",
          .defaults = CallstackGroups::builtInConfigs(),
      },
      {
          .name = "ppu-op-config",
          .placeholder = "TYPE=kernel:REGEX | TYPE=hgtx:REGEX",
          .label = "Custom operator parse config",
          .labelZh = "自定义算子解析规则",
          .help = "One operator recognition rule per entry: TYPE=kernel:REGEX makes every kernel whose\n"
                  "name the regex finds a match in a kernel-level operator of type TYPE;\n"
                  "TYPE=hgtx:REGEX makes every HGTX range whose name (domain:name) it matches a\n"
                  "framework-level operator of type TYPE, with the PPU activities launched inside\n"
                  "it. Rules are tried in order, before the built-in recognisers (they win over\n"
                  "Parse from). Example: GEMM=kernel:gemv, Pytorch=hgtx:aten.",
          .purpose = "define custom operator parse rules",
          .defaults = {},
      },
  };
  return options;
}

const GlobalOptionSpec* findGlobalOption(const std::string& name) {
  for (const GlobalOptionSpec& o : globalOptions())
    if (o.name == name) return &o;
  return nullptr;
}

void RuleConfig::add(const std::string& option, const std::string& value) {
  if (option == "callstack-group-config") {
    callstackGroups_.add(value);
  } else if (option == "ppu-op-config") {
    customOperators_.add(value);
  } else {
    throw Error("unknown global option '--" + option + "'");
  }
  given_.emplace_back(option, value);
}

const CallstackGroups& RuleConfig::callstackGroups() const {
  return callstackGroups_.empty() ? CallstackGroups::builtIn() : callstackGroups_;
}

const RuleConfig& RuleConfig::defaults() {
  static const RuleConfig config;
  return config;
}

}  // namespace asys
