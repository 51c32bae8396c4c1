#pragma once
// HGGC memcpy names: "Memcpy HtoD (device)", as hggc_ppu_trace shows a
// memcpy and the operator rules and the timeline show it too.
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace asys {

class Report;

// The copy kind's ENUM_HGGC_MEMCPY_OPER label; "Unknown" when the id has none.
std::string_view memcpyKindLabel(Report& report, int64_t copyKind);

// "Host-to-Device" -> "HtoD": the first letters of the two sides of an
// `X-to-Y` label; any other label is kept as it is.
std::string shortCopyKind(std::string_view label);

// "Memcpy HtoD (device)": the short copy kind, then the destination memory
// kind in lower case (left out when unknown); each distinct name built once.
class MemcpyNames {
 public:
  explicit MemcpyNames(Report& report);
  std::string_view name(int64_t copyKind, int64_t dstKind);
  // ENUM_HGGC_MEM_KIND label; empty when unknown.
  std::string_view memKind(int64_t kind);

 private:
  Report& report_;
  const std::unordered_map<int64_t, uint32_t>& memKinds_;
  std::map<std::pair<int64_t, int64_t>, std::string> names_;
};

}  // namespace asys
