#include "core/operators/custom_ops.h"

#include "core/base/error.h"

namespace asys {

namespace {
constexpr const char* kOption = "--ppu-op-config";
}  // namespace

void CustomOpRules::add(const std::string& config) {
  const std::string quoted = std::string(kOption) + " '" + config + "'";
  const size_t eq = config.find('=');
  if (eq == std::string::npos) throw Error(quoted + ": expected TYPE=kernel:REGEX or TYPE=hgtx:REGEX (no '=')");
  const std::string type = config.substr(0, eq);
  if (type.empty()) throw Error(quoted + ": the operator type before '=' is empty");
  if (type.find('/') != std::string::npos) {
    throw Error(quoted + ": the operator type '" + type + "' contains '/', which separates the types of op=");
  }
  if (type == "others" || type == "Summary" || type == "Native" || type == "Idle") {
    throw Error(quoted + ": the operator type '" + type + "' is reserved (the rules print it themselves)");
  }
  const std::string rest = config.substr(eq + 1);
  CustomOpSource source;
  std::string pattern;
  if (rest.rfind("kernel:", 0) == 0) {
    source = CustomOpSource::Kernel;
    pattern = rest.substr(7);
  } else if (rest.rfind("hgtx:", 0) == 0) {
    source = CustomOpSource::Hgtx;
    pattern = rest.substr(5);
  } else {
    throw Error(quoted + ": expected 'kernel:' or 'hgtx:' after '=' (what the regex is matched against)");
  }
  if (pattern.empty()) throw Error(quoted + ": the regular expression after '" + rest.substr(0, rest.find(':') + 1) + "' is empty");
  rules_.push_back({type, source, Regex(pattern, quoted)});
}

const CustomOpRule* CustomOpRules::match(CustomOpSource source, std::string_view name) const {
  for (const CustomOpRule& r : rules_)
    if (r.source == source && r.regex.search(name)) return &r;
  return nullptr;
}

bool CustomOpRules::has(CustomOpSource source) const {
  for (const CustomOpRule& r : rules_)
    if (r.source == source) return true;
  return false;
}

}  // namespace asys
