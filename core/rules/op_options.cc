#include "core/rules/op_options.h"

#include <algorithm>

namespace asys {

namespace {

struct MergeFlag {
  const char* name;
  OpFamily family;  // Custom for the prefill/decode pairing
  const char* label;
  const char* labelZh;
  const char* help;
};

const MergeFlag kMergeFlags[] = {
    {"no-merge-flash-attention-prefill-decode-operator", OpFamily::Custom, "Flash attention prefill and decode", "flash attention的prefill和decode",
     "Do not match and merge a flash attention prefill operator with the decode operator\n"
     "that follows it on the same thread (by default the two are one operator)."},
    {"no-merge-flash-attention-parameter", OpFamily::FlashAttention, "Flash attention parameters", "flash attention参数",
     "Do not ignore the flash attention parameters with little performance effect\n"
     "(batch, seqlen_q, seqlen_k, gpu): every parameter set is a row of its own."},
    {"no-merge-communication-parameter", OpFamily::Pccl, "Communication parameters", "通信算子参数",
     "Do not ignore the communication operator parameters with little performance effect\n"
     "(r the rank, h the communicator hash, b the buffers)."},
    {"no-merge-moe-parameter", OpFamily::Moe, "MoE parameters", "MoE算子参数",
     "Do not ignore the MoE operator parameters with little performance effect\n"
     "(topkids, the routed expert ids, and unique, the number of experts hit)."},
    {"no-merge-pytorch-parameter", OpFamily::PyTorch, "PyTorch parameters", "PyTorch算子参数",
     "Do not ignore the PyTorch operator parameters with little performance effect\n"
     "(op_id and input_op_ids, new for every call; a TorchFunction argument's device\n"
     "and requires_grad): every call is a row of its own."},
    {"no-merge-gemm-parameter", OpFamily::Gemm, "GEMM parameters", "GEMM算子参数",
     "Do not ignore the GEMM operator parameters with little performance effect\n"
     "(ACBLAS lda, ldb, ldc; DeepGemm gpu)."},
};

const OpFamily kFamilies[] = {OpFamily::Gemm,           OpFamily::Moe,         OpFamily::Pccl,
                              OpFamily::PyTorch,        OpFamily::FlashAttention, OpFamily::Elementwise};

}  // namespace

const char* const kCustomRulesHelp =
    "Use --ppu-op-config TYPE=kernel:REGEX / TYPE=hgtx:REGEX to add operator rules\n"
    "(before the built-in ones): a matching kernel is a kernel-level operator, a\n"
    "matching HGTX range a framework-level one with the activities launched inside it.";

OptionSpec opFilterOption() {
  OptionSpec o{.name = "op", .kind = OptionKind::TextList, .placeholder = "<operator_filter>",
               .label = "Operator Types",
               .labelZh = "算子类型",
               .help = "Operator types to include, separated by '/' (GEMM, MoE, PCCL, FlashAttention,\n"
                       "Elementwise, PyTorch, a --ppu-op-config type). 'others' adds the kernels no\n"
                       "operator claims, one row per kernel name. Default is every recognised type\n"
                       "(without others). Types are selected before operators nest: with op=GEMM a\n"
                       "GEMM inside a MoE layer is a top-level operator."};
  o.defaultLabel = "All";
  return o;
}

OptionSpec orderByOption(std::vector<std::string> choices, std::vector<std::string> labels) {
  OptionSpec o{.name = "order-by", .kind = OptionKind::Choice, .placeholder = "<order_type>", .label = "Order By",
               .labelZh = "排序方式",
               .help = "How rows are ordered; the default is the operators' time share, descending.\n"
                       "Numbers sort descending, names ascending; ties by time, then name."};
  o.choices = std::move(choices);
  o.choiceLabels = std::move(labels);
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
                       "--ppu-op-config always apply. Default is all (ALL)."};
  for (OpFamily f : kFamilies) {
    o.choices.emplace_back(familyChoice(f));
    o.choiceLabels.emplace_back(familyLabel(f));
  }
  o.defaultLabel = "ALL";
  return o;
}

std::vector<OptionSpec> noMergeOptions() {
  std::vector<OptionSpec> out;
  for (const MergeFlag& f : kMergeFlags) {
    OptionSpec o{.name = f.name, .kind = OptionKind::Flag, .label = f.label, .labelZh = f.labelZh, .help = f.help};
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
    OptionSpec o{.name = f.name, .kind = OptionKind::Flag, .label = label, .labelZh = labelZh, .help = f.help};
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
                       "rows shown are those of either report's top N."};
  o.defaultValue = "-1";
  o.defaultLabel = "-1 (no limit)";
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
  return q;
}

}  // namespace asys
