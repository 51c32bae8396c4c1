#pragma once
// Pure text helpers of the Kineto importer (docs/import-kineto.md): kernel
// short names, memcpy/memset kinds from Kineto's activity names, NCCL data
// types and collective names, exact microsecond -> nanosecond conversion.
#include <cstdint>
#include <string>
#include <string_view>

namespace asys::kineto {

// The kernel's name without return type, namespaces, template arguments and
// parameter list: "void at::native::foo<4, float>(int, float*)" -> "foo".
// A name with nothing to strip is returned unchanged.
std::string_view kernelShortName(std::string_view name);

// ENUM_HGGC_MEMCPY_OPER ids (the numbering of Nsight Systems' CUDA enum).
enum CopyKind : int32_t {
  kCopyUnknown = 0, kCopyHtoD = 1, kCopyDtoH = 2, kCopyHtoA = 3, kCopyAtoH = 4, kCopyAtoA = 5,
  kCopyAtoD = 6, kCopyDtoA = 7, kCopyDtoD = 8, kCopyHtoH = 9, kCopyPtoP = 10,
};
// ENUM_HGGC_MEM_KIND ids (Nsight Systems' numbering, plus Host for ROCm).
enum MemKind : int32_t {
  kMemPageable = 0, kMemPinned = 1, kMemDevice = 2, kMemArray = 3, kMemManaged = 4,
  kMemDeviceStatic = 5, kMemManagedStatic = 6, kMemUnknown = 7, kMemHost = 8,
};
struct KindName {
  int32_t id;
  const char* name;   // Kineto's own word ("HtoD", "Pageable")
  const char* label;  // the asysrep label ("Host-to-Device", "Pageable")
};
extern const KindName kCopyKindNames[];
extern const int kCopyKindNameCount;
extern const KindName kMemKindNames[];
extern const int kMemKindNameCount;

// "Memcpy HtoD (Pageable -> Device)" -> HtoD, Pageable, Device. Parts that
// are missing or unknown come back as kCopyUnknown / kMemUnknown.
struct CopyKinds {
  int32_t copy = kCopyUnknown, src = kMemUnknown, dst = kMemUnknown;
};
CopyKinds parseMemcpyName(std::string_view name);
// "Memset (Device)" -> kMemDevice.
int32_t parseMemsetName(std::string_view name);

// NCCL's ncclDataType_t number of a PyTorch dtype name ("Float", "BFloat16"),
// a C++ type name from "Input type" ("float", "c10::BFloat16", "long int")
// or a kernel-name suffix ("float", "int8_t", "__nv_bfloat16"); -1 unknown.
int ncclDataType(std::string_view type);

// PCCL/NCCL operator name of a collective: "allreduce", "all_reduce",
// "nccl:all_reduce", "_allgather_base" -> "AllReduce", "AllGather", ...
std::string collectiveOpName(std::string_view collective);
// The collective in an NCCL/RCCL kernel name: "ncclKernel_AllReduce_RING_LL_Sum_float(...)"
// -> "AllReduce"; "ncclDevKernel_Generic(...)" -> "Generic"; empty if none.
std::string_view kernelCollective(std::string_view kernelName);
// The element type suffix of an NCCL kernel name ("..._Sum_float(" -> "float").
std::string_view kernelTypeSuffix(std::string_view kernelName);

// A python_function event's name as a call-stack frame: "torch/nn/modules/
// module.py(1501): _call_impl" -> file "torch/nn/modules/module.py" and
// function "_call_impl". A name without that shape ("<built-in method ...>")
// comes back with an empty file and the whole name as the function.
struct PythonFrame {
  std::string_view file, function;
};
PythonFrame parsePythonFrame(std::string_view name);

// "[0, 1, 2]" -> "0,1,2" (digits and separators only); "" stays "".
std::string normalizeRanks(std::string_view ranks);
// 64-bit FNV-1a, written as 16 lowercase hex digits.
std::string fnv1aHex(std::string_view text);

// Case-insensitive ASCII comparison / search.
bool equalsIgnoreCase(std::string_view a, std::string_view b);
bool containsIgnoreCase(std::string_view haystack, std::string_view needle);

// A JSON number's text in microseconds to integer nanoseconds, exactly:
// digits after the third decimal round half away from zero. False if the
// text is not a number (NaN, Infinity) or does not fit.
bool microsToNanos(const char* text, size_t length, int64_t& ns);
// A JSON number's text as an integer (a fraction rounds half away from zero).
bool parseInteger(const char* text, size_t length, int64_t& value);

}  // namespace asys::kineto
