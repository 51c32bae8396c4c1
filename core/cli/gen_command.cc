#include <ostream>

#include "core/base/error.h"
#include "core/cli/stats_command.h"
#include "core/gen/generator.h"

namespace asys {

int genCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  GenOptions opts;
  std::string output;
  try {
    for (size_t i = 0; i < args.size(); ++i) {
      const std::string& arg = args[i];
      auto next = [&]() -> std::string {
        if (i + 1 >= args.size()) throw Error(arg + ": missing value");
        return args[++i];
      };
      auto number = [&](const std::string& v) {
        size_t used = 0;
        double d = 0;
        try { d = std::stod(v, &used); } catch (...) { used = 0; }
        if (used != v.size() || d < 0) throw Error(arg + ": expected a non-negative number, got '" + v + "'");
        return d;
      };
      if (arg == "--seed") opts.seed = static_cast<uint64_t>(number(next()));
      else if (arg == "--scale") opts.scale = number(next());
      else if (arg == "--profile") {
        opts.profile = next();
        if (opts.profile != "base" && opts.profile != "slow")
          throw Error("--profile: expected base or slow, got '" + opts.profile + "'");
      } else if (arg == "-o" || arg == "--output") output = next();
      else if (arg == "--help" || arg == "-h") {
        out << "usage: asys gen [--seed N] [--scale N] [--profile base|slow] -o OUT.asysrep\n";
        return 0;
      } else throw Error("unknown option '" + arg + "'");
    }
    if (output.empty()) throw Error("missing -o OUT.asysrep");
    if (opts.scale <= 0) throw Error("--scale must be greater than 0");
    generateReport(opts, output);
  } catch (const Error& e) {
    err << "asys gen: " << e.what() << '\n';
    return 2;
  }
  return 0;
}

}  // namespace asys
