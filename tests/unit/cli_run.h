#pragma once
// Runs the CLI in-process for the CLI tests: status, standard output and
// standard error of one `asys ...` invocation; and a file's bytes.
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "core/cli/cli.h"

namespace asys::test {

struct CliRun {
  int status;
  std::string out, err;
};

inline CliRun cli(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  int status = asys::runCli(args, out, err);
  return {status, out.str(), err.str()};
}

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace asys::test
