// The Nsight Systems SQLite-export importer over arbitrary bytes: the bytes
// are the export (seeded with a miniature export and mutated), imported
// into an asysrep report as `asys import` does. Bad input is a one-line
// asys::Error; anything else is a finding.
#include <cstdint>

#include "core/import/importer.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  asys::fuzz::importBytes(".sqlite", data, size, [](const std::string& in, asys::ReportWriter& w) { asys::importNsysSqlite(in, w); });
  return 0;
}
