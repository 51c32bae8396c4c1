// `asys merge REPORT... -o ALL.asysrep [-f true|false]`: asysrep reports
// (the ranks of one job) written as one report (core/import/report_merge.h).
#include <ostream>

#include "core/base/error.h"
#include "core/cli/force_overwrite.h"
#include "core/cli/stats_command.h"
#include "core/import/report_merge.h"

namespace asys {

namespace {

constexpr const char* kMergeUsage =
    "usage: asys merge REPORT... -o ALL.asysrep [-f true|false]\n"
    "  REPORT  asysrep reports of one job (its ranks, on one clock), in the order\n"
    "          their rows are to appear. Each report's processes and devices stay\n"
    "          apart: clashing pids and device ids, and every other id, are\n"
    "          renumbered (docs/merge-and-ranks.md).\n"
    "  -o, --output ALL.asysrep   the report to write (whole or not at all)\n"
    "  -f, --force-overwrite true|false   replace ALL.asysrep if it exists (default false)\n";

}  // namespace

int mergeCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    out << kMergeUsage;
    return args.empty() ? 2 : 0;
  }
  std::vector<std::string> inputs;
  std::string output;
  bool force = false;
  try {
    for (size_t i = 0; i < args.size(); ++i) {
      const std::string& arg = args[i];
      if (arg == "-o" || arg == "--output") {
        if (i + 1 >= args.size()) throw Error(arg + ": missing value");
        if (!output.empty()) throw Error(arg + ": given twice");
        output = args[++i];
      } else if (parseForceOption(args, i, force)) {
        continue;
      } else if (arg == "--help" || arg == "-h") {
        out << kMergeUsage;
        return 0;
      } else if (arg.size() > 1 && arg[0] == '-') {
        throw Error("unknown option '" + arg + "' (see asys merge --help)");
      } else {
        inputs.push_back(arg);
      }
    }
    if (inputs.empty()) throw Error("no report given");
    if (output.empty()) throw Error("missing -o ALL.asysrep");
  } catch (const Error& e) {
    err << "asys merge: " << e.what() << '\n';
    return 2;
  }
  try {
    checkOverwrite(output, force);
    mergeReports(inputs, output);
  } catch (const Error& e) {
    err << "asys merge: " << e.what() << '\n';
    return 1;
  }
  return 0;
}

}  // namespace asys
