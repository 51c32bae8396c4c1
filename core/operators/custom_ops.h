#pragma once
// The user's operator recognition rules, `--ppu-op-config TYPE=kernel:RE` and
// `TYPE=hgtx:RE` (repeatable; the viewer's "Custom operator parse config"):
// a kernel whose name, or an HGTX range whose name, the regex finds a match
// in is an operator of type TYPE. HGTX matches are framework-level
// operators, kernel matches kernel-level ones; rules are tried in the order
// given, before every built-in recogniser (docs/operators.md).
#include <string>
#include <string_view>
#include <vector>

#include "core/base/regex.h"

namespace asys {

enum class CustomOpSource : uint8_t { Kernel, Hgtx };

struct CustomOpRule {
  std::string type;
  CustomOpSource source;
  Regex regex;
};

class CustomOpRules {
 public:
  // Parses one config and adds it. Throws Error, one line quoting the
  // config: no '=', an empty or reserved type name, a type with '/', a
  // match kind other than kernel: / hgtx:, an empty regex, or an invalid
  // regex (PCRE2's position and reason).
  void add(const std::string& config);
  bool empty() const { return rules_.empty(); }
  const std::vector<CustomOpRule>& rules() const { return rules_; }
  // The first rule of `source` whose regex finds `name`, or nullptr.
  const CustomOpRule* match(CustomOpSource source, std::string_view name) const;
  bool has(CustomOpSource source) const;

 private:
  std::vector<CustomOpRule> rules_;
};

}  // namespace asys
