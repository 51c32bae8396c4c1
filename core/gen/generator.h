#pragma once
// `asys gen`: writes a deterministic, realistic synthetic asysrep report.
#include <cstdint>
#include <string>

namespace asys {

struct GenOptions {
  uint64_t seed = 1;
  // Workload size multiplier: scale 1 is a small demo (a few thousand
  // kernels); the kernel count grows linearly, scale 2500 ~ 10 million.
  double scale = 1.0;
  // "base" or "slow": the slow profile is the same workload with slower
  // kernels and communication (the demo's compare target).
  std::string profile = "base";
};

// Writes the report to outPath (replacing it). Throws asys::Error on failure.
void generateReport(const GenOptions& options, const std::string& outPath);

// Writes the `ranks` reports of one job (1 to 512 ranks, one process and one
// PPU each, core/gen/ranks.cc) as rankReportPath(dir, r), creating `dir`;
// replaces those files, and refuses a directory that holds a rank file of a
// larger job. Deterministic in (seed, scale, profile, ranks).
void generateRankReports(const GenOptions& options, int ranks, const std::string& dir);

// DIR/rank-R.asysrep.
std::string rankReportPath(const std::string& dir, int rank);

}  // namespace asys
