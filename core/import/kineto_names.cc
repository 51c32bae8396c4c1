#include "core/import/kineto_names.h"

#include <cmath>
#include <cstdlib>
#include <limits>

namespace asys::kineto {

namespace {

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// Index of the bracket opening the one that closes s at `close`, scanning
// back; brackets of the other kind inside parentheses are ignored. npos if
// unbalanced.
size_t matchingOpen(std::string_view s, size_t close, char open, char shut) {
  int depth = 0, parens = 0;
  for (size_t i = close + 1; i-- > 0;) {
    const char c = s[i];
    if (open != '(') {
      if (c == ')') ++parens;
      if (c == '(') --parens;
      if (parens > 0) continue;
    }
    if (c == shut) ++depth;
    if (c == open && --depth == 0) return i;
  }
  return std::string_view::npos;
}

}  // namespace

std::string_view kernelShortName(std::string_view name) {
  std::string_view s = trim(name);
  if (!s.empty() && s.back() == ')') {
    const size_t open = matchingOpen(s, s.size() - 1, '(', ')');
    if (open != std::string_view::npos && open > 0) s = trim(s.substr(0, open));
  }
  if (!s.empty() && s.back() == '>') {
    const size_t open = matchingOpen(s, s.size() - 1, '<', '>');
    if (open != std::string_view::npos && open > 0) s = trim(s.substr(0, open));
  }
  // The last component after a top-level "::" or space (return type).
  size_t begin = 0;
  int depth = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '<' || c == '(' || c == '{' || c == '[') ++depth;
    if (c == '>' || c == ')' || c == '}' || c == ']') --depth;
    if (depth != 0) continue;
    if (c == ' ') begin = i + 1;
    if (c == ':' && i + 1 < s.size() && s[i + 1] == ':') begin = i + 2;
  }
  s = s.substr(begin);
  return s.empty() ? trim(name) : s;
}

const KindName kCopyKindNames[] = {
    {kCopyUnknown, "Unknown", "Unknown"},         {kCopyHtoD, "HtoD", "Host-to-Device"},
    {kCopyDtoH, "DtoH", "Device-to-Host"},        {kCopyHtoA, "HtoA", "Host-to-Array"},
    {kCopyAtoH, "AtoH", "Array-to-Host"},         {kCopyAtoA, "AtoA", "Array-to-Array"},
    {kCopyAtoD, "AtoD", "Array-to-Device"},       {kCopyDtoA, "DtoA", "Device-to-Array"},
    {kCopyDtoD, "DtoD", "Device-to-Device"},      {kCopyHtoH, "HtoH", "Host-to-Host"},
    {kCopyPtoP, "PtoP", "Peer-to-Peer"},
};
const int kCopyKindNameCount = sizeof(kCopyKindNames) / sizeof(kCopyKindNames[0]);

const KindName kMemKindNames[] = {
    {kMemPageable, "Pageable", "Pageable"},
    {kMemPinned, "Pinned", "Pinned"},
    {kMemDevice, "Device", "Device"},
    {kMemArray, "Array", "Array"},
    {kMemManaged, "Managed", "Managed"},
    {kMemDeviceStatic, "Device Static", "Device Static"},
    {kMemManagedStatic, "Managed Static", "Managed Static"},
    {kMemUnknown, "Unknown", "Unknown"},
    {kMemHost, "Host", "Host"},
};
const int kMemKindNameCount = sizeof(kMemKindNames) / sizeof(kMemKindNames[0]);

namespace {

int32_t memKindOf(std::string_view word) {
  word = trim(word);
  for (int i = 0; i < kMemKindNameCount; ++i) {
    if (equalsIgnoreCase(word, kMemKindNames[i].name)) return kMemKindNames[i].id;
  }
  return kMemUnknown;
}

}  // namespace

CopyKinds parseMemcpyName(std::string_view name) {
  CopyKinds k;
  std::string_view s = trim(name);
  const size_t space = s.find(' ');
  if (space == std::string_view::npos) return k;
  std::string_view rest = s.substr(space + 1);
  const size_t paren = rest.find('(');
  const std::string_view kind = trim(rest.substr(0, paren));
  for (int i = 0; i < kCopyKindNameCount; ++i) {
    if (equalsIgnoreCase(kind, kCopyKindNames[i].name)) k.copy = kCopyKindNames[i].id;
  }
  if (paren != std::string_view::npos) {
    std::string_view inner = rest.substr(paren + 1);
    const size_t close = inner.find(')');
    if (close != std::string_view::npos) inner = inner.substr(0, close);
    const size_t arrow = inner.find("->");
    if (arrow != std::string_view::npos) {
      k.src = memKindOf(inner.substr(0, arrow));
      k.dst = memKindOf(inner.substr(arrow + 2));
    }
  }
  return k;
}

int32_t parseMemsetName(std::string_view name) {
  const size_t open = name.find('(');
  if (open == std::string_view::npos) return kMemUnknown;
  std::string_view inner = name.substr(open + 1);
  const size_t close = inner.find(')');
  return memKindOf(close == std::string_view::npos ? inner : inner.substr(0, close));
}

int ncclDataType(std::string_view type) {
  std::string t;
  for (char c : trim(type)) t += lower(c);
  if (t.rfind("c10::", 0) == 0) t.erase(0, 5);
  if (t.rfind("__nv_", 0) == 0) t.erase(0, 5);
  if (t.rfind("at::", 0) == 0) t.erase(0, 4);
  struct Entry {
    const char* name;
    int nccl;
  };
  static const Entry kTypes[] = {
      // PyTorch ScalarType names (record_param_comms "dtype"), lower-cased.
      {"char", 0}, {"byte", 1}, {"bool", 1}, {"int", 2}, {"uint32", 3}, {"long", 4},
      {"uint64", 5}, {"half", 6}, {"float", 7}, {"double", 8}, {"bfloat16", 9},
      {"float8_e4m3fn", 10}, {"float8_e5m2", 11},
      // C++ type names ("Input type") and NCCL kernel-name suffixes.
      {"signed char", 0}, {"int8_t", 0}, {"int8", 0}, {"unsigned char", 1}, {"uint8_t", 1},
      {"uint8", 1}, {"int32_t", 2}, {"int32", 2}, {"unsigned int", 3}, {"uint32_t", 3},
      {"long int", 4}, {"long long", 4}, {"int64_t", 4}, {"int64", 4}, {"unsigned long", 5},
      {"uint64_t", 5}, {"float16", 6}, {"__half", 6}, {"float32", 7}, {"float64", 8},
      {"bf16", 9}, {"fp8_e4m3", 10}, {"fp8_e5m2", 11}, {"f8e4m3", 10}, {"f8e5m2", 11},
  };
  for (const Entry& e : kTypes) {
    if (t == e.name) return e.nccl;
  }
  return -1;
}

std::string collectiveOpName(std::string_view collective) {
  std::string key;
  std::string_view c = trim(collective);
  if (c.rfind("nccl:", 0) == 0) c.remove_prefix(5);
  for (char ch : c) {
    if (ch != '_' && ch != ' ' && ch != '-') key += lower(ch);
  }
  // PyTorch variants: _allgather_base, allgather_into_tensor_coalesced, ...
  struct Entry {
    const char* prefix;
    const char* op;
  };
  static const Entry kOps[] = {
      {"allreduce", "AllReduce"},       {"allgather", "AllGather"},   {"reducescatter", "ReduceScatter"},
      {"alltoall", "AllToAll"},         {"broadcast", "Broadcast"},   {"reduce", "Reduce"},
      {"gather", "Gather"},             {"scatter", "Scatter"},       {"sendrecv", "SendRecv"},
      {"send", "Send"},                 {"recv", "Recv"},             {"barrier", "Barrier"},
  };
  for (const Entry& e : kOps) {
    if (key.rfind(e.prefix, 0) == 0) return e.op;
  }
  if (key.empty()) return "";
  std::string out(c);  // keep the source's own word, first letter capitalised
  if (out[0] >= 'a' && out[0] <= 'z') out[0] = static_cast<char>(out[0] - 'a' + 'A');
  return out;
}

std::string_view kernelCollective(std::string_view kernelName) {
  std::string_view s = kernelShortName(kernelName);
  for (std::string_view prefix : {"ncclKernel_", "ncclDevKernel_", "rcclKernel_", "ncclDevFunc_"}) {
    if (s.rfind(prefix, 0) == 0) {
      s.remove_prefix(prefix.size());
      const size_t end = s.find('_');
      return s.substr(0, end);
    }
  }
  return {};
}

std::string_view kernelTypeSuffix(std::string_view kernelName) {
  std::string_view s = kernelShortName(kernelName);
  if (kernelCollective(kernelName).empty()) return {};
  // ..._Sum_float, ..._Sum___nv_bfloat16, ..._Sum_int8_t: the part after the
  // reduction operator.
  for (std::string_view op : {"_Sum_", "_Prod_", "_Max_", "_Min_", "_PreMulSum_", "_SumPostDiv_"}) {
    const size_t at = s.find(op);
    if (at != std::string_view::npos) return s.substr(at + op.size());
  }
  return {};
}

std::string normalizeRanks(std::string_view ranks) {
  std::string out;
  bool inNumber = false;
  for (char c : ranks) {
    if (c >= '0' && c <= '9') {
      if (!inNumber && !out.empty()) out += ',';
      out += c;
      inNumber = true;
    } else {
      inNumber = false;
    }
  }
  return out;
}

std::string fnv1aHex(std::string_view text) {
  uint64_t h = 14695981039346656037ull;  // offset basis 0xcbf29ce484222325
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  static const char kHex[] = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i) {
    out[static_cast<size_t>(i)] = kHex[h & 15];
    h >>= 4;
  }
  return out;
}

bool equalsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

bool containsIgnoreCase(std::string_view haystack, std::string_view needle) {
  if (needle.empty()) return true;
  for (size_t i = 0; i + needle.size() <= haystack.size(); ++i) {
    if (equalsIgnoreCase(haystack.substr(i, needle.size()), needle)) return true;
  }
  return false;
}

namespace {

// Fallback for exponents and other rare spellings: through double.
bool viaDouble(const char* text, size_t length, double scale, int64_t& out) {
  std::string s(text, length);
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || *end != '\0' || !std::isfinite(v)) return false;
  const double scaled = v * scale;
  if (std::fabs(scaled) >= 9.2e18) return false;
  out = std::llround(scaled);
  return true;
}

// Integer part and up to `decimals` fraction digits as one integer, the rest
// rounded half away from zero. False when it is not plain decimal notation.
bool fixedPoint(const char* p, size_t n, int decimals, int64_t& out) {
  size_t i = 0;
  bool negative = false;
  if (i < n && (p[i] == '-' || p[i] == '+')) negative = p[i++] == '-';
  if (i >= n) return false;
  uint64_t v = 0;
  size_t digits = 0;
  for (; i < n && p[i] >= '0' && p[i] <= '9'; ++i, ++digits) {
    if (v > (UINT64_MAX - 9) / 10) return false;
    v = v * 10 + static_cast<uint64_t>(p[i] - '0');
  }
  int taken = 0;
  bool roundUp = false;
  if (i < n && p[i] == '.') {
    ++i;
    for (; i < n && p[i] >= '0' && p[i] <= '9'; ++i, ++digits) {
      if (taken < decimals) {
        if (v > (UINT64_MAX - 9) / 10) return false;
        v = v * 10 + static_cast<uint64_t>(p[i] - '0');
        ++taken;
      } else if (taken == decimals) {
        roundUp = p[i] >= '5';
        ++taken;  // later digits cannot change a half-away-from-zero decision
      }
    }
  }
  if (i != n || digits == 0) return false;
  for (; taken < decimals; ++taken) {
    if (v > UINT64_MAX / 10) return false;
    v *= 10;
  }
  if (roundUp) ++v;
  if (v > static_cast<uint64_t>(INT64_MAX)) return false;
  out = negative ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
  return true;
}

}  // namespace

bool microsToNanos(const char* text, size_t length, int64_t& ns) {
  if (fixedPoint(text, length, 3, ns)) return true;
  return viaDouble(text, length, 1000.0, ns);
}

bool parseInteger(const char* text, size_t length, int64_t& value) {
  if (fixedPoint(text, length, 0, value)) return true;
  return viaDouble(text, length, 1.0, value);
}

PythonFrame parsePythonFrame(std::string_view name) {
  // FILE(LINE): FUNCTION, the line a run of digits.
  const size_t colon = name.find("): ");
  if (colon == std::string_view::npos) return {{}, name};
  const size_t open = name.rfind('(', colon);
  if (open == std::string_view::npos || open == 0 || open + 1 == colon) return {{}, name};
  for (size_t i = open + 1; i < colon; ++i) {
    if (name[i] < '0' || name[i] > '9') return {{}, name};
  }
  return {name.substr(0, open), name.substr(colon + 3)};
}

}  // namespace asys::kineto
