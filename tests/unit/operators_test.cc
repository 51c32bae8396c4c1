// The operator recognisers one by one (formats, merge keys, work), the memo
// that recognises each distinct name once, the table of GPU peaks, and the
// --ppu-op-config parser.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <random>
#include <tuple>

#include "core/base/error.h"
#include "core/base/string_pool.h"
#include "core/gen/generator.h"
#include "core/report/report.h"
#include "core/rules/op_rows.h"
#include "core/operators/custom_ops.h"
#include "core/operators/device_peaks.h"
#include "core/operators/flash_attention_ops.h"
#include "core/operators/gemm_ops.h"
#include "core/operators/moe_ops.h"
#include "core/operators/op_recognizer.h"
#include "core/operators/operator_set.h"
#include "core/operators/pccl_ops.h"
#include "core/operators/torch_function.h"
#include "core/operators/pytorch_ops.h"

namespace asys {
namespace {

TEST(GemmOps, AcblasKeyDropsLeadingDimensionsAndWorkComesFromMnk) {
  auto r = recogniseGemmAnnotation(
      "ACBLAS:GemmEx,t,n,2048,72,6144,6144,6144,2048,1,0,1,DEFAULT,BF16,ACBLAS_GEMM_DEFAULT_TENSOR_OP,32F,EPILOGUE_DEFAULT");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->level, OpLevel::Library);
  EXPECT_EQ(r->mergeKey,
            "ACBLAS:GemmEx,t,n,2048,72,6144,*,*,*,1,0,1,DEFAULT,BF16,ACBLAS_GEMM_DEFAULT_TENSOR_OP,32F,EPILOGUE_DEFAULT");
  EXPECT_EQ(r->work.dtype, DataType::Bf16);
  EXPECT_DOUBLE_EQ(r->work.flops, 2.0 * 2048 * 72 * 6144);
  EXPECT_DOUBLE_EQ(r->work.bytesRead(), (2048.0 * 6144 + 6144.0 * 72) * 2);  // beta 0: C is not read
  EXPECT_DOUBLE_EQ(r->work.bytesWritten(), 2048.0 * 72 * 2);
  // beta != 0 reads C; a batch count multiplies everything.
  auto b = recogniseGemmAnnotation("ACBLAS:GemmStridedBatchedEx,n,n,4,8,16,4,16,4,1,0.5,3,DEFAULT,F16,ALGO,32F,EPI");
  ASSERT_TRUE(b);
  EXPECT_DOUBLE_EQ(b->work.flops, 2.0 * 4 * 8 * 16 * 3);
  EXPECT_DOUBLE_EQ(b->work.bytesRead(), (4.0 * 16 + 16 * 8 + 4 * 8) * 2 * 3);
  EXPECT_EQ(b->groups, 3);
  // Not a GEMM function; an unknown layout is still a GEMM, merged as written.
  EXPECT_FALSE(recogniseGemmAnnotation("ACBLAS:Axpy,1024,1,1"));
  auto odd = recogniseGemmAnnotation("ACBLAS:GemmEx,t,n,x");
  ASSERT_TRUE(odd);
  EXPECT_EQ(odd->mergeKey, "ACBLAS:GemmEx,t,n,x");
  EXPECT_FALSE(odd->work.knownFlops());
}

TEST(GemmOps, DeepGemmGroupedAndWgrad) {
  auto g = recogniseGemmAnnotation("DeepGemm:GroupedNoPad,data_type:bf16,groups:128,m:64,n:768,k:2048,gpu:0");
  ASSERT_TRUE(g);
  EXPECT_EQ(g->mergeKey, "DeepGemm:GroupedNoPad,data_type:bf16,groups:128,m:64,n:768,k:2048");  // gpu dropped
  EXPECT_EQ(g->groups, 128);
  EXPECT_DOUBLE_EQ(g->work.flops, 2.0 * 64 * 768 * 2048);
  EXPECT_DOUBLE_EQ(g->work.elementsRead, 128.0 * 768 * 2048 + 64.0 * 2048);
  auto w = recogniseGemmAnnotation("DeepGemm:GroupedWgrad,data_type:bf16,groups:4,m:8,n:16,k:32,gpu:1");
  ASSERT_TRUE(w);
  EXPECT_DOUBLE_EQ(w->work.flops, 2.0 * 4 * 8 * 16 * 32);
}

TEST(GemmOps, KernelNames) {
  for (const char* n : {"gemm_bf16_kernel(void*)", "sm90_xmma_gemm_bf16bf16", "void cutlass::Kernel2<x>(y)",
                        "nvjet_hsh_128x256", "Cijk_Alik_Bljk_HHS_BH_MT128", "ampere_sgemm_128x64_nn"})
    EXPECT_TRUE(recogniseGemmKernel(n)) << n;
  EXPECT_FALSE(recogniseGemmKernel("rms_norm_kernel(float*)"));
}

TEST(MoeOps, TopkIdsAndUniqueAreNotInTheKey) {
  auto a = recogniseMoeAnnotation("MoE:M_876_E_128_H_4096_In_384_topk_8_topkids[136,0,25,167,68,17,3,5...]_unique_102");
  auto b = recogniseMoeAnnotation("MoE:M_876_E_128_H_4096_In_384_topk_8_topkids[0,28,0,17,24,81,10,143,...]_unique_99");
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->mergeKey, "MoE:M_876_E_128_H_4096_In_384_topk_8");
  EXPECT_EQ(a->mergeKey, b->mergeKey);
  EXPECT_EQ(a->level, OpLevel::Framework);
  EXPECT_DOUBLE_EQ(a->work.flops, 6.0 * 876 * 8 * 4096 * 384);
  // 102 experts hit: their weights, three H x In matrices each.
  EXPECT_DOUBLE_EQ(a->work.elementsRead, 102.0 * 3 * 4096 * 384 + 876.0 * 8 * 4096 + 876.0 * 8 * 384);
  const MoeShape s = parseMoeShape("MoE:M_72_E8_H6144_In8192_topk2");
  EXPECT_EQ(s.tokens, 72);
  EXPECT_EQ(s.experts, 8);
  EXPECT_EQ(s.hidden, 6144);
  EXPECT_EQ(s.inter, 8192);
  EXPECT_EQ(s.topk, 2);
  EXPECT_EQ(parseMoeShape("D_MoE,M_8_E_128_H_2048_In_768_topk_8").experts, 128);
  EXPECT_FALSE(recogniseMoeAnnotation("MoEFunctionBackward"));
}

TEST(PcclOps, RankHashAndBuffersAreNotInTheKey) {
  auto a = recognisePcclAnnotation("AllReduce, p:0, c:2347008, d:9, r:1, w:2, h:7dda1c67c65a5e44, t:1, b:0x469000000/0x46947a000");
  auto b = recognisePcclAnnotation("AllReduce, p:0, c:2347008, d:9, r:0, w:2, h:b2268f5abee7947e, t:1, b:0x497800000/0x497c7a000");
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->mergeKey, "AllReduce, p:0, c:2347008, d:9, w:2, t:1");
  EXPECT_EQ(a->mergeKey, b->mergeKey);
  EXPECT_FALSE(a->work.knownFlops());
  EXPECT_TRUE(recognisePcclKernel("void pcclKernel_twoShotAllReduceKernel<__ppu_bfloat16, 4>(twoShotDevParams)"));
  EXPECT_TRUE(recognisePcclKernel("void sglang::cross_device_reduce_1stage<__nv_bfloat16, 2>(x)"));
  EXPECT_FALSE(recognisePcclKernel("pccl_helper_copy(void*)"));
}

TEST(PyTorchOps, FormatsTypesAndKeys) {
  auto mm = recognisePyTorchRange(
      "aten::mm, op_id = 1529997, sizes = [[4, 1024], [1024, 2048]], input_op_ids = [(1529991,0), (1529993,0)]");
  ASSERT_TRUE(mm);
  EXPECT_EQ(mm->type, "GEMM");
  EXPECT_EQ(mm->mergeKey, "aten::mm, sizes = [[4, 1024], [1024, 2048]]");
  EXPECT_DOUBLE_EQ(mm->work.flops, 2.0 * 4 * 1024 * 2048);
  EXPECT_EQ(mm->work.dtype, DataType::Unknown);  // autograd-shapes-hgtx records no data type
  auto plain = recognisePyTorchRange("aten::mm, op_id = 1515155");
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->mergeKey, "aten::mm");
  auto linear = recognisePyTorchRange("aten::linear, sizes = [[16, 559, 1024], [2816, 1024], [2816]], types = [float, float, float]");
  ASSERT_TRUE(linear);
  EXPECT_DOUBLE_EQ(linear->work.flops, 2.0 * 16 * 559 * 1024 * 2816);
  EXPECT_EQ(linear->work.dtype, DataType::Fp32);
  auto sdpa = recognisePyTorchRange(
      "aten::_scaled_dot_product_flash_attention, sizes = [[16, 16, 559, 64], [16, 16, 559, 64], [16, 16, 559, 64], "
      "[], [], [], []], types = [c10::BFloat16, c10::BFloat16, c10::BFloat16, Scalar, Scalar, Scalar, Scalar], "
      "values = [, , , 0., True, False, 0.125]");
  ASSERT_TRUE(sdpa);
  EXPECT_EQ(sdpa->type, "FlashAttention");
  EXPECT_DOUBLE_EQ(sdpa->work.flops, 4.0 * 16 * 16 * 559 * 559 * 64 / 2);  // causal: TraceLens's 10.239 GFLOPS
  EXPECT_EQ(recognisePyTorchRange("autograd::engine::evaluate_function: MmBackward0")->type, "GEMM");
  EXPECT_EQ(recognisePyTorchRange("autograd::engine::evaluate_function: AddBackward0")->type, "Elementwise");
  EXPECT_EQ(recognisePyTorchRange("c10d::allreduce_")->type, "PCCL");
  EXPECT_EQ(recognisePyTorchRange("nccl:all_reduce")->type, "PCCL");
  EXPECT_EQ(recognisePyTorchRange("sglang::outplace_all_reduce, op_id = 2174848, sizes = [[948, 2048], [], []]")->type,
            "PCCL");
  EXPECT_EQ(recognisePyTorchRange("vllm::fused_moe")->type, "MoE");
  EXPECT_EQ(recognisePyTorchRange("aten::rms_norm")->type, "PyTorch");
  for (const char* not_an_op : {"ProfilerStep#10", "forward", "torch/nn/modules/module.py(1501): _call_impl",
                                "nn.Module: Linear_0", "PCCL:pcclAllReduce", "::x"})
    EXPECT_FALSE(recognisePyTorchRange(not_an_op)) << not_an_op;
}

// Found by the op_annotations fuzzer: the bar right after the prefix (its
// space is the bar's first character) threw std::out_of_range out of the
// recogniser, so any operator rule on such a report failed.
TEST(PyTorchOps, TorchFunctionWithoutATargetIsNoOperator) {
  EXPECT_FALSE(parseTorchFunction("TorchFunction: | arg_type=int, value=3").has_value());
  EXPECT_FALSE(parseTorchFunction("TorchFunction: ").has_value());
  EXPECT_FALSE(recognisePyTorchRange("TorchFunction: | arg_type=torch.Tensor, shape=(1, 2)").has_value());
  const auto call = parseTorchFunction("TorchFunction: aten.mm | arg_type=int, value=3");
  ASSERT_TRUE(call.has_value());
  EXPECT_EQ(call->op, "mm");
  ASSERT_EQ(call->args.size(), 1u);
}

// Found by the op_annotations fuzzer: a 19-digit size overflowed int64.
TEST(PyTorchOps, ASizeOfMoreThan18DigitsIsNoShape) {
  EXPECT_FALSE(opparse::shapeList("[[4444444444444444444, 2]]").has_value());
  const auto shapes = opparse::shapeList("[[4, 1024], [999999999999999999], []]");
  ASSERT_TRUE(shapes.has_value());
  EXPECT_EQ(*shapes, (std::vector<std::vector<int64_t>>{{4, 1024}, {999999999999999999}, {}}));
}

TEST(PyTorchOps, TorchFunctionKeyDropsDeviceAndRequiresGrad) {
  auto a = recognisePyTorchRange(
      "TorchFunction: torch.ops.aten.mm.default | arg_type=torch.Tensor, dtype=torch.float32, device=cuda:0, "
      "shape=(100, 100), requires_grad=False | arg_type=torch.Tensor, dtype=torch.float32, device=cuda:0, "
      "shape=(100, 50), requires_grad=False");
  auto b = recognisePyTorchRange(
      "TorchFunction: torch.ops.aten.mm.default | arg_type=torch.Tensor, dtype=torch.float32, device=cuda:3, "
      "shape=(100, 100), requires_grad=True | arg_type=torch.Tensor, dtype=torch.float32, device=cuda:3, "
      "shape=(100, 50), requires_grad=False");
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->type, "GEMM");
  EXPECT_EQ(a->mergeKey, b->mergeKey);
  EXPECT_EQ(a->mergeKey,
            "TorchFunction: torch.ops.aten.mm.default | arg_type=torch.Tensor, dtype=torch.float32, shape=(100, 100) "
            "| arg_type=torch.Tensor, dtype=torch.float32, shape=(100, 50)");
  EXPECT_DOUBLE_EQ(a->work.flops, 2.0 * 100 * 100 * 50);
  EXPECT_EQ(a->work.dtype, DataType::Fp32);
}

TEST(FlashAttentionOps, PhasesKeysAndCausalWork) {
  auto p = recogniseFlashAttentionAnnotation(
      "FlashAttention:Prefill,batch:2,seqlen_q:128,seqlen_k:128,heads_q:8,heads_kv:2,head_dim:64,causal:1,data_type:bf16,gpu:3");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->phase, AttentionPhase::Prefill);
  EXPECT_EQ(p->mergeKey, "FlashAttention:Prefill,heads_q:8,heads_kv:2,head_dim:64,causal:1,data_type:bf16");
  EXPECT_EQ(p->pairKey, ",heads_q:8,heads_kv:2,head_dim:64,data_type:bf16");
  EXPECT_DOUBLE_EQ(p->work.flops, 4.0 * 2 * 8 * 128 * 128 * 64 / 2);
  auto d = recogniseFlashAttentionAnnotation("FlashAttn:Decode,batch:4,seqlen_q:1,seqlen_k:256,heads_q:8,heads_kv:2,head_dim:64,causal:0,data_type:bf16");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->phase, AttentionPhase::Decode);
  EXPECT_EQ(d->pairKey, p->pairKey);
  EXPECT_TRUE(recogniseFlashAttentionKernel("void flash::flash_fwd_splitkv_kernel<x>(Params)"));
  EXPECT_TRUE(recogniseFlashAttentionKernel("paged_attention_v1_kernel"));
}

TEST(OpRecognizer, EachDistinctNameOnceAndCustomRulesFirst) {
  StringPool names;
  const uint32_t mm1 = names.intern("aten::mm, op_id = 1");
  const uint32_t gemv = names.intern("gemv_kernel(float*)");
  const uint32_t acblas = names.intern("ACBLAS:GemmEx,t,n,4,4,4,4,4,4,1,0,1,DEFAULT,BF16,A,32F,E");
  CustomOpRules custom;
  custom.add("GEMV=kernel:gemv");
  custom.add("Lib=hgtx:^ACBLAS");
  OpRecognizerSettings s;
  s.custom = &custom;
  OpRecognizer rec(names, s);
  for (int i = 0; i < 1000; ++i) {
    ASSERT_NE(rec.range(mm1, mm1), OpRecognizer::kNone);
    ASSERT_NE(rec.kernel(gemv), OpRecognizer::kNone);
    ASSERT_NE(rec.range(acblas, acblas), OpRecognizer::kNone);
  }
  EXPECT_EQ(rec.recognitions(), 3u);
  EXPECT_EQ(rec.typeName(rec.info(rec.kernel(gemv)).type), "GEMV");  // not the built-in GEMM
  EXPECT_EQ(rec.info(rec.kernel(gemv)).level, OpLevel::Kernel);
  EXPECT_EQ(rec.typeName(rec.info(rec.range(acblas, acblas)).type), "Lib");
  EXPECT_EQ(rec.info(rec.range(acblas, acblas)).level, OpLevel::Framework);
  // Parse from: a disabled family recognises nothing.
  OpRecognizerSettings off;
  off.enabled[static_cast<size_t>(OpFamily::PyTorch)] = false;
  OpRecognizer none(names, off);
  EXPECT_EQ(none.range(mm1, mm1), OpRecognizer::kNone);
}

TEST(OpRecognizer, NamesThatDifferOnlyInWhatMergingDropsShareAnOperator) {
  StringPool names;
  const uint32_t mm1 = names.intern("aten::mm, op_id = 1, sizes = [[4, 8], [8, 2]]");
  const uint32_t mm2 = names.intern("aten::mm, op_id = 2, sizes = [[4, 8], [8, 2]]");
  const uint32_t mm3 = names.intern("aten::mm, op_id = 3, sizes = [[4, 8], [8, 4]]");
  OpRecognizer rec(names, {});
  const uint32_t a = rec.range(mm1, mm1), b = rec.range(mm2, mm2), c = rec.range(mm3, mm3);
  ASSERT_NE(a, OpRecognizer::kNone);
  EXPECT_EQ(a, b);  // the op id is dropped from the key; same shapes, same work
  EXPECT_NE(a, c);  // other shapes: another key and other work
  EXPECT_EQ(rec.info(a).work.flops, 2.0 * 4 * 8 * 2);
  EXPECT_EQ(rec.info(c).work.flops, 2.0 * 4 * 8 * 4);
  EXPECT_EQ(rec.recognitions(), 3u);  // each name still recognised once
  // With merging off the whole name is the key: no two names share.
  OpRecognizerSettings noMerge;
  noMerge.merge[static_cast<size_t>(OpFamily::PyTorch)] = false;
  OpRecognizer whole(names, noMerge);
  EXPECT_NE(whole.range(mm1, mm1), whole.range(mm2, mm2));
}

TEST(OpRecognizer, OthersKernelsAreOperatorsOfTheirOwnName) {
  StringPool names;
  const uint32_t k1 = names.intern("my_kernel(int)"), k2 = names.intern("other_kernel");
  OpRecognizer rec(names, {});
  const uint32_t a = rec.others(k1), b = rec.others(k2);
  EXPECT_EQ(rec.others(k1), a);
  EXPECT_NE(a, b);
  EXPECT_EQ(rec.typeName(rec.info(a).type), "others");
  EXPECT_EQ(rec.keyText(rec.info(a).key), "my_kernel(int)");
  EXPECT_EQ(rec.keyText(rec.info(b).key), "other_kernel");
  EXPECT_EQ(rec.info(a).level, OpLevel::Kernel);
  EXPECT_FALSE(rec.info(a).work.knownFlops());
}

TEST(OperatorSet, TopLevelSpansByHandAndAsUnionByGroup) {
  StringPool names;
  OperatorSet ops(names, {});
  auto add = [&](int64_t s, int64_t e, uint32_t top) {
    ops.activities.start.push_back(s);
    ops.activities.end.push_back(e);
    ops.top.push_back(top);
  };
  // Instance 0: [0,10) [5,12) [20,25): projection 0..25, active 12 + 5.
  // Instance 1: none (nested). Instance 2: [3,4) and an end before its
  // start at 30 (counts as the point 30): projection 3..30, active 1.
  add(0, 10, 0);
  add(3, 4, 2);
  add(5, 12, 0);
  add(7, 9, OperatorSet::kNone);
  add(20, 25, 0);
  add(30, 29, 2);
  ops.op.resize(3);
  const TopLevelSpans s = topLevelSpans(ops);
  EXPECT_TRUE(s.has(0));
  EXPECT_FALSE(s.has(1));
  EXPECT_TRUE(s.has(2));
  EXPECT_EQ(s.start[0], 0);
  EXPECT_EQ(s.end[0], 25);
  EXPECT_EQ(s.active[0], 17);
  EXPECT_EQ(s.start[2], 3);
  EXPECT_EQ(s.end[2], 30);
  EXPECT_EQ(s.active[2], 1);

  // Random activities in start order against unionByGroupSorted.
  std::mt19937_64 rng(7);
  for (int round = 0; round < 20; ++round) {
    OperatorSet r(names, {});
    const uint32_t groups = 1 + static_cast<uint32_t>(rng() % 50);
    int64_t t = 0;
    for (int i = 0; i < 2000; ++i) {
      t += static_cast<int64_t>(rng() % 7);
      r.activities.start.push_back(t);
      r.activities.end.push_back(t + static_cast<int64_t>(rng() % 40) - 3);
      r.top.push_back(rng() % 5 == 0 ? OperatorSet::kNone : static_cast<uint32_t>(rng() % groups));
    }
    r.op.resize(groups);
    const TopLevelSpans got = topLevelSpans(r);
    const GroupUnions want = unionByGroupSorted(r.activities.start, r.activities.end, r.top, groups);
    for (uint32_t g = 0; g < groups; ++g) {
      ASSERT_EQ(got.has(g), want.count[g] > 0) << "round " << round << " group " << g;
      if (!got.has(g)) continue;
      ASSERT_EQ(got.start[g], want.start[g]);
      ASSERT_EQ(got.end[g], want.end[g]);
      ASSERT_EQ(got.active[g], want.active[g]);
    }
  }
}

// OperatorQuery::groupsOnly (top-level instances only, kernels named from
// their tags, devices and kinds packed) makes the same summary rows as the
// set with every instance: each row's type, key, name, statistics, active
// time and utilisation, with op=others, without graph mapping and without
// the prefill/decode pairing too.
TEST(OperatorSet, TopLevelOnlyMakesTheSameRows) {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("asys-ops-" + std::to_string(::getpid()) + ".asysrep")).string();
  generateReport({.seed = 5, .scale = 0.25, .profile = "base"}, path);
  using Row = std::tuple<std::string, std::string, std::string, int64_t, int64_t, int64_t, int64_t, int64_t,
                         int64_t, int64_t, int64_t, std::optional<double>, std::optional<double>, std::optional<double>>;
  for (int variant = 0; variant < 4; ++variant) {
    SCOPED_TRACE(variant);
    auto rowsOf = [&](bool groupsOnly) {
      auto report = Report::open(path);
      OperatorQuery q;
      q.levels = false;
      q.endsAsDurations = true;
      q.groupsOnly = groupsOnly;
      q.others = variant == 1;
      q.graphMapping = variant != 2;
      q.pairPrefillDecode = variant != 3;
      const OperatorSet ops = buildOperators(*report, std::move(q));
      const TopLevelSpans spans = topLevelSpans(ops);
      const OpRows rows = operatorRows(ops, spans, DevicePeaks(*report), report->strings());
      std::vector<Row> out;
      for (const OpRow& r : rows.rows)
        out.emplace_back(std::string(r.type), std::string(r.key), std::string(r.name), r.stats.total, r.stats.count,
                         r.stats.avg, r.stats.med, r.stats.min, r.stats.max, r.stats.stddev, r.active,
                         r.util.compute(), r.util.load(), r.util.store());
      std::sort(out.begin(), out.end());
      return out;
    };
    const std::vector<Row> all = rowsOf(false);
    EXPECT_GT(all.size(), 10u);
    EXPECT_EQ(rowsOf(true), all);
  }
  std::filesystem::remove(path);
}

TEST(DevicePeaks, KnownGpusByName) {
  struct Case {
    const char* name;
    const char* model;
  };
  for (const Case& c : {Case{"Tesla V100-SXM2-32GB", "V100 SXM2"}, Case{"Tesla V100-DGXS-32GB", "V100 SXM2"},
                        Case{"Tesla V100-PCIE-16GB", "V100 PCIe"}, Case{"NVIDIA A100-PG509-200", "A100 40GB SXM4"},
                        Case{"NVIDIA A100-SXM4-80GB", "A100 80GB SXM4"}, Case{"NVIDIA A100 80GB PCIe", "A100 80GB PCIe"},
                        Case{"NVIDIA H100 80GB HBM3", "H100 SXM5"}, Case{"NVIDIA H100 PCIe", "H100 PCIe"},
                        Case{"NVIDIA H100 NVL", "H100 NVL"}, Case{"NVIDIA H200", "H200 SXM"},
                        Case{"NVIDIA B200", "B200"}, Case{"AMD Instinct MI250X/MI250", "MI250X (one GCD)"},
                        Case{"AMD Instinct MI250", "MI250 (one GCD)"}, Case{"AMD Instinct MI300X", "MI300X"}}) {
    const KnownGpu* g = findKnownGpu(c.name);
    ASSERT_NE(g, nullptr) << c.name;
    EXPECT_EQ(g->model, c.model) << c.name;
    EXPECT_GT(g->hbm, 0);
    EXPECT_FALSE(g->source.empty());
  }
  EXPECT_EQ(findKnownGpu("PPU-ZW810E"), nullptr);
  EXPECT_EQ(findKnownGpu("Quadro GP100"), nullptr);
  EXPECT_DOUBLE_EQ(findKnownGpu("NVIDIA H100 80GB HBM3")->bf16, 989.5e12);
}

TEST(CustomOps, ParseErrorsQuoteTheConfig) {
  CustomOpRules r;
  auto error = [&](const std::string& config) {
    try {
      r.add(config);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  EXPECT_EQ(error("GEMM"), "--ppu-op-config 'GEMM': expected TYPE=kernel:REGEX or TYPE=hgtx:REGEX (no '=')");
  EXPECT_EQ(error("=kernel:x"), "--ppu-op-config '=kernel:x': the operator type before '=' is empty");
  EXPECT_EQ(error("a/b=kernel:x"),
            "--ppu-op-config 'a/b=kernel:x': the operator type 'a/b' contains '/', which separates the types of op=");
  EXPECT_EQ(error("others=kernel:x"),
            "--ppu-op-config 'others=kernel:x': the operator type 'others' is reserved (the rules print it themselves)");
  EXPECT_EQ(error("T=hgtx:"), "--ppu-op-config 'T=hgtx:': the regular expression after 'hgtx:' is empty");
  EXPECT_EQ(error("T=kernel:a(b"),
            "--ppu-op-config 'T=kernel:a(b': invalid regular expression 'a(b' at position 3: missing closing parenthesis");
  EXPECT_TRUE(r.empty());
  r.add("Matmul=hgtx:aten::mm/x=y");  // the regex may hold '/' and '='
  EXPECT_NE(r.match(CustomOpSource::Hgtx, "aten::mm/x=y"), nullptr);
  EXPECT_EQ(r.match(CustomOpSource::Kernel, "aten::mm/x=y"), nullptr);
}

}  // namespace
}  // namespace asys
