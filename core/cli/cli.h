#pragma once
// The `asys` command line, callable in-process (tests drive it directly).
#include <iosfwd>
#include <string>
#include <vector>

namespace asys {

// args excludes the program name: {"stats", "-r", "hggc_api_sum", "r.asysrep"}.
// Returns the exit status; errors are one line on `err`.
int runCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace asys
