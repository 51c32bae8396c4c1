#include "core/gen/model.h"

#include <cstdio>
#include <string>

#include "core/base/fp_contract.h"

namespace asys::gen {
namespace {

constexpr double kBf16Peak = 64.0 * 1.7e9 * 1024.0;
constexpr double kFp32Peak = 64.0 * 1.7e9 * 128.0;
constexpr double kHbm = 2.0e12;

double gemmNs(double m, double n, double k, double eff, double peak = kBf16Peak) {
  return 2.0 * m * n * k / (peak * eff) * 1e9 + 3500.0;
}
double memNs(double bytes) { return bytes / (kHbm * 0.75) * 1e9 + 2500.0; }
int32_t ceilDiv(int64_t a, int64_t b) { return static_cast<int32_t>((a + b - 1) / b); }

std::string acblas(char ta, char tb, int m, int n, int k, int lda, int ldb, int ldc,
                   const char* type = "BF16", const char* algo = "ACBLAS_GEMM_DEFAULT_TENSOR_OP") {
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "ACBLAS:GemmEx,%c,%c,%d,%d,%d,%d,%d,%d,1,0,1,DEFAULT,%s,%s,32F,EPILOGUE_DEFAULT",
                ta, tb, m, n, k, lda, ldb, ldc, type, algo);
  return buf;
}

std::string format(const char* fmt, int a) {
  char buf[1024];
  std::snprintf(buf, sizeof buf, fmt, a, a, a, a, a);
  return buf;
}

class Builder {
 public:
  Builder(ReportWriter& w, Program& p) : w_(w), p_(p) {}

  void push(const std::string& name) {
    Instr i;
    i.op = InstrOp::kPush;
    i.textId = w_.intern(name);
    p_.push_back(i);
  }
  void aten(const char* name, const char* sizes, int32_t inputs) {
    Instr i;
    i.op = InstrOp::kPush;
    i.aten = name;
    i.sizes = sizes;
    i.nInputs = inputs;
    p_.push_back(i);
  }
  void pop() {
    Instr i;
    i.op = InstrOp::kPop;
    p_.push_back(i);
  }
  void launch(KernelKind k, int32_t gx, int32_t gy, int32_t gz, double ns, bool moe = false) {
    Instr i;
    i.op = InstrOp::kLaunch;
    i.kernel = k;
    i.gridX = gx;
    i.gridY = gy;
    i.gridZ = gz;
    i.baseNs = ns;
    i.moe = moe;
    p_.push_back(i);
  }
  void memset(int64_t bytes) {
    Instr i;
    i.op = InstrOp::kMemset;
    i.bytes = bytes;
    p_.push_back(i);
  }

  // A linear layer's forward GEMM: aten::mm > ACBLAS:GemmEx > kernel.
  void linearFwd(const char* sizes, int in, int out, double eff) {
    aten("aten::mm", sizes, 2);
    push(acblas('t', 'n', out, kTokens, in, in, in, out));
    launch(kKGemmFwd, ceilDiv(out, 256), ceilDiv(kTokens, 128), 1, gemmNs(out, kTokens, in, eff));
    pop();
    pop();
  }
  // Its backward: data gradient then weight gradient.
  void linearBwd(int in, int out, double eff) {
    push(acblas('n', 'n', in, kTokens, out, in, out, in));
    launch(kKGemmDgrad, ceilDiv(in, 128), ceilDiv(kTokens, 128), 1, gemmNs(in, kTokens, out, eff));
    pop();
    push(acblas('n', 't', in, out, kTokens, in, out, in));
    launch(kKGemmWgrad, ceilDiv(in, 256), ceilDiv(out, 128), 2,
           gemmNs(in, out, kTokens, eff * 0.9));
    pop();
  }

 private:
  ReportWriter& w_;
  Program& p_;
};

const char* const kRmsSizes = "[[1, 512, 2048], [], [2048], []]";

}  // namespace

const GraphNodeSpec kOptimizerGraph[kGraphNodes] = {
    {"aten::_foreach_norm", "[[], []]", 1, kKLpNorm, 320, 60000.0},
    {"aten::stack", "[[], []]", 1, kKReduceMean, 1, 5000.0},
    {"aten::_foreach_mul_", "[[], []]", 2, kKMul, 320, 40000.0},
    {"aten::_fused_adamw_", "[[], [], [], [], [], []]", 6, kKAdam, 1280, 1200000.0},
    {"aten::fill_", "[[], []]", 1, kKFill, 1, 3000.0},
    {"aten::copy_", "[[1, 2048, 2048], [1, 2048, 2048], []]", 2, kKBf16Copy, 2048, 300000.0},
};

// Dense parameters per layer: qkv 3072x2048 + o 2048x2048 + router
// 128x2048 + two norms; the last bucket adds embedding, LM head and final norm.
const int64_t kBucketElements[kBuckets] = {21504000, 21504000, 152578048};

void buildPrograms(ReportWriter& w, int d, DevicePrograms& out) {
  const double tokHid = static_cast<double>(kTokens) * kHidden;
  const double pairs = static_cast<double>(kTokens) * kTopK;  // token-expert pairs
  const int perExpert = static_cast<int>(pairs / kExperts);
  // A grouped GEMM's m counts the rows of all groups (the documentation's
  // D_MoE,M_8,...,topk_8 runs DeepGemm m:64): every token-expert pair.
  const int pairRows = static_cast<int>(pairs);
  char buf[512];

  const std::string moeName = "MoE:M_512_E128_H2048_In768_topk8";
  auto deepGemm = [&](const char* kind, int m, int n, int k) {
    std::snprintf(buf, sizeof buf, "DeepGemm:%s,data_type:bf16,groups:%d,m:%d,n:%d,k:%d,gpu:%d",
                  kind, kExperts, m, n, k, d);
    return std::string(buf);
  };
  const std::string rotary = format(
      "TorchFunction: torch.ops._C.rotary_embedding.default | arg_type=torch.Tensor, "
      "dtype=torch.int64, device=cuda:%d, shape=(512,), requires_grad=False | "
      "arg_type=torch.Tensor, dtype=torch.bfloat16, device=cuda:%d, shape=(512, 2048), "
      "requires_grad=True | arg_type=torch.Tensor, dtype=torch.bfloat16, device=cuda:%d, "
      "shape=(512, 512), requires_grad=True | arg_type=int, value=128 | arg_type=torch.Tensor, "
      "dtype=torch.bfloat16, device=cuda:%d, shape=(4096, 128), requires_grad=False | "
      "arg_type=bool, value=True",
      d);
  const std::string sdpa = format(
      "TorchFunction: torch.ops.aten._scaled_dot_product_flash_attention.default | "
      "arg_type=torch.Tensor, dtype=torch.bfloat16, device=cuda:%d, shape=(1, 16, 512, 128), "
      "requires_grad=True | arg_type=torch.Tensor, dtype=torch.bfloat16, device=cuda:%d, "
      "shape=(1, 4, 512, 128), requires_grad=True | arg_type=torch.Tensor, dtype=torch.bfloat16, "
      "device=cuda:%d, shape=(1, 4, 512, 128), requires_grad=True | arg_type=float, value=0.0 | "
      "arg_type=bool, value=True | arg_type=bool, value=False | kwarg_name=scale, "
      "arg_type=float, value=0.08838834764831845",
      d);
  const std::string logSoftmax = format(
      "TorchFunction: torch.ops.aten._log_softmax.default | arg_type=torch.Tensor, "
      "dtype=torch.float32, device=cuda:%d, shape=(512, 32000), requires_grad=True | "
      "arg_type=int, value=1 | arg_type=bool, value=False",
      d);
  const std::string auxMm = format(
      "TorchFunction: torch.ops.aten.mm.default | arg_type=torch.Tensor, dtype=torch.float32, "
      "device=cuda:%d, shape=(100, 100), requires_grad=False | arg_type=torch.Tensor, "
      "dtype=torch.float32, device=cuda:%d, shape=(100, 100), stride=(1, 100), requires_grad=False",
      d);
  // The dispatch ranges of the other ops ppu_op_unit_test reproduces: a
  // keyword argument (add's alpha), optional arguments recorded as None
  // (nll_loss's weight, the norm's dtype keyword), a list (the norm's dim),
  // int64 indices beside bf16 and fp32 tensors. The rotary embedding above
  // is the op no test can be generated for (vLLM's _C namespace).
  const std::string residualAdd = format(
      "TorchFunction: torch.ops.aten.add.Tensor | arg_type=torch.Tensor, dtype=torch.bfloat16, "
      "device=cuda:%d, shape=(1, 512, 2048), requires_grad=True | arg_type=torch.Tensor, "
      "dtype=torch.bfloat16, device=cuda:%d, shape=(1, 512, 2048), requires_grad=True | "
      "kwarg_name=alpha, arg_type=int, value=1",
      d);
  const std::string embedding = format(
      "TorchFunction: torch.ops.aten.embedding.default | arg_type=torch.Tensor, dtype=torch.bfloat16, "
      "device=cuda:%d, shape=(32000, 2048), requires_grad=True | arg_type=torch.Tensor, "
      "dtype=torch.int64, device=cuda:%d, shape=(1, 512), requires_grad=False | arg_type=int, value=-1 | "
      "arg_type=bool, value=False | arg_type=bool, value=False",
      d);
  const std::string nllLoss = format(
      "TorchFunction: torch.ops.aten.nll_loss_nd.default | arg_type=torch.Tensor, dtype=torch.float32, "
      "device=cuda:%d, shape=(512, 32000), requires_grad=True | arg_type=torch.Tensor, dtype=torch.int64, "
      "device=cuda:%d, shape=(512,), requires_grad=False | arg_type=NoneType, value=None | "
      "arg_type=int, value=1 | arg_type=int, value=-100",
      d);
  const std::string gradNorm = format(
      "TorchFunction: torch.ops.aten.linalg_vector_norm.default | arg_type=torch.Tensor, "
      "dtype=torch.float32, device=cuda:%d, shape=(64,), requires_grad=False | arg_type=int, value=2 | "
      "arg_type=list, value=[0] | arg_type=bool, value=False | kwarg_name=dtype, arg_type=NoneType, "
      "value=None",
      d);

  {  // Embedding lookup.
    Builder b(w, out.embedFwd);
    b.push(embedding);
    b.launch(kKGather, kTokens, 1, 1, memNs(tokHid * 2 * 2));
    b.pop();
  }
  {  // One decoder layer, forward.
    Builder b(w, out.layerFwd);
    b.aten("aten::rms_norm", kRmsSizes, 2);
    b.launch(kKRmsNorm, kTokens, 1, 1, memNs(tokHid * 2 * 2));
    b.pop();
    b.linearFwd("[[512, 2048], [2048, 3072]]", kHidden, kQkv, 0.62);
    b.push(rotary);
    b.launch(kKRotary, kTokens, 1, 1, memNs(kTokens * 2560.0 * 2 * 2));
    b.pop();
    b.push(sdpa);
    b.launch(kKFlashFwd, 4, 16, 1, gemmNs(kTokens, kTokens, 128 * 16, 0.38));
    b.pop();
    b.linearFwd("[[512, 2048], [2048, 2048]]", kHidden, kHidden, 0.6);
    b.push(residualAdd);
    b.launch(kKAdd, 1024, 1, 1, memNs(tokHid * 2 * 3));
    b.pop();
    b.aten("aten::rms_norm", kRmsSizes, 2);
    b.launch(kKRmsNorm, kTokens, 1, 1, memNs(tokHid * 2 * 2));
    b.pop();
    b.push(moeName);
    b.push(acblas('t', 'n', kExperts, kTokens, kHidden, kHidden, kHidden, kExperts));
    b.launch(kKGemmFwd, 1, ceilDiv(kTokens, 128), 1, gemmNs(kExperts, kTokens, kHidden, 0.3));
    b.pop();
    b.launch(kKTopk, 2, 1, 1, 8000.0);
    b.memset(kExperts * 4);
    b.launch(kKAlign, 1, 1, 1, 6000.0);
    b.launch(kKPermute, ceilDiv(static_cast<int64_t>(pairs), 16), 1, 1,
             memNs(pairs * kHidden * 2 * 2), true);
    b.push(deepGemm("GroupedNoPad", pairRows, 2 * kExpertInter, kHidden));
    b.launch(kKGroupedGemmFwd, 12, kExperts, 1, gemmNs(pairs, 2 * kExpertInter, kHidden, 0.55),
             true);
    b.pop();
    b.launch(kKSilu, ceilDiv(static_cast<int64_t>(pairs), 4), 1, 1,
             memNs(pairs * kExpertInter * 2 * 3), true);
    b.push(deepGemm("GroupedNoPad", pairRows, kHidden, kExpertInter));
    b.launch(kKGroupedGemmFwd, 16, kExperts, 1, gemmNs(pairs, kHidden, kExpertInter, 0.55), true);
    b.pop();
    b.launch(kKFinalize, kTokens, 1, 1, memNs(pairs * kHidden * 2 + tokHid * 2), true);
    b.pop();
    b.push(residualAdd);
    b.launch(kKAdd, 1024, 1, 1, memNs(tokHid * 2 * 3));
    b.pop();
  }
  {  // Final norm, LM head, loss and a small fp32 auxiliary matmul.
    Builder b(w, out.headFwd);
    b.aten("aten::rms_norm", kRmsSizes, 2);
    b.launch(kKRmsNorm, kTokens, 1, 1, memNs(tokHid * 2 * 2));
    b.pop();
    b.linearFwd("[[512, 2048], [2048, 32000]]", kHidden, kVocab, 0.66);
    b.push(logSoftmax);
    b.launch(kKLogSoftmax, kTokens, 1, 1, memNs(kTokens * 32000.0 * 4 * 2));
    b.pop();
    b.push(nllLoss);
    b.launch(kKReduceMean, 1, 1, 1, 9000.0);
    b.pop();
    b.push(auxMm);
    b.push(acblas('n', 'n', 100, 100, 100, 100, 100, 100, "32F", "ACBLAS_GEMM_DEFAULT"));
    b.launch(kKGemmFp32, 2, 2, 1, gemmNs(100, 100, 100, 0.2, kFp32Peak));
    b.pop();
    b.pop();
  }
  {  // Loss and LM head backward.
    Builder b(w, out.headBwd);
    b.push("autograd::engine::evaluate_function: NllLossBackward0");
    b.launch(kKNllBwd, 1, 1, 1, 10000.0);
    b.pop();
    b.push("autograd::engine::evaluate_function: LogSoftmaxBackward0");
    b.launch(kKLogSoftmaxBwd, kTokens, 1, 1, memNs(kTokens * 32000.0 * 4 * 3));
    b.pop();
    b.push("autograd::engine::evaluate_function: MmBackward0");
    b.linearBwd(kHidden, kVocab, 0.66);
    b.pop();
    b.push("autograd::engine::evaluate_function: RmsNormBackward0");
    b.launch(kKRmsNormBwd, kTokens, 1, 1, memNs(tokHid * 2 * 4));
    b.pop();
  }
  {  // One decoder layer, backward.
    Builder b(w, out.layerBwd);
    b.push("autograd::engine::evaluate_function: MoEFunctionBackward");
    b.launch(kKPermute, ceilDiv(static_cast<int64_t>(pairs), 16), 1, 1,
             memNs(pairs * kHidden * 2 * 2), true);
    b.push(deepGemm("GroupedNoPad", pairRows, kExpertInter, kHidden));
    b.launch(kKGroupedGemmBwd, 6, kExperts, 1, gemmNs(pairs, kExpertInter, kHidden, 0.5), true);
    b.pop();
    b.push(deepGemm("GroupedWgrad", kExpertInter, kHidden, perExpert));
    b.launch(kKGroupedGemmBwd, 6, kExperts, 2, gemmNs(pairs, kExpertInter, kHidden, 0.45), true);
    b.pop();
    b.launch(kKSiluBwd, ceilDiv(static_cast<int64_t>(pairs), 4), 1, 1,
             memNs(pairs * kExpertInter * 2 * 5), true);
    b.push(deepGemm("GroupedNoPad", pairRows, kHidden, 2 * kExpertInter));
    b.launch(kKGroupedGemmBwd, 16, kExperts, 1, gemmNs(pairs, kHidden, 2 * kExpertInter, 0.5),
             true);
    b.pop();
    b.push(deepGemm("GroupedWgrad", kHidden, 2 * kExpertInter, perExpert));
    b.launch(kKGroupedGemmBwd, 16, kExperts, 2, gemmNs(pairs, kHidden, 2 * kExpertInter, 0.45),
             true);
    b.pop();
    b.launch(kKPermuteBwd, ceilDiv(static_cast<int64_t>(pairs), 16), 1, 1,
             memNs(pairs * kHidden * 2 * 2), true);
    b.launch(kKTopkBwd, 2, 1, 1, 9000.0);
    b.linearBwd(kHidden, kExperts, 0.3);
    b.pop();
    b.push("autograd::engine::evaluate_function: RmsNormBackward0");
    b.launch(kKRmsNormBwd, kTokens, 1, 1, memNs(tokHid * 2 * 4));
    b.pop();
    b.push("autograd::engine::evaluate_function: AddBackward0");
    b.launch(kKAdd, 1024, 1, 1, memNs(tokHid * 2 * 3));
    b.pop();
    b.push("autograd::engine::evaluate_function: MmBackward0");
    b.linearBwd(kHidden, kHidden, 0.6);
    b.pop();
    b.push("autograd::engine::evaluate_function: ScaledDotProductFlashAttentionBackward0");
    b.launch(kKFlashBwdPre, 4, 16, 1, memNs(tokHid * 2 * 3));
    b.launch(kKFlashBwd, 4, 16, 1, gemmNs(kTokens, kTokens, 128 * 16 * 2.5, 0.35));
    b.pop();
    b.push("autograd::engine::evaluate_function: RotaryEmbeddingBackward");
    b.launch(kKRotary, kTokens, 1, 1, memNs(kTokens * 2560.0 * 2 * 2));
    b.pop();
    b.push("autograd::engine::evaluate_function: MmBackward0");
    b.linearBwd(kHidden, kQkv, 0.62);
    b.pop();
    b.push("autograd::engine::evaluate_function: RmsNormBackward0");
    b.launch(kKRmsNormBwd, kTokens, 1, 1, memNs(tokHid * 2 * 4));
    b.pop();
    b.push("autograd::engine::evaluate_function: AddBackward0");
    b.launch(kKAdd, 1024, 1, 1, memNs(tokHid * 2 * 3));
    b.pop();
  }
  {  // Embedding backward.
    Builder b(w, out.embedBwd);
    b.push("autograd::engine::evaluate_function: EmbeddingBackward0");
    b.launch(kKFill, 4096, 1, 1, memNs(32000.0 * kHidden * 2));
    b.launch(kKEmbeddingBwd, 64, 1, 1, 40000.0);
    b.pop();
  }
  {  // Local gradient norm before the global (all-reduced) one.
    Builder b(w, out.gradNorm);
    b.push(gradNorm);
    b.launch(kKReduceMean, 1, 1, 1, 6000.0);
    b.pop();
  }
}

}  // namespace asys::gen
