// launchingCalls (an activity's HGGC API call: same correlation id, same
// process, the first in table order) against brute force, on dense ids (the
// direct tables) and sparse ones (the hash join), with repeated ids, ids
// shared across processes, NULL ids and activities whose call is missing.
#include "core/analysis/hgtx_ranges.h"

#include <gtest/gtest.h>

#include <random>

namespace asys {
namespace {

std::vector<uint32_t> bruteForce(const std::vector<int64_t>& pid, const std::vector<int64_t>& corr, const ApiCalls& api) {
  std::vector<uint32_t> out(corr.size(), kNoRange);
  for (size_t i = 0; i < corr.size(); ++i) {
    if (corr[i] == kNoValue) continue;
    for (size_t c = 0; c < api.size(); ++c) {
      if (api.correlationId[c] == corr[i] && pidOf(api.globalTid[c]) == pidOf(pid[i])) {
        out[i] = static_cast<uint32_t>(c);
        break;
      }
    }
  }
  return out;
}

TEST(LaunchingCalls, DenseAndSparseIdsAgainstBruteForce) {
  std::mt19937_64 rng(99);
  for (int round = 0; round < 200; ++round) {
    const int64_t spread = round % 2 == 0 ? 1 : 1000003;  // dense ids, then sparse ones
    ApiCalls api;
    const size_t calls = 1 + rng() % 60;
    for (size_t c = 0; c < calls; ++c) {
      const int64_t pid = 1 + static_cast<int64_t>(rng() % 3);
      api.globalTid.push_back((pid << 24) + static_cast<int64_t>(rng() % 4));
      api.correlationId.push_back(rng() % 10 == 0 ? kNoValue : static_cast<int64_t>(rng() % 40) * spread);
      api.start.push_back(static_cast<int64_t>(c));
      api.end.push_back(static_cast<int64_t>(c) + 1);
    }
    api.rows = calls;
    std::vector<int64_t> pid, corr;
    for (int i = 0; i < 80; ++i) {
      pid.push_back((1 + static_cast<int64_t>(rng() % 4)) << 24);  // process 4 has no calls
      corr.push_back(rng() % 12 == 0 ? kNoValue : static_cast<int64_t>(rng() % 50) * spread);
    }
    ASSERT_EQ(launchingCalls(pid, corr, api), bruteForce(pid, corr, api)) << "round " << round;
  }
}

}  // namespace
}  // namespace asys
