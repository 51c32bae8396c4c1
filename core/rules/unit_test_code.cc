#include "core/rules/unit_test_code.h"

#include <algorithm>
#include <optional>

#include "core/operators/op_types.h"
#include "core/operators/torch_function.h"

namespace asys {

namespace {

bool identChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

bool isIdentifier(std::string_view s) {
  return !s.empty() && !(s[0] >= '0' && s[0] <= '9') && std::all_of(s.begin(), s.end(), identChar);
}

bool isPythonKeyword(std::string_view s) {
  static constexpr std::string_view kKeywords[] = {
      "False", "None",   "True",    "and",      "as",     "assert", "async", "await",  "break",
      "class", "continue", "def",   "del",      "elif",   "else",   "except", "finally", "for",
      "from",  "global", "if",      "import",   "in",     "is",     "lambda", "nonlocal", "not",
      "or",    "pass",   "raise",   "return",   "try",    "while",  "with",  "yield"};
  return std::find(std::begin(kKeywords), std::end(kKeywords), s) != std::end(kKeywords);
}

// A Python string literal of `s`.
std::string pyString(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '\\' || c == '"') out += '\\';
    if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c == '\t') out += "\\t";
    else out += c;
  }
  return out + "\"";
}

bool isInt(std::string_view s) {
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// A Python float literal: [sign] digits [. digits] [e [sign] digits], or .digits.
bool isFloat(std::string_view s) {
  size_t i = 0, digits = 0;
  auto run = [&] {
    size_t n = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++n;
    return n;
  };
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
  digits += run();
  if (i < s.size() && s[i] == '.') {
    ++i;
    digits += run();
  }
  if (digits == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
    if (run() == 0) return false;
  }
  return i == s.size();
}

// A recorded float as Python: the literal, or float("inf") and the like.
std::optional<std::string> floatValue(std::string_view v) {
  if (isFloat(v)) return std::string(v);
  for (std::string_view special : {"inf", "-inf", "nan"})
    if (v == special) return "float(\"" + std::string(v) + "\")";
  return std::nullopt;
}

// A list or tuple of numbers, booleans and None, nested or not, as Python
// reads it: brackets matched, items separated by commas.
bool isPlainSequence(std::string_view s) {
  std::string open;  // the brackets not yet closed
  bool wantItem = true;  // after an opener or a comma
  size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (c == ' ') {
      ++i;
    } else if (c == '[' || c == '(') {
      if (!wantItem) return false;
      open += c;
      ++i;
    } else if (c == ']' || c == ')') {
      if (open.empty() || open.back() != (c == ']' ? '[' : '(')) return false;
      open.pop_back();
      wantItem = false;
      ++i;
      if (open.empty()) return i == s.size() || s.find_first_not_of(' ', i) == std::string_view::npos;
    } else if (c == ',') {
      if (wantItem || open.empty()) return false;
      wantItem = true;
      ++i;
    } else {
      if (!wantItem || open.empty()) return false;
      size_t j = i;
      while (j < s.size() && (identChar(s[j]) || s[j] == '.' || s[j] == '-' || s[j] == '+')) ++j;
      const std::string_view item = s.substr(i, j - i);
      if (item.empty() || !(isInt(item) || isFloat(item) || item == "True" || item == "False" || item == "None"))
        return false;
      wantItem = false;
      i = j;
    }
  }
  return false;
}

// "(100, 100)" as a Python tuple; nullopt when not a shape.
std::optional<std::string> shapeTuple(std::string_view v) {
  const std::optional<std::vector<int64_t>> dims = torchDims(v);
  if (!dims) return std::nullopt;
  std::string out = "(";
  for (size_t i = 0; i < dims->size(); ++i) out += (i ? ", " : "") + std::to_string((*dims)[i]);
  return out + (dims->size() == 1 ? ",)" : ")");
}

bool isTorchName(std::string_view v) { return v.rfind("torch.", 0) == 0 && isIdentifier(v.substr(6)); }

// One argument as Python: `arg0` (a tensor, built on its own line) or a
// literal. Sets `reason` when it cannot be recreated.
struct Argument {
  std::string setup;  // "arg0 = tensor(...)" or ""
  std::string value;  // what the call passes
  std::string device; // a tensor's or torch.device's recorded device ("" otherwise)
};

std::optional<Argument> argument(const TorchArgument& a, const std::string& var, const std::string& what,
                                 std::string& reason) {
  const std::optional<std::string_view> type = a.get("arg_type");
  const std::string_view v = a.get("value").value_or("");
  auto invalid = [&](std::string_view expected) {
    reason = what + " has the value '" + std::string(v) + "', not a valid " + std::string(expected);
    return std::nullopt;
  };
  if (!type) {
    reason = what + " has no arg_type";
    return std::nullopt;
  }
  Argument out;
  if (*type == "torch.Tensor") {
    const std::optional<std::string_view> dtype = a.get("dtype"), shape = a.get("shape"), stride = a.get("stride");
    const std::optional<std::string> dims = shape ? shapeTuple(*shape) : std::nullopt;
    if (!dtype || !isTorchName(*dtype)) {
      reason = what + " is a tensor without a torch dtype";
      return std::nullopt;
    }
    if (!dims) {
      reason = what + " is a tensor without a recorded shape";
      return std::nullopt;
    }
    const std::string_view device = a.get("device").value_or("");
    const std::string place = device == "cpu" ? "\"cpu\"" : "device";
    out.setup = var + " = tensor(" + *dims + ", " + std::string(*dtype) + ", " + place;
    if (stride) {
      const std::optional<std::string> strides = shapeTuple(*stride);
      if (!strides || torchDims(*stride)->size() != torchDims(*shape)->size()) {
        reason = what + " has the strides '" + std::string(*stride) + "', not one per dimension";
        return std::nullopt;
      }
      out.setup += ", stride=" + *strides;
    }
    out.setup += ")";
    out.value = var;
    out.device = device;
    return out;
  }
  if (*type == "int") {
    if (!isInt(v)) return invalid("int");
    out.value = v;
  } else if (*type == "float") {
    const std::optional<std::string> f = floatValue(v);
    if (!f) return invalid("float");
    out.value = *f;
  } else if (*type == "bool") {
    if (v != "True" && v != "False") return invalid("bool");
    out.value = v;
  } else if (*type == "NoneType") {
    out.value = "None";
  } else if (*type == "str") {
    std::string_view s = v;
    if (s.size() >= 2 && (s.front() == '\'' || s.front() == '"') && s.back() == s.front()) s = s.substr(1, s.size() - 2);
    out.value = pyString(s);
  } else if (*type == "list" || *type == "tuple") {
    if (!isPlainSequence(v)) return invalid("list of numbers");
    out.value = v;
  } else if (*type == "torch.dtype" || *type == "torch.memory_format" || *type == "torch.layout") {
    if (!isTorchName(v)) return invalid(*type);
    out.value = v;
  } else if (*type == "torch.device") {
    out.value = v == "cpu" ? "\"cpu\"" : "device";
    out.device = v;  // a call that only names its device still runs there by default
  } else {
    reason = what + " is a " + std::string(*type) + ", an object the report does not record";
    return std::nullopt;
  }
  return out;
}

// The name a keyword argument's tensor gets: the keyword, unless Python or
// the file's own names need it.
std::string keywordVariable(std::string_view keyword) {
  const bool taken = isPythonKeyword(keyword) || keyword == "device" || keyword == "tensor" ||
                     keyword == "torch" || keyword.rfind("arg", 0) == 0;
  return (taken ? "kw_" : "") + std::string(keyword);
}

}  // namespace

std::string unitTestStem(std::string_view text) {
  const std::optional<TorchCall> call = parseTorchFunction(text);
  if (!call) return "";
  std::string stem(call->op);
  if (!call->overload.empty() && call->overload != "default") stem += "_" + std::string(call->overload);
  for (char& c : stem)
    if (!identChar(c)) c = '_';
  return stem;
}

UnitTestCode unitTestCode(const std::string& name, std::string_view text) {
  UnitTestCode out;
  const std::optional<TorchCall> call = parseTorchFunction(text);
  if (!call) {
    out.reason = "not a TorchFunction range (recorded without --pytorch=dispatch-function)";
    return out;
  }
  const std::string target = "torch.ops." + std::string(call->ns) + "." + std::string(call->op) +
                             (call->overload.empty() ? "" : "." + std::string(call->overload));
  if (call->ns != "aten" && call->ns != "prims") {
    out.reason = "torch.ops." + std::string(call->ns) +
                 " is no built-in PyTorch namespace: the library that defines it must be loaded";
    return out;
  }
  if (!isIdentifier(call->op) || !(call->overload.empty() || isIdentifier(call->overload))) {
    out.reason = "the operator's name is not a Python name";
    return out;
  }
  std::vector<std::string> setup, values;
  bool keywords = false;
  size_t position = 0;
  for (const TorchArgument& a : call->args) {
    std::string var, what;
    const std::optional<std::string_view> keyword = a.get("kwarg_name");
    if (keyword) {
      if (!isIdentifier(*keyword) || isPythonKeyword(*keyword)) {
        out.reason = "keyword argument '" + std::string(*keyword) + "' is not a Python name";
        return out;
      }
      var = keywordVariable(*keyword);
      what = "keyword argument " + std::string(*keyword);
      keywords = true;
    } else {
      var = "arg" + std::to_string(position++);
      what = "argument " + var;
      if (keywords) {
        out.reason = what + " follows a keyword argument";
        return out;
      }
    }
    const std::optional<Argument> arg = argument(a, var, what, out.reason);
    if (!arg) return out;
    if (!arg->setup.empty()) setup.push_back(arg->setup);
    values.push_back(keyword ? std::string(*keyword) + "=" + arg->value : arg->value);
    if (out.device.empty() && !arg->device.empty() && arg->device != "cpu") out.device = arg->device;
  }
  if (out.device.empty()) out.device = "cpu";
  std::string f = "def " + name + "(device):\n    \"\"\"" + target + "\"\"\"\n";
  for (const std::string& line : setup) f += "    " + line + "\n";
  f += "    return lambda: " + target + "(";
  for (size_t i = 0; i < values.size(); ++i) f += (i ? ", " : "") + values[i];
  f += ")\n";
  out.function = std::move(f);
  return out;
}

namespace {

constexpr std::string_view kHead = R"py(#!/usr/bin/env python3
"""PPU operator unit tests, generated by asys (ppu_op_unit_test) from a profiling report.

One test per PyTorch operator and argument combination the report recorded
(its TorchFunction ranges, --pytorch=dispatch-function), in descending Total
Time. Each test builds random inputs of the recorded shapes, dtypes and
strides, calls the recorded operator, and prints its measured average time
beside the report's. By default every test runs once:

    python3 <this file> [--top N] [--warm-up N] [--repeat N] [--test a,b] [--device DEV] [--list]

--device DEV runs every test on DEV (cpu, cuda:1, ...) instead of the device
the report recorded. The operators no test could be generated for are listed
at the end (NOT_GENERATED), with the reason.
"""
import argparse
import time

import torch


def tensor(shape, dtype, device, stride=None):
    """Random values of a recorded shape, dtype and strides: normally
    distributed for floating types, 0 and 1 for integer and bool types (valid
    as indices and masks)."""
    size = shape
    if stride is not None:  # the storage the strides reach
        size = (1 + sum((n - 1) * s for n, s in zip(shape, stride)),) if all(shape) else (0,)
    if dtype.is_floating_point or dtype.is_complex:
        values = torch.randn(size, device=device).to(dtype)
    else:
        values = torch.randint(0, 2, size, device=device).to(dtype)
    return values if stride is None else values.as_strided(shape, stride)

)py";

constexpr std::string_view kRunner = R"py(

def operator_of(target):
    """The operator torch.ops.NS.OP.OVERLOAD, or None when this PyTorch has none."""
    op = torch.ops
    for part in target.split(".")[2:]:
        try:
            op = getattr(op, part)
        except (AttributeError, RuntimeError):
            return None
    return op


def synchronize(device):
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def measure(run, device, warm_up, repeat):
    """The average time of one run in ns: the device's events where it has
    them, else the host clock around synchronised runs."""
    for _ in range(warm_up):
        run()
    synchronize(device)
    if device.type == "cuda":
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(repeat):
            run()
        end.record()
        end.synchronize()
        return start.elapsed_time(end) * 1e6 / repeat
    begin = time.perf_counter_ns()
    for _ in range(repeat):
        run()
    synchronize(device)
    return (time.perf_counter_ns() - begin) / repeat


def main():
    parser = argparse.ArgumentParser(description="Runs the PPU operator unit tests asys generated from a report.")
    parser.add_argument("--top", type=int, metavar="N", help="run the N tests of the largest Total Time")
    parser.add_argument("--warm-up", type=int, default=0, metavar="N", help="runs before timing (default 0)")
    parser.add_argument("--repeat", type=int, default=1, metavar="N", help="timed runs averaged (default 1)")
    parser.add_argument("--test", metavar="A,B", help="run only these tests (names as --list shows them)")
    parser.add_argument("--device", metavar="DEV", help="run every test on DEV instead of the recorded device")
    parser.add_argument("--list", action="store_true", help="list the tests and exit")
    args = parser.parse_args()
    if args.repeat < 1 or args.warm_up < 0 or (args.top is not None and args.top < 0):
        parser.error("--repeat must be at least 1, --warm-up and --top at least 0")
    tests = TESTS
    if args.test:
        names = args.test.split(",")
        reasons = {name: reason for name, _, reason in NOT_GENERATED}
        for name in names:
            if name in reasons:
                parser.error(f"no test was generated for {name}: {reasons[name]}")
            if name not in [test[0] for test in TESTS]:
                parser.error(f"unknown test '{name}' (--list lists them)")
        tests = [test for test in TESTS if test[0] in names]
    if args.top is not None:
        tests = tests[: args.top]

    failed = 0
    for name, function, op, recorded, avg, instances in tests:
        device = torch.device(args.device or recorded)
        if args.list:
            print(f"{name}: {op} on {device}, {avg} ns in the report (avg of {instances})")
        elif operator_of(op) is None:
            print(f"{name}: skipped: {op} is not in PyTorch {torch.__version__}")
        else:
            try:
                ns = measure(function(device), device, args.warm_up, args.repeat)
            except Exception as e:  # one failing test must not stop the others
                print(f"{name}: failed: {type(e).__name__}: {str(e).strip().splitlines()[0] if str(e).strip() else ''}")
                failed += 1
                continue
            print(f"{name}: {ns:.0f} ns measured on {device} (avg of {args.repeat}), "
                  f"{avg} ns in the report (avg of {instances})")
    if NOT_GENERATED:
        print(f"not generated ({len(NOT_GENERATED)}):")
        for name, op, reason in NOT_GENERATED:
            print(f"  {name}: {op}: {reason}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
)py";

}  // namespace

std::string unitTestFile(const std::vector<UnitTestEntry>& tests, const std::vector<UnitTestEntry>& notGenerated) {
  std::string out(kHead);
  for (const UnitTestEntry& t : tests) out += "\n" + t.code.function + "\n";
  out += "\n# The tests in descending Total Time: name, function, operator, the device the\n"
         "# report recorded, and the report's average time (ns) and instances.\n";
  out += tests.empty() ? "TESTS = []\n" : "TESTS = [\n";
  for (const UnitTestEntry& t : tests) {
    out += "    (" + pyString(t.name) + ", " + t.name + ", " + pyString(t.target) + ", " + pyString(t.code.device) +
           ", " + std::to_string(t.avg) + ", " + std::to_string(t.instances) + "),\n";
  }
  if (!tests.empty()) out += "]\n";
  out += "\n# The operators no test could be generated for: name, operator, reason.\n";
  out += notGenerated.empty() ? "NOT_GENERATED = []\n" : "NOT_GENERATED = [\n";
  for (const UnitTestEntry& t : notGenerated)
    out += "    (" + pyString(t.name) + ", " + pyString(t.target) + ", " + pyString(t.code.reason) + "),\n";
  if (!notGenerated.empty()) out += "]\n";
  out += kRunner;
  return out;
}

}  // namespace asys
