#pragma once
// One `TorchFunction:` range (PyTorch `--pytorch=dispatch-function`), parsed:
//   TorchFunction: torch.ops.aten.mm.default | arg_type=torch.Tensor, dtype=torch.float32, device=cuda:0,
//     shape=(100, 100), requires_grad=False | arg_type=int, value=3 | kwarg_name=alpha, arg_type=int, value=2
// The target, then one `|`-separated entry per argument, each a list of
// `key=value` fields separated by ", " (a value in parentheses or brackets,
// a shape or a list, holds commas of its own). The PyTorch recogniser reads
// its merge key and work from this; ppu_op_unit_test its test's inputs.
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace asys {

struct TorchField {
  std::string_view key, value;
  std::string_view text;  // "key=value" as written
};

struct TorchArgument {
  std::vector<TorchField> fields;
  // The value of `key`, or nullopt when the entry has no such field.
  std::optional<std::string_view> get(std::string_view key) const;
  bool keyword() const { return get("kwarg_name").has_value(); }
};

struct TorchCall {
  std::string_view head;  // "TorchFunction: torch.ops.aten.mm.default", the text before the first entry
  std::string_view ns, op, overload;  // "aten", "mm", "default" (overload empty when not written)
  std::vector<TorchArgument> args;    // in the order written: positional, then keyword
};

inline constexpr std::string_view kTorchFunctionPrefix = "TorchFunction: ";

// The integers of a recorded shape or stride, "(100, 100)", "(512,)" or
// "()" (a 0-dim tensor); nullopt when the value is not such a tuple.
std::optional<std::vector<int64_t>> torchDims(std::string_view value);

// nullopt when the text is no TorchFunction range or its target names no
// NAMESPACE.OP. Views point into `text`.
std::optional<TorchCall> parseTorchFunction(std::string_view text);

}  // namespace asys
