#include <iostream>

#include "core/cli/cli.h"

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  std::vector<std::string> args(argv + 1, argv + argc);
  int status = asys::runCli(args, std::cout, std::cerr);
  // Whatever a command printed last must have reached its reader: a failed
  // write is a failed run (stats checks each rule's table itself).
  if (!std::cout.flush() && status == 0) {
    std::cerr << "asys: standard output: cannot write\n";
    status = 1;
  }
  return status;
}
