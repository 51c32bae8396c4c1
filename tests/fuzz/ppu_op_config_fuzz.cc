// --ppu-op-config TYPE=kernel:REGEX | TYPE=hgtx:REGEX: one entry parsed,
// then, when accepted, ppu_op_sum runs with it on a small generated report,
// so the user's rule is tried on every kernel name and HGTX range first.
#include <cstdint>
#include <string>

#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  asys::fuzz::runRulesWithConfig("ppu-op-config", std::string(reinterpret_cast<const char*>(data), size), {"ppu_op_sum"});
  return 0;
}
