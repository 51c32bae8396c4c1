#pragma once
// The simulated job, shared by the two layouts that run it:
//   - the demo (workload.cc): two processes of two PPUs each, all rows into
//     one report, every draw from one random sequence (its bytes are fixed:
//     tests and benchmarks compare them);
//   - a job of ranks (ranks.cc): N processes of one PPU each, each process's
//     rows into its own report and its draws from its own sequence, so each
//     rank's report is a plausible report of one rank.
// Everything per process goes through its Sink (writer, random numbers, the
// ids its writer gave the fixed names), so the step functions serve both.
#include <cstdint>
#include <memory>
#include <vector>

#include "core/gen/device.h"
#include "core/gen/host.h"
#include "core/gen/model.h"
#include "core/gen/rng.h"
#include "core/gen/workload.h"
#include "core/writer/report_writer.h"

namespace asys::gen {

inline constexpr int64_t kUs = 1000;
inline constexpr int64_t kMs = 1000000;
inline constexpr int64_t kMiB = 1 << 20;

class Simulation {
 public:
  // The demo: every row into `w`.
  Simulation(ReportWriter& w, const WorkloadOptions& o);
  // A job of ranks.size() ranks, rank r's rows into *ranks[r].
  Simulation(const std::vector<ReportWriter*>& ranks, const WorkloadOptions& o);

  // Runs the job; the capture end of each report (one for the demo).
  std::vector<int64_t> run();

  // Rank r's own seed, drawn from the job's (ranks.cc).
  static uint64_t rankSeed(uint64_t jobSeed, int rank);

 private:
  struct Names {
    uint32_t forward, backward, optimizer, optStep, zeroGrad, pcclAllReduce, pcclInit, collate,
        warmup, buildModel, gradSync, checkpoint, saveCheckpoint;
    uint32_t stage[5];  // GPUWait, SendWait, RecvWait, RecvGPUWait, RecvFlushWait
  };
  enum Stage { kGpuWait, kSendWait, kRecvWait, kRecvGpuWait, kRecvFlushWait };

  // Where one process's rows go. The demo's two processes share one.
  struct Sink {
    std::unique_ptr<Rng> ownRng;  // a rank's own sequence (null for the demo's)
    std::unique_ptr<Host> host;   // its writer and random numbers
    Names names{};
    DevicePrograms programs[kDevicesPerProcess];
  };

  Host& host(const Process& p) { return *sinks_[sinkOf(p)].host; }
  Rng& rng(const Process& p) { return host(p).rng; }
  ReportWriter& w(const Process& p) { return host(p).w; }
  const Names& names(const Process& p) const { return sinks_[sinkOf(p)].names; }
  const DevicePrograms& programs(const Process& p, int local) const { return sinks_[sinkOf(p)].programs[local]; }
  size_t sinkOf(const Process& p) const { return ranked_ ? static_cast<size_t>(p.index) : 0; }
  // The PCCL rank of a process's local device.
  int rankOf(const Process& p, int local) const { return p.index * devicesPerProcess_ + local; }

  void internNames(Sink& s);
  void describeTables(ReportWriter& w);
  void describeDevice(ReportWriter& w, Rng& rng, int32_t id, const char* bus, const char* hostName);
  void nameThreads(ReportWriter& w, const Process& p);
  void describeMachine();  // the demo's machine (workload.cc)
  void describeRanks();    // a job's nodes, one process and PPU per rank (ranks.cc)
  void setup(Process& p);
  void beginIteration(Process& p, int64_t it);
  double loadBias(const Process& p, const Device& d) const;
  void forward(Process& p, int64_t it);
  void beginBackward(Process& p);
  void backwardLayer(Process& p, int layer);
  void endBackward(Process& p);
  void beginOptimizer(Process& p);
  void finishIteration(Process& p, int64_t it);
  void saveCheckpoint(Process& p);
  void collective(int bucket);
  void proxyStages(Process& p, int local, int64_t arrival, int64_t go, int64_t end);
  void loaderPrefetch(Process& p, int64_t batch, int64_t wake);
  void captureGraph(Process& p, Device& d);
  void graphLaunch(Process& p, Device& d);
  void synchronize(Process& p, Device& d, ApiKind api = kAHgStreamSynchronize);
  void startEndRange(ReportWriter& w, int64_t start, int64_t end, int64_t rangeId, const char* text,
                     int64_t textId, int64_t tid, int64_t endTid);
  int64_t captureEnd(const Process& p) const;

  struct Pending {
    Process* p;
    int local;
    int64_t corr, arrival;
  };

  WorkloadOptions o_;
  const bool ranked_;
  const int devicesPerProcess_;
  const int world_;  // PCCL ranks: every device of every process
  // The demo's one sequence (shared with its Host), and a job's own draws
  // (start time, communicator, transfer times) when ranked.
  Rng rng_;
  std::vector<Sink> sinks_;
  std::vector<std::unique_ptr<Device>> devices_;
  std::vector<Process> procs_;
  std::vector<Pending> pending_;    // one collective's ranks, reused
  int64_t lastCollectiveEnd_ = 0;   // ranked: the previous collective's last kernel end
  char commHash_[24] = {};
  char text_[512] = {};
};

}  // namespace asys::gen
