#include "core/operators/op_recognizer.h"

#include <cstring>
#include <optional>
#include <string>

#include "core/operators/elementwise_ops.h"
#include "core/operators/flash_attention_ops.h"
#include "core/operators/gemm_ops.h"
#include "core/operators/moe_ops.h"
#include "core/operators/pccl_ops.h"
#include "core/operators/pytorch_ops.h"
#include "core/operators/torch_function.h"

namespace asys {

namespace {
constexpr uint32_t kUnseen = 0xFFFFFFFEu;
}  // namespace

OpRecognizer::OpRecognizer(const StringPool& names, OpRecognizerSettings settings)
    : names_(names), settings_(settings) {
  if (settings_.custom) {
    customHgtx_ = settings_.custom->has(CustomOpSource::Hgtx);
    customKernel_ = settings_.custom->has(CustomOpSource::Kernel);
  }
}

uint32_t OpRecognizer::add(const OpRecognition& r, std::string_view wholeName) {
  OpInfo info;
  info.family = r.family;
  info.level = r.level;
  info.type = types_.intern(r.type);
  const bool merges = r.family != OpFamily::Custom && settings_.merge[static_cast<size_t>(r.family)];
  info.key = keys_.intern(merges ? std::string_view(r.mergeKey) : wholeName);
  info.work = r.work;
  info.phase = r.phase;
  info.pairKey = keys_.intern(r.pairKey);
  info.groups = r.groups;
  return intern(info);
}

namespace {

// A double's bits (std::bit_cast is missing from the WebAssembly build's
// libc++).
uint64_t bitsOf(double d) {
  uint64_t bits;
  std::memcpy(&bits, &d, sizeof bits);
  return bits;
}

bool sameInfo(const OpInfo& a, const OpInfo& b) {
  return a.family == b.family && a.level == b.level && a.type == b.type && a.key == b.key &&
         bitsOf(a.work.flops) == bitsOf(b.work.flops) && bitsOf(a.work.elementsRead) == bitsOf(b.work.elementsRead) &&
         bitsOf(a.work.elementsWritten) == bitsOf(b.work.elementsWritten) && a.work.dtype == b.work.dtype &&
         a.phase == b.phase && a.pairKey == b.pairKey && a.groups == b.groups;
}

// FNV-1a over the fields sameInfo compares.
uint64_t hashInfo(const OpInfo& i) {
  uint64_t h = 1469598103934665603ull;
  auto mix = [&](uint64_t v) {
    for (int b = 0; b < 8; ++b) {
      h ^= (v >> (8 * b)) & 0xFF;
      h *= 1099511628211ull;
    }
  };
  mix(static_cast<uint64_t>(i.family) | static_cast<uint64_t>(i.level) << 8 | static_cast<uint64_t>(i.phase) << 16 |
      static_cast<uint64_t>(i.work.dtype) << 24);
  mix(static_cast<uint64_t>(i.type) << 32 | i.key);
  mix(bitsOf(i.work.flops));
  mix(bitsOf(i.work.elementsRead));
  mix(bitsOf(i.work.elementsWritten));
  mix(static_cast<uint64_t>(i.pairKey));
  mix(static_cast<uint64_t>(i.groups));
  return h;
}

}  // namespace

uint32_t OpRecognizer::intern(const OpInfo& info) {
  // Names that differ only in what merging drops (every PyTorch range's
  // op id) are one operator: equal infos share an id, so the recogniser
  // holds an info (64 bytes) per distinct operator, not per distinct name.
  // Ids of equal infos are interchangeable to every caller. A hash shared by
  // unequal infos (not seen in practice) keeps the later one apart.
  const uint64_t h = hashInfo(info);
  const uint32_t g = infoByHash_.indexOf(h);
  if (g < infoOfHash_.size() && sameInfo(ops_[infoOfHash_[g]], info)) return infoOfHash_[g];
  ops_.push_back(info);
  const uint32_t id = static_cast<uint32_t>(ops_.size() - 1);
  if (g == infoOfHash_.size()) infoOfHash_.push_back(id);
  return id;
}

uint32_t OpRecognizer::recogniseRange(std::string_view text, std::string_view qualified) {
  ++recognitions_;
  if (customHgtx_) {
    if (const CustomOpRule* rule = settings_.custom->match(CustomOpSource::Hgtx, qualified)) {
      OpRecognition r;
      r.family = OpFamily::Custom;
      r.level = OpLevel::Framework;
      r.type = rule->type;
      return add(r, qualified);
    }
  }
  std::optional<OpRecognition> r;
  if (enabled(OpFamily::Gemm)) r = recogniseGemmAnnotation(text);
  if (!r && enabled(OpFamily::Moe)) r = recogniseMoeAnnotation(text);
  if (!r && enabled(OpFamily::Pccl)) r = recognisePcclAnnotation(text);
  if (!r && enabled(OpFamily::FlashAttention)) r = recogniseFlashAttentionAnnotation(text);
  if (!r && enabled(OpFamily::PyTorch) && (!settings_.torchFunctionOnly || text.rfind(kTorchFunctionPrefix, 0) == 0))
    r = recognisePyTorchRange(text);
  return r ? add(*r, text) : kNone;
}

uint32_t OpRecognizer::recogniseKernel(std::string_view name) {
  ++recognitions_;
  if (customKernel_) {
    if (const CustomOpRule* rule = settings_.custom->match(CustomOpSource::Kernel, name)) {
      OpRecognition r;
      r.family = OpFamily::Custom;
      r.level = OpLevel::Kernel;
      r.type = rule->type;
      return add(r, name);
    }
  }
  std::optional<OpRecognition> r;
  if (enabled(OpFamily::Pccl)) r = recognisePcclKernel(name);
  if (!r && enabled(OpFamily::FlashAttention)) r = recogniseFlashAttentionKernel(name);
  if (!r && enabled(OpFamily::Moe)) r = recogniseMoeKernel(name);
  if (!r && enabled(OpFamily::Gemm)) r = recogniseGemmKernel(name);
  if (!r && enabled(OpFamily::Elementwise)) r = recogniseElementwiseKernel(name);
  return r ? add(*r, name) : kNone;
}

uint32_t OpRecognizer::paired(uint32_t prefill, uint32_t decode) {
  const uint32_t g = pairMemo_.indexOf((static_cast<uint64_t>(prefill) << 32) | decode);
  if (g < pairOp_.size()) return pairOp_[g];
  OpInfo info = ops_[prefill];
  const OpInfo& d = ops_[decode];
  info.key = keys_.intern(std::string(keys_.get(info.key)) + " + " + std::string(keys_.get(d.key)));
  info.work = info.work.plus(d.work);
  info.phase = AttentionPhase::None;
  pairOp_.push_back(intern(info));
  return pairOp_.back();
}

uint32_t OpRecognizer::others(uint32_t name) {
  const uint32_t g = othersMemo_.indexOf(name);
  if (g < othersOp_.size()) return othersOp_[g];
  OpRecognition r;
  r.family = OpFamily::Custom;  // whole name as its key: no merging
  r.level = OpLevel::Kernel;
  r.type = std::string(kTypeOthers);
  othersOp_.push_back(add(r, names_.get(name)));
  return othersOp_.back();
}

uint32_t OpRecognizer::range(uint32_t text, uint32_t qualifiedName) {
  // The qualified name matters only to custom rules. A transient text's
  // id (StringPool::kOverlayBit) and a report string's interleave, so that
  // both index the memo's direct table (ids come in scan order: its
  // entries are visited in order, where a hash is a cache miss a range).
  const auto dense = [](uint32_t id) -> uint64_t {
    return StringPool::tagged(id) ? (static_cast<uint64_t>(id & ~StringPool::kOverlayBit) << 1) | 1
                                  : static_cast<uint64_t>(id) << 1;
  };
  const uint64_t key = customHgtx_ ? (static_cast<uint64_t>(text) << 32) | qualifiedName : dense(text);
  const uint32_t g = rangeMemo_.indexOf(key);
  if (g == rangeOp_.size()) rangeOp_.push_back(recogniseRange(names_.get(text), names_.get(qualifiedName)));
  return rangeOp_[g];
}

uint32_t OpRecognizer::kernel(uint32_t name) {
  if (name == kNoString) return kNone;
  if (name >= kernelOp_.size()) kernelOp_.resize(std::max<size_t>(name + 1, names_.size()), kUnseen);
  uint32_t& op = kernelOp_[name];
  if (op == kUnseen) op = recogniseKernel(names_.get(name));
  return op;
}

}  // namespace asys
