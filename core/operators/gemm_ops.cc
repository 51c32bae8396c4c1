#include "core/operators/gemm_ops.h"

#include <cstdlib>
#include <string>
#include <vector>

namespace asys {

namespace {

using opparse::integer;
using opparse::split;
using opparse::trim;

OpRecognition gemm(std::string mergeKey) {
  OpRecognition r;
  r.family = OpFamily::Gemm;
  r.level = OpLevel::Library;
  r.type = kTypeGemm;
  r.mergeKey = std::move(mergeKey);
  return r;
}

bool nonZeroNumber(std::string_view s) {
  const std::string text(trim(s));
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  return !text.empty() && end == text.c_str() + text.size() && v != 0;
}

// ACBLAS:<function>,<fields>: any function with "Gemm" in its name.
std::optional<OpRecognition> acblas(std::string_view text) {
  constexpr std::string_view kPrefix = "ACBLAS:";
  const size_t comma = text.find(',');
  const std::string_view function = text.substr(kPrefix.size(), comma == std::string_view::npos ? std::string_view::npos
                                                                                                 : comma - kPrefix.size());
  if (function.find("Gemm") == std::string_view::npos) return std::nullopt;
  if (comma == std::string_view::npos) return gemm(std::string(text));
  const std::vector<std::string_view> f = split(text.substr(comma + 1), ',');
  const int64_t m = f.size() > 4 ? integer(f[2]) : -1, n = f.size() > 4 ? integer(f[3]) : -1,
                k = f.size() > 4 ? integer(f[4]) : -1;
  if (m < 0 || n < 0 || k < 0) return gemm(std::string(text));  // an unknown layout: merged as written
  // The key: every field but the leading dimensions (5, 6, 7: lda, ldb, ldc).
  std::string key(text.substr(0, comma));
  for (size_t i = 0; i < f.size(); ++i) key.append(",").append(i >= 5 && i <= 7 ? std::string_view("*") : f[i]);
  OpRecognition r = gemm(std::move(key));
  const int64_t batch = f.size() > 10 && integer(f[10]) > 0 ? integer(f[10]) : 1;
  // A non-zero beta reads C as well.
  const bool beta = f.size() > 9 && nonZeroNumber(f[9]);
  // The A/B/C data type: the first data type after the batch count.
  for (size_t i = 11; i < f.size() && r.work.dtype == DataType::Unknown; ++i) r.work.dtype = parseDataType(f[i]);
  const double md = static_cast<double>(m), nd = static_cast<double>(n), kd = static_cast<double>(k),
               bd = static_cast<double>(batch);
  r.work.flops = 2 * md * nd * kd * bd;
  r.work.elementsRead = (md * kd + kd * nd + (beta ? md * nd : 0)) * bd;
  r.work.elementsWritten = md * nd * bd;
  if (batch > 1) r.groups = batch;
  return r;
}

// DeepGemm:<kind>,key:value,...
std::optional<OpRecognition> deepGemm(std::string_view text) {
  const size_t comma = text.find(',');
  const std::string_view head = text.substr(0, comma);
  std::string key(head);
  int64_t groups = 1, m = -1, n = -1, k = -1;
  DataType dtype = DataType::Unknown;
  if (comma != std::string_view::npos) {
    for (std::string_view field : split(text.substr(comma + 1), ',')) {
      const size_t colon = field.find(':');
      const std::string_view name = trim(field.substr(0, colon));
      const std::string_view value = colon == std::string_view::npos ? std::string_view() : trim(field.substr(colon + 1));
      if (name == "gpu") continue;  // the device index: no effect on the operator
      key.append(",").append(field);
      if (name == "groups") groups = integer(value);
      else if (name == "m") m = integer(value);
      else if (name == "n") n = integer(value);
      else if (name == "k") k = integer(value);
      else if (name == "data_type" || name == "dtype") dtype = parseDataType(value);
    }
  }
  OpRecognition r = gemm(std::move(key));
  r.work.dtype = dtype;
  r.groups = groups > 0 ? groups : 0;
  if (m < 0 || n < 0 || k < 0 || groups < 1) return r;
  const double g = static_cast<double>(groups), md = static_cast<double>(m), nd = static_cast<double>(n),
               kd = static_cast<double>(k);
  if (head.find("Wgrad") != std::string_view::npos) {
    // Every group: an m x n weight gradient over k rows.
    r.work.flops = 2 * g * md * nd * kd;
    r.work.elementsRead = g * (md * kd + kd * nd);
    r.work.elementsWritten = g * md * nd;
  } else {
    // m rows in all, each multiplied by its group's n x k weights; every
    // group's weights are read.
    r.work.flops = 2 * md * nd * kd;
    r.work.elementsRead = g * nd * kd + md * kd;
    r.work.elementsWritten = md * nd;
  }
  return r;
}

}  // namespace

std::optional<OpRecognition> recogniseGemmAnnotation(std::string_view text) {
  if (text.rfind("ACBLAS:", 0) == 0) return acblas(text);
  if (text.rfind("DeepGemm:", 0) == 0) return deepGemm(text);
  return std::nullopt;
}

std::optional<OpRecognition> recogniseGemmKernel(std::string_view name) {
  static constexpr std::string_view kTokens[] = {"gemm", "gemv", "cublas", "cutlass", "xmma", "nvjet", "cijk_", "matmul"};
  for (std::string_view t : kTokens) {
    if (opparse::containsNoCase(name, t)) {
      OpRecognition r = gemm(std::string(name));
      r.level = OpLevel::Kernel;
      return r;
    }
  }
  return std::nullopt;
}

}  // namespace asys
