// The SAX side of the Kineto importer: RapidJSON's Reader pulls the JSON
// through InputStream and this handler keeps only the fields the importer
// maps, one event at a time. No DOM of the file is ever built.
#include <rapidjson/error/en.h>
#include <rapidjson/reader.h>

#include <cstdlib>
#include <cstring>
#include <new>
#include <string_view>
#include <vector>

#include "core/base/error.h"
#include "core/import/kineto_event.h"
#include "core/import/kineto_names.h"
#include "core/import/kineto_stream.h"

namespace asys::kineto {

// RapidJSON's CrtAllocator returns null when memory runs out and the
// reader then writes through it: in WebAssembly a trap that stops the
// engine, where a rule would have said "out of memory". This one throws
// std::bad_alloc (RapidJSON keeps no state a throw could corrupt: its
// stack still owns the old block, its destructor frees it).
struct ThrowingAllocator {
  static const bool kNeedFree = true;
  void* Malloc(size_t size) {
    if (size == 0) return nullptr;
    void* p = std::malloc(size);
    if (!p) throw std::bad_alloc();
    return p;
  }
  void* Realloc(void* original, size_t, size_t newSize) {
    if (newSize == 0) {
      std::free(original);
      return nullptr;
    }
    void* p = std::realloc(original, newSize);
    if (!p) throw std::bad_alloc();
    return p;
  }
  static void Free(void* p) { std::free(p); }
};

using Reader = rapidjson::GenericReader<rapidjson::UTF8<>, rapidjson::UTF8<>, ThrowingAllocator>;

}  // namespace asys::kineto

// RapidJSON's string scanning fast path exists only for in-memory strings;
// this gives our chunked stream the same: plain runs are copied with one
// memcpy instead of character by character. (An explicit specialisation of
// the reader's member template; the nested StackStream is named here, which
// access rules allow in explicit specialisations.)
template <>
template <>
inline void asys::kineto::Reader::ScanCopyUnescapedString(asys::kineto::InputStream& is, StackStream<char>& os) {
  is.copyPlainString(os);
}

namespace asys::kineto {

namespace {

using rapidjson::SizeType;

template <size_t N>
inline bool is(const char* s, SizeType n, const char (&lit)[N]) {
  return n == N - 1 && std::memcmp(s, lit, N - 1) == 0;
}

// What a container is, so each value knows where it belongs.
enum class Ctx : uint8_t {
  Skip,
  Root,         // the top-level object
  Events,       // "traceEvents" (or a top-level array of events)
  Event,        // one event object
  Args,         // its "args"
  ArgArray,     // "grid", "block", "Input Dims", "Input type", "Process Group Ranks" in args
  ArgInner,     // the first entry of "Input Dims"
  ArgDimsInner, // a later entry of "Input Dims"
  DevProps,     // "deviceProperties"
  DevProp,      // one of them
  DistInfo,     // "distributedInfo"
};

enum FieldKey : uint8_t {
  kNone,
  // top level
  kTopTraceEvents, kTopDeviceProperties, kTopDistributedInfo, kTopBaseTime, kTopHostName,
  // event
  kEvPh, kEvCat, kEvName, kEvPid, kEvTid, kEvTs, kEvDur, kEvArgs,
  // args
  kArgDevice, kArgContext, kArgStream, kArgCorrelation, kArgExternalId, kArgRegisters,
  kArgSharedMemory, kArgGrid, kArgBlock, kArgBytes, kArgGraphId, kArgGraphNodeId, kArgMemDeviceId,
  kArgMemDeviceType, kArgAddr, kArgMemBytes, kArgInNelems, kArgOutNelems, kArgGroupSize, kArgRank,
  kArgCollective, kArgDtype, kArgPgName, kArgPgDesc, kArgPgRanks, kArgInputDims, kArgInputType, kArgConcrete,
  kArgName,
  // deviceProperties entries
  kDevId, kDevName, kDevUuid, kDevTotalMem, kDevMajor, kDevMinor, kDevSms,
  // distributedInfo
  kDistRank, kDistWorld,
};

FieldKey topKey(const char* s, SizeType n) {
  if (is(s, n, "traceEvents")) return kTopTraceEvents;
  if (is(s, n, "deviceProperties")) return kTopDeviceProperties;
  if (is(s, n, "distributedInfo")) return kTopDistributedInfo;
  if (is(s, n, "baseTimeNanoseconds")) return kTopBaseTime;
  if (is(s, n, "host_name") || is(s, n, "hostname")) return kTopHostName;
  return kNone;
}

FieldKey eventKey(const char* s, SizeType n) {
  switch (n) {
    case 2:
      if (is(s, n, "ph")) return kEvPh;
      if (is(s, n, "ts")) return kEvTs;
      break;
    case 3:
      if (is(s, n, "cat")) return kEvCat;
      if (is(s, n, "pid")) return kEvPid;
      if (is(s, n, "tid")) return kEvTid;
      if (is(s, n, "dur")) return kEvDur;
      break;
    case 4:
      if (is(s, n, "name")) return kEvName;
      if (is(s, n, "args")) return kEvArgs;
      break;
    default: break;
  }
  return kNone;
}

FieldKey argKey(const char* s, SizeType n) {
  switch (s[0]) {
    case 'd':
      if (is(s, n, "device")) return kArgDevice;
      if (is(s, n, "dtype")) return kArgDtype;
      break;
    case 'c':
      if (is(s, n, "correlation")) return kArgCorrelation;
      if (is(s, n, "context")) return kArgContext;
      break;
    case 's':
      if (is(s, n, "stream")) return kArgStream;
      if (is(s, n, "shared memory")) return kArgSharedMemory;
      break;
    case 'E':
      if (is(s, n, "External id")) return kArgExternalId;
      break;
    case 'e':
      if (is(s, n, "external id")) return kArgExternalId;
      break;
    case 'r':
      if (is(s, n, "registers per thread")) return kArgRegisters;
      break;
    case 'g':
      if (is(s, n, "grid")) return kArgGrid;
      if (is(s, n, "graph id")) return kArgGraphId;
      if (is(s, n, "graph node id")) return kArgGraphNodeId;
      break;
    case 'b':
      if (is(s, n, "block")) return kArgBlock;
      if (is(s, n, "bytes")) return kArgBytes;
      break;
    case 'D':
      if (is(s, n, "Device Id")) return kArgMemDeviceId;
      if (is(s, n, "Device Type")) return kArgMemDeviceType;
      break;
    case 'A':
      if (is(s, n, "Addr")) return kArgAddr;
      break;
    case 'B':
      if (is(s, n, "Bytes")) return kArgMemBytes;
      break;
    case 'I':
      if (is(s, n, "In msg nelems")) return kArgInNelems;
      if (is(s, n, "Input Dims")) return kArgInputDims;
      if (is(s, n, "Input type")) return kArgInputType;
      break;
    case 'O':
      if (is(s, n, "Out msg nelems")) return kArgOutNelems;
      break;
    case 'G':
      if (is(s, n, "Group size")) return kArgGroupSize;
      break;
    case 'R':
      if (is(s, n, "Rank")) return kArgRank;
      break;
    case 'C':
      if (is(s, n, "Collective name")) return kArgCollective;
      if (is(s, n, "Concrete Inputs")) return kArgConcrete;
      break;
    case 'P':
      if (is(s, n, "Process Group Name")) return kArgPgName;
      if (is(s, n, "Process Group Description")) return kArgPgDesc;
      if (is(s, n, "Process Group Ranks")) return kArgPgRanks;
      break;
    case 'n':
      if (is(s, n, "name")) return kArgName;
      break;
    default: break;
  }
  return kNone;
}

FieldKey devKey(const char* s, SizeType n) {
  if (is(s, n, "id")) return kDevId;
  if (is(s, n, "name")) return kDevName;
  if (is(s, n, "uuid")) return kDevUuid;
  if (is(s, n, "totalGlobalMem")) return kDevTotalMem;
  if (is(s, n, "computeMajor")) return kDevMajor;
  if (is(s, n, "computeMinor")) return kDevMinor;
  if (is(s, n, "numSms")) return kDevSms;
  return kNone;
}

Category category(const char* s, SizeType n) {
  const std::string_view c(s, n);
  switch (n) {
    case 6:
      if (c == "kernel" || c == "Kernel") return Category::Kernel;
      if (c == "cpu_op") return Category::CpuOp;
      if (c == "Memcpy") return Category::Memcpy;
      if (c == "Memset") return Category::Memset;
      break;
    case 7:
      if (c == "Runtime") return Category::Runtime;
      break;
    case 8:
      if (c == "Operator") return Category::CpuOp;
      break;
    case 10:
      if (c == "gpu_memcpy") return Category::Memcpy;
      if (c == "gpu_memset") return Category::Memset;
      break;
    case 11:
      if (c == "cuda_driver") return Category::Driver;
      break;
    case 12:
      if (c == "cuda_runtime") return Category::Runtime;
      break;
    case 15:
      if (c == "user_annotation") return Category::UserAnnotation;
      if (c == "python_function") return Category::Python;
      break;
    case 17:
      if (c == "cpu_instant_event") return Category::CpuInstant;
      break;
    case 19:
      if (c == "gpu_user_annotation") return Category::GpuUserAnnotation;
      break;
    default: break;
  }
  // Other spellings seen in the wild, compared case-insensitively.
  if (equalsIgnoreCase(c, "kernel")) return Category::Kernel;
  if (equalsIgnoreCase(c, "cuda_runtime") || equalsIgnoreCase(c, "runtime")) return Category::Runtime;
  if (equalsIgnoreCase(c, "cuda_driver") || equalsIgnoreCase(c, "driver")) return Category::Driver;
  if (equalsIgnoreCase(c, "gpu_memcpy") || equalsIgnoreCase(c, "memcpy")) return Category::Memcpy;
  if (equalsIgnoreCase(c, "gpu_memset") || equalsIgnoreCase(c, "memset")) return Category::Memset;
  if (equalsIgnoreCase(c, "cpu_op") || equalsIgnoreCase(c, "operator")) return Category::CpuOp;
  if (equalsIgnoreCase(c, "user_annotation")) return Category::UserAnnotation;
  if (equalsIgnoreCase(c, "gpu_user_annotation")) return Category::GpuUserAnnotation;
  if (equalsIgnoreCase(c, "python_function") || equalsIgnoreCase(c, "python")) return Category::Python;
  return Category::Other;
}

// SQLite's longest text (SQLITE_MAX_LENGTH, not changed in this build).
constexpr size_t kMaxText = 1000000000;

class Handler : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, Handler> {
 public:
  explicit Handler(EventSink& sink) : sink_(sink) {
    ctx_.reserve(16);
    key_.reserve(16);
    index_.reserve(16);
  }

  bool sawTrace() const { return sawTrace_; }
  const std::string& failure() const { return failure_; }

  bool Null() { return scalar(nullptr, 0, false); }
  bool Bool(bool) { return scalar(nullptr, 0, false); }
  bool RawNumber(const char* s, SizeType n, bool) { return scalar(s, n, true); }
  bool String(const char* s, SizeType n, bool) {
    // Past SQLite's text limit the report could not hold it (a gzip bomb
    // or a broken writer, never a real name).
    if (n >= kMaxText) {
      return fail("a string of " + std::to_string(n) + " bytes is longer than a report's text may be (" +
                  std::to_string(kMaxText) + " bytes)");
    }
    return scalar(s, n, false);
  }
  // Only reached without kParseNumbersAsStringsFlag; numbers come as text.
  bool Default() { return scalar(nullptr, 0, false); }

  bool Key(const char* s, SizeType n, bool) {
    FieldKey k = kNone;
    switch (ctx_.back()) {
      case Ctx::Root: k = topKey(s, n); break;
      case Ctx::Event: k = eventKey(s, n); break;
      case Ctx::Args: k = n > 0 ? argKey(s, n) : kNone; break;
      case Ctx::DevProp: k = devKey(s, n); break;
      case Ctx::DistInfo:
        if (is(s, n, "rank")) k = kDistRank;
        if (is(s, n, "world_size")) k = kDistWorld;
        break;
      default: break;
    }
    key_.back() = k;
    return true;
  }

  bool StartObject() {
    Ctx c = Ctx::Skip;
    if (ctx_.empty()) {
      c = Ctx::Root;
    } else {
      switch (ctx_.back()) {
        case Ctx::Root:
          if (key_.back() == kTopDistributedInfo) {
            c = Ctx::DistInfo;
            rank_ = world_ = INT64_MIN;
          } else if (key_.back() == kTopTraceEvents) {
            return fail("not a Kineto trace (\"traceEvents\" is not an array)");
          }
          break;
        case Ctx::Events:
          c = Ctx::Event;
          ev_.clear();
          break;
        case Ctx::Event:
          if (key_.back() == kEvArgs) c = Ctx::Args;
          break;
        case Ctx::DevProps:
          c = Ctx::DevProp;
          dev_ = DeviceProperties();
          break;
        default: break;
      }
    }
    push(c);
    return true;
  }

  bool EndObject(SizeType) {
    const Ctx c = ctx_.back();
    pop();
    switch (c) {
      case Ctx::Event: sink_.onEvent(ev_); break;
      case Ctx::DevProp:
        if (dev_.id >= 0) sink_.onDeviceProperties(dev_);
        break;
      case Ctx::DistInfo: sink_.onDistributedInfo(rank_, world_); break;
      default: break;
    }
    return afterValue();
  }

  bool StartArray() {
    Ctx c = Ctx::Skip;
    if (ctx_.empty()) {
      c = Ctx::Events;  // the JSON Array Format of Chrome traces
      sawTrace_ = true;
    } else {
      switch (ctx_.back()) {
        case Ctx::Root:
          if (key_.back() == kTopTraceEvents) {
            c = Ctx::Events;
            sawTrace_ = true;
          } else if (key_.back() == kTopDeviceProperties) {
            c = Ctx::DevProps;
          }
          break;
        case Ctx::Args: {
          const FieldKey k = key_.back();
          if (k == kArgGrid || k == kArgBlock || k == kArgInputDims || k == kArgInputType || k == kArgConcrete)
            c = Ctx::ArgArray;
          // The cpu_op's arguments as list texts (the operator recognisers read them).
          if (k == kArgInputDims) startList(ev_.inputDims, kInputDimsText);
          if (k == kArgInputType) startList(ev_.inputTypes, kInputTypes);
          if (k == kArgConcrete) startList(ev_.concreteInputs, kConcreteInputs);
          if (k == kArgPgRanks) {
            c = Ctx::ArgArray;
            ev_.pgRanks.clear();
            ev_.has |= kPgRanks;
          }
          break;
        }
        case Ctx::Events:
          return fail("not a Kineto trace (trace event " + std::to_string(index_.back()) +
                      " is not a JSON object)");
        case Ctx::ArgArray:
          if (key_[key_.size() - 2] == kArgInputDims) {
            c = index_.back() == 0 ? Ctx::ArgInner : Ctx::ArgDimsInner;
            if (index_.back() == 0) dims_ = 1;
            if (index_.back() > 0) ev_.inputDims += ", ";
            ev_.inputDims += '[';
          }
          break;
        default: break;
      }
    }
    push(c);
    return true;
  }

  bool EndArray(SizeType) {
    const Ctx c = ctx_.back();
    const uint32_t count = index_.back();
    pop();
    if (c == Ctx::ArgArray) {
      const FieldKey k = key_.back();
      if (k == kArgGrid && count >= 1) ev_.has |= kGrid;
      if (k == kArgBlock && count >= 1) ev_.has |= kBlock;
      if (k == kArgInputDims) ev_.inputDims += ']';
      if (k == kArgInputType) ev_.inputTypes += ']';
      if (k == kArgConcrete) ev_.concreteInputs += ']';
    } else if (c == Ctx::ArgInner || c == Ctx::ArgDimsInner) {
      ev_.inputDims += ']';
      if (c == Ctx::ArgInner && count > 0) {  // [] is a list or scalar input: no count
        ev_.inputDims0 = dims_;
        ev_.has |= kInputDims0;
      }
    }
    return afterValue();
  }

 private:
  void push(Ctx c) {
    ctx_.push_back(c);
    key_.push_back(kNone);
    index_.push_back(0);
  }
  void pop() {
    ctx_.pop_back();
    key_.pop_back();
    index_.pop_back();
  }
  // A value ended inside the current container.
  bool afterValue() {
    if (!index_.empty()) ++index_.back();
    return true;
  }
  bool fail(std::string why) {
    failure_ = std::move(why);
    return false;
  }

  // A number, or a number written as a string ("size": "2560").
  static bool integer(const char* s, SizeType n, int64_t& out) { return s != nullptr && parseInteger(s, n, out); }

  bool scalar(const char* s, SizeType n, bool number) {
    if (ctx_.empty()) return fail("not a Kineto trace (the JSON is a single value)");
    switch (ctx_.back()) {
      case Ctx::Event: eventField(s, n, number); break;
      case Ctx::Args: argField(s, n, number); break;
      case Ctx::ArgArray: arrayItem(s, n, number); break;
      case Ctx::ArgInner:
      case Ctx::ArgDimsInner: {
        int64_t v = 0;
        if (ctx_.back() == Ctx::ArgInner && number && integer(s, n, v)) dims_ *= v;
        if (number && s != nullptr) {
          if (index_.back() > 0) ev_.inputDims += ", ";
          ev_.inputDims.append(s, n);
        }
        break;
      }
      case Ctx::Events:
        return fail("not a Kineto trace (trace event " + std::to_string(index_.back()) +
                    " is not a JSON object)");
      case Ctx::DevProp: devField(s, n, number); break;
      case Ctx::DistInfo: {
        int64_t v = 0;
        if (integer(s, n, v)) {
          if (key_.back() == kDistRank) rank_ = v;
          if (key_.back() == kDistWorld) world_ = v;
        }
        break;
      }
      case Ctx::Root: {
        int64_t v = 0;
        if (key_.back() == kTopBaseTime && integer(s, n, v)) sink_.onBaseTime(v);
        if (key_.back() == kTopHostName && !number && s != nullptr) sink_.onHostName(std::string(s, n));
        break;
      }
      default: break;
    }
    return afterValue();
  }

  void eventField(const char* s, SizeType n, bool number) {
    if (s == nullptr) return;
    Event& e = ev_;
    switch (key_.back()) {
      case kEvPh: e.ph = n > 0 ? s[0] : 0; break;
      case kEvCat: e.cat = category(s, n); break;
      case kEvName: e.name.assign(s, n); break;
      case kEvPid:
        if (number) {
          if (parseInteger(s, n, e.pid)) e.has |= kPid;
        } else {
          e.pidText.assign(s, n);
          e.has |= kPidText;
        }
        break;
      case kEvTid:
        if (number) {
          if (parseInteger(s, n, e.tid)) e.has |= kTid;
        } else {
          e.tidText.assign(s, n);
          e.has |= kTidText;
        }
        break;
      case kEvTs:
        if (microsToNanos(s, n, e.ts)) e.has |= kTs;
        break;
      case kEvDur:
        if (microsToNanos(s, n, e.dur)) e.has |= kDur;
        break;
      default: break;
    }
  }

  void setInt(const char* s, SizeType n, int64_t& field, Field bit) {
    if (integer(s, n, field)) ev_.has |= bit;
  }
  void setText(const char* s, SizeType n, std::string& field, Field bit) {
    if (s == nullptr) return;
    field.assign(s, n);
    ev_.has |= bit;
  }

  void argField(const char* s, SizeType n, bool number) {
    Event& e = ev_;
    switch (key_.back()) {
      case kArgDevice: setInt(s, n, e.device, kDevice); break;
      case kArgContext: setInt(s, n, e.context, kContext); break;
      case kArgStream:
        if (number) setInt(s, n, e.stream, kStream);  // HIP API args give "0x0"
        break;
      case kArgCorrelation: setInt(s, n, e.correlation, kCorrelation); break;
      case kArgExternalId: setInt(s, n, e.externalId, kExternalId); break;
      case kArgRegisters: setInt(s, n, e.registers, kRegisters); break;
      case kArgSharedMemory: setInt(s, n, e.sharedMemory, kSharedMemory); break;
      case kArgBytes: setInt(s, n, e.bytes, kBytes); break;
      case kArgGraphId: setInt(s, n, e.graphId, kGraphId); break;
      case kArgGraphNodeId: setInt(s, n, e.graphNodeId, kGraphNodeId); break;
      case kArgMemDeviceId: setInt(s, n, e.memDeviceId, kMemDeviceId); break;
      case kArgMemDeviceType: setInt(s, n, e.memDeviceType, kMemDeviceType); break;
      case kArgAddr: setInt(s, n, e.addr, kAddr); break;
      case kArgMemBytes: setInt(s, n, e.memBytes, kMemBytes); break;
      case kArgInNelems: setInt(s, n, e.inNelems, kInNelems); break;
      case kArgOutNelems: setInt(s, n, e.outNelems, kOutNelems); break;
      case kArgGroupSize: setInt(s, n, e.groupSize, kGroupSize); break;
      case kArgRank: setInt(s, n, e.rank, kRank); break;
      case kArgCollective: setText(s, n, e.collective, kCollective); break;
      case kArgDtype: setText(s, n, e.dtype, kDtype); break;
      case kArgPgName: setText(s, n, e.pgName, kPgName); break;  // a number or a string
      case kArgPgDesc: setText(s, n, e.pgDesc, kPgDesc); break;
      case kArgPgRanks: setText(s, n, e.pgRanks, kPgRanks); break;
      case kArgName:
        if (!number) setText(s, n, e.argName, kMetaName);
        break;
      default: break;
    }
  }

  void arrayItem(const char* s, SizeType n, bool number) {
    const FieldKey k = key_[key_.size() - 2];
    const uint32_t i = index_.back();
    int64_t v = 0;
    switch (k) {
      case kArgGrid:
        if (i < 3 && integer(s, n, v)) ev_.grid[i] = v;
        break;
      case kArgBlock:
        if (i < 3 && integer(s, n, v)) ev_.block[i] = v;
        break;
      case kArgInputType:
        if (i == 0 && !number && s != nullptr) setText(s, n, ev_.inputType0, kInputType0);
        listItem(ev_.inputTypes, s, n);
        break;
      case kArgConcrete: listItem(ev_.concreteInputs, s, n); break;
      case kArgInputDims: listItem(ev_.inputDims, "[]", 2); break;  // a scalar where a shape stands
      case kArgPgRanks:
        if (number && s != nullptr) {
          if (!ev_.pgRanks.empty()) ev_.pgRanks += ',';
          ev_.pgRanks.append(s, n);
        }
        break;
      default: break;
    }
  }

  void startList(std::string& text, Field bit) {
    text.assign(1, '[');
    ev_.has |= bit;
  }
  // Appends a list item (the current container's index-th) to a list text.
  void listItem(std::string& text, const char* s, SizeType n) {
    if (index_.back() > 0) text += ", ";
    if (s != nullptr) text.append(s, n);
  }

  void devField(const char* s, SizeType n, bool number) {
    if (s == nullptr) return;
    int64_t v = 0;
    const bool isInt = number && parseInteger(s, n, v);
    switch (key_.back()) {
      case kDevId:
        if (isInt) dev_.id = v;
        break;
      case kDevName:
        if (!number) dev_.name.assign(s, n);
        break;
      case kDevUuid:
        if (!number) dev_.uuid.assign(s, n);
        break;
      case kDevTotalMem:
        if (isInt) dev_.totalGlobalMem = v;
        break;
      case kDevMajor:
        if (isInt) dev_.computeMajor = v;
        break;
      case kDevMinor:
        if (isInt) dev_.computeMinor = v;
        break;
      case kDevSms:
        if (isInt) dev_.numSms = v;
        break;
      default: break;
    }
  }

  EventSink& sink_;
  std::vector<Ctx> ctx_;
  std::vector<FieldKey> key_;         // the current key of each open object
  std::vector<uint32_t> index_;  // values seen so far in each open container
  Event ev_;
  DeviceProperties dev_;
  int64_t rank_ = INT64_MIN, world_ = INT64_MIN;
  int64_t dims_ = 1;
  bool sawTrace_ = false;
  std::string failure_;
};

}  // namespace

uint64_t parseTrace(const std::string& path, EventSink& sink) {
  InputSource source(path);
  InputStream in(source);
  Handler handler(sink);
  Reader reader;
  constexpr unsigned kFlags = rapidjson::kParseNumbersAsStringsFlag | rapidjson::kParseNanAndInfFlag |
                              rapidjson::kParseTrailingCommasFlag | rapidjson::kParseIterativeFlag;
  const rapidjson::ParseResult result = reader.Parse<kFlags>(in, handler);
  const std::string where = source.gzip() ? " of the decompressed JSON" : "";
  if (!source.error().empty()) throw Error(path + ": " + source.error());
  if (result.IsError()) {
    if (result.Code() == rapidjson::kParseErrorTermination) throw Error(path + ": " + handler.failure());
    if (result.Code() == rapidjson::kParseErrorDocumentEmpty) {
      throw Error(path + ": not a Kineto trace (empty" + (source.gzip() ? " after decompression" : std::string()) +
                  ")");
    }
    const std::string offset = std::to_string(result.Offset());
    const std::string why = rapidjson::GetParseError_En(result.Code());
    if (source.finished() && result.Offset() >= source.total()) {
      throw Error(path + ": truncated JSON: the text ends at byte " + offset + where + " (" + why + ")");
    }
    throw Error(path + ": invalid JSON at byte " + offset + where + ": " + why);
  }
  if (!handler.sawTrace()) throw Error(path + ": not a Kineto trace (no \"traceEvents\" array)");
  return in.Tell();
}

}  // namespace asys::kineto
