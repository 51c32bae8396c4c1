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
          // 2.3.1: Group Config, the frame and call stack matching, Tips.
          .helpZh = "创建分组并通过正则表达式指定匹配规则。格式为group_name=frame_filters，其中frame_filters可指定一个或多个帧的匹配正则表达式，"
                    "格式为：frame_regex1/frame_regex2/...，帧匹配正则表达式之间通过/间隔，帧的排列方向为从父函数到子函数方向排列。\n"
                    "帧的匹配方式为：若正则表达式可部分匹配调用栈的库名称或者函数签名，则判定帧匹配。\n"
                    "调用栈的匹配方式为：若调用栈中匹配的帧的层级关系，符合frame_filters中指定的层级关系，则判定分组匹配。\n"
                    "匹配的父、子函数所在的调用栈帧之间允许存在未匹配的调用栈帧。\n"
                    "正则表达式中的/字符写作\\/。\n"
                    "当多个--callstack-group-config创建的分组名称相同时，匹配任一分组规则的内存使用记录，将被归属到本分组。\n"
                    "若没有通过--callstack-group-config添加分组规则，将会使用默认内置的分组规则。",
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
          // 2.3.21: the --ppu-op-config paragraph, its examples and Custom operator parse config.
          .helpZh = "可通过--ppu-op-config选项自定义算子识别规则，可指定正则表达式通过匹配HGTX range名称或者kernel名称识别指定算子类型，"
                    "格式为算子类型=匹配类型:过滤规则，可多次通过--ppu-op-config选项创建多个算子识别规则。\n"
                    "--ppu-op-config GEMM=kernel:gemv：匹配kernel名称包含gemv关键字的kernel，分类到GEMM算子类型。\n"
                    "--ppu-op-config Pytorch=hgtx:aten：匹配HGTX range名称包含aten关键字，HGTX range关联的PPU活动分类到Pytorch算子类型。\n"
                    "该自定义解析规则优先级高于上面的“Parse from”选项。",
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
