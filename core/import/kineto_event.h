#pragma once
// One Chrome-trace event of a Kineto trace, as the SAX handler assembles it:
// only the fields the importer maps (docs/import-kineto.md), reused from one
// event to the next (clear() resets the presence bits, not the buffers).
#include <cstdint>
#include <string>
#include <vector>

namespace asys::kineto {

enum class Category : uint8_t {
  Other,
  Kernel,          // kernel, Kernel (legacy)
  Runtime,         // cuda_runtime, Runtime (legacy), HIP runtime
  Driver,          // cuda_driver
  Memcpy,          // gpu_memcpy, Memcpy (legacy)
  Memset,          // gpu_memset, Memset (legacy)
  CpuOp,           // cpu_op, Operator (legacy)
  UserAnnotation,  // user_annotation
  GpuUserAnnotation,
  Python,          // python_function
  CpuInstant,      // cpu_instant_event
};

// Presence bits of the numeric and text fields below.
enum Field : uint64_t {
  kTs = 1ull << 0, kDur = 1ull << 1, kPid = 1ull << 2, kTid = 1ull << 3,
  kDevice = 1ull << 4, kContext = 1ull << 5, kStream = 1ull << 6, kCorrelation = 1ull << 7,
  kExternalId = 1ull << 8, kRegisters = 1ull << 9, kSharedMemory = 1ull << 10, kGrid = 1ull << 11,
  kBlock = 1ull << 12, kBytes = 1ull << 13, kMemDeviceId = 1ull << 14, kMemDeviceType = 1ull << 15,
  kAddr = 1ull << 16, kMemBytes = 1ull << 17, kInNelems = 1ull << 18, kOutNelems = 1ull << 19,
  kGroupSize = 1ull << 20, kRank = 1ull << 21, kGraphId = 1ull << 22, kGraphNodeId = 1ull << 23,
  kInputDims0 = 1ull << 24,
  // text
  kCollective = 1ull << 32, kDtype = 1ull << 33, kPgName = 1ull << 34, kPgDesc = 1ull << 35,
  kPgRanks = 1ull << 36, kInputType0 = 1ull << 37, kMetaName = 1ull << 38, kPidText = 1ull << 39,
  kTidText = 1ull << 40, kInputDimsText = 1ull << 41, kInputTypes = 1ull << 42, kConcreteInputs = 1ull << 43,
};

struct Event {
  uint64_t has = 0;
  char ph = 0;
  Category cat = Category::Other;
  std::string name;
  int64_t ts = 0, dur = 0;  // nanoseconds (the trace's microseconds, exactly)
  int64_t pid = 0, tid = 0;
  std::string pidText, tidText;  // string pid / tid ("Spans", legacy "stream 7", "25738")
  // args
  int64_t device = 0, context = 0, stream = 0, correlation = 0, externalId = 0;
  int64_t registers = 0, sharedMemory = 0, grid[3] = {}, block[3] = {}, bytes = 0;
  int64_t graphId = 0, graphNodeId = 0;
  int64_t memDeviceId = 0, memDeviceType = 0, addr = 0, memBytes = 0;  // [memory]
  int64_t inNelems = 0, outNelems = 0, groupSize = 0, rank = 0;        // collectives
  int64_t inputDims0 = 0;  // product of the first "Input Dims" entry
  std::string collective, dtype, pgName, pgDesc, pgRanks, inputType0;
  std::string argName;  // args.name of metadata events (process_name, thread_name)
  // A cpu_op's recorded arguments as list texts: "Input Dims" "[[4, 1024], [1024, 2048], []]",
  // "Input type" "[c10::BFloat16, c10::BFloat16, Scalar]", "Concrete Inputs" "[, , 0.5]".
  std::string inputDims, inputTypes, concreteInputs;

  bool is(Field f) const { return (has & f) != 0; }
  void clear() {
    has = 0;
    ph = 0;
    cat = Category::Other;
    name.clear();
  }
};

// One entry of the trace's top-level "deviceProperties".
struct DeviceProperties {
  int64_t id = -1;
  std::string name, uuid;
  int64_t totalGlobalMem = INT64_MIN, computeMajor = INT64_MIN, computeMinor = INT64_MIN,
          numSms = INT64_MIN;
};

// Receives what the parser reads, in file order.
class EventSink {
 public:
  virtual ~EventSink() = default;
  virtual void onEvent(const Event& e) = 0;
  virtual void onDeviceProperties(const DeviceProperties& d) = 0;
  virtual void onDistributedInfo(int64_t rank, int64_t worldSize) = 0;  // INT64_MIN = absent
  virtual void onBaseTime(int64_t baseTimeNanoseconds) = 0;
  virtual void onHostName(const std::string& host) = 0;
};

// Streams `path` (plain or gzip JSON) through the SAX parser into `sink`.
// Throws Error("PATH: ...") for unreadable, corrupt, truncated or foreign
// input (JSON syntax errors give the byte offset). Returns the uncompressed
// size in bytes.
uint64_t parseTrace(const std::string& path, EventSink& sink);

}  // namespace asys::kineto
