#include "core/cli/force_overwrite.h"

#include <filesystem>

#include "core/base/error.h"

namespace asys {

bool parseBool(const std::string& option, const std::string& v) {
  if (v == "true") return true;
  if (v == "false") return false;
  throw Error(option + ": expected true or false, got '" + v + "'");
}

bool parseForceOption(const std::vector<std::string>& args, size_t& i, bool& force) {
  const std::string& arg = args[i];
  if (arg == "-f") {
    if (i + 1 >= args.size()) throw Error(arg + ": missing value");
    force = parseBool(arg, args[++i]);
    return true;
  }
  if (arg == "--force-overwrite") {
    if (i + 1 < args.size() && (args[i + 1] == "true" || args[i + 1] == "false")) force = parseBool(arg, args[++i]);
    else force = true;
    return true;
  }
  return false;
}

void checkOverwrite(const std::string& path, bool force) {
  if (!force && std::filesystem::exists(path)) throw Error(path + " exists (use -f true to overwrite)");
}

}  // namespace asys
