#pragma once
// Fixed vocabulary of the synthetic workload: kernels (demangled, short and
// Itanium-mangled names that really demangle to each other), HGGC and OS
// runtime API names, PPU metrics, allocation call chains, enum tables and
// the device model. Data only; the workload decides when each is used.
#include <cstdint>

namespace asys::gen {

enum class KernelClass : uint8_t { kGemm, kMoe, kAttention, kElementwise, kComm, kOther };

struct KernelDef {
  const char* demangled;
  const char* shortName;
  const char* mangled;  // equal to `demangled` for extern "C" kernels
  int32_t blockX, blockY, blockZ;
  int32_t registers, staticSmem, dynamicSmem;
  KernelClass cls;
};

enum KernelKind : uint8_t {
  kKAddTest,
  kKRmsNorm,
  kKRmsNormBwd,
  kKGemmFwd,
  kKGemmDgrad,
  kKGemmWgrad,
  kKGemmFp32,
  kKGroupedGemmFwd,
  kKGroupedGemmBwd,
  kKFlashFwd,
  kKFlashBwd,
  kKFlashBwdPre,
  kKRotary,
  kKAdd,
  kKFill,
  kKMul,
  kKBf16Copy,
  kKGather,
  kKEmbeddingBwd,
  kKReduceMean,
  kKLogSoftmax,
  kKLogSoftmaxBwd,
  kKNllBwd,
  kKTopk,
  kKTopkBwd,
  kKAlign,
  kKPermute,
  kKPermuteBwd,
  kKSilu,
  kKSiluBwd,
  kKFinalize,
  kKAdam,
  kKLpNorm,
  kKPcclTwoShot,
  kKPcclRingFloat,
  kKernelKindCount
};

extern const KernelDef kKernels[kKernelKindCount];

enum ApiKind : uint8_t {
  kAHgLaunchKernel,
  kAHggcLaunchKernel,
  kAHgMemcpyHtoDAsync,
  kAHgMemcpyDtoHAsync,
  kAHgMemcpyAsync,
  kAHgMemcpyPeerAsync,
  kAHgMemsetAsync,
  kAHgEventQuery,
  kAHgEventRecord,
  kAHgStreamWaitEvent,
  kAHgStreamSynchronize,
  kAHgDeviceSynchronize,
  kAHgGraphLaunch,
  kAHgGraphInstantiate,
  kAHgStreamBeginCapture,
  kAHgStreamEndCapture,
  kAHgMalloc,
  kAHgFree,
  kAHgMallocAsync,
  kAHgFreeAsync,
  kAHgMallocManaged,
  kAHgGetDeviceCount,
  kAHgSetDevice,
  kAHgStreamCreateWithPriority,
  kApiKindCount
};

struct ApiDef {
  const char* name;
  int32_t eventClass;  // 0 runtime, 1 driver (as in the Nsight enum)
};

extern const ApiDef kApis[kApiKindCount];

constexpr int32_t kOsrtEventClass = 27;  // "OS runtime" in the Nsight enum

enum OsrtKind : uint8_t {
  kOPthreadCondWait,
  kONanosleep,
  kOPoll,
  kOIoctl,
  kORead,
  kOWrite,
  kOFread,
  kOFwrite,
  kOOpen64,
  kOClose,
  kOPthreadMutexLock,
  kOMmap64,
  kOsrtKindCount
};

extern const char* const kOsrtNames[kOsrtKindCount];

struct MetricDef {
  const char* name;
  const char* unit;
};

enum MetricKind : uint8_t {
  kMCyclesElapsed,
  kMCeActive,
  kMDispatch,
  kMCuActive,
  kMTensorActive,
  kMDramRead,
  kMetricKindCount
};

extern const MetricDef kMetrics[kMetricKindCount];

struct FrameDef {
  const char* symbol;
  const char* module;
  int32_t unresolved;
};

// Call chains, innermost frame (stack depth 0) first. Ids are index + 1.
enum ChainKind : uint8_t {
  kCWeights,
  kCAcblasWorkspace,
  kCPcclBuffers,
  kCLossHistory,
  kCLaunchLocalMemory,
  kCOptimizerState,
  kCGradBuckets,
  kCManaged,
  kCActivations,
  kCDataRead,
  kChainKindCount
};

struct ChainDef {
  const FrameDef* frames;
  int32_t depth;
};

extern const ChainDef kChains[kChainKindCount];
inline int64_t chainId(ChainKind c) { return static_cast<int64_t>(c) + 1; }

struct EnumDef {
  int32_t id;
  const char* name;
  const char* label;
};

// Ids follow the Nsight CUDA enums, so an nsys importer maps them 1:1.
enum CopyKind : int32_t {
  kCopyHtoD = 1,
  kCopyDtoH = 2,
  kCopyDtoD = 8,
  kCopyHtoH = 9,
  kCopyPtoP = 10
};
enum MemKind : int32_t { kMemPageable = 0, kMemPinned = 1, kMemDevice = 2, kMemManaged = 4 };

extern const EnumDef kCopyKinds[];
extern const int kCopyKindCount;
extern const EnumDef kMemKinds[];
extern const int kMemKindCount;

// The PPU model of the generated machine.
struct DeviceModel {
  const char* name;
  int64_t computeMajor, computeMinor, ceCount, cuCount, totalMemory, cuClock, memoryClock;
  double peakFlopsFp32, peakFlopsFp16, peakFlopsBf16, peakFlopsFp8, peakFlopsInt8, hbmBandwidth;
};

extern const DeviceModel kPpu;
// The PPUs of one node, by local index (the demo uses the first four; a job
// of ranks fills nodes of eight, core/gen/ranks.cc).
constexpr int kPpusPerNode = 8;
extern const char* const kBusLocations[kPpusPerNode];
extern const char* const kHostName;

}  // namespace asys::gen
