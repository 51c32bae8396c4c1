// A job of ranks (`asys gen --ranks N`): the demo's training step run by N
// processes of one PPU each, on nodes of eight PPUs, each rank's rows into
// its own report. What is the job's and what is a rank's:
//   - the job's random sequence: the capture start, each node's first pid,
//     the communicator hash, each collective's transfer time;
//   - a rank's own sequence (rankSeed): its host timing, kernel noise and
//     expert load, pid offset, device uuid and metrics, so ranks are alike
//     but not identical and a merged summary differs from any one rank's.
// Each rank's process sees its PPU as device 0 (`cuda:0`), as a launcher
// that gives every rank one visible device does; its TARGET_INFO_PPU row
// names its node and PCI slot.
#include <cstdio>
#include <memory>

#include "core/base/fp_contract.h"
#include "core/gen/catalog.h"
#include "core/gen/simulation.h"

namespace asys::gen {

uint64_t Simulation::rankSeed(uint64_t jobSeed, int rank) {
  uint64_t s = jobSeed ^ (0x6A09E667F3BCC909ull * static_cast<uint64_t>(rank + 1));
  return splitmix64(s);
}

std::string rankHostName(int rank) {
  char name[32];
  std::snprintf(name, sizeof name, "ppu-train-node%02d", rank / kPpusPerNode);
  return name;
}

Simulation::Simulation(const std::vector<ReportWriter*>& ranks, const WorkloadOptions& o)
    : o_(o), ranked_(true), devicesPerProcess_(1), world_(static_cast<int>(ranks.size())), rng_(o.seed, 2) {
  sinks_.resize(ranks.size());
  for (size_t r = 0; r < ranks.size(); ++r) {
    Sink& s = sinks_[r];
    s.ownRng = std::make_unique<Rng>(rankSeed(o.seed, static_cast<int>(r)), 1);
    s.host = std::make_unique<Host>(*ranks[r], *s.ownRng, o.slow);
  }
  procs_.resize(ranks.size());
}

void Simulation::describeRanks() {
  for (Sink& s : sinks_) describeTables(s.host->w);
  const int64_t start0 = 150 * kMs + rng_.range(0, 40 * kMs);
  int64_t pid = 0;
  for (int r = 0; r < world_; ++r) {
    Sink& s = sinks_[static_cast<size_t>(r)];
    ReportWriter& w = s.host->w;
    Rng& own = *s.ownRng;
    const int local = r % kPpusPerNode;
    const std::string node = rankHostName(r);
    describeDevice(w, own, 0, kBusLocations[local], node.c_str());
    devices_.push_back(std::make_unique<Device>(0, 0, rankSeed(o_.seed, r)));
    Device& d = *devices_.back();
    d.busLocation = kBusLocations[local];

    // A launcher starts a node's ranks one after the other: their pids
    // rise from the node's first; another node's are anywhere (and may
    // equal these: asys merge renumbers such pids).
    pid = local == 0 ? 20000 + rng_.range(0, 3000000) : pid + own.range(40, 400);
    Process& p = procs_[static_cast<size_t>(r)];
    p.index = r;
    p.deviceCount = 1;
    p.pid = pid;
    p.globalPid = p.pid << 24;
    p.mainTid = p.globalPid + p.pid;
    p.loaderTid = p.globalPid + p.pid + own.range(20, 40);
    p.proxyTid[0] = p.globalPid + p.pid + 60;
    p.dev[0] = &d;
    p.t = start0 + own.range(0, 1500 * kUs);
    p.nextOpId = 100000 + own.range(0, 900000);
    p.nextCorr = 1;
    nameThreads(w, p);
  }
  std::snprintf(commHash_, sizeof commHash_, "%016llx", static_cast<unsigned long long>(rng_.next()));
}

std::vector<int64_t> runRankWorkload(const std::vector<ReportWriter*>& ranks, const WorkloadOptions& options) {
  Simulation sim(ranks, options);
  return sim.run();
}

}  // namespace asys::gen
