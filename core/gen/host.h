#pragma once
// Host-side primitives of the simulation: a process and its threads, and the
// calls a thread makes (HGGC API calls that queue kernels, copies and
// memsets on device streams; HGTX push/pop ranges; OS runtime calls; device
// memory allocation). Each primitive writes its rows immediately.
#include <cstdint>
#include <span>

#include "core/gen/catalog.h"
#include "core/gen/device.h"
#include "core/gen/model.h"
#include "core/writer/report_writer.h"
#include "core/gen/rng.h"

namespace asys::gen {

// PPUs a process drives: the demo's two ranks drive two each; a rank of
// `asys gen --ranks` drives one (Process::deviceCount).
constexpr int kDevicesPerProcess = 2;
constexpr int64_t kPcclDomain = 1;

struct Process {
  int32_t index = 0;
  int64_t pid = 0, globalPid = 0;
  int64_t mainTid = 0, loaderTid = 0, proxyTid[kDevicesPerProcess] = {};  // global thread ids
  int64_t t = 0;                                                          // main thread clock
  int64_t loaderT = 0, proxyT[kDevicesPerProcess] = {};
  int64_t nextCorr = 1, nextOpId = 0, nextRangeId = 1, nextGraphId = 1, nextGraphNodeId = 1;
  Device* dev[kDevicesPerProcess] = {};
  int32_t deviceCount = kDevicesPerProcess;  // dev[0 .. deviceCount) are used
  std::span<Device* const> devices() const { return {dev, static_cast<size_t>(deviceCount)}; }

  struct Frame {
    int64_t start, textId, domainId, color;
    bool hasText;
    char text[480];
  };
  Frame stack[16];
  int depth = 0;

  // The pin-memory thread's start/end range, ended by the main thread.
  int64_t pinStart = 0, pinRangeId = 0;
  int64_t pinBatch = -1;
  int64_t gradSyncStart = 0, gradSyncRangeId = 0;
};

class Host {
 public:
  Host(ReportWriter& w, Rng& rng, bool slow);

  ReportWriter& w;
  Rng& rng;
  const bool slow;
  uint32_t apiName[kApiKindCount];
  uint32_t osrtName[kOsrtKindCount];
  uint32_t kernelDemangled[kKernelKindCount], kernelShort[kKernelKindCount],
      kernelMangled[kKernelKindCount];

  // Host think time between calls, in ns.
  int64_t opGap() { return ns(rng.uniform(6000, 18000)); }
  int64_t nestGap() { return ns(rng.uniform(300, 1200)); }
  int64_t launchGap() { return ns(rng.uniform(1000, 4000)); }
  int64_t popGap() { return ns(rng.uniform(400, 1500)); }

  // HGTX push/pop ranges of the main thread (written when popped).
  void push(Process& p, int64_t textId, int64_t domainId = kNull, int64_t color = kNull);
  void pushText(Process& p, const char* text, int64_t color = kNull);
  void pushAten(Process& p, const char* aten, const char* sizes, int32_t inputs);
  void pop(Process& p);

  // An HGGC API call of `dur` ns at the main thread's clock; returns its
  // correlation id and advances the clock.
  int64_t api(Process& p, ApiKind k, int64_t dur, int64_t ret = 0, int64_t chain = kNull);
  void apiRow(Process& p, ApiKind k, int64_t start, int64_t end, int64_t corr, int64_t ret = 0,
              int64_t chain = kNull);
  int64_t launchApiDur(Device& d, KernelKind k, ApiKind api);

  // Kernel duration for an instruction: noise, rare outliers, the profile's
  // slow-down and the device's expert load.
  double kernelNs(KernelKind k, double baseNs, bool moe, const Device& d);
  void kernelRow(Process& p, Device& d, const Stream& s, KernelKind k, int32_t gx, int32_t gy,
                 int32_t gz, int64_t start, int64_t end, int64_t corr, int64_t graphNode = kNull,
                 int64_t graph = kNull);
  // hgLaunchKernel (or hggcLaunchKernel) queuing a kernel on `s`.
  int64_t launch(Process& p, Device& d, Stream& s, KernelKind k, int32_t gx, int32_t gy, int32_t gz,
                 double durNs, ApiKind api = kAHgLaunchKernel);
  void memsetAsync(Process& p, Device& d, Stream& s, int64_t bytes);
  // Returns the copy's end. A blocking copy keeps the API call until it ends.
  int64_t memcpyAsync(Process& p, Device& d, Stream& s, ApiKind api, int64_t bytes, CopyKind kind,
                      MemKind src, MemKind dst, int64_t srcDevice, int64_t dstDevice,
                      bool blocking);

  // Device memory: an allocation API call and its PPU_MEMORY_USAGE_EVENTS row.
  int64_t allocate(Process& p, Device& d, ApiKind api, int64_t bytes, ChainKind chain,
                   MemKind kind = kMemDevice, int64_t address = kNull);
  void release(Process& p, Device& d, ApiKind api, int64_t address, int64_t bytes,
               MemKind kind = kMemDevice);
  void memoryEvent(Process& p, Device& d, int64_t start, int64_t address, int64_t bytes,
                   MemKind kind, int32_t op, int64_t corr, int64_t chain);

  void osrt(int64_t globalTid, OsrtKind k, int64_t start, int64_t end, int64_t ret, int32_t level,
            int64_t chain = kNull);

  // Runs a model program on device `d` (kernels on its compute stream).
  void run(Process& p, Device& d, const Program& prog);

 private:
  int64_t nextEventId_ = 1;
};

}  // namespace asys::gen
