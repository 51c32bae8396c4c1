#pragma once
// The MoE family: framework MoE layer annotations and MoE kernels by name.
//   MoE:M_72_E8_H6144_In8192_topk2
//   MoE:M_876_E_128_H_4096_In_384_topk_8_topkids[136,0,25,167,68,17,3,5...]_unique_102
//   D_MoE,M_8_E_128_H_2048_In_768_topk_8
// M tokens, E experts, H hidden size, In expert intermediate size, topk
// experts per token; topkids the routed expert ids, unique the number of
// distinct experts hit (an '_' between a key and its value is optional).
// Merging ignores topkids and unique (they change from call to call).
#include <optional>
#include <string_view>

#include "core/operators/op_types.h"

namespace asys {

struct MoeShape {
  int64_t tokens = -1, experts = -1, hidden = -1, inter = -1, topk = -1, unique = -1;
};

std::optional<OpRecognition> recogniseMoeAnnotation(std::string_view text);
// The parameters of an annotation recogniseMoeAnnotation accepts.
MoeShape parseMoeShape(std::string_view text);
// A MoE kernel (a name containing "moe", any case: fused_moe_kernel,
// marlin_moe_wna16::Marlin, moe_align_block_size_kernel): kernel level.
std::optional<OpRecognition> recogniseMoeKernel(std::string_view name);

}  // namespace asys
