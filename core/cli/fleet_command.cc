// `asys fleet ...`: the fleet analysis is the Python package's (asys.fleet,
// on dask.distributed), so this door runs `python -m asys.fleet` with the
// same arguments: the interpreter of the checkout's .venv (made by
// scripts/setup-python.sh), found beside the executable, or $ASYS_PYTHON.
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <ostream>

#include "core/cli/stats_command.h"

extern char** environ;

namespace asys {

namespace {

// .venv/bin/python in the executable's folder or one of the three above it
// (build/native/asys sits two below the checkout).
std::string fleetPython() {
  if (const char* given = std::getenv("ASYS_PYTHON"); given && *given) return given;
  std::error_code ec;
  std::filesystem::path dir = std::filesystem::read_symlink("/proc/self/exe", ec).parent_path();
  for (int up = 0; up < 4 && !ec && !dir.empty(); ++up, dir = dir.parent_path()) {
    const std::filesystem::path python = dir / ".venv" / "bin" / "python";
    if (std::filesystem::exists(python)) return python.string();
  }
  return "";
}

}  // namespace

int fleetCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  const std::string python = fleetPython();
  if (python.empty()) {
    err << "asys fleet: needs the Python package: no .venv/bin/python beside this asys "
           "(run scripts/setup-python.sh, or set ASYS_PYTHON)\n";
    return 2;
  }
  std::vector<std::string> argv{python, "-m", "asys.fleet"};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> raw;
  for (std::string& a : argv) raw.push_back(a.data());
  raw.push_back(nullptr);
  out.flush();
  std::cout.flush();
  pid_t child = 0;
  if (int rc = posix_spawn(&child, python.c_str(), nullptr, nullptr, raw.data(), environ); rc != 0) {
    err << "asys fleet: cannot run " << python << ": " << std::strerror(rc) << '\n';
    return 2;
  }
  int status = 0;
  while (waitpid(child, &status, 0) < 0) {
    if (errno != EINTR) return 1;
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  err << "asys fleet: " << python << " ended by signal " << WTERMSIG(status) << '\n';
  return 1;
}

}  // namespace asys
