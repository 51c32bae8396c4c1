#include "core/operators/op_types.h"

#include <algorithm>
#include <cctype>

namespace asys {

std::string_view familyChoice(OpFamily f) {
  switch (f) {
    case OpFamily::Gemm: return "gemm";
    case OpFamily::Moe: return "moe";
    case OpFamily::Pccl: return "pccl";
    case OpFamily::PyTorch: return "pytorch";
    case OpFamily::FlashAttention: return "flash-attention";
    case OpFamily::Elementwise: return "elementwise";
    case OpFamily::Custom: return "custom";
  }
  return "";
}

std::string_view familyLabel(OpFamily f) {
  switch (f) {
    case OpFamily::Gemm: return "GEMM (ACBLAS, DeepGemm, GEMM kernels)";
    case OpFamily::Moe: return "MoE (MoE:, D_MoE, MoE kernels)";
    case OpFamily::Pccl: return "PCCL (operator annotations, PCCL/NCCL kernels)";
    case OpFamily::PyTorch: return "PyTorch (aten:: and other operator ranges)";
    case OpFamily::FlashAttention: return "Flash attention (annotations, attention kernels)";
    case OpFamily::Elementwise: return "Elementwise kernels";
    case OpFamily::Custom: return "Custom";
  }
  return "";
}

int dataTypeBytes(DataType t) {
  switch (t) {
    case DataType::Fp32: return 4;
    case DataType::Fp16:
    case DataType::Bf16: return 2;
    case DataType::Fp8:
    case DataType::Int8: return 1;
    case DataType::Unknown: return 0;
  }
  return 0;
}

DataType parseDataType(std::string_view text) {
  std::string t = opparse::lower(opparse::trim(text));
  for (std::string_view prefix : {"torch.", "c10::", "at::"})
    if (t.rfind(prefix, 0) == 0) t.erase(0, prefix.size());
  static const std::pair<std::string_view, DataType> kNames[] = {
      {"bf16", DataType::Bf16},     {"bfloat16", DataType::Bf16},    {"16bf", DataType::Bf16},
      {"__nv_bfloat16", DataType::Bf16}, {"__ppu_bfloat16", DataType::Bf16},
      {"f16", DataType::Fp16},      {"fp16", DataType::Fp16},         {"16f", DataType::Fp16},
      {"half", DataType::Fp16},     {"float16", DataType::Fp16},
      {"f32", DataType::Fp32},      {"fp32", DataType::Fp32},         {"32f", DataType::Fp32},
      {"float", DataType::Fp32},    {"float32", DataType::Fp32},
      {"fp8", DataType::Fp8},       {"f8", DataType::Fp8},            {"8f_e4m3", DataType::Fp8},
      {"8f_e5m2", DataType::Fp8},   {"e4m3", DataType::Fp8},          {"e5m2", DataType::Fp8},
      {"float8_e4m3fn", DataType::Fp8}, {"float8_e5m2", DataType::Fp8}, {"float8_e4m3fnuz", DataType::Fp8},
      {"float8_e5m2fnuz", DataType::Fp8},
      {"int8", DataType::Int8},     {"i8", DataType::Int8},           {"8i", DataType::Int8},
      {"s8", DataType::Int8},       {"char", DataType::Int8},         {"signed char", DataType::Int8},
  };
  for (const auto& [name, type] : kNames)
    if (t == name) return type;
  return DataType::Unknown;
}

OpWork OpWork::plus(const OpWork& o) const {
  OpWork w;
  auto add = [](double a, double b) { return a < 0 || b < 0 ? -1.0 : a + b; };
  w.flops = add(flops, o.flops);
  w.elementsRead = add(elementsRead, o.elementsRead);
  w.elementsWritten = add(elementsWritten, o.elementsWritten);
  w.dtype = dtype == o.dtype ? dtype : DataType::Unknown;
  return w;
}

namespace opparse {

int64_t integer(std::string_view s) {
  s = trim(s);
  if (s.empty() || s.size() > 18) return -1;
  int64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return -1;
    v = v * 10 + (c - '0');
  }
  return v;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  while (true) {
    const size_t at = s.find(sep);
    out.push_back(s.substr(0, at));
    if (at == std::string_view::npos) break;
    s.remove_prefix(at + 1);
  }
  return out;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool containsNoCase(std::string_view haystack, std::string_view needle) {
  if (needle.size() > haystack.size()) return false;
  auto eq = [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; };
  return std::search(haystack.begin(), haystack.end(), needle.begin(), needle.end(), eq) != haystack.end();
}

size_t bracketEnd(std::string_view s, size_t from) {
  int depth = 0;
  for (size_t i = from; i < s.size(); ++i) {
    if (s[i] == '[' || s[i] == '(') ++depth;
    else if ((s[i] == ']' || s[i] == ')') && --depth == 0) return i + 1;
  }
  return s.size();
}

std::optional<std::vector<std::vector<int64_t>>> shapeList(std::string_view s) {
  s = trim(s);
  if (s.size() < 2 || s.front() != '[' || s.back() != ']') return std::nullopt;
  std::vector<std::vector<int64_t>> out;
  size_t i = 1;
  const size_t end = s.size() - 1;
  auto skip = [&] {
    while (i < end && (s[i] == ' ' || s[i] == ',')) ++i;
  };
  skip();
  while (i < end) {
    std::vector<int64_t> dims;
    if (s[i] == '[') {
      ++i;
      while (i < end && s[i] != ']') {
        while (i < end && (s[i] == ' ' || s[i] == ',')) ++i;
        if (i < end && s[i] == ']') break;
        int64_t v = 0;
        int digits = 0;
        while (i < end && s[i] >= '0' && s[i] <= '9') {
          // More than 18 digits is no tensor size (and would overflow).
          if (++digits > 18) return std::nullopt;
          v = v * 10 + (s[i] - '0');
          ++i;
        }
        if (digits == 0) return std::nullopt;
        dims.push_back(v);
      }
      if (i >= end) return std::nullopt;
      ++i;  // ']'
    } else {
      // A scalar entry (a value the list does not describe as a shape).
      while (i < end && s[i] != ',') ++i;
    }
    out.push_back(std::move(dims));
    skip();
  }
  return out;
}

}  // namespace opparse

}  // namespace asys
