// Kineto events -> asysrep rows. The field-by-field mapping and the reasons
// for each choice are in docs/import-kineto.md; comments here say only what
// the code cannot.
#include "core/import/kineto_mapper.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "core/analysis/intervals.h"
#include "core/base/error.h"
#include "core/base/text.h"
#include "core/import/kineto_names.h"
#include "core/writer/report_writer.h"

namespace asys::kineto {

namespace {

constexpr int64_t kMaxPid = 0xFFFFFF;

std::string baseName(const std::string& path) {
  const size_t slash = path.find_last_of("/\\");
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

int32_t narrow(int64_t v) {
  return v >= std::numeric_limits<int32_t>::min() + 1 && v <= std::numeric_limits<int32_t>::max()
             ? static_cast<int32_t>(v)
             : kNull32;
}

bool allDigits(std::string_view s) {
  if (s.empty() || s.size() > 18) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

}  // namespace

void Mapper::Collective::from(const Event& e) {
  has = e.has;
  if (e.is(kInNelems)) inNelems = e.inNelems;
  if (e.is(kOutNelems)) outNelems = e.outNelems;
  if (e.is(kGroupSize)) groupSize = e.groupSize;
  if (e.is(kRank)) rank = e.rank;
  if (e.is(kInputDims0)) inputDims0 = e.inputDims0;
  if (e.is(kCollective)) collective = e.collective;
  if (e.is(kDtype)) dtype = e.dtype;
  if (e.is(kPgName)) pgName = e.pgName;
  if (e.is(kPgRanks)) pgRanks = normalizeRanks(e.pgRanks);
  if (e.is(kInputType0)) inputType0 = e.inputType0;
}

Mapper::Mapper(ReportWriter& out) : out_(out) { names_.resize(1); }

uint32_t Mapper::intern(std::string_view s) {
  auto it = strings_.find(s);
  if (it != strings_.end()) return it->second;
  const uint32_t id = out_.intern(s);
  auto added = strings_.emplace(std::string(s), id).first;
  if (names_.size() <= id) names_.resize(static_cast<size_t>(id) + 1);
  names_[id].text = &added->first;
  return id;
}

Mapper::NameInfo& Mapper::info(uint32_t id) { return names_[id]; }

void Mapper::beginInput(size_t index, size_t count, const std::string& path) {
  input_ = index;
  inputCount_ = count;
  path_ = path;
  fileName_ = baseName(path);
  rank_ = worldSize_ = INT64_MIN;
  haveBase_ = wroteTimes_ = false;
  base_ = 0;
  // Until the file says otherwise, assume its clock offset is the previous
  // file's (rank files of one job share it); corrected in endInput.
  shift_ = index == 0 ? 0 : previousBase_ - reference_;
  pid_ = 0;
  std::copy(std::begin(rows_), std::end(rows_), std::begin(rowsAtStart_));
  minTime_ = INT64_MAX;
  maxTime_ = INT64_MIN;
  tidByNumber_.clear();
  tidByText_.clear();
  nextInternedTid_ = kInternedTidBase;
  cpuThreads_.clear();
  threadNames_.clear();
  processNames_.clear();
  lastTidKey_ = lastKinetoPid_ = INT64_MIN;
  deviceMap_.clear();
  inputDevices_.clear();
  gpuAnnotationDevices_.clear();
  launches_.clear();
  comms_.clear();
  ncclAnnotations_.clear();
  ncclKernels_.clear();
  memoryRows_.clear();
}

void Mapper::onBaseTime(int64_t base) {
  haveBase_ = true;
  base_ = base;
  if (input_ == 0) {
    haveReference_ = true;
    reference_ = base;
  } else if (!wroteTimes_) {
    shift_ = base - reference_;
  }
}

void Mapper::onDistributedInfo(int64_t rank, int64_t worldSize) {
  rank_ = rank;
  worldSize_ = worldSize;
}

void Mapper::onHostName(const std::string& host) {
  if (hostName_.empty()) hostName_ = host;
}

void Mapper::onDeviceProperties(const DeviceProperties& d) { inputDevices_.push_back(d); }

int64_t Mapper::processPid(int64_t hint) {
  if (pid_ != 0) return pid_;
  auto used = [&](int64_t p) { return std::find(usedPids_.begin(), usedPids_.end(), p) != usedPids_.end(); };
  int64_t pid = hint;
  if (pid < 1 || pid > kMaxPid || used(pid)) {
    pid = 1;
    while (used(pid)) ++pid;
  }
  usedPids_.push_back(pid);
  pid_ = pid;
  return pid_;
}

int64_t Mapper::tidOf(const Event& e) {
  int64_t tid = 0;
  int64_t digits = 0;
  if (e.is(kTid)) {
    tid = e.tid == std::numeric_limits<int64_t>::min() ? std::numeric_limits<int64_t>::max() : e.tid < 0 ? -e.tid : e.tid;
  } else if (e.is(kTidText) && allDigits(e.tidText) && parseInt64(e.tidText, digits)) {
    tid = digits;  // (past int64, the digits are a name like any other text below)
  } else if (e.is(kTidText)) {
    auto it = tidByText_.find(e.tidText);
    if (it != tidByText_.end()) return it->second;
    const int64_t t = nextInternedTid_++ & kMaxPid;
    tidByText_.emplace(e.tidText, t);
    return t;
  }
  if (tid <= kMaxPid) return tid;
  auto it = tidByNumber_.find(tid);
  if (it != tidByNumber_.end()) return it->second;
  const int64_t t = nextInternedTid_++ & kMaxPid;
  tidByNumber_.emplace(tid, t);
  return t;
}

int64_t Mapper::cpuThread(const Event& e) {
  const int64_t kinetoPid = e.is(kPid) ? e.pid : -1;
  const int64_t key = e.is(kTid) ? e.tid : INT64_MIN + 1;
  if (key == lastTidKey_ && kinetoPid == lastKinetoPid_ && key != INT64_MIN + 1) return lastGlobalTid_;
  const int64_t pid = processPid(kinetoPid);
  const int64_t tid = tidOf(e);
  const int64_t globalTid = (pid << 24) | tid;
  cpuThreads_.emplace(std::make_pair(kinetoPid, tid), globalTid);
  lastTidKey_ = key;
  lastKinetoPid_ = kinetoPid;
  lastGlobalTid_ = globalTid;
  return globalTid;
}

int32_t Mapper::device(int64_t local) {
  auto it = deviceMap_.find(local);
  if (it != deviceMap_.end()) return it->second;
  int64_t id = local;
  auto slot = devices_.find(local);
  const int current = static_cast<int>(input_);
  if (slot != devices_.end() && slot->second.claimedBy != -1 && slot->second.claimedBy != current) {
    // Another rank's file already has activity on this id (ranks on
    // different hosts): give this one a new id.
    id = devices_.rbegin()->first + 1;
    for (const auto& [other, report] : deviceMap_) id = std::max<int64_t>(id, report + 1);
  }
  devices_[id].claimedBy = current;
  const int32_t report = narrow(id);
  deviceMap_.emplace(local, report);
  return report;
}

int32_t Mapper::gpuDevice(const Event& e) {
  if (e.is(kDevice)) return device(e.device);
  if (e.is(kPid) && e.pid >= 0) return device(e.pid);  // GPU tracks use the device as pid
  return kNull32;
}

int64_t Mapper::domain(int64_t& slot) {
  if (slot == 0) slot = nextDomain_++;
  return slot;
}

void Mapper::onEvent(const Event& e) {
  if (e.is(kTs)) {
    const int64_t start = time(e.ts);
    const int64_t end = start + (e.is(kDur) ? e.dur : 0);
    minTime_ = std::min(minTime_, start);
    maxTime_ = std::max(maxTime_, end);
  }
  switch (e.ph) {
    case 'X':
      if (!e.is(kTs)) return;
      switch (e.cat) {
        case Category::Kernel: kernel(e); break;
        case Category::Runtime: api(e, 0); break;
        case Category::Driver: api(e, 1); break;
        case Category::Memcpy: memcpy(e); break;
        case Category::Memset: memset(e); break;
        case Category::CpuOp: range(e, kCategoryCpuOp, kNull); break;
        case Category::UserAnnotation: range(e, kCategoryUserAnnotation, kNull); break;
        case Category::Python: range(e, kCategoryPython, domain(pythonDomain_)); break;
        case Category::GpuUserAnnotation: gpuRange(e); break;
        default: break;
      }
      break;
    case 'i':
    case 'I':
      if (e.is(kTs) && e.name == "[memory]") memoryEvent(e);
      break;
    case 'M': metadata(e); break;
    default: break;
  }
}

// The columns every device activity row (kernel, memcpy, memset) shares.
template <typename Row>
void Mapper::deviceActivity(const Event& e, Row& r) {
  r.start = time(e.ts);
  r.end = r.start + (e.is(kDur) ? e.dur : 0);
  r.deviceId = gpuDevice(e);
  r.contextId = e.is(kContext) ? narrow(e.context) : kNull32;
  r.streamId = e.is(kStream) ? narrow(e.stream) : e.is(kTid) ? narrow(e.tid) : kNull32;
  r.correlationId = e.is(kCorrelation) ? e.correlation : kNull;
  r.globalPid = processPid(-1) << 24;
}

void Mapper::kernel(const Event& e) {
  wroteTimes_ = true;
  const uint32_t nameId = intern(e.name);
  if (info(nameId).shortName == 0) {
    const uint32_t shortName = intern(kernelShortName(e.name));  // may grow names_
    info(nameId).shortName = shortName;
    info(nameId).nccl = containsIgnoreCase(e.name, "nccl") ? 1 : 0;
  }
  const uint32_t shortName = info(nameId).shortName;
  KernelRow r;
  deviceActivity(e, r);
  r.demangledName = nameId;
  r.shortName = shortName;
  r.mangledName = kNoStringId;  // Kineto writes only the demangled name
  const bool grid = e.is(kGrid), block = e.is(kBlock);
  r.gridX = grid ? narrow(e.grid[0]) : kNull32;
  r.gridY = grid ? narrow(e.grid[1]) : kNull32;
  r.gridZ = grid ? narrow(e.grid[2]) : kNull32;
  r.blockX = block ? narrow(e.block[0]) : kNull32;
  r.blockY = block ? narrow(e.block[1]) : kNull32;
  r.blockZ = block ? narrow(e.block[2]) : kNull32;
  r.registersPerThread = e.is(kRegisters) ? narrow(e.registers) : kNull32;
  // Kineto's "shared memory" is static + dynamic; it cannot be split.
  r.staticSharedMemory = e.is(kSharedMemory) ? narrow(e.sharedMemory) : kNull32;
  r.dynamicSharedMemory = kNull32;
  r.graphId = e.is(kGraphId) && e.graphId != 0 ? e.graphId : kNull;
  r.graphNodeId = e.is(kGraphNodeId) && e.graphNodeId != 0 ? e.graphNodeId : kNull;
  out_.kernel(r);
  countRow(kKernelT);
  if (info(nameId).nccl == 1) {
    NcclKernel k;
    k.correlation = r.correlationId;
    k.externalId = e.is(kExternalId) ? e.externalId : kNull;
    k.name = e.name;
    k.args.from(e);
    ncclKernels_.push_back(std::move(k));
  }
}

void Mapper::api(const Event& e, int32_t eventClass) {
  wroteTimes_ = true;
  const uint32_t nameId = intern(e.name);
  NameInfo& n = info(nameId);
  if (n.launch < 0) n.launch = e.name.find("Launch") != std::string::npos ? 1 : 0;
  ApiRow r;
  r.start = time(e.ts);
  r.end = r.start + (e.is(kDur) ? e.dur : 0);
  r.eventClass = eventClass;
  r.globalTid = cpuThread(e);
  r.correlationId = e.is(kCorrelation) ? e.correlation : kNull;
  r.nameId = nameId;
  r.returnValue = kNull;
  out_.api(r);
  countRow(kApiT);
  if (info(nameId).launch == 1 && r.correlationId != kNull) {
    launches_.push_back({r.correlationId, r.start, r.end, r.globalTid, e.is(kExternalId) ? e.externalId : kNull});
  }
}

void Mapper::memcpy(const Event& e) {
  wroteTimes_ = true;
  const uint32_t nameId = intern(e.name);
  NameInfo& n = info(nameId);
  if (n.copyKind < 0) {
    const CopyKinds k = parseMemcpyName(e.name);
    n.copyKind = k.copy;
    n.srcKind = k.src;
    n.dstKind = k.dst;
  }
  MemcpyRow r;
  deviceActivity(e, r);
  r.bytes = e.is(kBytes) ? e.bytes : kNull;
  r.copyKind = n.copyKind;
  r.srcKind = n.srcKind;
  r.dstKind = n.dstKind;
  out_.memcpy(r);
  countRow(kMemcpyT);
}

void Mapper::memset(const Event& e) {
  wroteTimes_ = true;
  const uint32_t nameId = intern(e.name);
  NameInfo& n = info(nameId);
  if (n.memsetKind < 0) n.memsetKind = parseMemsetName(e.name);
  MemsetRow r;
  deviceActivity(e, r);
  r.value = kNull32;  // not recorded by Kineto
  r.bytes = e.is(kBytes) ? e.bytes : kNull;
  r.memKind = n.memsetKind;
  out_.memset(r);
  countRow(kMemsetT);
}

namespace {
// A cpu_op's recorded shapes, types and scalar values as the operator
// recognisers read them (the autograd-shapes-hgtx layout):
// "sizes = [[8944, 1024], [1024, 2816]], types = [c10::BFloat16, c10::BFloat16]", and
// ", values = [, , 0.5]" when some value was recorded.
std::string operatorArguments(const Event& e) {
  std::string text = "sizes = " + e.inputDims;
  if (e.is(kInputTypes)) text += ", types = " + e.inputTypes;
  if (e.is(kConcreteInputs) && e.concreteInputs.find_first_not_of("[], ") != std::string::npos) {
    text += ", values = " + e.concreteInputs;
  }
  return text;
}
}  // namespace

void Mapper::range(const Event& e, int64_t category, int64_t domainId) {
  wroteTimes_ = true;
  HgtxRow r;
  r.start = time(e.ts);
  r.end = r.start + (e.is(kDur) ? e.dur : 0);
  r.eventType = 59;
  r.category = category;
  r.globalTid = cpuThread(e);
  r.textId = intern(e.name);
  r.domainId = domainId;
  if (category == kCategoryCpuOp && e.is(kInputDimsText)) r.argsId = intern(operatorArguments(e));
  out_.hgtx(r);
  countRow(kHgtxT);
  if (category != kCategoryPython) {
    const bool comms = e.name == "record_param_comms";
    const bool annotation = !comms && e.name.rfind("nccl:", 0) == 0;
    if (comms || annotation) {
      CommsRange c{r.globalTid, r.start, r.end, e.is(kExternalId) ? e.externalId : kNull, e.name, {}};
      c.args.from(e);
      (comms ? comms_ : ncclAnnotations_).push_back(std::move(c));
    }
  }
}

void Mapper::gpuRange(const Event& e) {
  wroteTimes_ = true;
  const int32_t dev = gpuDevice(e);
  const int64_t tid = kGpuAnnotationTid + (dev == kNull32 ? 0 : (dev & 0xFF));
  if (std::find(gpuAnnotationDevices_.begin(), gpuAnnotationDevices_.end(), dev) == gpuAnnotationDevices_.end()) {
    gpuAnnotationDevices_.push_back(dev);
  }
  HgtxRow r;
  r.start = time(e.ts);
  r.end = r.start + (e.is(kDur) ? e.dur : 0);
  r.eventType = 60;
  r.category = kCategoryGpuUserAnnotation;
  r.globalTid = (processPid(-1) << 24) | tid;
  r.textId = intern(e.name);
  r.domainId = domain(gpuDomain_);
  out_.hgtx(r);
  countRow(kHgtxT);
}

void Mapper::memoryEvent(const Event& e) {
  wroteTimes_ = true;
  MemoryEventRow r;
  r.start = time(e.ts);
  r.globalTid = cpuThread(e);
  r.globalPid = (r.globalTid >> 24) << 24;
  r.deviceId = !e.is(kMemDeviceId) ? kNull32 : e.memDeviceId < 0 ? narrow(e.memDeviceId) : device(e.memDeviceId);
  r.contextId = kNull32;
  r.eventId = ++memoryEventId_;
  r.address = e.is(kAddr) ? e.addr : kNull;
  const int64_t bytes = e.is(kMemBytes) ? e.memBytes : 0;
  r.bytes = bytes < 0 ? -bytes : bytes;
  // Device Type is c10's: 0 CPU (host memory), 1 CUDA (also HIP builds).
  r.memKind = !e.is(kMemDeviceType) ? kMemUnknown : e.memDeviceType == 1 ? kMemDevice
                                               : e.memDeviceType == 0 ? kMemPageable
                                                                      : kMemUnknown;
  r.memoryOperationType = bytes < 0 ? 1 : 0;
  r.accessFlags = kNull32;
  r.correlationId = kNull;
  r.callchainId = kNull;  // set in endInput, from the ranges around it
  out_.memoryEvent(r);
  countRow(kMemoryT);
  memoryRows_.push_back({rows_[kMemoryT], r.globalTid, r.start});
}

// A frame as (symbol << 32 | module) string ids; module 0 = none.
uint64_t Mapper::frameOf(uint32_t nameId, int64_t category) {
  if (category != kCategoryPython) return static_cast<uint64_t>(nameId) << 32;
  if (!info(nameId).pythonParsed) {
    const PythonFrame f = parsePythonFrame(*info(nameId).text);
    const uint32_t file = f.file.empty() ? kNoStringId : intern(f.file);  // may grow names_
    const uint32_t function = intern(f.function);
    NameInfo& n = info(nameId);
    n.pythonParsed = true;
    n.pythonFile = file;
    n.pythonFunction = function;
  }
  return (static_cast<uint64_t>(info(nameId).pythonFunction) << 32) | info(nameId).pythonFile;
}

// PyTorch records no native stack for a [memory] event: its call chain is
// the nesting of the CPU-side ranges around it on its thread at that
// instant (python_function frames, cpu_op and user_annotation ranges, as
// they nest), outermost first. One CALLCHAINS id per distinct chain.
void Mapper::memoryCallchains() {
  if (memoryRows_.empty()) return;
  std::set<int64_t> threads;
  for (const MemoryRow& m : memoryRows_) threads.insert(m.globalTid);
  const std::vector<int64_t> cells = out_.queryIntegers(
      "SELECT rowid, globalTid, start, end, textId, category FROM HGTX_EVENTS WHERE rowid > " +
      std::to_string(rowsAtStart_[kHgtxT]) + " AND rowid <= " + std::to_string(rows_[kHgtxT]) +
      " AND eventType = 59 AND category IN (" + std::to_string(kCategoryUserAnnotation) + "," +
      std::to_string(kCategoryCpuOp) + "," + std::to_string(kCategoryPython) + ")");
  std::vector<int64_t> rangeRow, rangeTid, rangeStart, rangeEnd, rangeText, rangeCategory;
  for (size_t i = 0; i + 6 <= cells.size(); i += 6) {
    if (!threads.count(cells[i + 1]) || cells[i + 4] == kNull) continue;
    rangeRow.push_back(cells[i]);
    rangeTid.push_back(cells[i + 1]);
    rangeStart.push_back(cells[i + 2]);
    rangeEnd.push_back(cells[i + 3]);
    rangeText.push_back(cells[i + 4]);
    rangeCategory.push_back(cells[i + 5]);
  }
  std::vector<int64_t> memTid, memTime;
  for (const MemoryRow& m : memoryRows_) {
    memTid.push_back(m.globalTid);
    memTime.push_back(m.start);
  }
  int64_t nextChain = chains_.empty() ? 1 : chains_.size() + 1;
  std::vector<uint32_t> around;
  std::vector<uint64_t> frames;
  auto finish = [&](uint32_t q) {
    if (around.empty()) return;
    // Outermost first: earlier start, then the longer, then the one written first.
    std::sort(around.begin(), around.end(), [&](uint32_t a, uint32_t b) {
      if (rangeStart[a] != rangeStart[b]) return rangeStart[a] < rangeStart[b];
      if (rangeEnd[a] != rangeEnd[b]) return rangeEnd[a] > rangeEnd[b];
      return rangeRow[a] < rangeRow[b];
    });
    frames.clear();
    for (uint32_t r : around) frames.push_back(frameOf(static_cast<uint32_t>(rangeText[r]), rangeCategory[r]));
    auto [it, added] = chains_.emplace(frames, nextChain);
    if (added) {
      ++nextChain;
      const int32_t depth = static_cast<int32_t>(frames.size());
      for (int32_t i = 0; i < depth; ++i) {  // depth 0 is the innermost frame
        const uint64_t f = frames[static_cast<size_t>(i)];
        out_.callchainFrame(it->second, depth - 1 - i, static_cast<uint32_t>(f >> 32), static_cast<uint32_t>(f), 0);
      }
    }
    out_.memoryEventCallchain(memoryRows_[q].rowid, it->second);
    around.clear();
  };
  uint32_t current = 0;
  bool any = false;
  forEachEnclosing(KeyedSpans{rangeTid, rangeStart, rangeEnd}, KeyedSpans{memTid, memTime, memTime},
                   [&](uint32_t q, uint32_t c) {
                     if (any && q != current) finish(current);
                     any = true;
                     current = q;
                     around.push_back(c);
                   });
  if (any) finish(current);
}

void Mapper::metadata(const Event& e) {
  if (!e.is(kMetaName)) return;
  const int64_t kinetoPid = e.is(kPid) ? e.pid : -1;
  if (e.name == "process_name") {
    processNames_.emplace(kinetoPid, e.argName);
  } else if (e.name == "thread_name") {
    threadNames_.emplace(std::make_pair(kinetoPid, tidOf(e)), e.argName);
  }
}

void Mapper::endInput() {
  memoryCallchains();  // before the rows' times shift: ranges and events shift alike
  const int64_t base = haveBase_ ? base_ : 0;
  if (input_ == 0 && !haveReference_) {
    haveReference_ = true;
    reference_ = 0;
  }
  const int64_t finalShift = input_ == 0 ? 0 : base - reference_;
  const int64_t delta = finalShift - shift_;
  if (delta != 0 && wroteTimes_) {
    static const char* const kTables[kTableCount][2] = {
        {"HGGC_API", "start=start+D,end=end+D"},      {"HGGC_KERNEL", "start=start+D,end=end+D"},
        {"HGGC_MEMCPY", "start=start+D,end=end+D"},   {"HGGC_MEMSET", "start=start+D,end=end+D"},
        {"HGTX_EVENTS", "start=start+D,end=end+D"},   {"PPU_MEMORY_USAGE_EVENTS", "start=start+D"},
    };
    for (int t = 0; t < kTableCount; ++t) {
      if (rows_[t] == rowsAtStart_[t]) continue;
      std::string set = kTables[t][1];
      for (size_t at = set.find('D'); at != std::string::npos; at = set.find('D', at + 1)) {
        set.replace(at, 1, std::to_string(delta));
      }
      out_.execSql(std::string("UPDATE ") + kTables[t][0] + " SET " + set + " WHERE rowid > " +
                   std::to_string(rowsAtStart_[t]) + " AND rowid <= " + std::to_string(rows_[t]));
    }
  }
  if (minTime_ <= maxTime_) {
    captureStart_ = std::min(captureStart_, minTime_ + delta);
    captureEnd_ = std::max(captureEnd_, maxTime_ + delta);
  }
  previousBase_ = base;

  writeCollectiveRanges(delta);

  // Devices: properties of this file for the ids it used, and the ids it
  // lists without activity (unless another file already described them).
  for (const DeviceProperties& d : inputDevices_) {
    auto mapped = deviceMap_.find(d.id);
    const int64_t id = mapped != deviceMap_.end() ? mapped->second : d.id;
    DeviceSlot& slot = devices_[id];
    if (mapped != deviceMap_.end() || !slot.hasProperties) {
      slot.properties = d;
      slot.properties.id = id;
      slot.hasProperties = true;
    }
  }

  if (pid_ == 0) return;  // nothing in this file needed a process
  std::set<int64_t> named;
  for (const auto& [key, globalTid] : cpuThreads_) {
    auto it = threadNames_.find(key);
    if (it == threadNames_.end() || !named.insert(globalTid).second) continue;
    out_.threadName(globalTid, intern(it->second), 0);
  }
  for (int32_t dev : gpuAnnotationDevices_) {
    const int64_t tid = kGpuAnnotationTid + (dev == kNull32 ? 0 : (dev & 0xFF));
    const std::string name =
        "gpu_user_annotation (device " + (dev == kNull32 ? std::string("?") : std::to_string(dev)) + ")";
    out_.threadName((pid_ << 24) | tid, intern(name), 0);
  }
  int64_t rank = rank_;
  if (rank == INT64_MIN && inputCount_ > 1) rank = static_cast<int64_t>(input_);
  std::string name;
  if (rank != INT64_MIN) {
    name = "rank " + std::to_string(rank) + " (" + fileName_ + ")";
  } else {
    // A single file without rank: the profiled process's own name.
    std::string process;
    for (const auto& [kinetoPid, processName] : processNames_) {
      if (kinetoPid == pid_ || process.empty()) process = processName;
    }
    name = process.empty() ? fileName_ : process + " (" + fileName_ + ")";
  }
  processes_.push_back({pid_, name});
}

void Mapper::writeCollectiveRanges(int64_t delta) {
  if (ncclKernels_.empty()) return;
  std::unordered_map<int64_t, const Launch*> launchOf;
  for (const NcclKernel& k : ncclKernels_) {
    if (k.correlation != kNull) launchOf.emplace(k.correlation, nullptr);
  }
  for (const Launch& l : launches_) {
    auto it = launchOf.find(l.correlation);
    if (it != launchOf.end() && it->second == nullptr) it->second = &l;
  }
  auto byThreadAndStart = [](const CommsRange& a, const CommsRange& b) {
    return a.globalTid != b.globalTid ? a.globalTid < b.globalTid : a.start < b.start;
  };
  std::sort(comms_.begin(), comms_.end(), byThreadAndStart);
  std::sort(ncclAnnotations_.begin(), ncclAnnotations_.end(), byThreadAndStart);
  // The innermost (latest-starting) range on the thread that holds `at`.
  auto enclosing = [](const std::vector<CommsRange>& ranges, int64_t globalTid, int64_t at) -> const CommsRange* {
    const CommsRange* best = nullptr;
    auto it = std::upper_bound(ranges.begin(), ranges.end(), std::make_pair(globalTid, at),
                               [](const std::pair<int64_t, int64_t>& v, const CommsRange& r) {
                                 return v.first != r.globalTid ? v.first < r.globalTid : v.second < r.start;
                               });
    while (it != ranges.begin()) {
      --it;
      if (it->globalTid != globalTid) break;
      if (it->start <= at && at <= it->end) {
        best = &*it;
        break;
      }
    }
    return best;
  };
  auto byExternalId = [](const std::vector<CommsRange>& ranges, int64_t ext) -> const CommsRange* {
    if (ext == kNull) return nullptr;
    for (const CommsRange& r : ranges) {
      if (r.externalId == ext) return &r;
    }
    return nullptr;
  };
  for (const NcclKernel& k : ncclKernels_) {
    auto found = launchOf.find(k.correlation);
    const Launch* launch = found == launchOf.end() ? nullptr : found->second;
    const CommsRange* op = nullptr;
    const CommsRange* annotation = nullptr;
    if (launch != nullptr) {
      op = enclosing(comms_, launch->globalTid, launch->start);
      annotation = enclosing(ncclAnnotations_, launch->globalTid, launch->start);
      if (op == nullptr) op = byExternalId(comms_, launch->externalId);
    }
    if (op == nullptr) op = byExternalId(comms_, k.externalId);
    int64_t start, end, globalTid;
    if (launch != nullptr) {
      start = launch->start;
      end = launch->end;
      globalTid = launch->globalTid;
    } else if (op != nullptr) {
      start = op->start;
      end = op->end;
      globalTid = op->globalTid;
    } else {
      continue;  // neither the launch nor the collective's op is in the trace
    }
    const std::string text = collectiveText(k, op, annotation);
    HgtxRow r;
    r.start = start + delta;
    r.end = end + delta;
    r.eventType = 59;
    r.category = kCategoryCollective;
    r.globalTid = globalTid;
    r.textId = intern(text);
    out_.hgtx(r);
    countRow(kHgtxT);
  }
}

std::string Mapper::collectiveText(const NcclKernel& k, const CommsRange* op, const CommsRange* annotation) const {
  const Collective* sources[3] = {&k.args, op ? &op->args : nullptr, annotation ? &annotation->args : nullptr};
  // Operator: the collective's own name, else the nccl:* annotation, else the kernel name.
  std::string name;
  for (const Collective* c : sources) {
    if (name.empty() && c != nullptr && (c->has & kCollective)) name = collectiveOpName(c->collective);
  }
  if (name.empty() && annotation != nullptr) name = collectiveOpName(annotation->name);
  if (name.empty()) name = std::string(kernelCollective(k.name));
  if (name.empty()) name = "Unknown";

  // c: elements, as NCCL counts them (ReduceScatter: the output per rank).
  std::string count = "-";
  const bool outputCount = name == "ReduceScatter";
  for (const Collective* c : sources) {
    if (count != "-" || c == nullptr) continue;
    if (outputCount && (c->has & kOutNelems)) count = std::to_string(c->outNelems);
    else if (!outputCount && (c->has & kInNelems)) count = std::to_string(c->inNelems);
    else if (c->has & kInputDims0) count = std::to_string(c->inputDims0);
  }

  // d: NCCL data type number.
  int dtype = -1;
  for (const Collective* c : sources) {
    if (dtype < 0 && c != nullptr && (c->has & kDtype)) dtype = ncclDataType(c->dtype);
  }
  for (const Collective* c : sources) {
    if (dtype < 0 && c != nullptr && (c->has & kInputType0)) dtype = ncclDataType(c->inputType0);
  }
  if (dtype < 0) dtype = ncclDataType(kernelTypeSuffix(k.name));

  // w, the group's ranks and name.
  int64_t world = INT64_MIN;
  std::string ranks, pgName;
  for (const Collective* c : sources) {
    if (c == nullptr) continue;
    if (world == INT64_MIN && (c->has & kGroupSize)) world = c->groupSize;
    if (ranks.empty() && !c->pgRanks.empty()) ranks = c->pgRanks;
    if (pgName.empty() && (c->has & kPgName)) pgName = c->pgName;
  }
  if (world == INT64_MIN && !ranks.empty()) world = 1 + std::count(ranks.begin(), ranks.end(), ',');
  if (world == INT64_MIN) world = worldSize_;
  if (ranks.empty() && world != INT64_MIN && world > 0 && world <= 65536) {
    for (int64_t i = 0; i < world; ++i) ranks += (i ? "," : "") + std::to_string(i);
  }
  if (pgName.empty()) pgName = "0";  // PyTorch's default group

  // r: the rank within the group.
  int64_t globalRank = INT64_MIN;
  for (const Collective* c : sources) {
    if (globalRank == INT64_MIN && c != nullptr && (c->has & kRank)) globalRank = c->rank;
  }
  if (globalRank == INT64_MIN) globalRank = rank_;
  std::string rank = "-";
  if (globalRank != INT64_MIN) {
    rank = std::to_string(globalRank);
    int64_t index = 0;
    size_t from = 0;
    while (from <= ranks.size() && !ranks.empty()) {
      const size_t comma = ranks.find(',', from);
      const std::string item = ranks.substr(from, comma == std::string::npos ? std::string::npos : comma - from);
      if (item == std::to_string(globalRank)) {
        rank = std::to_string(index);
        break;
      }
      if (comma == std::string::npos) break;
      from = comma + 1;
      ++index;
    }
  }

  return name + ", p:0, c:" + count + ", d:" + (dtype < 0 ? std::string("-") : std::to_string(dtype)) +
         ", r:" + rank + ", w:" + (world == INT64_MIN ? std::string("-") : std::to_string(world)) +
         ", h:" + fnv1aHex(pgName + "|" + ranks) + ", t:1, b:-";
}

void Mapper::finish() {
  for (int i = 0; i < kCopyKindNameCount; ++i) {
    out_.memcpyKind(kCopyKindNames[i].id, kCopyKindNames[i].name, kCopyKindNames[i].label);
  }
  for (int i = 0; i < kMemKindNameCount; ++i) {
    out_.memKind(kMemKindNames[i].id, kMemKindNames[i].name, kMemKindNames[i].label);
  }
  const int64_t start = captureStart_ <= captureEnd_ ? captureStart_ : 0;
  const int64_t end = captureStart_ <= captureEnd_ ? captureEnd_ : 0;
  const int64_t domainThread = processes_.empty() ? 0 : processes_.front().pid << 24;
  for (const auto& [id, name] : {std::pair<int64_t, const char*>{gpuDomain_, "gpu_user_annotation"},
                                 std::pair<int64_t, const char*>{pythonDomain_, "Python Hgtx"}}) {
    if (id == 0) continue;
    HgtxRow r;
    r.start = start;
    r.end = kNull;
    r.eventType = 75;
    r.globalTid = domainThread;
    r.textId = intern(name);
    r.domainId = id;
    out_.hgtx(r);
    countRow(kHgtxT);
  }
  for (const auto& [id, slot] : devices_) {
    DeviceInfoRow d;
    d.id = id;
    const DeviceProperties& p = slot.properties;
    d.name = slot.hasProperties ? p.name : "";
    d.uuid = slot.hasProperties ? p.uuid : "";
    d.hostName = hostName_;
    d.computeMajor = slot.hasProperties && p.computeMajor != INT64_MIN ? p.computeMajor : kNull;
    d.computeMinor = slot.hasProperties && p.computeMinor != INT64_MIN ? p.computeMinor : kNull;
    d.ceCount = kNull;
    d.cuCount = slot.hasProperties && p.numSms != INT64_MIN ? p.numSms : kNull;
    d.totalMemory = slot.hasProperties && p.totalGlobalMem != INT64_MIN ? p.totalGlobalMem : kNull;
    d.cuClock = d.memoryClock = kNull;
    const double unknown = std::numeric_limits<double>::quiet_NaN();  // bound as NULL
    d.peakFlopsFp32 = d.peakFlopsFp16 = d.peakFlopsBf16 = d.peakFlopsFp8 = d.peakFlopsInt8 = unknown;
    d.hbmBandwidth = unknown;
    out_.device(d);
  }
  for (const ProcessInfo& p : processes_) out_.process(p.pid << 24, p.pid, p.name.c_str());
  out_.metaData("format", "asysrep");
  out_.metaData("formatVersion", "1");
  out_.metaData("generator", "asys import (PyTorch/Kineto trace JSON)");
  if (!hostName_.empty()) out_.metaData("hostName", hostName_);
  out_.metaData("captureStart", std::to_string(start));
  out_.metaData("captureEnd", std::to_string(end));
  // Report time + epochOffset = nanoseconds since the Unix epoch.
  out_.metaData("epochOffset", std::to_string(reference_));
}

}  // namespace asys::kineto
