#include "core/operators/pytorch_ops.h"

#include <algorithm>
#include <string>
#include <vector>

#include "core/operators/flash_attention_ops.h"
#include "core/operators/torch_function.h"

namespace asys {

namespace {

using Shapes = std::vector<std::vector<int64_t>>;
using opparse::lower;
using opparse::trim;

bool identChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// "aten::mm" -> ("aten", "mm"); "autograd::engine::evaluate_function:
// MmBackward0" -> ("autograd", "MmBackward0"); nccl:all_reduce -> ("nccl",
// "all_reduce"). Empty namespace when the name is not an operator name.
std::pair<std::string_view, std::string_view> operatorName(std::string_view name) {
  if (name.rfind("nccl:", 0) == 0 && name.size() > 5 && name[5] != ':') return {"nccl", name.substr(5)};
  size_t i = 0;
  while (i < name.size() && identChar(name[i])) ++i;
  if (i == 0 || name.substr(i, 2) != "::" || (name[0] >= '0' && name[0] <= '9')) return {};
  const std::string_view ns = name.substr(0, i);
  std::string_view op = name.substr(i + 2);
  if (const size_t colon = op.rfind(": "); colon != std::string_view::npos) op = op.substr(colon + 2);  // evaluate_function: X
  if (const size_t last = op.rfind("::"); last != std::string_view::npos) op = op.substr(last + 2);
  if (op.empty()) return {};
  return {ns, op};
}

// The operator's base name for typing: lower case, no in-place '_', no
// autograd "Backward0" suffix ("MmBackward0" -> "mm").
std::string baseName(std::string_view op, bool& backward) {
  std::string b(op);
  backward = false;
  for (std::string_view suffix : {"Backward0", "Backward1", "Backward2"}) {
    if (b.size() > suffix.size() && b.compare(b.size() - suffix.size(), suffix.size(), suffix) == 0) {
      b.resize(b.size() - suffix.size());
      backward = true;
    }
  }
  b = lower(b);
  if (b.size() > 1 && b.back() == '_') b.pop_back();
  if (b.size() > 9 && b.compare(b.size() - 9, 9, "_backward") == 0) {
    b.resize(b.size() - 9);
    backward = true;
  }
  return b;
}

bool isGemmOp(const std::string& b) {
  static constexpr std::string_view kOps[] = {"mm", "addmm", "bmm", "baddbmm", "addbmm", "matmul", "linear", "mv",
                                              "addmv", "dot", "_scaled_mm", "_int_mm", "_addmm_activation"};
  return std::find(std::begin(kOps), std::end(kOps), b) != std::end(kOps) || b.find("gemm") != std::string::npos;
}

bool isElementwiseOp(const std::string& b) {
  static constexpr std::string_view kOps[] = {
      "add", "sub", "rsub", "mul", "div", "neg", "pow", "rsqrt", "sqrt", "exp", "log", "silu", "gelu", "relu",
      "sigmoid", "tanh", "abs", "clamp", "clamp_min", "clamp_max", "where", "copy", "fill", "zero", "masked_fill",
      "cos", "sin", "eq", "ne", "lt", "gt", "le", "ge", "maximum", "minimum", "reciprocal", "_to_copy", "to",
      "addcmul", "addcdiv", "lerp", "sign", "floor", "ceil", "round", "bitwise_and", "bitwise_or", "bitwise_not",
      "logical_and", "logical_or", "logical_not", "erf", "exp2", "log1p", "expm1", "hardtanh", "leaky_relu",
      "threshold", "dropout", "native_dropout", "_foreach_add", "_foreach_mul", "_foreach_div", "_foreach_sub",
      "_fused_adam", "_fused_adamw", "_foreach_lerp", "_foreach_addcmul", "_foreach_addcdiv", "_foreach_sqrt"};
  return std::find(std::begin(kOps), std::end(kOps), b) != std::end(kOps);
}

std::string_view typeOf(std::string_view ns, const std::string& b) {
  if (ns == "c10d" || ns == "nccl") return kTypePccl;
  for (std::string_view t : {"all_reduce", "allreduce", "all_gather", "allgather", "reduce_scatter", "all_to_all",
                             "alltoall"})
    if (b.find(t) != std::string::npos) return kTypePccl;
  if (b.find("moe") != std::string::npos) return kTypeMoe;
  if (b.find("attention") != std::string::npos || b.find("flash") != std::string::npos ||
      b.find("sdpa") != std::string::npos)
    return kTypeFlashAttention;
  if (isGemmOp(b)) return kTypeGemm;
  if (isElementwiseOp(b)) return kTypeElementwise;
  return kTypePyTorch;
}

double numel(const std::vector<int64_t>& dims) {
  double n = 1;
  for (int64_t d : dims) n *= static_cast<double>(d);
  return n;
}

// What the arguments say: shapes (an empty entry for a non-tensor), the
// first known floating data type, scalar values by position.
struct Arguments {
  Shapes shapes;
  DataType dtype = DataType::Unknown;
  std::vector<std::string> values;
  bool any = false;  // sizes were recorded
};

bool truthy(const Arguments& a, size_t index) {
  if (index >= a.values.size()) return false;
  const std::string v = lower(trim(a.values[index]));
  return v == "true" || v == "1";
}

// FLOPs and traffic of the GEMM and attention ops, from their shapes.
void shapeWork(const std::string& b, bool backward, const Arguments& a, OpWork& w) {
  const Shapes& s = a.shapes;
  auto dim = [&](size_t arg, size_t d) -> double {
    return arg < s.size() && d < s[arg].size() ? static_cast<double>(s[arg][d]) : -1;
  };
  auto rank = [&](size_t arg) { return arg < s.size() ? s[arg].size() : 0; };
  if (backward) return;  // a backward function's ranges carry no shapes of the forward op
  if (b == "mm" && rank(0) == 2 && rank(1) == 2) {
    const double m = dim(0, 0), k = dim(0, 1), n = dim(1, 1);
    w.flops = 2 * m * k * n;
    w.elementsRead = m * k + k * n;
    w.elementsWritten = m * n;
  } else if (b == "addmm" && rank(1) == 2 && rank(2) == 2) {
    const double m = dim(1, 0), k = dim(1, 1), n = dim(2, 1);
    w.flops = 2 * m * k * n;
    w.elementsRead = m * k + k * n + (rank(0) > 0 ? numel(s[0]) : 0);
    w.elementsWritten = m * n;
  } else if ((b == "bmm" && rank(0) == 3 && rank(1) == 3) || (b == "baddbmm" && rank(1) == 3 && rank(2) == 3)) {
    const size_t x = b == "bmm" ? 0 : 1;
    const double bt = dim(x, 0), m = dim(x, 1), k = dim(x, 2), n = dim(x + 1, 2);
    w.flops = 2 * bt * m * k * n;
    w.elementsRead = bt * (m * k + k * n) + (b == "baddbmm" && rank(0) > 0 ? numel(s[0]) : 0);
    w.elementsWritten = bt * m * n;
  } else if (b == "matmul" && rank(0) >= 2 && rank(1) >= 2) {
    const size_t ra = rank(0), rb = rank(1);
    const double m = dim(0, ra - 2), k = dim(0, ra - 1), n = dim(1, rb - 1);
    std::vector<int64_t> batchA(s[0].begin(), s[0].end() - 2), batchB(s[1].begin(), s[1].end() - 2);
    const double bt = std::max(numel(batchA), numel(batchB));
    w.flops = 2 * bt * m * k * n;
    w.elementsRead = numel(batchA) * m * k + numel(batchB) * k * n;
    w.elementsWritten = bt * m * n;
  } else if (b == "linear" && rank(0) >= 1 && rank(1) == 2) {
    const double k = dim(0, rank(0) - 1), n = dim(1, 0);
    const double rows = k > 0 ? numel(s[0]) / k : 0;
    w.flops = 2 * rows * k * n;
    w.elementsRead = rows * k + n * k + (rank(2) > 0 ? numel(s[2]) : 0);
    w.elementsWritten = rows * n;
  } else if (b == "mv" && rank(0) == 2) {
    const double m = dim(0, 0), k = dim(0, 1);
    w.flops = 2 * m * k;
    w.elementsRead = m * k + k;
    w.elementsWritten = m;
  } else {
    // Attention: query, key, value first, (B, H, S, D) for the SDPA ops and
    // (B, S, H, D) for flash attention's own; is_causal where each op has it.
    struct Layout {
      std::string_view op;
      bool bshd;
      size_t causalArg;
    };
    static constexpr Layout kLayouts[] = {{"scaled_dot_product_attention", false, 5},
                                          {"_scaled_dot_product_flash_attention", false, 4},
                                          {"_scaled_dot_product_efficient_attention", false, 6},
                                          {"_scaled_dot_product_cudnn_attention", false, 6},
                                          {"_flash_attention_forward", true, 8}};
    for (const Layout& l : kLayouts) {
      if (b != l.op || rank(0) != 4 || rank(1) != 4) continue;
      const double bt = dim(0, 0), hq = l.bshd ? dim(0, 2) : dim(0, 1), sq = l.bshd ? dim(0, 1) : dim(0, 2),
                   d = dim(0, 3), hkv = l.bshd ? dim(1, 2) : dim(1, 1), sk = l.bshd ? dim(1, 1) : dim(1, 2);
      w.flops = attentionFlops(bt, hq, sq, sk, d, truthy(a, l.causalArg), false);
      w.elementsRead = bt * (hq * sq * d + 2 * hkv * sk * d);
      w.elementsWritten = bt * hq * sq * d;
    }
  }
}

// "[c10::BFloat16, long int, Scalar]" or "['', '0.', 'True']": the items.
std::vector<std::string> listItems(std::string_view s) {
  std::vector<std::string> out;
  s = trim(s);
  if (s.size() < 2 || s.front() != '[' || s.back() != ']') return out;
  for (std::string_view item : opparse::split(s.substr(1, s.size() - 2), ',')) {
    std::string_view t = trim(item);
    if (t.size() >= 2 && t.front() == '\'' && t.back() == '\'') t = t.substr(1, t.size() - 2);
    out.emplace_back(t);
  }
  return out;
}

// NAME[, key = value]...: the autograd-shapes and imported formats.
std::optional<OpRecognition> namedRange(std::string_view text) {
  const size_t comma = text.find(", ");
  const std::string_view name = text.substr(0, comma);
  const auto [ns, op] = operatorName(name);
  if (ns.empty()) return std::nullopt;
  OpRecognition r;
  r.family = OpFamily::PyTorch;
  r.level = OpLevel::Framework;
  bool backward = false;
  const std::string b = baseName(op, backward);
  r.type = typeOf(ns, b);
  r.mergeKey.assign(name);
  // Shapes matter only to the ops whose work this engine estimates: a range
  // of any other op is not parsed further than its key (most of a PyTorch
  // trace's millions of ranges).
  const bool withWork = r.type == kTypeGemm || r.type == kTypeFlashAttention;
  Arguments args;
  size_t i = comma == std::string_view::npos ? text.size() : comma;
  while (i < text.size()) {
    // ", key = value"
    const size_t keyStart = i + 2;
    const size_t eq = text.find(" = ", keyStart);
    if (eq == std::string_view::npos) {
      r.mergeKey.append(text.substr(i));  // not a key = value field: kept as written
      break;
    }
    const std::string_view key = text.substr(keyStart, eq - keyStart);
    const size_t valueStart = eq + 3;
    size_t valueEnd = valueStart < text.size() && (text[valueStart] == '[' || text[valueStart] == '(')
                          ? opparse::bracketEnd(text, valueStart)
                          : std::min(text.find(", ", valueStart), text.size());
    const std::string_view value = text.substr(valueStart, valueEnd - valueStart);
    if (!withWork) {
    } else if (key == "sizes") {
      if (auto shapes = opparse::shapeList(value)) {
        args.shapes = std::move(*shapes);
        args.any = true;
      }
    } else if (key == "types") {
      for (const std::string& t : listItems(value)) {
        if (args.dtype == DataType::Unknown) args.dtype = parseDataType(t);
      }
    } else if (key == "values") {
      args.values = listItems(value);
    }
    // op_id and input_op_ids name this call only.
    if (key != "op_id" && key != "input_op_ids") r.mergeKey.append(text.substr(i, valueEnd - i));
    i = valueEnd;
  }
  r.work.dtype = args.dtype;
  if (args.any) shapeWork(b, backward, args, r.work);
  return r;
}

// TorchFunction: torch.ops.NS.OP.OVERLOAD | entry | entry ... (torch_function.h)
std::optional<OpRecognition> torchFunction(std::string_view text) {
  const std::optional<TorchCall> call = parseTorchFunction(text);
  if (!call) return std::nullopt;
  OpRecognition r;
  r.family = OpFamily::PyTorch;
  r.level = OpLevel::Framework;
  bool backward = false;
  const std::string b = baseName(call->op, backward);
  r.type = typeOf(call->ns, b);
  r.mergeKey.assign(call->head);
  Arguments args;
  for (const TorchArgument& entry : call->args) {
    std::string kept;
    for (const TorchField& f : entry.fields) {
      if (f.key == "device" || f.key == "requires_grad") continue;
      if (!kept.empty()) kept += ", ";
      kept.append(f.text);
    }
    r.mergeKey.append(" | ").append(kept);
    if (entry.keyword()) continue;
    const bool tensor = entry.get("arg_type") == "torch.Tensor";
    const std::optional<std::vector<int64_t>> shape = tensor ? torchDims(entry.get("shape").value_or("")) : std::nullopt;
    args.shapes.push_back(shape.value_or(std::vector<int64_t>{}));
    args.values.emplace_back(entry.get("value").value_or(""));
    if (tensor && args.dtype == DataType::Unknown) args.dtype = parseDataType(entry.get("dtype").value_or(""));
    args.any = args.any || tensor;
  }
  r.work.dtype = args.dtype;
  if (args.any) shapeWork(b, backward, args, r.work);
  return r;
}

}  // namespace

std::optional<OpRecognition> recognisePyTorchRange(std::string_view text) {
  if (text.rfind(kTorchFunctionPrefix, 0) == 0) return torchFunction(text);
  return namedRange(text);
}

}  // namespace asys
