#include "core/analysis/pccl_kernels.h"

#include <string>

namespace asys {

namespace {

bool startsWith(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

bool containsIgnoringCase(std::string_view s, std::string_view lowerNeedle) {
  if (s.size() < lowerNeedle.size()) return false;
  for (size_t i = 0; i + lowerNeedle.size() <= s.size(); ++i) {
    size_t j = 0;
    while (j < lowerNeedle.size()) {
      char c = s[i + j];
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
      if (c != lowerNeedle[j]) break;
      ++j;
    }
    if (j == lowerNeedle.size()) return true;
  }
  return false;
}

}  // namespace

bool isPcclKernelName(std::string_view name) {
  return startsWith(name, "pcclKernel") || startsWith(name, "ncclKernel") || startsWith(name, "ncclDevKernel");
}

std::string_view pcclClassifiedName(std::string_view shortName, std::string_view demangledName) {
  if (!shortName.empty()) return shortName;
  if (startsWith(demangledName, "void ")) demangledName.remove_prefix(5);
  return demangledName;
}

PcclKernelClassifier::PcclKernelClassifier(Report& report)
    : k_(&report.kernels(kcol::shortName | kcol::demangledName)), strings_(report.strings()) {}

PcclKernelClassifier::PcclKernelClassifier(StringPool& strings) : strings_(strings) {}

uint8_t PcclKernelClassifier::classOf(uint32_t shortId, uint32_t demangledId) {
  const bool byShort = shortId != kNoString && !strings_.get(shortId).empty();
  std::vector<uint8_t>& cache = byShort ? byShort_ : byDemangled_;
  const uint32_t id = byShort ? shortId : demangledId;
  if (id == kNoString) return kOther;
  if (id >= cache.size()) cache.resize(std::max<size_t>(id + 1, strings_.size()), kUnknown);
  if (cache[id] == kUnknown) {
    const std::string_view name =
        pcclClassifiedName(byShort ? strings_.get(shortId) : std::string_view(), strings_.get(id));
    cache[id] = isPcclKernelName(name)                                                      ? kPccl
                : containsIgnoringCase(name, "pccl") || containsIgnoringCase(name, "nccl") ? kNamedLikePccl
                                                                                           : kOther;
  }
  return cache[id];
}

bool PcclKernelClassifier::isPccl(uint32_t row) { return isPccl(k_->shortName[row], k_->demangledName[row]); }

bool PcclKernelClassifier::isPccl(uint32_t shortId, uint32_t demangledId) {
  const uint8_t c = classOf(shortId, demangledId);
  if (c == kNamedLikePccl) ++unclassified_;
  return c == kPccl;
}

std::string unclassifiedPcclWarning(size_t count) {
  if (count == 0) return "";
  const bool one = count == 1;
  return std::to_string(count) + (one ? " kernel whose name contains" : " kernels whose names contain") +
         " 'pccl' or 'nccl' " + (one ? "is not a PCCL kernel (its" : "are not PCCL kernels (their") +
         " short name, else demangled name, does not start with pcclKernel, ncclKernel or ncclDevKernel) and " +
         (one ? "was" : "were") + " left out";
}

}  // namespace asys
