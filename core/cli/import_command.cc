// `asys import INPUT... -o OUT.asysrep [-f true|false]`: foreign profiles
// (recognised by content) into one asysrep report.
#include <cstdlib>
#include <filesystem>
#include <ostream>

#include "core/base/error.h"
#include "core/cli/force_overwrite.h"
#include "core/cli/stats_command.h"
#include "core/import/importer.h"

namespace asys {

namespace {

constexpr const char* kImportUsage =
    "usage: asys import INPUT... -o OUT.asysrep [-f true|false]\n"
    "  INPUT  an Nsight Systems SQLite export (nsys export --type sqlite), or one or\n"
    "         more PyTorch/Kineto trace JSON files (plain or gzip; several ranks\n"
    "         become one multi-process report). Formats are recognised by content.\n"
    "  -o, --output OUT.asysrep   the report to write\n"
    "  -f, --force-overwrite true|false   replace OUT.asysrep if it exists (default false)\n";

}  // namespace

std::string tempDirectory() {
  const char* dir = std::getenv("TMPDIR");
  return dir != nullptr && *dir != '\0' ? std::string(dir) : std::string("/tmp");
}

int importCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    out << kImportUsage;
    return args.empty() ? 2 : 0;
  }
  std::vector<std::string> inputs;
  std::string output;
  bool force = false;
  try {
    for (size_t i = 0; i < args.size(); ++i) {
      const std::string& arg = args[i];
      auto next = [&]() -> std::string {
        if (i + 1 >= args.size()) throw Error(arg + ": missing value");
        return args[++i];
      };
      if (arg == "-o" || arg == "--output") {
        if (!output.empty()) throw Error(arg + ": given twice");
        output = next();
      } else if (parseForceOption(args, i, force)) {
        continue;
      } else if (arg == "--help" || arg == "-h") {
        out << kImportUsage;
        return 0;
      } else if (arg.size() > 1 && arg[0] == '-') {
        throw Error("unknown option '" + arg + "' (see asys import --help)");
      } else {
        inputs.push_back(arg);
      }
    }
    if (inputs.empty()) throw Error("no input given");
    if (output.empty()) throw Error("missing -o OUT.asysrep");
  } catch (const Error& e) {
    err << "asys import: " << e.what() << '\n';
    return 2;
  }
  try {
    std::error_code ec;
    if (!force && std::filesystem::exists(output, ec)) {
      throw Error(output + " exists (use -f true to overwrite)");
    }
    importReports(inputs, output);
  } catch (const Error& e) {
    err << "asys import: " << e.what() << '\n';
    return 1;
  }
  return 0;
}

}  // namespace asys
