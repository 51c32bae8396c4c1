#pragma once
// Every recogniser behind one memo: each distinct HGTX text and each
// distinct kernel name is recognised once (a report has millions of ranges
// and kernels but thousands of names), under the rule's settings: the
// families "Parse from" enables, the families whose parameters merge, and
// the user's --ppu-op-config rules, which come first.
//
// Order: custom rules; then for HGTX texts GEMM, MoE, PCCL, flash attention,
// PyTorch; for kernel names PCCL, flash attention, MoE, GEMM, elementwise.
// The first family that recognises a name owns it.
#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/analysis/key_groups.h"
#include "core/base/string_pool.h"
#include "core/operators/custom_ops.h"
#include "core/operators/op_types.h"

namespace asys {

struct OpRecognizerSettings {
  std::array<bool, kBuiltInFamilyCount> enabled{true, true, true, true, true, true};  // Parse from
  std::array<bool, kBuiltInFamilyCount> merge{true, true, true, true, true, true};    // no no-merge-* flag
  const CustomOpRules* custom = nullptr;
  // PyTorch ranges: only the dispatch-function format (`TorchFunction:`),
  // for ppu_op_unit_test, whose tests reproduce those calls.
  bool torchFunctionOnly = false;
};

// One recognised name, compactly: texts are ids into the recogniser's pools.
struct OpInfo {
  OpFamily family;
  OpLevel level;
  uint32_t type;  // types()
  uint32_t key;   // keys(): the merged parameters, or the whole name when the family does not merge
  OpWork work;
  AttentionPhase phase;
  uint32_t pairKey;  // keys()
  int64_t groups;
};

class OpRecognizer {
 public:
  static constexpr uint32_t kNone = 0xFFFFFFFFu;
  OpRecognizer(const StringPool& names, OpRecognizerSettings settings);

  // An HGTX range: its own text (what the annotation formats read) and its
  // domain-qualified name (what custom hgtx: rules match). kNone when no
  // recogniser claims it.
  uint32_t range(uint32_t text, uint32_t qualifiedName);
  // The memo of range() given back (its ops stay): for a caller that asks
  // for no more ranges.
  void forgetRanges() {
    rangeMemo_ = KeyGroups();
    std::vector<uint32_t>().swap(rangeOp_);
  }
  // A kernel by its (demangled) name id.
  uint32_t kernel(uint32_t name);

  // A flash attention prefill and the decode paired with it, as one
  // operator: their keys joined by " + ", their work summed.
  uint32_t paired(uint32_t prefill, uint32_t decode);

  // A kernel no operator claims, as an operator of its own (op=others): OP
  // Type `others`, its name the key, no work estimate. One per name.
  uint32_t others(uint32_t name);

  const OpInfo& info(uint32_t op) const { return ops_[op]; }
  std::string_view typeName(uint32_t type) const { return types_.get(type); }
  std::string_view keyText(uint32_t key) const { return keys_.get(key); }
  uint32_t internType(std::string_view type) { return types_.intern(type); }
  size_t typeCount() const { return types_.size(); }
  uint32_t internKey(std::string_view key) { return keys_.intern(key); }
  size_t recognitions() const { return recognitions_; }  // names recognised (tests: once each)

 private:
  uint32_t add(const OpRecognition& r, std::string_view wholeName);
  uint32_t intern(const OpInfo& info);  // the id of an equal info, else a new one
  uint32_t recogniseRange(std::string_view text, std::string_view qualified);
  uint32_t recogniseKernel(std::string_view name);
  bool enabled(OpFamily f) const { return f == OpFamily::Custom || settings_.enabled[static_cast<size_t>(f)]; }

  const StringPool& names_;
  OpRecognizerSettings settings_;
  bool customHgtx_ = false, customKernel_ = false;
  StringPool types_, keys_;
  std::vector<OpInfo> ops_;
  KeyGroups infoByHash_;              // hashInfo -> infoOfHash_ index
  std::vector<uint32_t> infoOfHash_;  // the first info of each hash
  KeyGroups rangeMemo_;
  std::vector<uint32_t> rangeOp_;   // by rangeMemo_ group
  std::vector<uint32_t> kernelOp_;  // by name id; kUnseen until asked
  KeyGroups pairMemo_;
  std::vector<uint32_t> pairOp_;
  KeyGroups othersMemo_;
  std::vector<uint32_t> othersOp_;
  size_t recognitions_ = 0;
};

}  // namespace asys
