#include <iostream>

#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "core/cli/cli.h"

int main(int argc, char** argv) {
#ifdef __GLIBC__
  // Every block of 128 KiB or more is its own mapping, given back to the
  // system when freed. glibc's default raises that threshold to the size of
  // each mapped block freed (up to 32 MiB), so the association's columns,
  // freed and made again at every step, were then carved from the heap and
  // its high-water mark held past their use: 8-15 % of the association
  // rules' peaks (docs/big-reports.md, "The association family's peak").
  mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
  std::ios::sync_with_stdio(false);
  std::vector<std::string> args(argv + 1, argv + argc);
  int status = asys::runCli(args, std::cout, std::cerr);
  std::cout.flush();
  return status;
}
