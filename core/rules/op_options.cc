#include "core/rules/op_options.h"

#include <algorithm>

#include "core/rules/common.h"
#include "core/rules/hgtx_association_options.h"

namespace asys {

namespace {

struct MergeFlag {
  const char* name;
  OpFamily family;  // Custom for the prefill/decode pairing
  const char* label;
  const char* labelZh;
  const char* help;
  const char* helpZh;  // the option's bullet in the documentation (2.3.21)
};

const MergeFlag kMergeFlags[] = {
    {"no-merge-flash-attention-prefill-decode-operator", OpFamily::Custom, "Flash attention prefill and decode", "flash attention的prefill和decode",
     "Do not match and merge a flash attention prefill operator with the decode operator\n"
     "that follows it on the same thread (by default the two are one operator).",
     "若指定，不再匹配和合并prefill和decode的flash attention算子。"},
    {"no-merge-flash-attention-parameter", OpFamily::FlashAttention, "Flash attention parameters", "flash attention参数",
     "Do not ignore the flash attention parameters with little performance effect\n"
     "(batch, seqlen_q, seqlen_k, gpu): every parameter set is a row of its own.",
     "若指定，不再忽略flash attention算子对性能影响较小的参数差异。"},
    {"no-merge-communication-parameter", OpFamily::Pccl, "Communication parameters", "通信算子参数",
     "Do not ignore the communication operator parameters with little performance effect\n"
     "(r the rank, h the communicator hash, b the buffers).",
     "若指定，不再忽略通信算子对性能影响较小的参数差异。"},
    {"no-merge-moe-parameter", OpFamily::Moe, "MoE parameters", "MoE算子参数",
     "Do not ignore the MoE operator parameters with little performance effect\n"
     "(topkids, the routed expert ids, and unique, the number of experts hit).",
     "若指定，不再忽略MoE算子对性能影响较小的参数差异。"},
    {"no-merge-pytorch-parameter", OpFamily::PyTorch, "PyTorch parameters", "PyTorch算子参数",
     "Do not ignore the PyTorch operator parameters with little performance effect\n"
     "(op_id and input_op_ids, new for every call; a TorchFunction argument's device\n"
     "and requires_grad): every call is a row of its own.",
     "若指定，不再忽略pytorch算子对性能影响较小的参数差异。"},
    {"no-merge-gemm-parameter", OpFamily::Gemm, "GEMM parameters", "GEMM算子参数",
     "Do not ignore the GEMM operator parameters with little performance effect\n"
     "(ACBLAS lda, ldb, ldc; DeepGemm gpu).",
     "若指定，不再忽略GEMM算子对性能影响较小的参数差异。"},
};

const OpFamily kFamilies[] = {OpFamily::Gemm,           OpFamily::Moe,         OpFamily::Pccl,
                              OpFamily::PyTorch,        OpFamily::FlashAttention, OpFamily::Elementwise};

// Parse from's choices in Chinese (familyLabel's text; the documentation names
// no sources): the name, then what it reads in parentheses, as the panel cuts
// the label at " (".
const char* familyLabelZh(OpFamily f) {
  switch (f) {
    case OpFamily::Gemm: return "GEMM (ACBLAS、DeepGemm、GEMM kernel)";
    case OpFamily::Moe: return "MoE (MoE:、D_MoE、MoE kernel)";
    case OpFamily::Pccl: return "PCCL (算子标注、PCCL/NCCL kernel)";
    case OpFamily::PyTorch: return "PyTorch (aten::等算子HGTX range)";
    case OpFamily::FlashAttention: return "Flash attention (标注、attention kernel)";
    case OpFamily::Elementwise: return "Elementwise kernel";
    case OpFamily::Custom: return "自定义";
  }
  return "";
}

}  // namespace

const char* const kCustomRulesHelp =
    "Use --ppu-op-config TYPE=kernel:REGEX / TYPE=hgtx:REGEX to add operator rules\n"
    "(before the built-in ones): a matching kernel is a kernel-level operator, a\n"
    "matching HGTX range a framework-level one with the activities launched inside it.";

// 2.3.21, 2.3.26, 2.3.27: the --ppu-op-config paragraph.
const char* const kCustomRulesHelpZh =
    "可通过--ppu-op-config选项自定义算子识别规则，可指定正则表达式通过匹配HGTX range名称或者kernel名称识别指定算子类型，"
    "格式为算子类型=匹配类型:过滤规则，可多次通过--ppu-op-config选项创建多个算子识别规则。";
// 2.3.28, 2.3.29.
const char* const kBreakdownCustomRulesHelpZh =
    "可通过--ppu-op-config选项自定义算子识别规则，通过HGTX range名称匹配到的自定义算子将作为框架层算子统计，"
    "通过kernel名称匹配到的自定义算子将作为kernel层算子统计。";

OptionSpec opFilterOption() {
  OptionSpec o{.name = "op", .kind = OptionKind::TextList, .placeholder = "<operator_filter>",
               .label = "Operator Types",
               .labelZh = "算子类型",
               .help = "Operator types to include, separated by '/' (GEMM, MoE, PCCL, FlashAttention,\n"
                       "Elementwise, PyTorch, a --ppu-op-config type). 'others' adds the kernels no\n"
                       "operator claims, one row per kernel name. Default is every recognised type\n"
                       "(without others). Types are selected before operators nest: with op=GEMM a\n"
                       "GEMM inside a MoE layer is a top-level operator.",
               .helpZh = "指定参与统计的PPU算子类型列表，多个PPU算子类型之间通过/分割。若不指定，默认统计所有支持的PPU算子类型。"
                         "若指定others类型，未关联到PPU算子的kernel也将在统计结果中体现。"};
  o.defaultLabel = "All";
  return o;
}

OptionSpec orderByOption(std::vector<std::string> choices, std::vector<std::string> labels,
                         std::vector<std::string> labelsZh) {
  OptionSpec o{.name = "order-by", .kind = OptionKind::Choice, .placeholder = "<order_type>", .label = "Order By",
               .labelZh = "排序方式",
               .help = "How rows are ordered; the default is the operators' time share, descending.\n"
                       "Numbers sort descending, names ascending; ties by time, then name.",
               .helpZh = "指定输出结果排序方式，默认按照算子时间占比排序。"};
  o.choices = std::move(choices);
  o.choiceLabels = std::move(labels);
  o.choiceLabelsZh = std::move(labelsZh);
  o.defaultValue = o.choices.front();
  o.defaultLabel = o.choiceLabels.front();
  return o;
}

OptionSpec parseFromOption() {
  OptionSpec o{.name = "parse-from", .kind = OptionKind::ChoiceList, .placeholder = "<source_list>",
               .label = "Parse from",
               .labelZh = "解析算子的来源",
               .help = "The operator recognisers to use, separated by '/'. Every PPU activity can only\n"
                       "become an operator through the enabled sources; the custom rules of\n"
                       "--ppu-op-config always apply. Default is all (ALL).",
               // 2.3.21 规则设置 (the precedence of --ppu-op-config is in its own help).
               .helpZh = "选择解析算子的来源，所有ppu活动都只能通过使能的算子解析来源尝试进行解析，若解析成功则会纳入算子统计的结果中。\n"
                         "默认值为“ALL”，从所有支持的解析来源对ppu活动进行解析。"};
  for (OpFamily f : kFamilies) {
    o.choices.emplace_back(familyChoice(f));
    o.choiceLabels.emplace_back(familyLabel(f));
    o.choiceLabelsZh.emplace_back(familyLabelZh(f));
  }
  o.defaultLabel = "ALL";
  return o;
}

std::vector<OptionSpec> noMergeOptions() {
  std::vector<OptionSpec> out;
  for (const MergeFlag& f : kMergeFlags) {
    OptionSpec o{.name = f.name, .kind = OptionKind::Flag, .label = f.label, .labelZh = f.labelZh, .help = f.help,
                 .helpZh = f.helpZh};
    o.inverted = true;
    o.group = "Merge operator parameters";
    o.groupZh = "合并算子参数";
    out.push_back(o);
  }
  return out;
}

OptionSpec noMergeOption(const std::string& name, const std::string& label, const std::string& labelZh) {
  for (const MergeFlag& f : kMergeFlags) {
    if (name != f.name) continue;
    OptionSpec o{.name = f.name, .kind = OptionKind::Flag, .label = label, .labelZh = labelZh, .help = f.help,
                 .helpZh = f.helpZh};
    o.inverted = true;
    return o;
  }
  return {};
}

OptionSpec topOption(const std::string& what) {
  OptionSpec o{.name = "top", .kind = OptionKind::Int, .placeholder = "<limit>", .label = "Show top N results",
               .labelZh = "展示前N条结果",
               .help = "Compare only each report's top N " + what +
                       " (by share; -1, the default, for all): the\n"
                       "rows shown are those of either report's top N.",
               // ppu_operator_summary_compare: top=<limit>, and Show top N results.
               .helpZh = "仅比较每个报告top N占比的算子。\n"
                         "默认为“-1”，即不限制展示结果条数。在报告对比时，会展示两个报告各自的前N条结果。"};
  o.defaultValue = "-1";
  o.defaultLabel = "-1 (no limit)";
  o.defaultLabelZh = "-1（无上限）";
  o.minValue = -1;
  return o;
}

OperatorQuery operatorQuery(const RuleContext& ctx) {
  OperatorQuery q;
  const std::vector<std::string> sources = ctx.options.list("parse-from");
  if (!sources.empty()) {
    for (OpFamily f : kFamilies)
      q.recognition.enabled[static_cast<size_t>(f)] =
          std::find(sources.begin(), sources.end(), familyChoice(f)) != sources.end();
  }
  for (const MergeFlag& f : kMergeFlags) {
    if (!ctx.options.flag(f.name)) continue;
    if (f.family == OpFamily::Custom) q.pairPrefillDecode = false;
    else q.recognition.merge[static_cast<size_t>(f.family)] = false;
  }
  q.recognition.custom = &ctx.config.customOperators();
  const std::vector<std::string> types = ctx.options.list("op");
  if (!types.empty()) {
    q.allTypes = false;
    for (const std::string& t : types) {
      if (t == kTypeOthers) q.others = true;
      else q.types.push_back(t);
    }
  }
  q.devices = ctx.options.idList("device");
  q.window = ctx.window;
  RangeSelection ranges = rangeSelection(ctx.options);
  q.graphMapping = ranges.graphMapping;
  q.rangeInclude = std::move(ranges.include);
  q.rangeExclude = std::move(ranges.exclude);
  return q;
}

std::vector<DataNeed> operatorNeeds() { return {ppuActivityNeed()}; }

}  // namespace asys
