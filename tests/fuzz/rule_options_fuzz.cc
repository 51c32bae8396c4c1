// The rule option parser: the input is the value of `-r`, split on
// unescaped commas into rules and on unescaped colons into options
// (`\,` and `\:` stand for literal separators), each option checked
// against its rule's declaration, exactly as `asys stats` and
// `asys analyze` parse it. The report named does not exist, so a spec that
// parses ends in "cannot open"; the parser's own answers are one-line
// errors. Anything escaping as another exception, or a sanitizer report,
// is a finding.
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "core/cli/stats_command.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string spec(reinterpret_cast<const char*>(data), size);
  std::ostringstream out, err;
  const std::vector<std::string> args{"-r", spec, "/nonexistent/asys-fuzz.asysrep"};
  asys::statsCommand(args, out, err);
  asys::analyzeCommand(args, out, err);
  return 0;
}
