#include "core/operators/pccl_ops.h"

#include <string>

#include "core/analysis/pccl_kernels.h"
#include "core/analysis/pccl_operators.h"

namespace asys {

std::optional<OpRecognition> recognisePcclAnnotation(std::string_view text) {
  if (!parsePcclOperator(text)) return std::nullopt;
  OpRecognition r;
  r.family = OpFamily::Pccl;
  r.level = OpLevel::Library;
  r.type = kTypePccl;
  // The text without the r, h and b fields, as written otherwise.
  const size_t comma = text.find(',');
  r.mergeKey.assign(opparse::trim(text.substr(0, comma)));
  for (std::string_view field : opparse::split(text.substr(comma + 1), ',')) {
    const std::string_view f = opparse::trim(field);
    const std::string_view key = f.substr(0, f.find(':'));
    if (key == "r" || key == "h" || key == "b") continue;
    r.mergeKey.append(", ").append(f);
  }
  return r;  // communication: no FLOPs, its traffic is pccl_op_sum's business
}

std::optional<OpRecognition> recognisePcclKernel(std::string_view name) {
  std::string_view bare = name;
  if (bare.rfind("void ", 0) == 0) bare.remove_prefix(5);
  bool comm = isPcclKernelName(bare);
  static constexpr std::string_view kTokens[] = {"allreduce",     "all_reduce", "allgather", "all_gather",
                                                 "reduce_scatter", "reducescatter", "alltoall", "all_to_all",
                                                 "cross_device_reduce"};
  for (std::string_view t : kTokens) comm = comm || opparse::containsNoCase(name, t);
  if (!comm) return std::nullopt;
  OpRecognition r;
  r.family = OpFamily::Pccl;
  r.level = OpLevel::Kernel;
  r.type = kTypePccl;
  r.mergeKey.assign(name);
  return r;
}

}  // namespace asys
