#pragma once
// The output-file convention of the commands that write files (asys stats
// --output, compare, import, merge): an existing file is kept unless
// `-f true` / `--force-overwrite [true|false]` allows replacing it.
#include <string>
#include <vector>

namespace asys {

bool parseBool(const std::string& option, const std::string& v);
// When args[i] is -f or --force-overwrite: reads its value (a bare
// --force-overwrite means true) into `force`, advances i past it and returns
// true. Throws Error for a missing or bad value.
bool parseForceOption(const std::vector<std::string>& args, size_t& i, bool& force);
// Throws Error("PATH exists (use -f true to overwrite)") unless `force`.
void checkOverwrite(const std::string& path, bool force);

}  // namespace asys
