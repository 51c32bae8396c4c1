// The simulated run, step by step. Both processes advance in lock step
// between collectives: everything up to an AllReduce is simulated for each
// process, then the collective resolves (the kernels on all four PPUs end
// together once the last rank has arrived), then the next segment runs.
#include "core/gen/workload.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "core/gen/catalog.h"
#include "core/gen/device.h"
#include "core/base/fp_contract.h"
#include "core/gen/host.h"
#include "core/gen/model.h"
#include "core/gen/rng.h"

namespace asys::gen {
namespace {

constexpr int kProcesses = 2;
constexpr int64_t kUs = 1000;
constexpr int64_t kMs = 1000000;
constexpr int64_t kMiB = 1 << 20;
constexpr int64_t kColorIter = 0xFF76B900LL;
constexpr int64_t kColorForward = 0xFF4A90D9LL;
constexpr int64_t kColorBackward = 0xFFE67E22LL;
constexpr int64_t kColorOptimizer = 0xFF9B59B6LL;

class Simulation {
 public:
  Simulation(ReportWriter& w, const WorkloadOptions& o)
      : w_(w), o_(o), rng_(o.seed, 1), host_(w, rng_, o.slow) {}

  WorkloadResult run();

 private:
  struct Names {
    uint32_t forward, backward, optimizer, optStep, zeroGrad, pcclAllReduce, pcclInit, collate,
        warmup, buildModel, gradSync, checkpoint, saveCheckpoint;
    uint32_t stage[5];  // GPUWait, SendWait, RecvWait, RecvGPUWait, RecvFlushWait
  };
  enum Stage { kGpuWait, kSendWait, kRecvWait, kRecvGpuWait, kRecvFlushWait };

  void describeMachine();
  void setup(Process& p);
  void beginIteration(Process& p, int64_t it);
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
  void startEndRange(int64_t start, int64_t end, int64_t rangeId, const char* text, int64_t textId,
                     int64_t tid, int64_t endTid);

  ReportWriter& w_;
  WorkloadOptions o_;
  Rng rng_;
  Host host_;
  Names names_{};
  std::vector<std::unique_ptr<Device>> devices_;
  Process procs_[kProcesses];
  DevicePrograms programs_[kDevicesPerProcess];
  char commHash_[24] = {};
  char text_[512] = {};
};

void Simulation::describeMachine() {
  for (int i = 0; i < kCopyKindCount; ++i) {
    w_.memcpyKind(kCopyKinds[i].id, kCopyKinds[i].name, kCopyKinds[i].label);
  }
  for (int i = 0; i < kMemKindCount; ++i) {
    w_.memKind(kMemKinds[i].id, kMemKinds[i].name, kMemKinds[i].label);
  }
  for (int i = 0; i < kMetricKindCount; ++i)
    w_.metricInfo(i + 1, kMetrics[i].name, kMetrics[i].unit);
  for (int c = 0; c < kChainKindCount; ++c) {
    const ChainDef& chain = kChains[c];
    for (int32_t depth = 0; depth < chain.depth; ++depth) {
      const FrameDef& f = chain.frames[depth];
      const uint32_t symbol = w_.intern(f.symbol);  // interned in a fixed order
      const uint32_t module = w_.intern(f.module);
      w_.callchainFrame(c + 1, depth, symbol, module, f.unresolved);
    }
  }
  for (int i = 0; i < kProcesses * kDevicesPerProcess; ++i) {
    DeviceInfoRow d;
    d.id = i;
    d.name = kPpu.name;
    d.busLocation = kBusLocations[i];
    d.hostName = kHostName;
    unsigned long long uuid[5];  // drawn in order (argument evaluation order is unspecified)
    uuid[0] = rng_.next() & 0xFFFFFFFFull;
    uuid[1] = rng_.next() & 0xFFFFull;
    uuid[2] = 0x4000 | (rng_.next() & 0x0FFFull);
    uuid[3] = 0x8000 | (rng_.next() & 0x3FFFull);
    uuid[4] = rng_.next() & 0xFFFFFFFFFFFFull;
    std::snprintf(text_, sizeof text_, "PPU-%08llx-%04llx-%04llx-%04llx-%012llx", uuid[0], uuid[1],
                  uuid[2], uuid[3], uuid[4]);
    d.uuid = text_;
    d.computeMajor = kPpu.computeMajor;
    d.computeMinor = kPpu.computeMinor;
    d.ceCount = kPpu.ceCount;
    d.cuCount = kPpu.cuCount;
    d.totalMemory = kPpu.totalMemory;
    d.cuClock = kPpu.cuClock;
    d.memoryClock = kPpu.memoryClock;
    d.peakFlopsFp32 = kPpu.peakFlopsFp32;
    d.peakFlopsFp16 = kPpu.peakFlopsFp16;
    d.peakFlopsBf16 = kPpu.peakFlopsBf16;
    d.peakFlopsFp8 = kPpu.peakFlopsFp8;
    d.peakFlopsInt8 = kPpu.peakFlopsInt8;
    d.hbmBandwidth = kPpu.hbmBandwidth;
    w_.device(d);
    devices_.push_back(std::make_unique<Device>(i, i % kDevicesPerProcess, o_.seed));
  }

  const int64_t pid0 = 20000 + rng_.range(0, 3000000);
  const int64_t start0 = 150 * kMs + rng_.range(0, 40 * kMs);
  const uint32_t mainName = w_.intern("python3");
  const uint32_t loaderName = w_.intern("pt_data_pin");
  for (int i = 0; i < kProcesses; ++i) {
    Process& p = procs_[i];
    p.index = i;
    p.pid = pid0 + i * rng_.range(40, 400);
    p.globalPid = p.pid << 24;
    p.mainTid = p.globalPid + p.pid;
    p.loaderTid = p.globalPid + p.pid + rng_.range(20, 40);
    for (int l = 0; l < kDevicesPerProcess; ++l) {
      p.proxyTid[l] = p.globalPid + p.pid + 60 + l;
      p.dev[l] = devices_[i * kDevicesPerProcess + l].get();
    }
    p.t = start0 + i * rng_.range(300 * kUs, 900 * kUs);
    p.nextOpId = 100000 + rng_.range(0, 900000);
    p.nextCorr = 1;
    w_.process(p.globalPid, p.pid, "python3");
    w_.threadName(p.mainTid, mainName, 0);
    w_.threadName(p.loaderTid, loaderName, 0);
    for (int l = 0; l < kDevicesPerProcess; ++l) {
      std::snprintf(text_, sizeof text_, "pccl_proxy_%d", l);
      w_.threadName(p.proxyTid[l], w_.intern(text_), 0);
    }
  }
  std::snprintf(commHash_, sizeof commHash_, "%016llx",
                static_cast<unsigned long long>(rng_.next()));
}

void Simulation::startEndRange(int64_t start, int64_t end, int64_t rangeId, const char* text,
                               int64_t textId, int64_t tid, int64_t endTid) {
  HgtxRow r;
  r.start = start;
  r.end = end;
  r.eventType = 60;
  r.rangeId = rangeId;
  r.text = text;
  r.textId = textId;
  r.globalTid = tid;
  r.endGlobalTid = endTid;
  w_.hgtx(r);
}

void Simulation::setup(Process& p) {
  for (Device* d : p.dev) d->startMetrics(p.t - 2 * kMs);
  // Open the checkpoint shard.
  const int64_t o0 = p.t;
  host_.osrt(p.mainTid, kOOpen64, o0, o0 + ns(rng_.uniform(8000, 25000)), 3, 0);
  const int64_t o1 = o0 + 40 * kUs;
  host_.osrt(p.mainTid, kOMmap64, o1, o1 + ns(rng_.uniform(20000, 60000)), 0x7f2a3c000000LL, 0);
  const int64_t o2 = o1 + 120 * kUs;
  host_.osrt(p.mainTid, kOClose, o2, o2 + ns(rng_.uniform(2000, 6000)), 0, 0);
  p.t = o2 + 50 * kUs;

  host_.api(p, kAHgGetDeviceCount, ns(rng_.uniform(40e6, 60e6)));  // driver initialisation
  HgtxRow domain;
  domain.start = p.t;
  domain.end = kNull;
  domain.eventType = 75;
  domain.text = "PCCL";
  domain.globalTid = p.mainTid;
  domain.domainId = kPcclDomain;
  w_.hgtx(domain);
  p.t += host_.opGap();

  for (int l = 0; l < kDevicesPerProcess; ++l) {
    host_.api(p, kAHgSetDevice, ns(rng_.uniform(2000, 5000)));
    for (int s = 0; s < 3; ++s)
      host_.api(p, kAHgStreamCreateWithPriority, ns(rng_.uniform(4000, 12000)));
    p.t += host_.opGap();
  }
  for (Device* d : p.dev) {  // first kernel: reserves local memory on the device
    host_.push(p, names_.warmup);
    p.t += host_.launchGap();
    const int64_t apiStart = p.t;
    const int64_t corr = host_.launch(p, *d, d->compute, kKAddTest, 64, 1, 1, 4500.0);
    host_.memoryEvent(p, *d, apiStart + (p.t - apiStart) / 3, d->reserve(8 * kMiB), 8 * kMiB,
                      kMemDevice, 0, corr, chainId(kCLaunchLocalMemory));
    p.t += host_.popGap();
    host_.pop(p);
  }
  for (Device* d : p.dev) {  // weights, staged through a temporary buffer
    p.t += host_.opGap();
    host_.push(p, names_.buildModel);
    p.t += host_.nestGap();
    const int64_t staging = host_.allocate(p, *d, kAHgMalloc, 64 * kMiB, kCWeights);
    for (int i = 0; i < 4; ++i) {
      p.t += host_.launchGap();
      host_.allocate(p, *d, kAHgMalloc, 160 * kMiB, kCWeights);
      p.t += host_.launchGap();
      host_.memcpyAsync(p, *d, d->copy, kAHgMemcpyHtoDAsync, 160 * kMiB, kCopyHtoD, kMemPageable,
                        kMemDevice, kNull, d->id, true);
    }
    p.t += host_.launchGap();
    host_.release(p, *d, kAHgFree, staging, 64 * kMiB);
    for (int b = 0; b < kBuckets; ++b) {
      p.t += host_.launchGap();
      d->bucketAddr[b] = host_.allocate(p, *d, kAHgMalloc, kBucketElements[b] * 2, kCGradBuckets);
    }
    p.t += host_.launchGap();
    d->gradNormAddr = host_.allocate(p, *d, kAHgMalloc, 2 * kMiB, kCGradBuckets);
    d->workspaceAddr = d->reserve(32 * kMiB);
    p.t += host_.popGap();
    host_.pop(p);
  }
  p.t += host_.opGap();
  host_.allocate(p, *p.dev[0], kAHgMallocManaged, 64 * kMiB, kCManaged, kMemManaged);
  p.t += host_.opGap();
  // The caching allocator first tries one huge segment, which fails.
  host_.api(p, kAHgMalloc, ns(rng_.uniform(20000, 40000)), 2, chainId(kCActivations));

  for (int l = 0; l < kDevicesPerProcess; ++l) {
    Device& d = *p.dev[l];
    const int rank = p.index * kDevicesPerProcess + l;
    p.t += host_.opGap();
    host_.push(p, names_.pcclInit, kPcclDomain);
    p.t += host_.nestGap();
    host_.allocate(p, d, kAHgMalloc, 64 * kMiB, kCPcclBuffers);
    p.t += host_.launchGap();
    host_.allocate(p, d, kAHgMalloc, 8 * kMiB, kCPcclBuffers);
    p.t += host_.launchGap();
    std::snprintf(text_, sizeof text_, "pcclCommInitRank: rank %d nranks 4 busId %s", rank,
                  kBusLocations[d.id]);
    HgtxRow mark;
    mark.start = p.t;
    mark.end = kNull;
    mark.eventType = 34;
    mark.text = text_;
    mark.globalTid = p.mainTid;
    mark.domainId = kPcclDomain;
    w_.hgtx(mark);
    p.t += ns(rng_.uniform(2e6, 5e6));  // rendezvous with the other ranks
    p.proxyT[l] = p.t;
    p.t += host_.popGap();
    host_.pop(p);
    for (int b = 0; b <= kBuckets; ++b) {
      const bool norm = b == kBuckets;
      const int64_t elements = norm ? 1 : kBucketElements[b];
      const int64_t addr = norm ? d.gradNormAddr : d.bucketAddr[b];
      std::snprintf(text_, sizeof text_,
                    "AllReduce, p:0, c:%lld, d:%d, r:%d, w:4, h:%s, t:1, b:0x%llx/0x%llx",
                    static_cast<long long>(elements), norm ? 7 : 9, rank, commHash_,
                    static_cast<unsigned long long>(addr),
                    static_cast<unsigned long long>(addr + elements * (norm ? 4 : 2)));
      d.allReduceText[b] = w_.intern(text_);
    }
  }
  for (Device* d : p.dev) {  // tie the LM head to the embedding
    p.t += host_.opGap();
    host_.pushAten(p, "aten::copy_", "[[32000, 2048], [32000, 2048], []]", 2);
    p.t += host_.launchGap();
    host_.memcpyAsync(p, *d, d->compute, kAHgMemcpyAsync, 32000LL * 2048 * 2, kCopyDtoD, kMemDevice,
                      kMemDevice, d->id, d->id, false);
    p.t += host_.popGap();
    host_.pop(p);
  }
  for (Device* d : p.dev) synchronize(p, *d, kAHgDeviceSynchronize);
  p.loaderT = p.t - 20 * kMs;
  loaderPrefetch(p, 0, p.t - 6 * kMs);
  for (Device* d : p.dev) d->flushMetrics(w_, p.t);
}

void Simulation::synchronize(Process& p, Device& d, ApiKind api) {
  p.t += host_.launchGap();
  const int64_t apiStart = p.t;
  const int64_t minDur = ns(rng_.uniform(2500, 6000));
  const int64_t tail = ns(rng_.uniform(3000, 9000));
  const int64_t busyUntil = std::max({d.compute.freeAt, d.copy.freeAt, d.comm.freeAt});
  const int64_t end = std::max(apiStart + minDur, busyUntil + tail);
  host_.apiRow(p, api, apiStart, end, p.nextCorr++);
  if (end - apiStart > 20 * kUs)
    host_.osrt(p.mainTid, kOIoctl, apiStart + 2 * kUs, end - 2 * kUs, 0, 0);
  p.t = end;
}

void Simulation::loaderPrefetch(Process& p, int64_t batch, int64_t wake) {
  const int64_t readDur[2] = {ns(rng_.uniform(150e3, 420e3)), ns(rng_.uniform(150e3, 420e3))};
  const int64_t collate = ns(rng_.uniform(200e3, 450e3));
  const int64_t pin = ns(rng_.uniform(250e3, 500e3));
  const int64_t lock = ns(rng_.uniform(1000, 4000));
  int64_t t = p.loaderT;
  if (wake > t + kUs) {
    host_.osrt(p.loaderTid, kOPthreadCondWait, t, wake, 0, 0);
    t = wake;
  }
  t += 4 * kUs;
  for (int64_t r : readDur) {
    host_.osrt(p.loaderTid, kOFread, t, t + r, 1, 0);
    host_.osrt(p.loaderTid, kORead, t + 600, t + r - 400, 1 << 20, 1, chainId(kCDataRead));
    t += r + 3 * kUs;
  }
  HgtxRow collateRow;
  collateRow.start = t;
  collateRow.end = t + collate;
  collateRow.eventType = 59;
  collateRow.globalTid = p.loaderTid;
  collateRow.textId = names_.collate;
  w_.hgtx(collateRow);
  t += collate + 2 * kUs;
  p.pinStart = t;
  p.pinRangeId = p.nextRangeId++;
  p.pinBatch = batch;
  t += pin;
  host_.osrt(p.loaderTid, kOPthreadMutexLock, t, t + lock, 0, 0);
  p.loaderT = t + lock;
}

void Simulation::beginIteration(Process& p, int64_t it) {
  p.t += ns(rng_.uniform(40e3, 120e3));  // Python loop overhead
  std::snprintf(text_, sizeof text_, "[prof_range]: iter %lld", static_cast<long long>(it));
  host_.pushText(p, text_, kColorIter);
  if (p.pinBatch == it) {  // take the pinned batch from the loader thread
    std::snprintf(text_, sizeof text_, "pin_memory: batch %lld", static_cast<long long>(it));
    startEndRange(p.pinStart, p.t, p.pinRangeId, text_, kNull, p.loaderTid, p.mainTid);
  }
  if (it + 1 < o_.iterations) loaderPrefetch(p, it + 1, p.t + 100 * kUs);

  for (Device* d : p.dev) {
    const double u = rng_.uniform();
    d->moeLoad =
        o_.slow ? 1.0 + 0.32 * (u - 0.5) + (d->id == 3 ? 0.06 : 0.0) : 1.0 + 0.06 * (u - 0.5);
    p.t += host_.opGap();
    host_.pushAten(p, "aten::to", "[[1, 512], [], [], [], [], []]", 1);
    for (int i = 0; i < 2; ++i) {  // input ids and labels
      p.t += host_.launchGap();
      host_.memcpyAsync(p, *d, d->copy, kAHgMemcpyHtoDAsync, kTokens * 8, kCopyHtoD, kMemPinned,
                        kMemDevice, kNull, d->id, false);
    }
    p.t += host_.popGap();
    host_.pop(p);
    p.t += host_.launchGap();
    host_.api(p, kAHgEventRecord, ns(rng_.uniform(1500, 3000)));
    host_.api(p, kAHgStreamWaitEvent, ns(rng_.uniform(1000, 2500)));
    d->compute.freeAt = std::max(d->compute.freeAt, d->copy.freeAt);
  }
}

void Simulation::forward(Process& p, int64_t it) {
  p.t += host_.opGap();
  host_.push(p, names_.forward, kNull, kColorForward);
  if (it == 0) {  // the caching allocator grows while the first forward runs
    for (Device* d : p.dev) {
      for (int i = 0; i < 3; ++i) {
        p.t += host_.launchGap();
        host_.allocate(p, *d, kAHgMalloc, 256 * kMiB, kCActivations);
      }
    }
  }
  for (int l = 0; l < kDevicesPerProcess; ++l) host_.run(p, *p.dev[l], programs_[l].embedFwd);
  for (int layer = 0; layer < kLayers; ++layer) {
    for (int l = 0; l < kDevicesPerProcess; ++l) host_.run(p, *p.dev[l], programs_[l].layerFwd);
  }
  for (int l = 0; l < kDevicesPerProcess; ++l) {
    host_.run(p, *p.dev[l], programs_[l].headFwd);
    p.t += host_.launchGap();  // the loss history kept on the device (never freed)
    host_.allocate(p, *p.dev[l], kAHgMalloc, 2 * kMiB, kCLossHistory);
  }
  p.t += host_.popGap();
  host_.pop(p);
}

void Simulation::beginBackward(Process& p) {
  p.t += host_.opGap();
  host_.push(p, names_.backward, kNull, kColorBackward);
  p.gradSyncStart = p.t;
  p.gradSyncRangeId = p.nextRangeId++;
  for (Device* d : p.dev) {
    p.t += host_.launchGap();
    host_.allocate(p, *d, kAHgMallocAsync, 32 * kMiB, kCAcblasWorkspace, kMemDevice,
                   d->workspaceAddr);
  }
  for (int l = 0; l < kDevicesPerProcess; ++l) host_.run(p, *p.dev[l], programs_[l].headBwd);
}

void Simulation::backwardLayer(Process& p, int layer) {
  for (int l = 0; l < kDevicesPerProcess; ++l) host_.run(p, *p.dev[l], programs_[l].layerBwd);
  if (layer == 0) {
    for (int l = 0; l < kDevicesPerProcess; ++l) host_.run(p, *p.dev[l], programs_[l].embedBwd);
  }
}

void Simulation::endBackward(Process& p) {
  for (Device* d : p.dev) {
    p.t += host_.launchGap();
    host_.release(p, *d, kAHgFreeAsync, d->workspaceAddr, 32 * kMiB);
  }
  p.t += host_.popGap();
  host_.pop(p);
}

void Simulation::beginOptimizer(Process& p) {
  p.t += host_.opGap();
  startEndRange(p.gradSyncStart, p.t, p.gradSyncRangeId, nullptr, names_.gradSync, p.mainTid,
                kNull);
  host_.push(p, names_.optimizer, kNull, kColorOptimizer);
  for (int l = 0; l < kDevicesPerProcess; ++l) host_.run(p, *p.dev[l], programs_[l].gradNorm);
}

void Simulation::collective(int bucket) {
  struct Pending {
    Process* p;
    int local;
    int64_t corr, arrival;
  };
  Pending pending[kProcesses * kDevicesPerProcess];
  int n = 0;
  const bool norm = bucket == kBuckets;
  const KernelKind kind = norm ? kKPcclRingFloat : kKPcclTwoShot;
  for (Process& p : procs_) {
    for (int l = 0; l < kDevicesPerProcess; ++l) {
      Device& d = *p.dev[l];
      p.t += host_.opGap();
      host_.push(p, d.allReduceText[bucket]);
      p.t += host_.nestGap();
      host_.push(p, names_.pcclAllReduce, kPcclDomain);
      p.t += host_.launchGap();
      const int64_t event = d.compute.freeAt;  // the gradients are ready here
      host_.api(p, kAHgEventRecord, ns(rng_.uniform(1500, 3000)));
      host_.api(p, kAHgStreamWaitEvent, ns(rng_.uniform(1000, 2500)));
      d.comm.freeAt = std::max(d.comm.freeAt, event);
      p.t += host_.launchGap();
      const int64_t dur = host_.launchApiDur(d, kind, kAHggcLaunchKernel);
      const int64_t latency = ns(rng_.uniform(1500, 3500));
      const int64_t queueGap = ns(rng_.uniform(800, 2000));
      const int64_t corr = p.nextCorr++;
      host_.apiRow(p, kAHggcLaunchKernel, p.t, p.t + dur, corr);
      const int64_t arrival = std::max(p.t + dur * 6 / 10 + latency, d.comm.freeAt + queueGap);
      pending[n++] = {&p, l, corr, arrival};
      p.t += dur;
      p.t += host_.popGap();
      host_.pop(p);
      p.t += host_.popGap();
      host_.pop(p);
    }
  }
  int64_t go = 0;  // the last rank arrives: the data starts to move
  for (int i = 0; i < n; ++i) go = std::max(go, pending[i].arrival);
  const double bytes = norm ? 4.0 : static_cast<double>(kBucketElements[bucket]) * 2.0;
  double transfer = (9000.0 + 1.5 * bytes / 150e9 * 1e9) * rng_.jitter(0.02);
  if (o_.slow) transfer *= 1.06;
  for (int i = 0; i < n; ++i) {
    Process& p = *pending[i].p;
    Device& d = *p.dev[pending[i].local];
    const int64_t end = go + ns(transfer) + rng_.range(0, 2500);
    host_.kernelRow(p, d, d.comm, kind, norm ? 2 : 16, 1, 1, pending[i].arrival, end,
                    pending[i].corr);
    d.comm.freeAt = end;
    proxyStages(p, pending[i].local, pending[i].arrival, go, end);
  }
}

void Simulation::proxyStages(Process& p, int local, int64_t arrival, int64_t go, int64_t end) {
  const int64_t tid = p.proxyTid[local];
  const int32_t dev = p.dev[local]->id;
  const int64_t pollEnd = arrival - ns(rng_.uniform(300, 900));
  if (pollEnd > p.proxyT[local] + 2 * kUs) host_.osrt(tid, kOPoll, p.proxyT[local], pollEnd, 1, 0);
  const int64_t mid = go + (end - go) / 2;
  int64_t last = arrival;
  for (int c = 0; c < 2; ++c) {
    const int64_t gpuWait = ns(rng_.uniform(1500, 3500));
    const int64_t t0 = arrival + c * 150;
    const int64_t t1 = t0 + gpuWait;
    const int64_t t2 = std::max(mid, t1 + 200);
    const int64_t t3 = t2 + 1500;
    const int64_t t4 = std::max(end - 500, t3 + 200);
    w_.pcclStage(t0, t1, tid, dev, c, "TX", names_.stage[kGpuWait]);
    w_.pcclStage(t1, t2, tid, dev, c, "TX", names_.stage[kSendWait]);
    w_.pcclStage(t2, t3, tid, dev, c, "TX", names_.stage[kGpuWait]);
    w_.pcclStage(t3, t4, tid, dev, c, "TX", names_.stage[kSendWait]);
    const int64_t r0 = t0;
    const int64_t r1 = std::max(go + 1500, r0 + 200);
    const int64_t r2 = std::max(mid, r1 + 200);
    const int64_t r3 = r2 + 1000;
    const int64_t r4 = std::max(end - 300, r3 + 200);
    w_.pcclStage(r0, r1, tid, dev, c, "RX", names_.stage[kRecvWait]);
    w_.pcclStage(r1, r2, tid, dev, c, "RX", names_.stage[kRecvGpuWait]);
    w_.pcclStage(r2, r3, tid, dev, c, "RX", names_.stage[kRecvWait]);
    w_.pcclStage(r3, r4, tid, dev, c, "RX", names_.stage[kRecvFlushWait]);
    last = std::max({last, t4, r4});
  }
  p.proxyT[local] = last + ns(rng_.uniform(2000, 6000));
}

void Simulation::captureGraph(Process& p, Device& d) {
  host_.api(p, kAHgStreamBeginCapture, ns(rng_.uniform(3000, 8000)));
  const int64_t captured = p.nextGraphId++;
  int64_t nodes[kGraphNodes];
  for (int i = 0; i < kGraphNodes; ++i) {
    const GraphNodeSpec& spec = kOptimizerGraph[i];
    p.t += host_.nestGap();
    host_.pushAten(p, spec.aten, spec.sizes, spec.nInputs);
    p.t += host_.launchGap();
    const int64_t start = p.t;
    host_.api(p, kAHgLaunchKernel, host_.launchApiDur(d, spec.kernel, kAHgLaunchKernel));
    nodes[i] = p.nextGraphNodeId++;
    w_.graphNode(
        {start, p.t, p.mainTid, host_.apiName[kAHgLaunchKernel], nodes[i], kNull, captured});
    p.t += host_.popGap();
    host_.pop(p);
  }
  p.t += host_.launchGap();
  host_.api(p, kAHgStreamEndCapture, ns(rng_.uniform(4000, 10000)));
  p.t += host_.launchGap();
  d.execGraphId = p.nextGraphId++;
  const int64_t start = p.t;
  const int64_t dur = ns(rng_.uniform(120e3, 260e3));
  host_.api(p, kAHgGraphInstantiate, dur);
  for (int i = 0; i < kGraphNodes; ++i) {
    d.execNodeIds[i] = p.nextGraphNodeId++;
    const int64_t s = start + 10 * kUs + i * (dur - 20 * kUs) / kGraphNodes;
    w_.graphNode({s, s + 5 * kUs, p.mainTid, host_.apiName[kAHgGraphInstantiate], d.execNodeIds[i],
                  nodes[i], d.execGraphId});
  }
  d.graphReady = true;
}

void Simulation::graphLaunch(Process& p, Device& d) {
  const int64_t dur = ns(rng_.uniform(8000, 16000));
  const int64_t latency = ns(rng_.uniform(1500, 3500));
  const int64_t queueGap = ns(rng_.uniform(800, 2000));
  const int64_t corr = p.nextCorr++;
  host_.apiRow(p, kAHgGraphLaunch, p.t, p.t + dur, corr);
  int64_t start = std::max(p.t + dur * 6 / 10 + latency, d.compute.freeAt + queueGap);
  for (int i = 0; i < kGraphNodes; ++i) {
    const GraphNodeSpec& spec = kOptimizerGraph[i];
    const int64_t end = start + ns(host_.kernelNs(spec.kernel, spec.baseNs, false, d));
    host_.kernelRow(p, d, d.compute, spec.kernel, spec.gridX, 1, 1, start, end, corr,
                    d.execNodeIds[i], d.execGraphId);
    d.compute.freeAt = end;
    start = end + ns(rng_.uniform(900, 2000));
  }
  p.t += dur;
}

void Simulation::finishIteration(Process& p, int64_t it) {
  for (Device* d : p.dev) {
    p.t += host_.opGap();
    host_.push(p, names_.optStep);
    p.t += host_.launchGap();
    host_.api(p, kAHgStreamWaitEvent, ns(rng_.uniform(1000, 2500)));
    d->compute.freeAt = std::max(d->compute.freeAt, d->comm.freeAt);
    if (!d->graphReady) {  // first step: optimizer state, then capture the step as a graph
      for (int i = 0; i < 2; ++i) {
        p.t += host_.launchGap();
        host_.allocate(p, *d, kAHgMalloc, 512 * kMiB, kCOptimizerState);
      }
      captureGraph(p, *d);
    }
    p.t += host_.launchGap();
    graphLaunch(p, *d);
    p.t += host_.popGap();
    host_.pop(p);
  }
  for (Device* d : p.dev) {
    p.t += host_.opGap();
    host_.push(p, names_.zeroGrad);
    for (int b = 0; b < kBuckets; ++b) {
      p.t += host_.launchGap();
      host_.memsetAsync(p, *d, d->compute, kBucketElements[b] * 2);
    }
    p.t += host_.popGap();
    host_.pop(p);
  }
  {  // share expert load statistics between the two local devices
    Device& d0 = *p.dev[0];
    p.t += host_.opGap();
    host_.pushAten(p, "aten::copy_", "[[128, 2048], [128, 2048], []]", 2);
    p.t += host_.launchGap();
    host_.memcpyAsync(p, d0, d0.compute, kAHgMemcpyPeerAsync, kExperts * 2048 * 4, kCopyPtoP,
                      kMemDevice, kMemDevice, d0.id, p.dev[1]->id, false);
    p.t += host_.popGap();
    host_.pop(p);
  }
  for (int l = 0; l < kDevicesPerProcess; ++l) {  // loss.item()
    Device& d = *p.dev[l];
    p.t += host_.opGap();
    host_.pushAten(p, "aten::item", "[[]]", 1);
    p.t += host_.launchGap();
    host_.memcpyAsync(p, d, d.compute, kAHgMemcpyDtoHAsync, 4, kCopyDtoH, kMemDevice, kMemPinned,
                      d.id, kNull, false);
    if (l == 1) {  // poll an event a few times before blocking
      for (int i = 0; i < 3; ++i) {
        p.t += host_.launchGap();
        const int64_t dur = ns(rng_.uniform(1000, 2500));
        const int64_t sleep = ns(rng_.uniform(40e3, 90e3));
        host_.api(p, kAHgEventQuery, dur, d.compute.freeAt > p.t ? 600 : 0);
        host_.osrt(p.mainTid, kONanosleep, p.t + 500, p.t + 500 + sleep, 0, 0);
        p.t += sleep + 1000;
      }
    }
    synchronize(p, d);
    p.t += host_.popGap();
    host_.pop(p);
  }
  p.t += host_.popGap();
  host_.pop(p);  // optimizer

  const double u = rng_.uniform();
  const double loss = 2.1 + 8.3 / (1.0 + 0.05 * static_cast<double>(it)) + 0.04 * (u - 0.5);
  const double lr = 3e-4 * std::min(1.0, static_cast<double>(it + 1) / 100.0);
  std::snprintf(text_, sizeof text_, "step %lld: loss=%.4f lr=%.2e", static_cast<long long>(it),
                loss, lr);
  p.t += host_.opGap();
  HgtxRow mark;
  mark.start = p.t;
  mark.end = kNull;
  mark.eventType = 34;
  mark.text = text_;
  mark.globalTid = p.mainTid;
  w_.hgtx(mark);
  const int64_t logDur = ns(rng_.uniform(8000, 20000));
  p.t += 2 * kUs;
  host_.osrt(p.mainTid, kOFwrite, p.t, p.t + logDur, 1, 0);
  host_.osrt(p.mainTid, kOWrite, p.t + 1500, p.t + logDur - 1500, 40, 1);
  p.t += logDur;
  p.t += host_.popGap();
  host_.pop(p);  // iteration
  if (it % kCheckpointEvery == 1) saveCheckpoint(p);
  for (Device* d : p.dev) d->flushMetrics(w_, p.t);
}

// A blocking torch.save of the rank's shard: 8 fwrite calls of 70-90 ms each
// (each one write below it); no PPU work is launched meanwhile, so every
// device of the process idles for about 0.65 s (the gaps ppu_gaps finds).
void Simulation::saveCheckpoint(Process& p) {
  p.t += host_.opGap();
  host_.push(p, names_.saveCheckpoint);
  for (int chunk = 0; chunk < 8; ++chunk) {
    const int64_t dur = ns(rng_.uniform(70e6, 90e6));
    p.t += 3 * kUs;
    host_.osrt(p.mainTid, kOFwrite, p.t, p.t + dur, 1, 0);
    host_.osrt(p.mainTid, kOWrite, p.t + 2000, p.t + dur - 2000, 64 * 1024 * 1024, 1);
    p.t += dur;
  }
  p.t += host_.popGap();
  host_.pop(p);
}

WorkloadResult Simulation::run() {
  names_.forward = w_.intern("forward");
  names_.backward = w_.intern("backward");
  names_.optimizer = w_.intern("optimizer");
  names_.optStep = w_.intern("Optimizer.step#AdamW.step");
  names_.zeroGrad = w_.intern("Optimizer.zero_grad#AdamW.zero_grad");
  names_.pcclAllReduce = w_.intern("pcclAllReduce");
  names_.pcclInit = w_.intern("pcclCommInitRank");
  names_.collate = w_.intern("collate_fn");
  names_.warmup = w_.intern("warmup");
  names_.buildModel = w_.intern("build_model");
  names_.gradSync = w_.intern("grad_sync");
  names_.checkpoint = w_.intern("async_checkpoint");
  names_.saveCheckpoint = w_.intern("save_checkpoint");
  const char* const stages[5] = {"GPUWait", "SendWait", "RecvWait", "RecvGPUWait", "RecvFlushWait"};
  for (int i = 0; i < 5; ++i) names_.stage[i] = w_.intern(stages[i]);
  for (int l = 0; l < kDevicesPerProcess; ++l) buildPrograms(w_, l, programs_[l]);

  describeMachine();
  for (Process& p : procs_) setup(p);

  for (int64_t it = 0; it < o_.iterations; ++it) {
    for (Process& p : procs_) {
      beginIteration(p, it);
      forward(p, it);
      beginBackward(p);
    }
    for (int layer = kLayers - 1; layer >= 0; --layer) {
      for (Process& p : procs_) backwardLayer(p, layer);
      if (layer % 2 == 0) collective((kLayers - 1 - layer) / 2);
    }
    for (Process& p : procs_) {
      endBackward(p);
      beginOptimizer(p);
    }
    collective(kBuckets);
    for (Process& p : procs_) finishIteration(p, it);
  }

  // An asynchronous checkpoint is still being written when the capture stops.
  Process& last = procs_[0];
  last.t += host_.opGap();
  startEndRange(last.t, kNull, last.nextRangeId++, nullptr, names_.checkpoint, last.mainTid, kNull);

  WorkloadResult result;
  for (const Process& p : procs_) {
    result.captureEnd = std::max({result.captureEnd, p.t, p.loaderT, p.proxyT[0], p.proxyT[1]});
  }
  for (const auto& d : devices_) {
    result.captureEnd =
        std::max({result.captureEnd, d->compute.freeAt, d->comm.freeAt, d->copy.freeAt});
  }
  result.captureEnd += kMs;
  return result;
}

}  // namespace

WorkloadResult runWorkload(ReportWriter& w, const WorkloadOptions& options) {
  Simulation sim(w, options);
  return sim.run();
}

}  // namespace asys::gen
