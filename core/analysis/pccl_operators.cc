#include "core/analysis/pccl_operators.h"

#include <cstdint>
#include <iterator>

#include "core/base/text.h"

namespace asys {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool isTypeName(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

// A non-negative decimal integer, or -1 ("-" or anything else).
int64_t number(std::string_view s) {
  int64_t v = -1;
  return parseInt64(s, v) && v >= 0 ? v : -1;
}

}  // namespace

std::optional<PcclOperator> parsePcclOperator(std::string_view text) {
  size_t comma = text.find(',');
  if (comma == std::string_view::npos) return std::nullopt;
  PcclOperator op;
  op.type = trim(text.substr(0, comma));
  if (!isTypeName(op.type)) return std::nullopt;
  bool c = false, d = false, w = false, h = false;
  std::string_view rest = text.substr(comma + 1);
  while (true) {
    comma = rest.find(',');
    const std::string_view field = trim(rest.substr(0, comma));
    const size_t colon = field.find(':');
    if (colon == std::string_view::npos || colon == 0) return std::nullopt;
    const std::string_view key = field.substr(0, colon), value = trim(field.substr(colon + 1));
    if (key == "c") {
      c = true;
      op.count = value;
      op.elements = number(value);
    } else if (key == "d") {
      d = true;
      op.dataType = value;
      const int64_t v = number(value);
      op.dtype = v >= 0 && v < 1024 ? static_cast<int32_t>(v) : -1;
    } else if (key == "w") {
      w = true;
      op.world = number(value);
    } else if (key == "h") {
      h = true;
      op.hash = value;
    }
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  if (!(c && d && w && h)) return std::nullopt;
  op.kind = op.type == "Send" || op.type == "Recv" || op.type == "SendRecv" ? PcclOpKind::PointToPoint
                                                                             : PcclOpKind::Collective;
  return op;
}

int pcclDataTypeSize(int32_t dtype) {
  static constexpr int kSize[] = {1, 1, 4, 4, 8, 8, 2, 4, 8, 2, 1, 1};
  return dtype >= 0 && dtype < static_cast<int32_t>(std::size(kSize)) ? kSize[dtype] : 0;
}

PcclTransfer pcclTransfer(const PcclOperator& op) {
  PcclTransfer t;
  t.kind = op.kind;
  t.elements = op.elements;
  t.bytesPerElement = pcclDataTypeSize(op.dtype);
  const std::string_view type = op.type;
  const int64_t w = op.world;
  if (type == "Broadcast" || type == "Reduce" || op.kind == PcclOpKind::PointToPoint) {
    t.num = t.den = 1;
  } else if (w >= 1 && type == "AllReduce") {
    t.num = 2 * (w - 1);
    t.den = w;
  } else if (w >= 1 && (type == "AllGather" || type == "ReduceScatter" || type == "AllToAll" || type == "Gather" ||
                        type == "Scatter")) {
    t.num = w - 1;
    t.den = w;
  }
  return t;
}

int64_t PcclTransfer::bytes(int64_t participants) const {
  if (!known()) return -1;
  const __int128 b = static_cast<__int128>(participants) * elements * bytesPerElement * num / den;
  return b > INT64_MAX ? -1 : static_cast<int64_t>(b);
}

}  // namespace asys
