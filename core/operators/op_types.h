#pragma once
// What the operator recognisers say about one name (an HGTX range's text or
// a kernel's name): the operator's type, level and family, the name with the
// parameters default merging ignores taken out, and the work one execution
// does (FLOPs, bytes read and written, data type) for the utilisation
// estimates. docs/operators.md lists every format, merge rule and formula.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace asys {

// The documentation's three levels: framework (PyTorch, MoE layers, the
// user's HGTX rules), compute library (ACBLAS, DeepGemm, PCCL, flash
// attention) and kernel (a kernel recognised by its name).
enum class OpLevel : uint8_t { Framework = 0, Library = 1, Kernel = 2 };

// The recogniser families: "Parse from" enables them, each has its own
// no-merge-* flag (custom rules have neither).
enum class OpFamily : uint8_t { Gemm, Moe, Pccl, PyTorch, FlashAttention, Elementwise, Custom };
constexpr size_t kBuiltInFamilyCount = 6;  // all but Custom

// The `parse-from` choice of each built-in family, and its panel label.
std::string_view familyChoice(OpFamily f);
std::string_view familyLabel(OpFamily f);

// OP Type texts the built-in recognisers give.
inline constexpr std::string_view kTypeGemm = "GEMM", kTypeMoe = "MoE", kTypePccl = "PCCL",
                                  kTypeFlashAttention = "FlashAttention", kTypeElementwise = "Elementwise",
                                  kTypePyTorch = "PyTorch", kTypeOthers = "others";

// Data types with a peak rate of their own (TARGET_INFO_PPU's columns).
enum class DataType : uint8_t { Unknown, Fp32, Fp16, Bf16, Fp8, Int8 };
constexpr size_t kDataTypeCount = 6;
int dataTypeBytes(DataType t);  // 0 for Unknown
// "BF16", "bf16", "bfloat16", "torch.bfloat16", "c10::BFloat16", "16BF",
// "32F", "float", "FP8", "e4m3", "int8", ...: Unknown when not one of them.
DataType parseDataType(std::string_view text);

// One execution's work; a negative value is unknown. Traffic is counted in
// elements, so that an operator whose own name has no data type (a MoE
// layer, an aten::mm with sizes only) gets its bytes from the data type of
// the library operator it runs (operator_set.h).
struct OpWork {
  double flops = -1, elementsRead = -1, elementsWritten = -1;
  DataType dtype = DataType::Unknown;
  bool knownFlops() const { return flops >= 0; }
  double bytesRead() const { return elementsRead < 0 || dataTypeBytes(dtype) == 0 ? -1 : elementsRead * dataTypeBytes(dtype); }
  double bytesWritten() const {
    return elementsWritten < 0 || dataTypeBytes(dtype) == 0 ? -1 : elementsWritten * dataTypeBytes(dtype);
  }
  // The sum of two executions' work (a flash attention prefill and the
  // decode paired with it): unknown where either is.
  OpWork plus(const OpWork& o) const;
};

enum class AttentionPhase : uint8_t { None, Prefill, Decode };

struct OpRecognition {
  OpFamily family = OpFamily::Custom;
  OpLevel level = OpLevel::Framework;
  std::string type;      // OP Type
  std::string mergeKey;  // the name without the parameters merging ignores
  OpWork work;
  // Flash attention annotations: prefill and decode operators that follow
  // each other on a thread and agree on `pairKey` are one operator unless
  // no-merge-flash-attention-prefill-decode-operator.
  AttentionPhase phase = AttentionPhase::None;
  std::string pairKey;
  // A grouped GEMM's group count (0 otherwise): the MoE's GEMM1 and GEMM2.
  int64_t groups = 0;
};

// Small parsing helpers the recognisers share.
namespace opparse {
// A non-negative decimal integer, the whole text; -1 otherwise.
int64_t integer(std::string_view s);
std::string_view trim(std::string_view s);
// Splits on `sep` (no escapes).
std::vector<std::string_view> split(std::string_view s, char sep);
// Lower-case ASCII copy.
std::string lower(std::string_view s);
bool containsNoCase(std::string_view haystack, std::string_view needleLower);
// The end of a value opening with '(' or '[' at `from` (one past its
// closing bracket, nesting counted); s.size() when it never closes.
size_t bracketEnd(std::string_view s, size_t from);
// The integers of a bracketed list `[[4, 1024], [1024, 2048], []]`: one
// vector per inner list (a scalar or empty entry gives an empty vector);
// nullopt when the text is not such a list.
std::optional<std::vector<std::vector<int64_t>>> shapeList(std::string_view s);
}  // namespace opparse

}  // namespace asys
