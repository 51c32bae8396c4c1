// The simulated run, step by step. The processes advance in lock step
// between collectives: everything up to an AllReduce is simulated for each
// process, then the collective resolves (the kernels on all PPUs end
// together once the last rank has arrived), then the next segment runs.
// This file is the demo's layout and the steps both layouts share; a job of
// ranks lays out its nodes in ranks.cc.
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
#include "core/gen/simulation.h"

namespace asys::gen {
namespace {

constexpr int kProcesses = 2;  // the demo's
constexpr int64_t kColorIter = 0xFF76B900LL;
constexpr int64_t kColorForward = 0xFF4A90D9LL;
constexpr int64_t kColorBackward = 0xFFE67E22LL;
constexpr int64_t kColorOptimizer = 0xFF9B59B6LL;

}  // namespace

Simulation::Simulation(ReportWriter& w, const WorkloadOptions& o)
    : o_(o), ranked_(false), devicesPerProcess_(kDevicesPerProcess), world_(kProcesses * kDevicesPerProcess),
      rng_(o.seed, 1) {
  sinks_.resize(1);
  sinks_[0].host = std::make_unique<Host>(w, rng_, o.slow);  // draws from the demo's one sequence
  procs_.resize(kProcesses);
}

void Simulation::internNames(Sink& s) {
  ReportWriter& w = s.host->w;
  Names& n = s.names;
  n.forward = w.intern("forward");
  n.backward = w.intern("backward");
  n.optimizer = w.intern("optimizer");
  n.optStep = w.intern("Optimizer.step#AdamW.step");
  n.zeroGrad = w.intern("Optimizer.zero_grad#AdamW.zero_grad");
  n.pcclAllReduce = w.intern("pcclAllReduce");
  n.pcclInit = w.intern("pcclCommInitRank");
  n.collate = w.intern("collate_fn");
  n.warmup = w.intern("warmup");
  n.buildModel = w.intern("build_model");
  n.gradSync = w.intern("grad_sync");
  n.checkpoint = w.intern("async_checkpoint");
  n.saveCheckpoint = w.intern("save_checkpoint");
  const char* const stages[5] = {"GPUWait", "SendWait", "RecvWait", "RecvGPUWait", "RecvFlushWait"};
  for (int i = 0; i < 5; ++i) n.stage[i] = w.intern(stages[i]);
  for (int l = 0; l < devicesPerProcess_; ++l) buildPrograms(w, l, s.programs[l]);
}

// The enum, metric and call-chain tables every report carries.
void Simulation::describeTables(ReportWriter& w) {
  for (int i = 0; i < kCopyKindCount; ++i) {
    w.memcpyKind(kCopyKinds[i].id, kCopyKinds[i].name, kCopyKinds[i].label);
  }
  for (int i = 0; i < kMemKindCount; ++i) {
    w.memKind(kMemKinds[i].id, kMemKinds[i].name, kMemKinds[i].label);
  }
  for (int i = 0; i < kMetricKindCount; ++i)
    w.metricInfo(i + 1, kMetrics[i].name, kMetrics[i].unit);
  for (int c = 0; c < kChainKindCount; ++c) {
    const ChainDef& chain = kChains[c];
    for (int32_t depth = 0; depth < chain.depth; ++depth) {
      const FrameDef& f = chain.frames[depth];
      const uint32_t symbol = w.intern(f.symbol);  // interned in a fixed order
      const uint32_t module = w.intern(f.module);
      w.callchainFrame(c + 1, depth, symbol, module, f.unresolved);
    }
  }
}

// One TARGET_INFO_PPU row; its uuid is drawn from `rng`.
void Simulation::describeDevice(ReportWriter& w, Rng& rng, int32_t id, const char* bus, const char* hostName) {
  DeviceInfoRow d;
  d.id = id;
  d.name = kPpu.name;
  d.busLocation = bus;
  d.hostName = hostName;
  unsigned long long uuid[5];  // drawn in order (argument evaluation order is unspecified)
  uuid[0] = rng.next() & 0xFFFFFFFFull;
  uuid[1] = rng.next() & 0xFFFFull;
  uuid[2] = 0x4000 | (rng.next() & 0x0FFFull);
  uuid[3] = 0x8000 | (rng.next() & 0x3FFFull);
  uuid[4] = rng.next() & 0xFFFFFFFFFFFFull;
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
  w.device(d);
}

// The process row and its threads' names.
void Simulation::nameThreads(ReportWriter& w, const Process& p) {
  w.process(p.globalPid, p.pid, "python3");
  w.threadName(p.mainTid, w.intern("python3"), 0);
  w.threadName(p.loaderTid, w.intern("pt_data_pin"), 0);
  for (int l = 0; l < p.deviceCount; ++l) {
    std::snprintf(text_, sizeof text_, "pccl_proxy_%d", l);
    w.threadName(p.proxyTid[l], w.intern(text_), 0);
  }
}

void Simulation::describeMachine() {
  describeTables(w(procs_[0]));
  for (int i = 0; i < kProcesses * kDevicesPerProcess; ++i) {
    describeDevice(w(procs_[0]), rng_, i, kBusLocations[i], kHostName);
    devices_.push_back(std::make_unique<Device>(i, i % kDevicesPerProcess, o_.seed));
    devices_.back()->busLocation = kBusLocations[i];
  }

  ReportWriter& out = w(procs_[0]);
  const int64_t pid0 = 20000 + rng_.range(0, 3000000);
  const int64_t start0 = 150 * kMs + rng_.range(0, 40 * kMs);
  // The thread names before the first process row, as the demo always
  // interned them: the order of inserts across tables decides its bytes.
  out.intern("python3");
  out.intern("pt_data_pin");
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
    nameThreads(out, p);
  }
  std::snprintf(commHash_, sizeof commHash_, "%016llx",
                static_cast<unsigned long long>(rng_.next()));
}

void Simulation::startEndRange(ReportWriter& w, int64_t start, int64_t end, int64_t rangeId, const char* text,
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
  w.hgtx(r);
}

void Simulation::setup(Process& p) {
  Host& h = host(p);
  for (Device* d : p.devices()) d->startMetrics(p.t - 2 * kMs);
  // Open the checkpoint shard.
  const int64_t o0 = p.t;
  h.osrt(p.mainTid, kOOpen64, o0, o0 + ns(h.rng.uniform(8000, 25000)), 3, 0);
  const int64_t o1 = o0 + 40 * kUs;
  h.osrt(p.mainTid, kOMmap64, o1, o1 + ns(h.rng.uniform(20000, 60000)), 0x7f2a3c000000LL, 0);
  const int64_t o2 = o1 + 120 * kUs;
  h.osrt(p.mainTid, kOClose, o2, o2 + ns(h.rng.uniform(2000, 6000)), 0, 0);
  p.t = o2 + 50 * kUs;

  h.api(p, kAHgGetDeviceCount, ns(h.rng.uniform(40e6, 60e6)));  // driver initialisation
  HgtxRow domain;
  domain.start = p.t;
  domain.end = kNull;
  domain.eventType = 75;
  domain.text = "PCCL";
  domain.globalTid = p.mainTid;
  domain.domainId = kPcclDomain;
  h.w.hgtx(domain);
  p.t += h.opGap();

  for (int l = 0; l < p.deviceCount; ++l) {
    h.api(p, kAHgSetDevice, ns(h.rng.uniform(2000, 5000)));
    for (int s = 0; s < 3; ++s)
      h.api(p, kAHgStreamCreateWithPriority, ns(h.rng.uniform(4000, 12000)));
    p.t += h.opGap();
  }
  for (Device* d : p.devices()) {  // first kernel: reserves local memory on the device
    h.push(p, names(p).warmup);
    p.t += h.launchGap();
    const int64_t apiStart = p.t;
    const int64_t corr = h.launch(p, *d, d->compute, kKAddTest, 64, 1, 1, 4500.0);
    h.memoryEvent(p, *d, apiStart + (p.t - apiStart) / 3, d->reserve(8 * kMiB), 8 * kMiB,
                      kMemDevice, 0, corr, chainId(kCLaunchLocalMemory));
    p.t += h.popGap();
    h.pop(p);
  }
  for (Device* d : p.devices()) {  // weights, staged through a temporary buffer
    p.t += h.opGap();
    h.push(p, names(p).buildModel);
    p.t += h.nestGap();
    const int64_t staging = h.allocate(p, *d, kAHgMalloc, 64 * kMiB, kCWeights);
    for (int i = 0; i < 4; ++i) {
      p.t += h.launchGap();
      h.allocate(p, *d, kAHgMalloc, 160 * kMiB, kCWeights);
      p.t += h.launchGap();
      h.memcpyAsync(p, *d, d->copy, kAHgMemcpyHtoDAsync, 160 * kMiB, kCopyHtoD, kMemPageable,
                        kMemDevice, kNull, d->id, true);
    }
    p.t += h.launchGap();
    h.release(p, *d, kAHgFree, staging, 64 * kMiB);
    for (int b = 0; b < kBuckets; ++b) {
      p.t += h.launchGap();
      d->bucketAddr[b] = h.allocate(p, *d, kAHgMalloc, kBucketElements[b] * 2, kCGradBuckets);
    }
    p.t += h.launchGap();
    d->gradNormAddr = h.allocate(p, *d, kAHgMalloc, 2 * kMiB, kCGradBuckets);
    d->workspaceAddr = d->reserve(32 * kMiB);
    p.t += h.popGap();
    h.pop(p);
  }
  p.t += h.opGap();
  h.allocate(p, *p.dev[0], kAHgMallocManaged, 64 * kMiB, kCManaged, kMemManaged);
  p.t += h.opGap();
  // The caching allocator first tries one huge segment, which fails.
  h.api(p, kAHgMalloc, ns(h.rng.uniform(20000, 40000)), 2, chainId(kCActivations));

  for (int l = 0; l < p.deviceCount; ++l) {
    Device& d = *p.dev[l];
    const int rank = rankOf(p, l);
    p.t += h.opGap();
    h.push(p, names(p).pcclInit, kPcclDomain);
    p.t += h.nestGap();
    h.allocate(p, d, kAHgMalloc, 64 * kMiB, kCPcclBuffers);
    p.t += h.launchGap();
    h.allocate(p, d, kAHgMalloc, 8 * kMiB, kCPcclBuffers);
    p.t += h.launchGap();
    std::snprintf(text_, sizeof text_, "pcclCommInitRank: rank %d nranks %d busId %s", rank, world_,
                  d.busLocation);
    HgtxRow mark;
    mark.start = p.t;
    mark.end = kNull;
    mark.eventType = 34;
    mark.text = text_;
    mark.globalTid = p.mainTid;
    mark.domainId = kPcclDomain;
    h.w.hgtx(mark);
    p.t += ns(h.rng.uniform(2e6, 5e6));  // rendezvous with the other ranks
    p.proxyT[l] = p.t;
    p.t += h.popGap();
    h.pop(p);
    for (int b = 0; b <= kBuckets; ++b) {
      const bool norm = b == kBuckets;
      const int64_t elements = norm ? 1 : kBucketElements[b];
      const int64_t addr = norm ? d.gradNormAddr : d.bucketAddr[b];
      std::snprintf(text_, sizeof text_,
                    "AllReduce, p:0, c:%lld, d:%d, r:%d, w:%d, h:%s, t:1, b:0x%llx/0x%llx",
                    static_cast<long long>(elements), norm ? 7 : 9, rank, world_, commHash_,
                    static_cast<unsigned long long>(addr),
                    static_cast<unsigned long long>(addr + elements * (norm ? 4 : 2)));
      d.allReduceText[b] = h.w.intern(text_);
    }
  }
  for (Device* d : p.devices()) {  // tie the LM head to the embedding
    p.t += h.opGap();
    h.pushAten(p, "aten::copy_", "[[32000, 2048], [32000, 2048], []]", 2);
    p.t += h.launchGap();
    h.memcpyAsync(p, *d, d->compute, kAHgMemcpyAsync, 32000LL * 2048 * 2, kCopyDtoD, kMemDevice,
                      kMemDevice, d->id, d->id, false);
    p.t += h.popGap();
    h.pop(p);
  }
  for (Device* d : p.devices()) synchronize(p, *d, kAHgDeviceSynchronize);
  p.loaderT = p.t - 20 * kMs;
  loaderPrefetch(p, 0, p.t - 6 * kMs);
  for (Device* d : p.devices()) d->flushMetrics(h.w, p.t);
}

void Simulation::synchronize(Process& p, Device& d, ApiKind api) {
  Host& h = host(p);
  p.t += h.launchGap();
  const int64_t apiStart = p.t;
  const int64_t minDur = ns(h.rng.uniform(2500, 6000));
  const int64_t tail = ns(h.rng.uniform(3000, 9000));
  const int64_t busyUntil = std::max({d.compute.freeAt, d.copy.freeAt, d.comm.freeAt});
  const int64_t end = std::max(apiStart + minDur, busyUntil + tail);
  h.apiRow(p, api, apiStart, end, p.nextCorr++);
  if (end - apiStart > 20 * kUs)
    h.osrt(p.mainTid, kOIoctl, apiStart + 2 * kUs, end - 2 * kUs, 0, 0);
  p.t = end;
}

void Simulation::loaderPrefetch(Process& p, int64_t batch, int64_t wake) {
  Host& h = host(p);
  const int64_t readDur[2] = {ns(h.rng.uniform(150e3, 420e3)), ns(h.rng.uniform(150e3, 420e3))};
  const int64_t collate = ns(h.rng.uniform(200e3, 450e3));
  const int64_t pin = ns(h.rng.uniform(250e3, 500e3));
  const int64_t lock = ns(h.rng.uniform(1000, 4000));
  int64_t t = p.loaderT;
  if (wake > t + kUs) {
    h.osrt(p.loaderTid, kOPthreadCondWait, t, wake, 0, 0);
    t = wake;
  }
  t += 4 * kUs;
  for (int64_t r : readDur) {
    h.osrt(p.loaderTid, kOFread, t, t + r, 1, 0);
    h.osrt(p.loaderTid, kORead, t + 600, t + r - 400, 1 << 20, 1, chainId(kCDataRead));
    t += r + 3 * kUs;
  }
  HgtxRow collateRow;
  collateRow.start = t;
  collateRow.end = t + collate;
  collateRow.eventType = 59;
  collateRow.globalTid = p.loaderTid;
  collateRow.textId = names(p).collate;
  h.w.hgtx(collateRow);
  t += collate + 2 * kUs;
  p.pinStart = t;
  p.pinRangeId = p.nextRangeId++;
  p.pinBatch = batch;
  t += pin;
  h.osrt(p.loaderTid, kOPthreadMutexLock, t, t + lock, 0, 0);
  p.loaderT = t + lock;
}

void Simulation::beginIteration(Process& p, int64_t it) {
  Host& h = host(p);
  p.t += ns(h.rng.uniform(40e3, 120e3));  // Python loop overhead
  std::snprintf(text_, sizeof text_, "[prof_range]: iter %lld", static_cast<long long>(it));
  h.pushText(p, text_, kColorIter);
  if (p.pinBatch == it) {  // take the pinned batch from the loader thread
    std::snprintf(text_, sizeof text_, "pin_memory: batch %lld", static_cast<long long>(it));
    startEndRange(h.w, p.pinStart, p.t, p.pinRangeId, text_, kNull, p.loaderTid, p.mainTid);
  }
  if (it + 1 < o_.iterations) loaderPrefetch(p, it + 1, p.t + 100 * kUs);

  for (Device* d : p.devices()) {
    const double u = h.rng.uniform();
    d->moeLoad = (o_.slow ? 1.0 + 0.32 * (u - 0.5) : 1.0 + 0.06 * (u - 0.5)) + loadBias(p, *d);
    p.t += h.opGap();
    h.pushAten(p, "aten::to", "[[1, 512], [], [], [], [], []]", 1);
    for (int i = 0; i < 2; ++i) {  // input ids and labels
      p.t += h.launchGap();
      h.memcpyAsync(p, *d, d->copy, kAHgMemcpyHtoDAsync, kTokens * 8, kCopyHtoD, kMemPinned,
                        kMemDevice, kNull, d->id, false);
    }
    p.t += h.popGap();
    h.pop(p);
    p.t += h.launchGap();
    h.api(p, kAHgEventRecord, ns(h.rng.uniform(1500, 3000)));
    h.api(p, kAHgStreamWaitEvent, ns(h.rng.uniform(1000, 2500)));
    d->compute.freeAt = std::max(d->compute.freeAt, d->copy.freeAt);
  }
}

// A device's constant share of expert-load skew, on top of each iteration's
// draw: the demo's slow profile makes device 3 a straggler; in a job of
// ranks, ranks 1-3 of every four carry 0.4-1.2% more load (so the desync
// rules find the same ranks late) and the slow profile's straggler is the
// last rank. Adding 0.0 leaves the demo's numbers bit for bit as they were.
double Simulation::loadBias(const Process& p, const Device& d) const {
  if (!ranked_) return o_.slow && d.id == 3 ? 0.06 : 0.0;
  double bias = 0.004 * static_cast<double>(p.index % 4);
  if (o_.slow && p.index == world_ - 1) bias += 0.06;
  return bias;
}

void Simulation::forward(Process& p, int64_t it) {
  Host& h = host(p);
  p.t += h.opGap();
  h.push(p, names(p).forward, kNull, kColorForward);
  if (it == 0) {  // the caching allocator grows while the first forward runs
    for (Device* d : p.devices()) {
      for (int i = 0; i < 3; ++i) {
        p.t += h.launchGap();
        h.allocate(p, *d, kAHgMalloc, 256 * kMiB, kCActivations);
      }
    }
  }
  for (int l = 0; l < p.deviceCount; ++l) h.run(p, *p.dev[l], programs(p, l).embedFwd);
  for (int layer = 0; layer < kLayers; ++layer) {
    for (int l = 0; l < p.deviceCount; ++l) h.run(p, *p.dev[l], programs(p, l).layerFwd);
  }
  for (int l = 0; l < p.deviceCount; ++l) {
    h.run(p, *p.dev[l], programs(p, l).headFwd);
    p.t += h.launchGap();  // the loss history kept on the device (never freed)
    h.allocate(p, *p.dev[l], kAHgMalloc, 2 * kMiB, kCLossHistory);
  }
  p.t += h.popGap();
  h.pop(p);
}

void Simulation::beginBackward(Process& p) {
  Host& h = host(p);
  p.t += h.opGap();
  h.push(p, names(p).backward, kNull, kColorBackward);
  p.gradSyncStart = p.t;
  p.gradSyncRangeId = p.nextRangeId++;
  for (Device* d : p.devices()) {
    p.t += h.launchGap();
    h.allocate(p, *d, kAHgMallocAsync, 32 * kMiB, kCAcblasWorkspace, kMemDevice,
                   d->workspaceAddr);
  }
  for (int l = 0; l < p.deviceCount; ++l) h.run(p, *p.dev[l], programs(p, l).headBwd);
}

void Simulation::backwardLayer(Process& p, int layer) {
  Host& h = host(p);
  for (int l = 0; l < p.deviceCount; ++l) h.run(p, *p.dev[l], programs(p, l).layerBwd);
  if (layer == 0) {
    for (int l = 0; l < p.deviceCount; ++l) h.run(p, *p.dev[l], programs(p, l).embedBwd);
  }
}

void Simulation::endBackward(Process& p) {
  Host& h = host(p);
  for (Device* d : p.devices()) {
    p.t += h.launchGap();
    h.release(p, *d, kAHgFreeAsync, d->workspaceAddr, 32 * kMiB);
  }
  p.t += h.popGap();
  h.pop(p);
}

void Simulation::beginOptimizer(Process& p) {
  Host& h = host(p);
  p.t += h.opGap();
  startEndRange(h.w, p.gradSyncStart, p.t, p.gradSyncRangeId, nullptr, names(p).gradSync, p.mainTid,
                kNull);
  h.push(p, names(p).optimizer, kNull, kColorOptimizer);
  for (int l = 0; l < p.deviceCount; ++l) h.run(p, *p.dev[l], programs(p, l).gradNorm);
}

void Simulation::collective(int bucket) {
  pending_.clear();
  const bool norm = bucket == kBuckets;
  const KernelKind kind = norm ? kKPcclRingFloat : kKPcclTwoShot;
  for (Process& p : procs_) {
    Host& h = host(p);
    for (int l = 0; l < p.deviceCount; ++l) {
      Device& d = *p.dev[l];
      p.t += h.opGap();
      h.push(p, d.allReduceText[bucket]);
      p.t += h.nestGap();
      h.push(p, names(p).pcclAllReduce, kPcclDomain);
      p.t += h.launchGap();
      const int64_t event = d.compute.freeAt;  // the gradients are ready here
      h.api(p, kAHgEventRecord, ns(h.rng.uniform(1500, 3000)));
      h.api(p, kAHgStreamWaitEvent, ns(h.rng.uniform(1000, 2500)));
      d.comm.freeAt = std::max(d.comm.freeAt, event);
      p.t += h.launchGap();
      const int64_t dur = h.launchApiDur(d, kind, kAHggcLaunchKernel);
      const int64_t latency = ns(h.rng.uniform(1500, 3500));
      const int64_t queueGap = ns(h.rng.uniform(800, 2000));
      const int64_t corr = p.nextCorr++;
      h.apiRow(p, kAHggcLaunchKernel, p.t, p.t + dur, corr);
      int64_t arrival = std::max(p.t + dur * 6 / 10 + latency, d.comm.freeAt + queueGap);
      // A job of ranks: no kernel starts before every rank's previous one
      // ended, so each collective is one PCCL communication of all ranks
      // (the desync rules pair kernels by overlap). The demo keeps its
      // bytes: there the gradient-norm AllReduce can touch the last bucket's.
      if (ranked_) arrival = std::max(arrival, lastCollectiveEnd_ + queueGap);
      pending_.push_back({&p, l, corr, arrival});
      p.t += dur;
      p.t += h.popGap();
      h.pop(p);
      p.t += h.popGap();
      h.pop(p);
    }
  }
  int64_t go = 0;  // the last rank arrives: the data starts to move
  for (const Pending& x : pending_) go = std::max(go, x.arrival);
  const double bytes = norm ? 4.0 : static_cast<double>(kBucketElements[bucket]) * 2.0;
  double transfer = (9000.0 + 1.5 * bytes / 150e9 * 1e9) * rng_.jitter(0.02);
  if (o_.slow) transfer *= 1.06;
  for (const Pending& x : pending_) {
    Process& p = *x.p;
    Host& h = host(p);
    Device& d = *p.dev[x.local];
    const int64_t end = go + ns(transfer) + h.rng.range(0, 2500);
    h.kernelRow(p, d, d.comm, kind, norm ? 2 : 16, 1, 1, x.arrival, end, x.corr);
    d.comm.freeAt = end;
    lastCollectiveEnd_ = std::max(lastCollectiveEnd_, end);
    proxyStages(p, x.local, x.arrival, go, end);
  }
}

void Simulation::proxyStages(Process& p, int local, int64_t arrival, int64_t go, int64_t end) {
  Host& h = host(p);
  const int64_t tid = p.proxyTid[local];
  const int32_t dev = p.dev[local]->id;
  const int64_t pollEnd = arrival - ns(h.rng.uniform(300, 900));
  if (pollEnd > p.proxyT[local] + 2 * kUs) h.osrt(tid, kOPoll, p.proxyT[local], pollEnd, 1, 0);
  const int64_t mid = go + (end - go) / 2;
  int64_t last = arrival;
  for (int c = 0; c < 2; ++c) {
    const int64_t gpuWait = ns(h.rng.uniform(1500, 3500));
    const int64_t t0 = arrival + c * 150;
    const int64_t t1 = t0 + gpuWait;
    const int64_t t2 = std::max(mid, t1 + 200);
    const int64_t t3 = t2 + 1500;
    const int64_t t4 = std::max(end - 500, t3 + 200);
    h.w.pcclStage(t0, t1, tid, dev, c, "TX", names(p).stage[kGpuWait]);
    h.w.pcclStage(t1, t2, tid, dev, c, "TX", names(p).stage[kSendWait]);
    h.w.pcclStage(t2, t3, tid, dev, c, "TX", names(p).stage[kGpuWait]);
    h.w.pcclStage(t3, t4, tid, dev, c, "TX", names(p).stage[kSendWait]);
    const int64_t r0 = t0;
    const int64_t r1 = std::max(go + 1500, r0 + 200);
    const int64_t r2 = std::max(mid, r1 + 200);
    const int64_t r3 = r2 + 1000;
    const int64_t r4 = std::max(end - 300, r3 + 200);
    h.w.pcclStage(r0, r1, tid, dev, c, "RX", names(p).stage[kRecvWait]);
    h.w.pcclStage(r1, r2, tid, dev, c, "RX", names(p).stage[kRecvGpuWait]);
    h.w.pcclStage(r2, r3, tid, dev, c, "RX", names(p).stage[kRecvWait]);
    h.w.pcclStage(r3, r4, tid, dev, c, "RX", names(p).stage[kRecvFlushWait]);
    last = std::max({last, t4, r4});
  }
  p.proxyT[local] = last + ns(h.rng.uniform(2000, 6000));
}

void Simulation::captureGraph(Process& p, Device& d) {
  Host& h = host(p);
  h.api(p, kAHgStreamBeginCapture, ns(h.rng.uniform(3000, 8000)));
  const int64_t captured = p.nextGraphId++;
  int64_t nodes[kGraphNodes];
  for (int i = 0; i < kGraphNodes; ++i) {
    const GraphNodeSpec& spec = kOptimizerGraph[i];
    p.t += h.nestGap();
    h.pushAten(p, spec.aten, spec.sizes, spec.nInputs);
    p.t += h.launchGap();
    const int64_t start = p.t;
    h.api(p, kAHgLaunchKernel, h.launchApiDur(d, spec.kernel, kAHgLaunchKernel));
    nodes[i] = p.nextGraphNodeId++;
    h.w.graphNode(
        {start, p.t, p.mainTid, h.apiName[kAHgLaunchKernel], nodes[i], kNull, captured});
    p.t += h.popGap();
    h.pop(p);
  }
  p.t += h.launchGap();
  h.api(p, kAHgStreamEndCapture, ns(h.rng.uniform(4000, 10000)));
  p.t += h.launchGap();
  d.execGraphId = p.nextGraphId++;
  const int64_t start = p.t;
  const int64_t dur = ns(h.rng.uniform(120e3, 260e3));
  h.api(p, kAHgGraphInstantiate, dur);
  for (int i = 0; i < kGraphNodes; ++i) {
    d.execNodeIds[i] = p.nextGraphNodeId++;
    const int64_t s = start + 10 * kUs + i * (dur - 20 * kUs) / kGraphNodes;
    h.w.graphNode({s, s + 5 * kUs, p.mainTid, h.apiName[kAHgGraphInstantiate], d.execNodeIds[i],
                  nodes[i], d.execGraphId});
  }
  d.graphReady = true;
}

void Simulation::graphLaunch(Process& p, Device& d) {
  Host& h = host(p);
  const int64_t dur = ns(h.rng.uniform(8000, 16000));
  const int64_t latency = ns(h.rng.uniform(1500, 3500));
  const int64_t queueGap = ns(h.rng.uniform(800, 2000));
  const int64_t corr = p.nextCorr++;
  h.apiRow(p, kAHgGraphLaunch, p.t, p.t + dur, corr);
  int64_t start = std::max(p.t + dur * 6 / 10 + latency, d.compute.freeAt + queueGap);
  for (int i = 0; i < kGraphNodes; ++i) {
    const GraphNodeSpec& spec = kOptimizerGraph[i];
    const int64_t end = start + ns(h.kernelNs(spec.kernel, spec.baseNs, false, d));
    h.kernelRow(p, d, d.compute, spec.kernel, spec.gridX, 1, 1, start, end, corr,
                    d.execNodeIds[i], d.execGraphId);
    d.compute.freeAt = end;
    start = end + ns(h.rng.uniform(900, 2000));
  }
  p.t += dur;
}

void Simulation::finishIteration(Process& p, int64_t it) {
  Host& h = host(p);
  for (Device* d : p.devices()) {
    p.t += h.opGap();
    h.push(p, names(p).optStep);
    p.t += h.launchGap();
    h.api(p, kAHgStreamWaitEvent, ns(h.rng.uniform(1000, 2500)));
    d->compute.freeAt = std::max(d->compute.freeAt, d->comm.freeAt);
    if (!d->graphReady) {  // first step: optimizer state, then capture the step as a graph
      for (int i = 0; i < 2; ++i) {
        p.t += h.launchGap();
        h.allocate(p, *d, kAHgMalloc, 512 * kMiB, kCOptimizerState);
      }
      captureGraph(p, *d);
    }
    p.t += h.launchGap();
    graphLaunch(p, *d);
    p.t += h.popGap();
    h.pop(p);
  }
  for (Device* d : p.devices()) {
    p.t += h.opGap();
    h.push(p, names(p).zeroGrad);
    for (int b = 0; b < kBuckets; ++b) {
      p.t += h.launchGap();
      h.memsetAsync(p, *d, d->compute, kBucketElements[b] * 2);
    }
    p.t += h.popGap();
    h.pop(p);
  }
  if (p.deviceCount > 1) {  // share expert load statistics between the two local devices
    Device& d0 = *p.dev[0];
    p.t += h.opGap();
    h.pushAten(p, "aten::copy_", "[[128, 2048], [128, 2048], []]", 2);
    p.t += h.launchGap();
    h.memcpyAsync(p, d0, d0.compute, kAHgMemcpyPeerAsync, kExperts * 2048 * 4, kCopyPtoP,
                      kMemDevice, kMemDevice, d0.id, p.dev[1]->id, false);
    p.t += h.popGap();
    h.pop(p);
  }
  for (int l = 0; l < p.deviceCount; ++l) {  // loss.item()
    Device& d = *p.dev[l];
    p.t += h.opGap();
    h.pushAten(p, "aten::item", "[[]]", 1);
    p.t += h.launchGap();
    h.memcpyAsync(p, d, d.compute, kAHgMemcpyDtoHAsync, 4, kCopyDtoH, kMemDevice, kMemPinned,
                      d.id, kNull, false);
    if (l == p.deviceCount - 1) {  // poll an event a few times before blocking
      for (int i = 0; i < 3; ++i) {
        p.t += h.launchGap();
        const int64_t dur = ns(h.rng.uniform(1000, 2500));
        const int64_t sleep = ns(h.rng.uniform(40e3, 90e3));
        h.api(p, kAHgEventQuery, dur, d.compute.freeAt > p.t ? 600 : 0);
        h.osrt(p.mainTid, kONanosleep, p.t + 500, p.t + 500 + sleep, 0, 0);
        p.t += sleep + 1000;
      }
    }
    synchronize(p, d);
    p.t += h.popGap();
    h.pop(p);
  }
  p.t += h.popGap();
  h.pop(p);  // optimizer

  const double u = h.rng.uniform();
  const double loss = 2.1 + 8.3 / (1.0 + 0.05 * static_cast<double>(it)) + 0.04 * (u - 0.5);
  const double lr = 3e-4 * std::min(1.0, static_cast<double>(it + 1) / 100.0);
  std::snprintf(text_, sizeof text_, "step %lld: loss=%.4f lr=%.2e", static_cast<long long>(it),
                loss, lr);
  p.t += h.opGap();
  HgtxRow mark;
  mark.start = p.t;
  mark.end = kNull;
  mark.eventType = 34;
  mark.text = text_;
  mark.globalTid = p.mainTid;
  h.w.hgtx(mark);
  const int64_t logDur = ns(h.rng.uniform(8000, 20000));
  p.t += 2 * kUs;
  h.osrt(p.mainTid, kOFwrite, p.t, p.t + logDur, 1, 0);
  h.osrt(p.mainTid, kOWrite, p.t + 1500, p.t + logDur - 1500, 40, 1);
  p.t += logDur;
  p.t += h.popGap();
  h.pop(p);  // iteration
  if (it % kCheckpointEvery == 1) saveCheckpoint(p);
  for (Device* d : p.devices()) d->flushMetrics(h.w, p.t);
}

// A blocking torch.save of the rank's shard: 8 fwrite calls of 70-90 ms each
// (each one write below it); no PPU work is launched meanwhile, so every
// device of the process idles for about 0.65 s (the gaps ppu_gaps finds).
void Simulation::saveCheckpoint(Process& p) {
  Host& h = host(p);
  p.t += h.opGap();
  h.push(p, names(p).saveCheckpoint);
  for (int chunk = 0; chunk < 8; ++chunk) {
    const int64_t dur = ns(h.rng.uniform(70e6, 90e6));
    p.t += 3 * kUs;
    h.osrt(p.mainTid, kOFwrite, p.t, p.t + dur, 1, 0);
    h.osrt(p.mainTid, kOWrite, p.t + 2000, p.t + dur - 2000, 64 * 1024 * 1024, 1);
    p.t += dur;
  }
  p.t += h.popGap();
  h.pop(p);
}

std::vector<int64_t> Simulation::run() {
  for (Sink& s : sinks_) internNames(s);
  if (ranked_) describeRanks();
  else describeMachine();
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
  last.t += host(last).opGap();
  startEndRange(w(last), last.t, kNull, last.nextRangeId++, nullptr, names(last).checkpoint, last.mainTid, kNull);

  std::vector<int64_t> ends;
  if (!ranked_) {  // one report: the last activity of all
    int64_t end = 0;
    for (const Process& p : procs_) end = std::max(end, captureEnd(p));
    ends.push_back(end);
  } else {
    for (const Process& p : procs_) ends.push_back(captureEnd(p));
  }
  return ends;
}

// A process's last activity, host or device, plus a millisecond.
int64_t Simulation::captureEnd(const Process& p) const {
  int64_t end = std::max(p.t, p.loaderT);
  for (int l = 0; l < p.deviceCount; ++l) {
    const Device& d = *p.dev[l];
    end = std::max({end, p.proxyT[l], d.compute.freeAt, d.comm.freeAt, d.copy.freeAt});
  }
  return end + kMs;
}

WorkloadResult runWorkload(ReportWriter& w, const WorkloadOptions& options) {
  Simulation sim(w, options);
  return {sim.run()[0]};
}

}  // namespace asys::gen
