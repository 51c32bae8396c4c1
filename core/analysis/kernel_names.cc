#include "core/analysis/kernel_names.h"

#include <cxxabi.h>

#include <cstdlib>

namespace asys {

std::string demangle(std::string_view mangled) {
  std::string in(mangled);
  int status = 0;
  char* out = abi::__cxa_demangle(in.c_str(), nullptr, nullptr, &status);
  if (status != 0 || !out) return {};
  std::string result(out);
  std::free(out);
  return result;
}

uint32_t KernelNamer::demangledFromMangled(uint32_t mangledId) {
  auto it = demangleCache_.find(mangledId);
  if (it != demangleCache_.end()) return it->second;
  std::string text = demangle(strings_.get(mangledId));
  uint32_t id = text.empty() ? kNoString : strings_.intern(text);
  demangleCache_.emplace(mangledId, id);
  return id;
}

uint32_t KernelNamer::nameId(const Kernels& k, size_t i) {
  // A name column the caller did not load reads as NULL: a rule that knows
  // its report has demangled names need not load the other two.
  auto at = [i](const std::vector<uint32_t>& v) { return i < v.size() ? v[i] : kNoString; };
  const uint32_t demangled = at(k.demangledName), shortName = at(k.shortName), mangled = at(k.mangledName);
  auto firstOf = [](uint32_t a, uint32_t b, uint32_t c) {
    return a != kNoString ? a : b != kNoString ? b : c;
  };
  switch (mode_) {
    case KernelNameMode::Base: return firstOf(shortName, demangled, mangled);
    case KernelNameMode::Mangled: return firstOf(mangled, demangled, shortName);
    case KernelNameMode::Demangled:
      if (demangled != kNoString) return demangled;
      if (mangled != kNoString) {
        uint32_t fromMangled = demangledFromMangled(mangled);
        if (fromMangled != kNoString) return fromMangled;
      }
      // Not a C++ name (a C kernel): the short name, else the raw name.
      return shortName != kNoString ? shortName : mangled;
  }
  return kNoString;
}

}  // namespace asys
