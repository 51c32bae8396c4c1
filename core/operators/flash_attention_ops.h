#pragma once
// The flash attention family: attention library annotations (library level)
// and attention kernels by name (kernel level). The annotation this engine
// recognises (its own definition; docs/operators.md):
//   FlashAttention:Prefill,batch:4,seqlen_q:512,seqlen_k:512,heads_q:16,heads_kv:4,head_dim:128,causal:1,data_type:bf16
//   FlashAttention:Decode,batch:64,seqlen_q:1,seqlen_k:2048,heads_q:16,heads_kv:4,head_dim:128,causal:0,data_type:bf16
// ("FlashAttn:" works too; phases Prefill, Decode, Fwd, Bwd; a gpu:N field
// is allowed). Merging ignores batch, seqlen_q, seqlen_k and gpu (the
// request shapes of a serving step); a prefill and the decode right after it
// on the same thread with the same heads, head_dim and data type are one
// operator (operator_set.h), unless the no-merge flags say otherwise.
#include <optional>
#include <string_view>

#include "core/operators/op_types.h"

namespace asys {

std::optional<OpRecognition> recogniseFlashAttentionAnnotation(std::string_view text);
// An attention kernel: a name containing flash, fmha or attention (any
// case): flash_fwd_kernel, flash_fwd_splitkv_kernel, paged_attention_v1_kernel.
std::optional<OpRecognition> recogniseFlashAttentionKernel(std::string_view name);

// Attention FLOPs: 4 B Hq Sq Sk D forward (QK^T and PV), half when causal
// (FlashAttention's and TraceLens's convention), x2.5 for the backward pass.
double attentionFlops(double batch, double headsQ, double seqQ, double seqK, double headDim, bool causal,
                      bool backward);

}  // namespace asys
