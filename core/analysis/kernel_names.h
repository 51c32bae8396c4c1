#pragma once
// Kernel names in the three modes of the rules' `base` / `mangled` options.
#include <cstdint>
#include <string>
#include <unordered_map>

#include "core/report/report.h"

namespace asys {

enum class KernelNameMode { Demangled, Base, Mangled };

// Demangles an Itanium C++ ABI name; empty if it is not one.
std::string demangle(std::string_view mangled);

// Resolves a kernel's name id in a mode. A report that lacks demangled names
// gets them from the mangled ones (cached per distinct name, not per kernel).
// A name column that is not loaded reads as NULL.
class KernelNamer {
 public:
  KernelNamer(const Kernels& kernels, StringPool& strings, KernelNameMode mode)
      : k_(kernels), strings_(strings), mode_(mode) {}
  uint32_t nameId(size_t kernel) { return nameId(k_, kernel); }
  // The name of row `row` of other kernel rows (a page read by readKernelRows).
  uint32_t nameId(const Kernels& rows, size_t row);

 private:
  // kNoString when the mangled name does not demangle.
  uint32_t demangledFromMangled(uint32_t mangledId);
  const Kernels& k_;
  StringPool& strings_;
  KernelNameMode mode_;
  std::unordered_map<uint32_t, uint32_t> demangleCache_;
};

}  // namespace asys
