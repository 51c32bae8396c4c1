#pragma once
// The GEMM family: compute-library GEMM annotations (library level) and GEMM
// kernels recognised by name (kernel level).
//   ACBLAS:GemmEx,t,n,2048,72,6144,6144,6144,2048,1,0,1,DEFAULT,BF16,ACBLAS_GEMM_DEFAULT_TENSOR_OP,32F,EPILOGUE_DEFAULT
//     transa, transb, m, n, k, lda, ldb, ldc, alpha, beta, batch count, then
//     the math mode, the A/B/C data type, the algorithm, the compute type and
//     the epilogue. Merging ignores lda, ldb and ldc.
//   DeepGemm:GroupedNoPad,data_type:bf16,groups:128,m:64,n:768,k:2048,gpu:0
//     a grouped GEMM: m rows in all (over the groups), n x k weights per
//     group; GroupedWgrad: every group computes m x n over k. Merging
//     ignores gpu (the device index).
#include <optional>
#include <string_view>

#include "core/operators/op_types.h"

namespace asys {

std::optional<OpRecognition> recogniseGemmAnnotation(std::string_view text);
// A GEMM kernel name (gemm, gemv, cuBLAS, CUTLASS, xmma, nvjet, Tensile's
// Cijk_, matmul): kernel level, work unknown.
std::optional<OpRecognition> recogniseGemmKernel(std::string_view name);

}  // namespace asys
