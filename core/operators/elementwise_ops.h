#pragma once
// The elementwise family: pointwise kernels by name (kernel level only):
// PyTorch's vectorized_elementwise_kernel, unrolled_elementwise_kernel and
// elementwise_kernel, multi_tensor_apply_kernel (the _foreach_ and fused
// optimizer ops) and any name containing "pointwise" (any case).
#include <optional>
#include <string_view>

#include "core/operators/op_types.h"

namespace asys {

std::optional<OpRecognition> recogniseElementwiseKernel(std::string_view name);

}  // namespace asys
