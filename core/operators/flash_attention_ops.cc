#include "core/operators/flash_attention_ops.h"

#include <string>

namespace asys {

double attentionFlops(double batch, double headsQ, double seqQ, double seqK, double headDim, bool causal,
                      bool backward) {
  double f = 4 * batch * headsQ * seqQ * seqK * headDim;
  if (causal) f /= 2;
  return backward ? f * 2.5 : f;
}

std::optional<OpRecognition> recogniseFlashAttentionAnnotation(std::string_view text) {
  size_t prefix = 0;
  if (text.rfind("FlashAttention:", 0) == 0) prefix = 15;
  else if (text.rfind("FlashAttn:", 0) == 0) prefix = 10;
  else return std::nullopt;
  const size_t comma = text.find(',');
  const std::string_view phaseText = text.substr(prefix, comma == std::string_view::npos ? std::string_view::npos : comma - prefix);
  const std::string phase = opparse::lower(phaseText);
  OpRecognition r;
  r.family = OpFamily::FlashAttention;
  r.level = OpLevel::Library;
  r.type = kTypeFlashAttention;
  if (phase == "prefill") r.phase = AttentionPhase::Prefill;
  else if (phase == "decode") r.phase = AttentionPhase::Decode;
  r.mergeKey.assign(text.substr(0, comma));
  int64_t batch = -1, seqQ = -1, seqK = -1, headsQ = -1, headsKv = -1, headDim = -1, causal = 0;
  DataType dtype = DataType::Unknown;
  if (comma != std::string_view::npos) {
    for (std::string_view field : opparse::split(text.substr(comma + 1), ',')) {
      const size_t colon = field.find(':');
      const std::string_view key = opparse::trim(field.substr(0, colon));
      const std::string_view value = colon == std::string_view::npos ? std::string_view() : opparse::trim(field.substr(colon + 1));
      const int64_t v = opparse::integer(value);
      if (key == "batch") batch = v;
      else if (key == "seqlen_q") seqQ = v;
      else if (key == "seqlen_k") seqK = v;
      else if (key == "heads_q" || key == "num_heads") headsQ = v;
      else if (key == "heads_kv" || key == "num_heads_k") headsKv = v;
      else if (key == "head_dim") headDim = v;
      else if (key == "causal") causal = v;
      else if (key == "data_type" || key == "dtype") dtype = parseDataType(value);
      // The request shapes change from step to step; the device index says nothing.
      if (key == "batch" || key == "seqlen_q" || key == "seqlen_k" || key == "gpu") continue;
      r.mergeKey.append(",").append(field);
      if (key != "causal") r.pairKey.append(",").append(field);
    }
  }
  r.work.dtype = dtype;
  if (batch >= 0 && seqQ >= 0 && seqK >= 0 && headsQ >= 0 && headDim >= 0) {
    if (headsKv < 0) headsKv = headsQ;
    const double b = static_cast<double>(batch), sq = static_cast<double>(seqQ), sk = static_cast<double>(seqK),
                 hq = static_cast<double>(headsQ), hkv = static_cast<double>(headsKv), d = static_cast<double>(headDim);
    r.work.flops = attentionFlops(b, hq, sq, sk, d, causal != 0, phase == "bwd");
    // Q, K and V in, the output out (the backward pass: dO, Q, K, V, O in; dQ, dK, dV out).
    if (phase == "bwd") {
      r.work.elementsRead = b * (3 * sq * hq * d + 2 * sk * hkv * d);
      r.work.elementsWritten = b * (sq * hq * d + 2 * sk * hkv * d);
    } else {
      r.work.elementsRead = b * (sq * hq * d + 2 * sk * hkv * d);
      r.work.elementsWritten = b * sq * hq * d;
    }
  }
  return r;
}

std::optional<OpRecognition> recogniseFlashAttentionKernel(std::string_view name) {
  static constexpr std::string_view kTokens[] = {"flash", "fmha", "attention"};
  for (std::string_view t : kTokens) {
    if (opparse::containsNoCase(name, t)) {
      OpRecognition r;
      r.family = OpFamily::FlashAttention;
      r.level = OpLevel::Kernel;
      r.type = kTypeFlashAttention;
      r.mergeKey.assign(name);
      return r;
    }
  }
  return std::nullopt;
}

}  // namespace asys
