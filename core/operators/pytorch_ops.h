#pragma once
// The PyTorch family: framework-level operator ranges (HGTX only).
//   aten::mm, op_id = 1529997, sizes = [[4, 1024], [1024, 2048]], input_op_ids = [(1529991,0), (1529993,0)]
//                                              (--pytorch autograd-shapes-hgtx)
//   aten::mm, op_id = 1515155                  (--pytorch autograd-hgtx)
//   TorchFunction: torch.ops.aten.mm.default | arg_type=torch.Tensor, dtype=torch.float32, device=cuda:0,
//     shape=(100, 100), requires_grad=False | ...   (--pytorch=dispatch-function)
//   aten::mm, sizes = [[8944, 1024], [1024, 2816]], types = [c10::BFloat16, c10::BFloat16]
//                                              (an imported PyTorch profiler cpu_op with its shapes)
//   aten::mm, autograd::engine::evaluate_function: MmBackward0, c10d::allreduce_, nccl:all_reduce
//                                              (any NAMESPACE::op name, a Kineto nccl: annotation)
// The OP Type follows the operator: GEMM (mm, addmm, bmm, baddbmm, matmul,
// linear, mv, their backward functions), FlashAttention (attention ops),
// PCCL (c10d::, nccl:, all_reduce and the other collectives), MoE (names
// with moe), Elementwise (pointwise aten ops), else PyTorch. Merging ignores
// op_id and input_op_ids (new for every call), and a TorchFunction
// argument's device and requires_grad.
#include <optional>
#include <string_view>

#include "core/operators/op_types.h"

namespace asys {

std::optional<OpRecognition> recognisePyTorchRange(std::string_view text);

}  // namespace asys
