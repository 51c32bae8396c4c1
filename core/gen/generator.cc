// asys::generateReport: validates the options, writes the report next to its
// destination and moves it into place only once it is complete.
#include "core/gen/generator.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "core/base/error.h"
#include "core/gen/catalog.h"
#include "core/base/fp_contract.h"
#include "core/writer/report_writer.h"
#include "core/gen/workload.h"

namespace asys {
namespace {

constexpr int64_t kIterationsPerScale = 4;
constexpr double kMaxScale = 100000.0;

std::string formatScale(double scale) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", scale);
  return buf;
}

}  // namespace

void generateReport(const GenOptions& options, const std::string& outPath) {
  if (options.profile != "base" && options.profile != "slow") {
    throw Error("unknown generator profile '" + options.profile + "' (expected base or slow)");
  }
  if (!std::isfinite(options.scale) || options.scale <= 0.0 || options.scale > kMaxScale) {
    throw Error("invalid generator scale " + formatScale(options.scale) +
                " (expected a number above 0 and at most 100000)");
  }
  if (outPath.empty()) throw Error("no output file given for the generated report");

  gen::WorkloadOptions wo;
  wo.seed = options.seed;
  wo.slow = options.profile == "slow";
  wo.iterations = static_cast<int64_t>(std::llround(options.scale * kIterationsPerScale));
  if (wo.iterations < 1) wo.iterations = 1;

  writeReportFile(outPath, [&](ReportWriter& w) {
    const gen::WorkloadResult r = gen::runWorkload(w, wo);
    w.metaData("format", "asysrep");
    w.metaData("formatVersion", "1");
    w.metaData("hostName", gen::kHostName);
    w.metaData("captureStart", "0");
    w.metaData("captureEnd", std::to_string(r.captureEnd));
    w.metaData("generator", "asys gen (seed=" + std::to_string(options.seed) + ", scale=" +
                                formatScale(options.scale) + ", profile=" + options.profile + ")");
  });
}

}  // namespace asys
