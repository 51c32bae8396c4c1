#include "core/cli/cli.h"

#include <exception>
#include <ostream>

#include "core/cli/stats_command.h"

namespace asys {

namespace {
constexpr const char* kUsage =
    "usage: asys <command> [options]\n"
    "commands:\n"
    "  stats    run statistics rules on a report (asys stats --help)\n"
    "  analyze  run the expert-system rules (ppu_gaps, ppu_time_util) on a report\n"
    "           (asys analyze --help)\n"
    "  compare  compare a base and a target report (asys compare --help)\n"
    "  gen      write a synthetic report (asys gen --help)\n"
    "  fleet    summary rules over many rank reports on Dask, exact (asys fleet --help)\n"
    "  import   convert Nsight Systems SQLite exports and PyTorch/Kineto traces to\n"
    "           an asysrep report (asys import --help)\n"
    "  merge    write several asysrep reports (the ranks of one job) as one report\n"
    "           (asys merge --help)\n";
}

int runCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  try {
    if (args.empty() || args[0] == "--help" || args[0] == "-h") {
      out << kUsage;
      return args.empty() ? 2 : 0;
    }
    std::vector<std::string> rest(args.begin() + 1, args.end());
    if (args[0] == "stats") return statsCommand(rest, out, err);
    if (args[0] == "analyze") return analyzeCommand(rest, out, err);
    if (args[0] == "compare") return compareReportsCommand(rest, out, err);
    if (args[0] == "gen") return genCommand(rest, out, err);
    if (args[0] == "import") return importCommand(rest, out, err);
    if (args[0] == "merge") return mergeCommand(rest, out, err);
    if (args[0] == "fleet") return fleetCommand(rest, out, err);
    err << "asys: unknown command '" << args[0] << "' (asys --help lists them)\n";
    return 2;
  } catch (const std::exception& e) {
    // Last line of defence: an internal failure is still one line, not a crash.
    err << "asys: internal error: " << e.what() << '\n';
    return 70;
  }
}

}  // namespace asys
