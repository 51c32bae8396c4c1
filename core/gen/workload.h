#pragma once
// The simulated run: a data-parallel MoE training job writing every asysrep
// table as it goes. The demo is two processes of two PPUs each in one
// report; a job of ranks is N processes of one PPU each, one report per rank.
#include <cstdint>
#include <string>
#include <vector>

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

// A job of ranks.size() ranks (one process and one PPU each), rank r's
// tables except META_DATA into *ranks[r]; returns each rank's capture end.
// Its PCCL collectives correspond across ranks: one communicator, the same
// k-th AllReduce (count, type) on every rank, ranks 0..N-1 of size N.
std::vector<int64_t> runRankWorkload(const std::vector<ReportWriter*>& ranks, const WorkloadOptions& options);

// The node a rank runs on (eight ranks per node), for META_DATA hostName
// and TARGET_INFO_PPU.hostName.
std::string rankHostName(int rank);

}  // namespace asys::gen
