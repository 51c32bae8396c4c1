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

}  // namespace asys
