#include "core/operators/elementwise_ops.h"

#include <string>

namespace asys {

std::optional<OpRecognition> recogniseElementwiseKernel(std::string_view name) {
  static constexpr std::string_view kTokens[] = {"elementwise", "pointwise", "multi_tensor_apply"};
  for (std::string_view t : kTokens) {
    if (opparse::containsNoCase(name, t)) {
      OpRecognition r;
      r.family = OpFamily::Elementwise;
      r.level = OpLevel::Kernel;
      r.type = kTypeElementwise;
      r.mergeKey.assign(name);
      return r;
    }
  }
  return std::nullopt;
}

}  // namespace asys
