// `asys gen [--seed N] [--scale X] [--profile P] -o OUT.asysrep`: the demo
// report; `asys gen --ranks N --out-dir DIR ...`: the N rank reports of one
// job (core/gen/ranks.cc, docs/merge-and-ranks.md).
#include <ostream>

#include "core/base/error.h"
#include "core/cli/stats_command.h"
#include "core/gen/generator.h"

namespace asys {

namespace {

constexpr const char* kGenUsage =
    "usage: asys gen [--seed N] [--scale N] [--profile base|slow] -o OUT.asysrep\n"
    "       asys gen --ranks N --out-dir DIR [--seed N] [--scale N] [--profile base|slow]\n"
    "  -o, --output OUT.asysrep   the demo report: two processes of two PPUs each\n"
    "  --ranks N, --out-dir DIR   the reports of one job of N ranks (1 to 512), one\n"
    "                             process and PPU each: DIR/rank-0.asysrep ...\n"
    "                             DIR/rank-(N-1).asysrep (asys merge joins them)\n";

}  // namespace

int genCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  GenOptions opts;
  std::string output, outDir;
  int ranks = 0;  // 0: the demo report
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
      else if (arg == "--ranks") {
        const std::string v = next();
        // Digits only: "4.5", "-1", "0x4" and " 4" are not a rank count.
        const bool digits = !v.empty() && v.size() <= 4 && v.find_first_not_of("0123456789") == std::string::npos;
        ranks = digits ? std::stoi(v) : 0;
        if (ranks < 1 || ranks > 512) throw Error("--ranks: expected a whole number from 1 to 512, got '" + v + "'");
      } else if (arg == "--out-dir") {
        outDir = next();
        if (outDir.empty()) throw Error("--out-dir: expected a directory, got ''");
      } else if (arg == "--help" || arg == "-h") {
        out << kGenUsage;
        return 0;
      } else throw Error("unknown option '" + arg + "'");
    }
    if (opts.scale <= 0) throw Error("--scale must be greater than 0");
    if (ranks > 0) {
      if (!output.empty()) throw Error("-o: --ranks writes one report per rank; give --out-dir DIR instead");
      if (outDir.empty()) throw Error("--ranks: missing --out-dir DIR");
      generateRankReports(opts, ranks, outDir);
    } else {
      if (!outDir.empty()) throw Error("--out-dir: give --ranks N (the demo report is written with -o OUT.asysrep)");
      if (output.empty()) throw Error("missing -o OUT.asysrep");
      generateReport(opts, output);
    }
  } catch (const Error& e) {
    err << "asys gen: " << e.what() << '\n';
    return 2;
  }
  return 0;
}

}  // namespace asys
