#pragma once
// Maps Kineto events to asysrep rows (docs/import-kineto.md has the table of
// fields and every decision). One Mapper writes one report from one or more
// rank files: beginInput / (parser events) / endInput per file, then finish.
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/import/kineto_event.h"

namespace asys {
class ReportWriter;
}

namespace asys::kineto {

// HGTX_EVENTS.category of the imported ranges: which Kineto category a range
// came from (plain SQL can count them).
enum RangeCategory : int64_t {
  kCategoryUserAnnotation = 1,
  kCategoryCpuOp = 2,
  kCategoryPython = 3,
  kCategoryGpuUserAnnotation = 4,
  kCategoryCollective = 5,  // the PCCL operator range made for an NCCL kernel
};

// Pseudo thread ids (within a rank's process) of the per-device GPU
// annotation tracks: kGpuAnnotationTid + device (devices 0..255).
constexpr int64_t kGpuAnnotationTid = 0xFFFF00;
// String thread ids (and numeric ones that do not fit in 24 bits) are
// numbered from here, in order of first appearance in their file.
constexpr int64_t kInternedTidBase = 0xF00000;

class Mapper final : public EventSink {
 public:
  explicit Mapper(ReportWriter& out);

  void beginInput(size_t index, size_t count, const std::string& path);
  void endInput();
  void finish();  // META_DATA, PROCESSES, TARGET_INFO_PPU, enums, domains

  void onEvent(const Event& e) override;
  void onDeviceProperties(const DeviceProperties& d) override;
  void onDistributedInfo(int64_t rank, int64_t worldSize) override;
  void onBaseTime(int64_t baseTimeNanoseconds) override;
  void onHostName(const std::string& host) override;

 private:
  // Tables whose rows carry times; rows are counted so that one input's rows
  // (a rowid range) can be shifted when its clock offset is learnt late.
  enum Table { kApiT, kKernelT, kMemcpyT, kMemsetT, kHgtxT, kMemoryT, kTableCount };

  struct TransparentHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  struct NameInfo {  // facts about an interned name, computed once
    const std::string* text = nullptr;  // the name (a key of strings_)
    uint32_t shortName = 0;
    int8_t nccl = -1, launch = -1;
    int32_t copyKind = -1, srcKind = -1, dstKind = -1, memsetKind = -1;
    bool pythonParsed = false;
    uint32_t pythonFile = 0, pythonFunction = 0;  // as a Python call-stack frame
  };
  struct MemoryRow {  // a [memory] event written in this input: its row and place
    int64_t rowid, globalTid, start;
  };
  struct Launch {  // a kernel-launching API call (kept for NCCL kernels)
    int64_t correlation, start, end, globalTid, externalId;
  };
  struct Collective {  // the collective's arguments from one event
    uint64_t has = 0;
    int64_t inNelems = 0, outNelems = 0, groupSize = 0, rank = 0, inputDims0 = 0;
    std::string collective, dtype, pgName, pgRanks, inputType0;
    void from(const Event& e);
  };
  struct CommsRange {  // record_param_comms op or nccl:* annotation on a host thread
    int64_t globalTid, start, end, externalId;
    std::string name;
    Collective args;
  };
  struct NcclKernel {
    int64_t correlation, externalId;
    std::string name;
    Collective args;
  };
  struct DeviceSlot {
    int claimedBy = -1;  // input whose activity uses this id
    bool hasProperties = false;
    DeviceProperties properties;
  };
  struct ProcessInfo {
    int64_t pid;
    std::string name;
  };

  uint32_t intern(std::string_view s);
  NameInfo& info(uint32_t id);  // invalidated by intern()
  int64_t time(int64_t ns) const { return ns + shift_; }
  int64_t processPid(int64_t kinetoPidHint);
  int64_t cpuThread(const Event& e);
  int64_t tidOf(const Event& e);
  int32_t device(int64_t local);
  int32_t gpuDevice(const Event& e);
  template <typename Row>
  void deviceActivity(const Event& e, Row& r);
  int64_t domain(int64_t& slot);  // the domain's id, created on first use
  void countRow(Table t) { ++rows_[t]; }

  void kernel(const Event& e);
  void api(const Event& e, int32_t eventClass);
  void memcpy(const Event& e);
  void memset(const Event& e);
  void range(const Event& e, int64_t category, int64_t domainId);
  void gpuRange(const Event& e);
  void memoryEvent(const Event& e);
  void memoryCallchains();
  uint64_t frameOf(uint32_t nameId, int64_t category);
  void metadata(const Event& e);
  void writeCollectiveRanges(int64_t delta);
  std::string collectiveText(const NcclKernel& k, const CommsRange* op, const CommsRange* annotation) const;

  ReportWriter& out_;
  std::unordered_map<std::string, uint32_t, TransparentHash, std::equal_to<>> strings_;
  std::vector<NameInfo> names_;  // by string id
  std::map<int64_t, DeviceSlot> devices_;
  std::vector<ProcessInfo> processes_;
  std::vector<int64_t> usedPids_;
  int64_t rows_[kTableCount] = {};
  int64_t gpuDomain_ = 0, pythonDomain_ = 0, nextDomain_ = 1;
  int64_t memoryEventId_ = 0;
  std::map<std::vector<uint64_t>, int64_t> chains_;  // frames, root first -> CALLCHAINS id
  int64_t captureStart_ = INT64_MAX, captureEnd_ = INT64_MIN;
  bool haveReference_ = false;
  int64_t reference_ = 0;     // clock offset of the report: first input's baseTimeNanoseconds (or 0)
  int64_t previousBase_ = 0;  // the last input's base, the guess for the next one
  std::string hostName_;

  // The input being read.
  size_t input_ = 0, inputCount_ = 0;
  std::string path_, fileName_;
  int64_t rank_ = INT64_MIN, worldSize_ = INT64_MIN;
  bool haveBase_ = false, wroteTimes_ = false;
  int64_t base_ = 0, shift_ = 0;
  int64_t pid_ = 0;  // report pid of this input's process (0 = not chosen yet)
  int64_t rowsAtStart_[kTableCount] = {};
  int64_t minTime_ = INT64_MAX, maxTime_ = INT64_MIN;  // with shift_ applied
  std::unordered_map<int64_t, int64_t> tidByNumber_;   // Kineto tid -> report tid
  std::unordered_map<std::string, int64_t> tidByText_;
  int64_t nextInternedTid_ = kInternedTidBase;
  std::map<std::pair<int64_t, int64_t>, int64_t> cpuThreads_;  // (Kineto pid, report tid) -> globalTid
  std::map<std::pair<int64_t, int64_t>, std::string> threadNames_;
  std::map<int64_t, std::string> processNames_;
  int64_t lastTidKey_ = INT64_MIN, lastGlobalTid_ = 0, lastKinetoPid_ = INT64_MIN;
  std::unordered_map<int64_t, int32_t> deviceMap_;  // this input's device id -> report device id
  std::vector<DeviceProperties> inputDevices_;
  std::vector<int32_t> gpuAnnotationDevices_;
  std::vector<Launch> launches_;
  std::vector<CommsRange> comms_, ncclAnnotations_;
  std::vector<NcclKernel> ncclKernels_;
  std::vector<MemoryRow> memoryRows_;
};

}  // namespace asys::kineto
