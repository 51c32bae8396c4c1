#pragma once
// The simulated run: two ranks (processes) of a data-parallel MoE training
// job, each driving two PPUs, writing every asysrep table as it goes.
#include <cstdint>

#include "core/writer/report_writer.h"

namespace asys::gen {

struct WorkloadOptions {
  uint64_t seed = 1;
  int64_t iterations = 4;
  bool slow = false;  // GEMM/MoE kernels 25% longer, more expert-load skew
};

struct WorkloadResult {
  int64_t captureEnd = 0;
};

// Writes all tables except META_DATA.
WorkloadResult runWorkload(ReportWriter& w, const WorkloadOptions& options);

}  // namespace asys::gen
