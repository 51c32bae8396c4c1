#include "core/operators/torch_function.h"

#include <algorithm>

#include "core/operators/op_types.h"

namespace asys {

namespace {

constexpr std::string_view kBar = " | ";

TorchArgument parseEntry(std::string_view entry) {
  TorchArgument a;
  size_t i = 0;
  while (i < entry.size()) {
    const size_t eq = entry.find('=', i);
    if (eq == std::string_view::npos) break;
    const size_t v = eq + 1;
    const size_t end = v < entry.size() && (entry[v] == '(' || entry[v] == '[')
                           ? opparse::bracketEnd(entry, v)
                           : std::min(entry.find(", ", v), entry.size());
    a.fields.push_back({opparse::trim(entry.substr(i, eq - i)), entry.substr(v, end - v), entry.substr(i, end - i)});
    i = end;
    while (i < entry.size() && (entry[i] == ',' || entry[i] == ' ')) ++i;
  }
  return a;
}

}  // namespace

std::optional<std::string_view> TorchArgument::get(std::string_view key) const {
  for (const TorchField& f : fields)
    if (f.key == key) return f.value;
  return std::nullopt;
}

std::optional<std::vector<int64_t>> torchDims(std::string_view value) {
  value = opparse::trim(value);
  if (value.size() < 2 || value.front() != '(' || value.back() != ')') return std::nullopt;
  std::vector<int64_t> dims;
  std::vector<std::string_view> items = opparse::split(value.substr(1, value.size() - 2), ',');
  if (items.size() > 1 && opparse::trim(items.back()).empty()) items.pop_back();  // "(512,)"
  if (items.size() == 1 && opparse::trim(items[0]).empty()) return dims;       // "()"
  for (std::string_view item : items) {
    const int64_t d = opparse::integer(opparse::trim(item));
    if (d < 0) return std::nullopt;
    dims.push_back(d);
  }
  return dims;
}

std::optional<TorchCall> parseTorchFunction(std::string_view text) {
  if (text.rfind(kTorchFunctionPrefix, 0) != 0) return std::nullopt;
  TorchCall c;
  size_t bar = text.find(kBar);
  // "TorchFunction: | ..." (the prefix's space starts the bar): no target.
  if (bar < kTorchFunctionPrefix.size()) return std::nullopt;
  c.head = text.substr(0, bar);
  std::string_view target = opparse::trim(c.head.substr(kTorchFunctionPrefix.size()));
  if (target.rfind("torch.ops.", 0) == 0) target.remove_prefix(10);
  const std::vector<std::string_view> parts = opparse::split(target, '.');
  if (parts.size() < 2 || parts[0].empty() || parts[1].empty()) return std::nullopt;
  c.ns = parts[0];
  c.op = parts[1];
  if (parts.size() > 2) c.overload = parts[2];
  while (bar != std::string_view::npos) {
    const size_t from = bar + kBar.size();
    bar = text.find(kBar, from);
    c.args.push_back(parseEntry(text.substr(from, bar == std::string_view::npos ? std::string_view::npos : bar - from)));
  }
  return c;
}

}  // namespace asys
