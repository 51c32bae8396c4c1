#include <iostream>

#include "core/cli/cli.h"

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  std::vector<std::string> args(argv + 1, argv + argc);
  int status = asys::runCli(args, std::cout, std::cerr);
  std::cout.flush();
  return status;
}
