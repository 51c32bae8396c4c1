#pragma once
// The model being "trained": a small MoE transformer (Qwen3-MoE-like shapes)
// described as straight-line programs of host instructions: push/pop an HGTX
// operator range, launch a kernel, issue a memset. The workload interprets
// the programs once per layer and iteration; building them interns every
// fixed operator name once.
#include <cstdint>
#include <vector>

#include "core/gen/catalog.h"
#include "core/writer/report_writer.h"

namespace asys::gen {

// Model dimensions (per device micro-batch).
constexpr int kTokens = 512;   // M: sequence 512, batch 1
constexpr int kHidden = 2048;  // H
constexpr int kQkv = 3072;     // 16 query heads + 2 x 4 KV heads, head_dim 128
constexpr int kExperts = 128;  // E
constexpr int kExpertInter = 768;
constexpr int kTopK = 8;
constexpr int kVocab = 32000;
constexpr int kLayers = 6;
constexpr int kCheckpointEvery = 50;  // a blocking checkpoint after iterations 1, 51, 101, ...
constexpr int kBuckets = 3;  // gradient buckets, one per two layers (the last adds embeddings)
constexpr int kGraphNodes = 6;

enum class InstrOp : uint8_t { kPush, kPop, kLaunch, kMemset };

struct Instr {
  InstrOp op = InstrOp::kPop;
  // kPush: either an interned name (textId, optional domain) or a PyTorch
  // autograd-shapes record "<aten>, op_id = N, sizes = <sizes>,
  // input_op_ids = [...]" formatted per instance with fresh op ids.
  int64_t textId = kNull;
  const char* aten = nullptr;
  const char* sizes = nullptr;
  int32_t nInputs = 0;
  // kLaunch
  KernelKind kernel = kKAddTest;
  int32_t gridX = 1, gridY = 1, gridZ = 1;
  double baseNs = 0;  // mean duration before noise and profile factors
  bool moe = false;   // token-count dependent: follows the device's expert load
  // kMemset
  int64_t bytes = 0;
};

using Program = std::vector<Instr>;

// Programs for one local device index (0 or 1 within its process): the
// device index appears in operator names (cuda:N, gpu:N).
struct DevicePrograms {
  Program embedFwd, layerFwd, headFwd, headBwd, layerBwd, embedBwd, gradNorm;
};

// One node of the captured optimizer graph.
struct GraphNodeSpec {
  const char* aten;
  const char* sizes;
  int32_t nInputs;
  KernelKind kernel;
  int32_t gridX;
  double baseNs;
};

extern const GraphNodeSpec kOptimizerGraph[kGraphNodes];

// Elements per gradient bucket (bf16) as reported in the AllReduce records.
extern const int64_t kBucketElements[kBuckets];

void buildPrograms(ReportWriter& w, int localDevice, DevicePrograms& out);

}  // namespace asys::gen
