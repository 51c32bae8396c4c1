#include "core/gen/catalog.h"

#include <cstddef>

namespace asys::gen {

#define GEMM_TAIL "_fusion0_prefetch0_fp32tc0_ptrhost1_schedule0"
#define GEMM_BF16 "gemm_ktype0_aiu1_mtype1_dtypeBF16xBF16xFP32xBF16xBF16_"

// The compute-library GEMMs are extern "C" (mangled == demangled == short).
// Every mangled C++ name below demangles (c++filt / abi::__cxa_demangle) to
// its demangled text exactly; tests/unit/generator_test.cc checks this.
const KernelDef kKernels[kKernelKindCount] = {
    {"add(int*, int*, int*)", "add", "_Z3addPiS_S_", 256, 1, 1, 16, 0, 0, KernelClass::kOther},
    {"void ppu::norm::rms_norm_kernel<c10::BFloat16, 8>(c10::BFloat16*, c10::BFloat16 const*, "
     "long, c10::BFloat16 const*, float, int, int)",
     "rms_norm_kernel", "_ZN3ppu4norm15rms_norm_kernelIN3c108BFloat16ELi8EEEvPT_PKS4_lS7_fii", 256,
     1, 1, 32, 0, 0, KernelClass::kElementwise},
    {"void ppu::norm::rms_norm_backward_kernel<c10::BFloat16, 8>(c10::BFloat16*, c10::BFloat16 "
     "const*, c10::BFloat16 const*, c10::BFloat16 const*, float*, float, int, int, "
     "c10::BFloat16*)",
     "rms_norm_backward_kernel",
     "_ZN3ppu4norm24rms_norm_backward_kernelIN3c108BFloat16ELi8EEEvPT_PKS4_S7_S7_PffiiS5_", 512, 1,
     1, 40, 2048, 0, KernelClass::kElementwise},
    {GEMM_BF16 "tile128x256x64x64x64x2_layout0x1x0x0_align1x1x8x8_splitk1" GEMM_TAIL,
     GEMM_BF16 "tile128x256x64x64x64x2_layout0x1x0x0_align1x1x8x8_splitk1" GEMM_TAIL,
     GEMM_BF16 "tile128x256x64x64x64x2_layout0x1x0x0_align1x1x8x8_splitk1" GEMM_TAIL, 256, 1, 1,
     168, 0, 147456, KernelClass::kGemm},
    {GEMM_BF16 "tile128x128x64x64x64x2_layout0x0x0x0_align1x1x8x8_splitk1" GEMM_TAIL,
     GEMM_BF16 "tile128x128x64x64x64x2_layout0x0x0x0_align1x1x8x8_splitk1" GEMM_TAIL,
     GEMM_BF16 "tile128x128x64x64x64x2_layout0x0x0x0_align1x1x8x8_splitk1" GEMM_TAIL, 256, 1, 1,
     154, 0, 98304, KernelClass::kGemm},
    {GEMM_BF16 "tile256x128x64x64x64x2_layout1x0x0x0_align1x1x8x8_splitk2" GEMM_TAIL,
     GEMM_BF16 "tile256x128x64x64x64x2_layout1x0x0x0_align1x1x8x8_splitk2" GEMM_TAIL,
     GEMM_BF16 "tile256x128x64x64x64x2_layout1x0x0x0_align1x1x8x8_splitk2" GEMM_TAIL, 256, 1, 1,
     168, 0, 147456, KernelClass::kGemm},
    {"gemm_ktype0_aiu0_mtype0_dtypeFP32xFP32xFP32xFP32xFP32_tile64x64x16x32x32x1_layout0x0x0x0_"
     "align1x1x4x4_splitk1" GEMM_TAIL,
     "gemm_ktype0_aiu0_mtype0_dtypeFP32xFP32xFP32xFP32xFP32_tile64x64x16x32x32x1_layout0x0x0x0_"
     "align1x1x4x4_splitk1" GEMM_TAIL,
     "gemm_ktype0_aiu0_mtype0_dtypeFP32xFP32xFP32xFP32xFP32_tile64x64x16x32x32x1_layout0x0x0x0_"
     "align1x1x4x4_splitk1" GEMM_TAIL,
     128, 1, 1, 96, 16384, 0, KernelClass::kGemm},
    {"void deep_gemm::grouped_gemm_nopad_kernel<128u, 128u, 64u, 8u>(__ppu_bfloat16 const*, "
     "__ppu_bfloat16 const*, __ppu_bfloat16*, int const*, int)",
     "grouped_gemm_nopad_kernel",
     "_ZN9deep_gemm25grouped_gemm_nopad_kernelILj128ELj128ELj64ELj8EEEvPK14__ppu_bfloat16S3_PS1_"
     "PKii",
     384, 1, 1, 168, 0, 196608, KernelClass::kMoe},
    {"void deep_gemm::grouped_gemm_nopad_kernel<128u, 64u, 64u, 4u>(__ppu_bfloat16 const*, "
     "__ppu_bfloat16 const*, __ppu_bfloat16*, int const*, int)",
     "grouped_gemm_nopad_kernel",
     "_ZN9deep_gemm25grouped_gemm_nopad_kernelILj128ELj64ELj64ELj4EEEvPK14__ppu_bfloat16S3_PS1_"
     "PKii",
     256, 1, 1, 128, 0, 131072, KernelClass::kMoe},
    {"void flash::flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4, __ppu_bfloat16>, "
     "true, false>(flash::Flash_fwd_params)",
     "flash_fwd_kernel",
     "_ZN5flash16flash_fwd_kernelI23Flash_fwd_kernel_traitsILi128ELi128ELi64ELi4E14__ppu_"
     "bfloat16ELb1ELb0EEEvNS_16Flash_fwd_paramsE",
     128, 1, 1, 255, 0, 49152, KernelClass::kAttention},
    {"void flash::flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel<Flash_bwd_kernel_traits<128, 64, "
     "128, 8, __ppu_bfloat16>, true, false>(flash::Flash_bwd_params)",
     "flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel",
     "_ZN5flash44flash_bwd_dq_dk_dv_loop_seqk_parallel_kernelI23Flash_bwd_kernel_"
     "traitsILi128ELi64ELi128ELi8E14__ppu_bfloat16ELb1ELb0EEEvNS_16Flash_bwd_paramsE",
     256, 1, 1, 255, 0, 114688, KernelClass::kAttention},
    {"void flash::flash_bwd_dot_do_o_kernel<true, Flash_bwd_kernel_traits<128, 64, 128, 8, "
     "__ppu_bfloat16> >(flash::Flash_bwd_params)",
     "flash_bwd_dot_do_o_kernel",
     "_ZN5flash25flash_bwd_dot_do_o_kernelILb1E23Flash_bwd_kernel_traitsILi128ELi64ELi128ELi8E14_"
     "_ppu_bfloat16EEEvNS_16Flash_bwd_paramsE",
     256, 1, 1, 32, 0, 0, KernelClass::kAttention},
    {"void ppu::pos_encoding::rotary_embedding_kernel<c10::BFloat16, true>(long const*, "
     "c10::BFloat16*, c10::BFloat16*, c10::BFloat16 const*, int, long, long, int, int, int)",
     "rotary_embedding_kernel",
     "_ZN3ppu12pos_encoding23rotary_embedding_kernelIN3c108BFloat16ELb1EEEvPKlPT_S7_PKT_illiii",
     512, 1, 1, 38, 0, 0, KernelClass::kElementwise},
    {"void at::native::vectorized_elementwise_kernel<4, "
     "at::native::CUDAFunctor_add<c10::BFloat16>, "
     "std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<c10::BFloat16>, std::array<char*, "
     "3ul>)",
     "vectorized_elementwise_kernel",
     "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_15CUDAFunctor_addIN3c108BFloat16EEESt5"
     "arrayIPcLm3EEEEviT0_T1_",
     128, 1, 1, 24, 0, 0, KernelClass::kElementwise},
    {"void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<int>, "
     "std::array<char*, 1ul> >(int, at::native::FillFunctor<int>, std::array<char*, 1ul>)",
     "vectorized_elementwise_kernel",
     "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_11FillFunctorIiEESt5arrayIPcLm1EEEEviT0_"
     "T1_",
     128, 1, 1, 16, 0, 0, KernelClass::kElementwise},
    {"void at::native::vectorized_elementwise_kernel<4, at::native::BinaryFunctor<float, float, "
     "float, at::native::binary_internal::MulFunctor<float> >, std::array<char*, 3ul> >(int, "
     "at::native::BinaryFunctor<float, float, float, "
     "at::native::binary_internal::MulFunctor<float> "
     ">, std::array<char*, 3ul>)",
     "vectorized_elementwise_kernel",
     "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_13BinaryFunctorIfffNS0_15binary_"
     "internal10MulFunctorIfEEEESt5arrayIPcLm3EEEEviT0_T1_",
     128, 1, 1, 20, 0, 0, KernelClass::kElementwise},
    {"void at::native::vectorized_elementwise_kernel<8, "
     "at::native::bfloat16_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda(float)#1}, "
     "std::array<char*, 2ul> >(int, "
     "at::native::bfloat16_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda(float)#1}, "
     "std::array<char*, 2ul>)",
     "vectorized_elementwise_kernel",
     "_ZN2at6native29vectorized_elementwise_kernelILi8EZNS0_25bfloat16_copy_kernel_cudaERNS_"
     "18TensorIteratorBaseEEUlfE_St5arrayIPcLm2EEEEviT0_T1_",
     128, 1, 1, 18, 0, 0, KernelClass::kElementwise},
    {"void at::native::vectorized_gather_kernel<16, long>(char*, char*, long*, int, long, long, "
     "long, long, bool)",
     "vectorized_gather_kernel", "_ZN2at6native24vectorized_gather_kernelILi16ElEEvPcS2_PT0_illllb",
     128, 1, 1, 30, 0, 0, KernelClass::kElementwise},
    {"void at::native::(anonymous namespace)::embedding_backward_feature_kernel<c10::BFloat16, "
     "float, long>(long const*, c10::BFloat16 const*, c10::BFloat16*, int, long, int, int)",
     "embedding_backward_feature_kernel",
     "_ZN2at6native12_GLOBAL__N_133embedding_backward_feature_kernelIN3c108BFloat16EflEEvPKT1_PKT_"
     "PT_ilii",
     32, 32, 1, 64, 4096, 8192, KernelClass::kElementwise},
    {"void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, "
     "at::native::MeanOps<float, float, float, float>, unsigned int, float, 4, 4> "
     ">(at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, unsigned int, "
     "float, 4, 4>)",
     "reduce_kernel",
     "_ZN2at6native13reduce_kernelILi512ELi1ENS0_8ReduceOpIfNS0_7MeanOpsIffffEEjfLi4ELi4EEEEEvT1_",
     32, 16, 1, 32, 0, 16, KernelClass::kElementwise},
    {"void (anonymous namespace)::softmax_warp_forward<float, float, float, 6, true, "
     "false>(float*, "
     "float const*, int, int, int, bool const*, int, bool)",
     "softmax_warp_forward",
     "_ZN43_GLOBAL__N__b6de9c8c_10_SoftMax_cu_9f978f6320softmax_warp_forwardIfffLi6ELb1ELb0EEEvPT0_"
     "PKT_iiiPKbib",
     128, 1, 1, 38, 0, 0, KernelClass::kElementwise},
    {"void (anonymous namespace)::softmax_warp_backward<float, float, float, 6, true, "
     "false>(float*, float const*, float const*, int, int, int, bool const*)",
     "softmax_warp_backward",
     "_ZN43_GLOBAL__N__b6de9c8c_10_SoftMax_cu_9f978f6321softmax_warp_"
     "backwardIfffLi6ELb1ELb0EEEvPT0_"
     "PKT_S5_iiiPKb",
     128, 1, 1, 40, 0, 0, KernelClass::kElementwise},
    {"void at::native::(anonymous namespace)::nll_loss_backward_reduce_cuda_kernel_2d<float, "
     "long>(float*, float const*, long const*, float const*, float const*, bool, int, int, long, "
     "long)",
     "nll_loss_backward_reduce_cuda_kernel_2d",
     "_ZN2at6native39_GLOBAL__N__df250f02_7_Loss_cu_5b0651e139nll_loss_backward_reduce_cuda_kernel_"
     "2dIflEEvPT_PKS3_PKT0_S6_S6_biill",
     128, 1, 1, 28, 0, 0, KernelClass::kElementwise},
    {"moe::topkGatingSoftmax(float const*, float*, int*, int, int, int)", "topkGatingSoftmax",
     "_ZN3moe17topkGatingSoftmaxEPKfPfPiiii", 256, 1, 1, 64, 0, 0, KernelClass::kMoe},
    {"moe::topkGatingSoftmaxBackward(float const*, float const*, float*, int, int, int)",
     "topkGatingSoftmaxBackward", "_ZN3moe25topkGatingSoftmaxBackwardEPKfS1_Pfiii", 256, 1, 1, 48,
     0, 0, KernelClass::kMoe},
    {"void moe::moe_align_block_size_kernel<int>(int const*, int*, int*, int*, int, int, int, "
     "unsigned long)",
     "moe_align_block_size_kernel", "_ZN3moe27moe_align_block_size_kernelIiEEvPKT_PiS4_S4_iiim",
     1024, 1, 1, 32, 0, 1032, KernelClass::kMoe},
    {"void moe::moe_permute_kernel<c10::BFloat16>(c10::BFloat16 const*, c10::BFloat16*, int "
     "const*, int, int)",
     "moe_permute_kernel", "_ZN3moe18moe_permute_kernelIN3c108BFloat16EEEvPKT_PS3_PKiii", 256, 1, 1,
     30, 0, 0, KernelClass::kMoe},
    {"void moe::moe_permute_backward_kernel<c10::BFloat16>(c10::BFloat16 const*, c10::BFloat16*, "
     "int const*, int, int)",
     "moe_permute_backward_kernel",
     "_ZN3moe27moe_permute_backward_kernelIN3c108BFloat16EEEvPKT_PS3_PKiii", 256, 1, 1, 30, 0, 0,
     KernelClass::kMoe},
    {"void ppu::silu_and_mul_kernel<c10::BFloat16>(c10::BFloat16*, c10::BFloat16 const*, int)",
     "silu_and_mul_kernel", "_ZN3ppu19silu_and_mul_kernelIN3c108BFloat16EEEvPT_PKS3_i", 1024, 1, 1,
     26, 0, 0, KernelClass::kElementwise},
    {"void ppu::silu_and_mul_bwd_kernel<c10::BFloat16>(c10::BFloat16*, c10::BFloat16 const*, "
     "c10::BFloat16 const*, int)",
     "silu_and_mul_bwd_kernel", "_ZN3ppu23silu_and_mul_bwd_kernelIN3c108BFloat16EEEvPT_PKS3_S6_i",
     1024, 1, 1, 32, 0, 0, KernelClass::kElementwise},
    {"void moe::finalizeMoeRoutingKernel<c10::BFloat16, float>(c10::BFloat16 const*, "
     "c10::BFloat16*, float const*, int const*, int const*, int, int)",
     "finalizeMoeRoutingKernel",
     "_ZN3moe24finalizeMoeRoutingKernelIN3c108BFloat16EfEEvPKT_PS3_PKT0_PKiSB_ii", 256, 1, 1, 40, 0,
     0, KernelClass::kMoe},
    {"void at::native::multi_tensor_apply_kernel<at::native::TensorListMetadata<4>, "
     "at::native::FusedAdamMathFunctor<float, 4>, float*, double, double, "
     "double>(at::native::TensorListMetadata<4>, at::native::FusedAdamMathFunctor<float, 4>, "
     "float*, double, double, double)",
     "multi_tensor_apply_kernel",
     "_ZN2at6native25multi_tensor_apply_kernelINS0_18TensorListMetadataILi4EEENS0_"
     "20FusedAdamMathFunctorIfLi4EEEJPfdddEEEvT_T0_DpT1_",
     512, 1, 1, 72, 0, 0, KernelClass::kElementwise},
    {"void at::native::multi_tensor_apply_kernel<at::native::TensorListMetadata<1>, "
     "at::native::LpNormFunctor<float, 2>, float*, float*, int>(at::native::TensorListMetadata<1>, "
     "at::native::LpNormFunctor<float, 2>, float*, float*, int)",
     "multi_tensor_apply_kernel",
     "_ZN2at6native25multi_tensor_apply_kernelINS0_18TensorListMetadataILi1EEENS0_"
     "13LpNormFunctorIfLi2EEEJPfS6_iEEEvT_T0_DpT1_",
     512, 1, 1, 40, 2048, 0, KernelClass::kElementwise},
    {"void pcclKernel_twoShotAllReduceKernel<__ppu_bfloat16, 4, 0, 0, 1, 1>(twoShotDevParams)",
     "pcclKernel_twoShotAllReduceKernel",
     "_Z33pcclKernel_twoShotAllReduceKernelI14__ppu_"
     "bfloat16Li4ELi0ELi0ELi1ELi1EEv16twoShotDevParams",
     512, 1, 1, 96, 0, 0, KernelClass::kComm},
    {"pcclKernel_AllReduce_RING_LL_Sum_float(pcclWorkElem)",
     "pcclKernel_AllReduce_RING_LL_Sum_float",
     "_Z38pcclKernel_AllReduce_RING_LL_Sum_float12pcclWorkElem", 512, 1, 1, 94, 0, 0,
     KernelClass::kComm},
};

#undef GEMM_TAIL
#undef GEMM_BF16

const ApiDef kApis[kApiKindCount] = {
    {"hgLaunchKernel", 0},
    {"hggcLaunchKernel", 1},
    {"hgMemcpyHtoDAsync_v2", 1},
    {"hgMemcpyDtoHAsync_v2", 1},
    {"hgMemcpyAsync", 0},
    {"hgMemcpyPeerAsync", 0},
    {"hgMemsetAsync", 0},
    {"hgEventQuery", 0},
    {"hgEventRecord", 0},
    {"hgStreamWaitEvent", 0},
    {"hgStreamSynchronize", 0},
    {"hgDeviceSynchronize", 0},
    {"hgGraphLaunch", 0},
    {"hgGraphInstantiate", 0},
    {"hgStreamBeginCapture", 0},
    {"hgStreamEndCapture", 0},
    {"hgMalloc", 0},
    {"hgFree", 0},
    {"hgMallocAsync", 0},
    {"hgFreeAsync", 0},
    {"hgMallocManaged", 0},
    {"hgGetDeviceCount", 0},
    {"hgSetDevice", 0},
    {"hgStreamCreateWithPriority", 0},
};

const char* const kOsrtNames[kOsrtKindCount] = {
    "pthread_cond_wait",
    "nanosleep",
    "poll",
    "ioctl",
    "read",
    "write",
    "fread",
    "fwrite",
    "open64",
    "close",
    "pthread_mutex_lock",
    "mmap64",
};

const MetricDef kMetrics[kMetricKindCount] = {
    {"ce__cycles_elapsed.avg.per_second", "cycle/second"},
    {"ce__cycles_active.avg.pct_of_peak_sustained_elapsed", "%"},
    {"gd__dispatch_count.avg.pct_of_peak_sustained_elapsed", "%"},
    {"cu__cycles_active.avg.pct_of_peak_sustained_elapsed", "%"},
    {"cu__we_pipe_tensor_cycles_active.avg.pct_of_peak_sustained_elapsed", "%"},
    {"dram__bytes_read.sum.per_second", "byte/second"},
};

namespace {

#define TORCH_LIB "/usr/local/lib/python3.10/dist-packages/torch/lib/"
#define TORCH_PY "/usr/local/lib/python3.10/dist-packages/torch/"
#define APP "/workspace/llm/"

const FrameDef kWeightsFrames[] = {
    {"c10::ppu::PPUCachingAllocator::malloc(void**, int, unsigned long, PPUstream_st*)",
     TORCH_LIB "libc10_ppu.so", 0},
    {"at::detail::empty_ppu(c10::ArrayRef<long>, c10::ScalarType, std::optional<c10::Device>, "
     "std::optional<c10::MemoryFormat>)",
     TORCH_LIB "libtorch_ppu.so", 0},
    {"at::native::_to_copy(at::Tensor const&, std::optional<c10::ScalarType>, "
     "std::optional<c10::Layout>, std::optional<c10::Device>, std::optional<bool>, bool, "
     "std::optional<c10::MemoryFormat>)",
     TORCH_LIB "libtorch_cpu.so", 0},
    {"torch::autograd::THPVariable_to(_object*, _object*, _object*)",
     TORCH_LIB "libtorch_python.so", 0},
    {"convert", TORCH_PY "nn/modules/module.py", 0},
    {"_apply", TORCH_PY "nn/modules/module.py", 0},
    {"to", TORCH_PY "nn/modules/module.py", 0},
    {"build_model", APP "train.py", 0},
    {"main", APP "train.py", 0},
    {"<module>", APP "train.py", 0},
};

const FrameDef kAcblasFrames[] = {
    {"acblas::Workspace::allocate(unsigned long)", "/usr/lib/libacblas.so", 0},
    {"acblasLtMatmul", "/usr/lib/libacblas.so", 0},
    {"acblasGemmEx", "/usr/lib/libacblas.so", 0},
    {"at::ppu::blas::gemm<c10::BFloat16>(char, char, long, long, long, c10::BFloat16, "
     "c10::BFloat16 const*, long, c10::BFloat16 const*, long, c10::BFloat16, c10::BFloat16*, long)",
     TORCH_LIB "libtorch_ppu.so", 0},
    {"at::native::addmm_out_ppu_impl(at::Tensor&, at::Tensor const&, at::Tensor const&, "
     "at::Tensor const&, c10::Scalar const&, c10::Scalar const&)",
     TORCH_LIB "libtorch_ppu.so", 0},
    {"torch::autograd::generated::MmBackward0::apply(std::vector<at::Tensor>&&)",
     TORCH_LIB "libtorch_cpu.so", 0},
    {"backward", TORCH_PY "autograd/__init__.py", 0},
    {"backward", TORCH_PY "_tensor.py", 0},
    {"train_step", APP "train.py", 0},
    {"main", APP "train.py", 0},
    {"<module>", APP "train.py", 0},
};

const FrameDef kPcclFrames[] = {
    {"pccl::Buffers::alloc(unsigned long)", "/usr/lib/libpccl.so.2", 0},
    {"pcclCommInitRank", "/usr/lib/libpccl.so.2", 0},
    {"c10d::ProcessGroupPCCL::getPCCLComm(std::string const&, c10::Device&, c10d::OpType, int, "
     "bool)",
     TORCH_LIB "libtorch_ppu.so", 0},
    {"barrier", TORCH_PY "distributed/distributed_c10d.py", 0},
    {"setup_distributed", APP "dist_utils.py", 0},
    {"main", APP "train.py", 0},
    {"<module>", APP "train.py", 0},
};

const FrameDef kLossFrames[] = {
    {"c10::ppu::PPUCachingAllocator::malloc(void**, int, unsigned long, PPUstream_st*)",
     TORCH_LIB "libc10_ppu.so", 0},
    {"at::detail::empty_ppu(c10::ArrayRef<long>, c10::ScalarType, std::optional<c10::Device>, "
     "std::optional<c10::MemoryFormat>)",
     TORCH_LIB "libtorch_ppu.so", 0},
    {"at::native::clone(at::Tensor const&, std::optional<c10::MemoryFormat>)",
     TORCH_LIB "libtorch_cpu.so", 0},
    {"record_loss", APP "loss.py", 0},
    {"compute_loss", APP "loss.py", 0},
    {"train_step", APP "train.py", 0},
    {"main", APP "train.py", 0},
    {"<module>", APP "train.py", 0},
};

const FrameDef kLaunchFrames[] = {
    {"hggc::Context::reserveLocalMemory(unsigned long)", "/usr/lib/libhggc.so.1", 0},
    {"hggcLaunchKernel", "/usr/lib/libhggc.so.1", 0},
    {"hgLaunchKernel", "/usr/lib/libhgrt.so.1", 0},
    {"0x7f3c2a1b4e10", TORCH_LIB "libtorch_ppu.so", 1},
    {"at::native::launch_vectorized_kernel<at::native::CUDAFunctor_add<c10::BFloat16>, "
     "std::array<char*, 3ul> >(long, at::native::CUDAFunctor_add<c10::BFloat16> const&, "
     "std::array<char*, 3ul>)",
     TORCH_LIB "libtorch_ppu.so", 0},
    {"at::native::add_kernel(at::TensorIteratorBase&, c10::Scalar const&)",
     TORCH_LIB "libtorch_ppu.so", 0},
    {"warmup", APP "train.py", 0},
    {"main", APP "train.py", 0},
    {"<module>", APP "train.py", 0},
};

const FrameDef kOptimizerFrames[] = {
    {"c10::ppu::PPUCachingAllocator::malloc(void**, int, unsigned long, PPUstream_st*)",
     TORCH_LIB "libc10_ppu.so", 0},
    {"at::detail::empty_ppu(c10::ArrayRef<long>, c10::ScalarType, std::optional<c10::Device>, "
     "std::optional<c10::MemoryFormat>)",
     TORCH_LIB "libtorch_ppu.so", 0},
    {"at::native::zeros_like(at::Tensor const&, std::optional<c10::ScalarType>, "
     "std::optional<c10::Layout>, std::optional<c10::Device>, std::optional<bool>, "
     "std::optional<c10::MemoryFormat>)",
     TORCH_LIB "libtorch_cpu.so", 0},
    {"_init_group", TORCH_PY "optim/adamw.py", 0},
    {"step", TORCH_PY "optim/adamw.py", 0},
    {"train_step", APP "train.py", 0},
    {"main", APP "train.py", 0},
    {"<module>", APP "train.py", 0},
};

const FrameDef kBucketFrames[] = {
    {"c10::ppu::PPUCachingAllocator::malloc(void**, int, unsigned long, PPUstream_st*)",
     TORCH_LIB "libc10_ppu.so", 0},
    {"at::detail::empty_ppu(c10::ArrayRef<long>, c10::ScalarType, std::optional<c10::Device>, "
     "std::optional<c10::MemoryFormat>)",
     TORCH_LIB "libtorch_ppu.so", 0},
    {"c10d::Reducer::initialize_buckets(std::vector<c10d::Reducer::Bucket>)",
     TORCH_LIB "libtorch_ppu.so", 0},
    {"__init__", TORCH_PY "nn/parallel/distributed.py", 0},
    {"build_model", APP "train.py", 0},
    {"main", APP "train.py", 0},
    {"<module>", APP "train.py", 0},
};

const FrameDef kManagedFrames[] = {
    {"hgMallocManaged", "/usr/lib/libhgrt.so.1", 0},
    {"ppu_ext::alloc_managed(unsigned long)", APP "ext/_C.cpython-310-x86_64-linux-gnu.so", 0},
    {"__init__", APP "expert_stats.py", 0},
    {"build_model", APP "train.py", 0},
    {"main", APP "train.py", 0},
    {"<module>", APP "train.py", 0},
};

const FrameDef kActivationFrames[] = {
    {"c10::ppu::PPUCachingAllocator::malloc(void**, int, unsigned long, PPUstream_st*)",
     TORCH_LIB "libc10_ppu.so", 0},
    {"at::detail::empty_ppu(c10::ArrayRef<long>, c10::ScalarType, std::optional<c10::Device>, "
     "std::optional<c10::MemoryFormat>)",
     TORCH_LIB "libtorch_ppu.so", 0},
    {"at::native::mm_out_ppu(at::Tensor const&, at::Tensor const&, at::Tensor&)",
     TORCH_LIB "libtorch_ppu.so", 0},
    {"forward", APP "moe_layer.py", 0},
    {"_call_impl", TORCH_PY "nn/modules/module.py", 0},
    {"forward", APP "model.py", 0},
    {"_call_impl", TORCH_PY "nn/modules/module.py", 0},
    {"train_step", APP "train.py", 0},
    {"main", APP "train.py", 0},
    {"<module>", APP "train.py", 0},
};

const FrameDef kDataReadFrames[] = {
    {"read", "/lib/x86_64-linux-gnu/libc.so.6", 0},
    {"_IO_file_xsgetn", "/lib/x86_64-linux-gnu/libc.so.6", 0},
    {"__getitem__", APP "data.py", 0},
    {"fetch", TORCH_PY "utils/data/_utils/fetch.py", 0},
    {"_next_data", TORCH_PY "utils/data/dataloader.py", 0},
    {"_pin_memory_loop", TORCH_PY "utils/data/_utils/pin_memory.py", 0},
};

#undef TORCH_LIB
#undef TORCH_PY
#undef APP

template <size_t N>
constexpr ChainDef chain(const FrameDef (&f)[N]) {
  return ChainDef{f, static_cast<int32_t>(N)};
}

}  // namespace

const ChainDef kChains[kChainKindCount] = {
    chain(kWeightsFrames),    chain(kAcblasFrames),    chain(kPcclFrames),   chain(kLossFrames),
    chain(kLaunchFrames),     chain(kOptimizerFrames), chain(kBucketFrames), chain(kManagedFrames),
    chain(kActivationFrames), chain(kDataReadFrames),
};

const EnumDef kCopyKinds[] = {
    {kCopyHtoD, "HGGC_MEMCPY_KIND_HTOD", "Host-to-Device"},
    {kCopyDtoH, "HGGC_MEMCPY_KIND_DTOH", "Device-to-Host"},
    {kCopyDtoD, "HGGC_MEMCPY_KIND_DTOD", "Device-to-Device"},
    {kCopyHtoH, "HGGC_MEMCPY_KIND_HTOH", "Host-to-Host"},
    {kCopyPtoP, "HGGC_MEMCPY_KIND_PTOP", "Peer-to-Peer"},
};
const int kCopyKindCount = sizeof(kCopyKinds) / sizeof(kCopyKinds[0]);

const EnumDef kMemKinds[] = {
    {kMemPageable, "HGGC_MEMORY_KIND_PAGEABLE", "Pageable"},
    {kMemPinned, "HGGC_MEMORY_KIND_PINNED", "Pinned"},
    {kMemDevice, "HGGC_MEMORY_KIND_DEVICE", "Device"},
    {kMemManaged, "HGGC_MEMORY_KIND_MANAGED", "Managed"},
};
const int kMemKindCount = sizeof(kMemKinds) / sizeof(kMemKinds[0]);

// 64 CUs at 1.7 GHz: 1024 dense BF16/FP16 FLOP per CU per clock, 128 for
// FP32, 2048 for FP8/INT8; HBM 2.0 TB/s.
const DeviceModel kPpu = {
    "PPU-ZW810E",
    8,
    0,
    16,
    64,
    103079215104LL,
    1700000000LL,
    1800000000LL,
    64.0 * 1.7e9 * 128.0,
    64.0 * 1.7e9 * 1024.0,
    64.0 * 1.7e9 * 1024.0,
    64.0 * 1.7e9 * 2048.0,
    64.0 * 1.7e9 * 2048.0,
    2.0e12,
};

const char* const kBusLocations[kPpusPerNode] = {"00000001:C9:00.0", "00000001:C8:00.0", "00000001:A1:00.0",
                                                "00000001:A2:00.0", "00000001:5A:00.0", "00000001:59:00.0",
                                                "00000001:3B:00.0", "00000001:3C:00.0"};
const char* const kHostName = "ppu-train-node07";

}  // namespace asys::gen
