#pragma once
// The PCCL (communication) family: PCCL operator annotations (library
// level, parsed by core/analysis/pccl_operators.h) and communication kernels
// by name (kernel level).
//   AllReduce, p:0, c:442368, d:9, r:0, w:4, h:c70515c91cef61c7, t:1, b:0x119e800000/0x119e8d8000
// Merging ignores r (the rank), h (the communicator hash, new in every run)
// and b (the buffers): the same collective of the same size and data type
// on every rank and in every report is one operator.
#include <optional>
#include <string_view>

#include "core/operators/op_types.h"

namespace asys {

std::optional<OpRecognition> recognisePcclAnnotation(std::string_view text);
// PCCL, NCCL and RCCL kernels (core/analysis/pccl_kernels.h's classifier)
// and custom collective kernels: a name containing allreduce, all_reduce,
// allgather, all_gather, reduce_scatter, reducescatter, alltoall,
// all_to_all or cross_device_reduce (any case).
std::optional<OpRecognition> recognisePcclKernel(std::string_view name);

}  // namespace asys
