#include "core/operators/moe_ops.h"

#include <algorithm>
#include <string>

namespace asys {

namespace {

// The annotation's prefix length, 0 when it is not a MoE annotation.
size_t prefixLength(std::string_view text) {
  if (text.rfind("MoE:", 0) == 0) return 4;
  if (text.rfind("D_MoE,", 0) == 0 || text.rfind("D_MoE:", 0) == 0) return 6;
  return 0;
}

bool isLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool isDigit(char c) { return c >= '0' && c <= '9'; }

// Walks `KEY[_]VALUE` tokens joined by '_': VALUE digits or a [...] list.
// Calls each(key, value, tokenBegin, tokenEnd); the token includes the '_'
// that joined it to the previous one.
template <typename Each>
void forEachToken(std::string_view body, Each&& each) {
  size_t i = 0;
  while (i < body.size()) {
    const size_t begin = i;
    if (body[i] == '_') ++i;
    const size_t keyStart = i;
    while (i < body.size() && isLetter(body[i])) ++i;
    const std::string_view key = body.substr(keyStart, i - keyStart);
    if (i < body.size() && body[i] == '_' && i + 1 < body.size() && (isDigit(body[i + 1]) || body[i + 1] == '[')) ++i;
    const size_t valueStart = i;
    if (i < body.size() && body[i] == '[') {
      const size_t close = body.find(']', i);
      i = close == std::string_view::npos ? body.size() : close + 1;
    } else {
      while (i < body.size() && isDigit(body[i])) ++i;
    }
    if (i == begin) ++i;  // a character no token starts with: skip it
    each(key, body.substr(valueStart, i - valueStart), begin, i);
  }
}

}  // namespace

MoeShape parseMoeShape(std::string_view text) {
  MoeShape s;
  const size_t p = prefixLength(text);
  if (p == 0) return s;
  forEachToken(text.substr(p), [&](std::string_view key, std::string_view value, size_t, size_t) {
    const int64_t v = opparse::integer(value);
    if (key == "M") s.tokens = v;
    else if (key == "E") s.experts = v;
    else if (key == "H") s.hidden = v;
    else if (key == "In") s.inter = v;
    else if (key == "topk") s.topk = v;
    else if (key == "unique") s.unique = v;
  });
  return s;
}

std::optional<OpRecognition> recogniseMoeAnnotation(std::string_view text) {
  const size_t p = prefixLength(text);
  if (p == 0) return std::nullopt;
  OpRecognition r;
  r.family = OpFamily::Moe;
  r.level = OpLevel::Framework;
  r.type = kTypeMoe;
  // The key: the text without the topkids and unique tokens.
  r.mergeKey.assign(text.substr(0, p));
  const std::string_view body = text.substr(p);
  forEachToken(body, [&](std::string_view key, std::string_view, size_t begin, size_t end) {
    if (key == "topkids" || key == "unique") return;
    r.mergeKey.append(body.substr(begin, end - begin));
  });
  const MoeShape s = parseMoeShape(text);
  if (s.tokens >= 0 && s.hidden >= 0 && s.inter >= 0 && s.topk >= 0) {
    const double pairs = static_cast<double>(s.tokens) * static_cast<double>(s.topk);
    const double h = static_cast<double>(s.hidden), in = static_cast<double>(s.inter);
    // GEMM1 (gate and up, H -> 2 In) and GEMM2 (down, In -> H) per token-expert pair.
    r.work.flops = 2 * pairs * h * 2 * in + 2 * pairs * in * h;
    // The weights of the experts hit (unique, else at most one per pair),
    // GEMM1's and GEMM2's inputs; their outputs.
    double touched = pairs;
    if (s.unique >= 0) touched = static_cast<double>(s.unique);
    else if (s.experts >= 0) touched = std::min(pairs, static_cast<double>(s.experts));
    r.work.elementsRead = touched * 3 * h * in + pairs * h + pairs * in;
    r.work.elementsWritten = pairs * 2 * in + pairs * h;
  }
  return r;
}

std::optional<OpRecognition> recogniseMoeKernel(std::string_view name) {
  if (!opparse::containsNoCase(name, "moe")) return std::nullopt;
  OpRecognition r;
  r.family = OpFamily::Moe;
  r.level = OpLevel::Kernel;
  r.type = kTypeMoe;
  r.mergeKey.assign(name);
  return r;
}

}  // namespace asys
