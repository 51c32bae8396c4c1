#include "core/gen/host.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "core/base/fp_contract.h"

namespace asys::gen {

Host::Host(ReportWriter& writer, Rng& random, bool slowProfile)
    : w(writer), rng(random), slow(slowProfile) {
  for (int i = 0; i < kApiKindCount; ++i) apiName[i] = w.intern(kApis[i].name);
  for (int i = 0; i < kOsrtKindCount; ++i) osrtName[i] = w.intern(kOsrtNames[i]);
  for (int i = 0; i < kKernelKindCount; ++i) {
    kernelDemangled[i] = w.intern(kKernels[i].demangled);
    kernelShort[i] = w.intern(kKernels[i].shortName);
    kernelMangled[i] = w.intern(kKernels[i].mangled);
  }
}

void Host::push(Process& p, int64_t textId, int64_t domainId, int64_t color) {
  Process::Frame& f = p.stack[p.depth++];
  f.start = p.t;
  f.textId = textId;
  f.domainId = domainId;
  f.color = color;
  f.hasText = false;
}

void Host::pushText(Process& p, const char* text, int64_t color) {
  Process::Frame& f = p.stack[p.depth++];
  f.start = p.t;
  f.textId = kNull;
  f.domainId = kNull;
  f.color = color;
  f.hasText = true;
  std::snprintf(f.text, sizeof f.text, "%s", text);
}

void Host::pushAten(Process& p, const char* aten, const char* sizes, int32_t inputs) {
  Process::Frame& f = p.stack[p.depth++];
  f.start = p.t;
  f.textId = kNull;
  f.domainId = kNull;
  f.color = kNull;
  f.hasText = true;
  p.nextOpId += rng.range(1, 4);  // ops without annotations run in between
  const long long op = p.nextOpId;
  int n = std::snprintf(f.text, sizeof f.text, "%s, op_id = %lld, sizes = %s, input_op_ids = [",
                        aten, op, sizes);
  for (int32_t i = 0; i < inputs; ++i) {
    n += std::snprintf(f.text + n, sizeof f.text - n, "%s(%lld,0)", i == 0 ? "" : ", ",
                       op - 1 - 2LL * i);
  }
  std::snprintf(f.text + n, sizeof f.text - n, "]");
}

void Host::pop(Process& p) {
  const Process::Frame& f = p.stack[--p.depth];
  HgtxRow r;
  r.start = f.start;
  r.end = p.t;
  r.eventType = 59;
  r.color = f.color;
  r.text = f.hasText ? f.text : nullptr;
  r.globalTid = p.mainTid;
  r.textId = f.textId;
  r.domainId = f.domainId;
  w.hgtx(r);
  p.t += ns(rng.uniform(150, 500));
}

void Host::apiRow(Process& p, ApiKind k, int64_t start, int64_t end, int64_t corr, int64_t ret,
                  int64_t chain) {
  ApiRow r;
  r.start = start;
  r.end = end;
  r.eventClass = kApis[k].eventClass;
  r.globalTid = p.mainTid;
  r.correlationId = corr;
  r.nameId = apiName[k];
  r.returnValue = ret;
  r.callchainId = chain;
  w.api(r);
}

int64_t Host::api(Process& p, ApiKind k, int64_t dur, int64_t ret, int64_t chain) {
  const int64_t corr = p.nextCorr++;
  apiRow(p, k, p.t, p.t + dur, corr, ret, chain);
  p.t += dur;
  return corr;
}

int64_t Host::launchApiDur(Device& d, KernelKind k, ApiKind api) {
  double us = api == kAHggcLaunchKernel ? rng.uniform(4.5, 8.5) : rng.uniform(3.2, 6.8);
  const double spike = rng.uniform();
  const double spikeFactor = rng.uniform(6.0, 25.0);
  const double moduleLoadMs = rng.uniform(0.8, 2.6);
  if (spike < 0.003) us *= spikeFactor;  // the host thread was descheduled
  int64_t dur = ns(us * 1000.0);
  const uint64_t bit = 1ull << k;
  if ((d.loadedKinds & bit) == 0) {  // lazy module loading on first launch
    d.loadedKinds |= bit;
    dur += ns(moduleLoadMs * 1e6);
  }
  return dur;
}

double Host::kernelNs(KernelKind k, double baseNs, bool moe, const Device& d) {
  double f = rng.jitter(0.025);
  const double outlier = rng.uniform();
  const double outlierFactor = rng.uniform(1.3, 2.2);
  if (outlier < 0.002) f *= outlierFactor;
  const KernelClass c = kKernels[k].cls;
  if (slow && (c == KernelClass::kGemm || c == KernelClass::kMoe)) f *= 1.25;
  if (moe) f *= d.moeLoad;
  return baseNs * f;
}

void Host::kernelRow(Process& p, Device& d, const Stream& s, KernelKind k, int32_t gx, int32_t gy,
                     int32_t gz, int64_t start, int64_t end, int64_t corr, int64_t graphNode,
                     int64_t graph) {
  const KernelDef& def = kKernels[k];
  KernelRow r;
  r.start = start;
  r.end = end;
  r.deviceId = d.id;
  r.contextId = d.contextId;
  r.streamId = s.id;
  r.correlationId = corr;
  r.globalPid = p.globalPid;
  r.demangledName = kernelDemangled[k];
  r.shortName = kernelShort[k];
  r.mangledName = kernelMangled[k];
  r.gridX = gx;
  r.gridY = gy;
  r.gridZ = gz;
  r.blockX = def.blockX;
  r.blockY = def.blockY;
  r.blockZ = def.blockZ;
  r.registersPerThread = def.registers;
  r.staticSharedMemory = def.staticSmem;
  r.dynamicSharedMemory = def.dynamicSmem;
  r.graphNodeId = graphNode;
  r.graphId = graph;
  w.kernel(r);
  const bool tensor = def.cls == KernelClass::kGemm || k == kKGroupedGemmFwd ||
                      k == kKGroupedGemmBwd || def.cls == KernelClass::kAttention;
  d.busy(start, end, tensor, true);
}

int64_t Host::launch(Process& p, Device& d, Stream& s, KernelKind k, int32_t gx, int32_t gy,
                     int32_t gz, double durNs, ApiKind api) {
  const int64_t dur = launchApiDur(d, k, api);
  const int64_t latency = ns(rng.uniform(1200, 3200));
  const int64_t queueGap = ns(rng.uniform(800, 2200));
  const int64_t apiStart = p.t;
  const int64_t corr = p.nextCorr++;
  apiRow(p, api, apiStart, apiStart + dur, corr);
  const int64_t start = std::max(apiStart + dur * 6 / 10 + latency, s.freeAt + queueGap);
  const int64_t end = start + std::max<int64_t>(1000, ns(durNs));
  s.freeAt = end;
  kernelRow(p, d, s, k, gx, gy, gz, start, end, corr);
  p.t = apiStart + dur;
  return corr;
}

void Host::memsetAsync(Process& p, Device& d, Stream& s, int64_t bytes) {
  const int64_t dur = ns(rng.uniform(2800, 6000));
  const int64_t latency = ns(rng.uniform(1200, 3000));
  const int64_t queueGap = ns(rng.uniform(800, 2000));
  const int64_t apiStart = p.t;
  const int64_t corr = p.nextCorr++;
  apiRow(p, kAHgMemsetAsync, apiStart, apiStart + dur, corr);
  const int64_t start = std::max(apiStart + dur * 6 / 10 + latency, s.freeAt + queueGap);
  const int64_t end = start + ns(1500.0 + static_cast<double>(bytes) / 1.0e12 * 1e9);
  s.freeAt = end;
  MemsetRow r;
  r.start = start;
  r.end = end;
  r.deviceId = d.id;
  r.contextId = d.contextId;
  r.streamId = s.id;
  r.correlationId = corr;
  r.globalPid = p.globalPid;
  r.value = 0;
  r.bytes = bytes;
  r.memKind = kMemDevice;
  w.memset(r);
  d.busy(start, end, false, false);
  p.t = apiStart + dur;
}

int64_t Host::memcpyAsync(Process& p, Device& d, Stream& s, ApiKind api, int64_t bytes,
                          CopyKind kind, MemKind src, MemKind dst, int64_t srcDevice,
                          int64_t dstDevice, bool blocking) {
  double bandwidth = 22e9;  // bytes/s
  if (kind == kCopyHtoD) bandwidth = src == kMemPinned ? 22e9 : 9e9;
  if (kind == kCopyDtoH) bandwidth = dst == kMemPinned ? 20e9 : 7e9;
  if (kind == kCopyDtoD) bandwidth = 0.7e12;
  if (kind == kCopyPtoP) bandwidth = 48e9;
  const int64_t dur = ns(rng.uniform(4000, 9000));
  const int64_t latency = ns(rng.uniform(1500, 3500));
  const int64_t queueGap = ns(rng.uniform(800, 2000));
  const int64_t tail = ns(rng.uniform(3000, 8000));
  const int64_t apiStart = p.t;
  const int64_t corr = p.nextCorr++;
  const int64_t start = std::max(apiStart + dur * 6 / 10 + latency, s.freeAt + queueGap);
  const int64_t end = start + ns(1800.0 + static_cast<double>(bytes) / bandwidth * 1e9);
  const int64_t apiEnd = blocking ? std::max(apiStart + dur, end + tail) : apiStart + dur;
  apiRow(p, api, apiStart, apiEnd, corr);
  s.freeAt = end;
  MemcpyRow r;
  r.start = start;
  r.end = end;
  r.deviceId = d.id;
  r.contextId = d.contextId;
  r.streamId = s.id;
  r.correlationId = corr;
  r.globalPid = p.globalPid;
  r.bytes = bytes;
  r.copyKind = kind;
  r.srcKind = src;
  r.dstKind = dst;
  r.srcDeviceId = srcDevice;
  r.dstDeviceId = dstDevice;
  w.memcpy(r);
  d.busy(start, end, false, false);
  p.t = apiEnd;
  return end;
}

void Host::memoryEvent(Process& p, Device& d, int64_t start, int64_t address, int64_t bytes,
                       MemKind kind, int32_t op, int64_t corr, int64_t chain) {
  MemoryEventRow r;
  r.start = start;
  r.globalPid = p.globalPid;
  r.globalTid = p.mainTid;
  r.deviceId = d.id;
  r.contextId = d.contextId;
  r.eventId = nextEventId_++;
  r.address = address;
  r.bytes = bytes;
  r.memKind = kind;
  r.memoryOperationType = op;
  r.accessFlags = kind == kMemManaged ? 1 : 0;
  r.correlationId = corr;
  r.callchainId = chain;
  w.memoryEvent(r);
}

int64_t Host::allocate(Process& p, Device& d, ApiKind api, int64_t bytes, ChainKind chain,
                       MemKind kind, int64_t address) {
  const int64_t dur = ns(rng.uniform(9000, 30000) + static_cast<double>(bytes) / 8e12 * 1e9);
  const int64_t addr = address == kNull ? d.reserve(bytes) : address;
  const int64_t start = p.t;
  const int64_t corr = this->api(p, api, dur, 0, chainId(chain));
  memoryEvent(p, d, start + dur / 2, addr, bytes, kind, 0, corr, chainId(chain));
  return addr;
}

void Host::release(Process& p, Device& d, ApiKind api, int64_t address, int64_t bytes,
                   MemKind kind) {
  const int64_t dur = ns(rng.uniform(4000, 15000));
  const int64_t start = p.t;
  const int64_t corr = this->api(p, api, dur);
  memoryEvent(p, d, start + dur / 2, address, bytes, kind, 1, corr, kNull);
}

void Host::osrt(int64_t globalTid, OsrtKind k, int64_t start, int64_t end, int64_t ret,
                int32_t level, int64_t chain) {
  OsrtRow r;
  r.start = start;
  r.end = end;
  r.eventClass = kOsrtEventClass;
  r.globalTid = globalTid;
  r.nameId = osrtName[k];
  r.returnValue = ret;
  r.nestingLevel = level;
  r.callchainId = chain;
  w.osrt(r);
}

void Host::run(Process& p, Device& d, const Program& prog) {
  const int base = p.depth;
  for (const Instr& in : prog) {
    switch (in.op) {
      case InstrOp::kPush:
        p.t += p.depth == base ? opGap() : nestGap();
        if (in.aten != nullptr) {
          pushAten(p, in.aten, in.sizes, in.nInputs);
        } else {
          push(p, in.textId);
        }
        break;
      case InstrOp::kPop:
        p.t += popGap();
        pop(p);
        break;
      case InstrOp::kLaunch:
        p.t += launchGap();
        launch(p, d, d.compute, in.kernel, in.gridX, in.gridY, in.gridZ,
               kernelNs(in.kernel, in.baseNs, in.moe, d));
        break;
      case InstrOp::kMemset:
        p.t += launchGap();
        memsetAsync(p, d, d.compute, in.bytes);
        break;
    }
  }
}

}  // namespace asys::gen
