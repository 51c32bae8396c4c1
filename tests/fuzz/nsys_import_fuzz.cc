// The Nsight Systems SQLite-export importer over arbitrary bytes: the bytes
// are the export (seeded with a miniature export and mutated), imported
// into an asysrep report as `asys import` does. Bad input is a one-line
// asys::Error; anything else is a finding.
#include <cstdint>
#include <string>

#include "core/base/error.h"
#include "core/import/importer.h"
#include "core/writer/report_writer.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string input = asys::fuzz::scratchPath(".sqlite");
  static const std::string output = asys::fuzz::scratchPath("-nsys.asysrep");
  asys::fuzz::writeFile(input, data, size);
  asys::fuzz::removeFile(output);
  try {
    asys::writeReportFile(output, [&](asys::ReportWriter& w) { asys::importNsysSqlite(input, w); });
  } catch (const asys::Error&) {
  }
  return 0;
}
