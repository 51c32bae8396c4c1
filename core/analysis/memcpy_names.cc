#include "core/analysis/memcpy_names.h"

#include <algorithm>
#include <cctype>

#include "core/report/report.h"

namespace asys {

std::string_view memcpyKindLabel(Report& report, int64_t copyKind) {
  const auto& labels = report.memcpyKindLabels();
  auto it = labels.find(copyKind);
  if (it == labels.end()) return "Unknown";
  return report.strings().get(it->second);
}

std::string shortCopyKind(std::string_view label) {
  size_t to = label.find("-to-");
  if (to == std::string_view::npos || to == 0 || to + 4 >= label.size()) return std::string(label);
  return std::string(1, label[0]) + "to" + label[to + 4];
}

MemcpyNames::MemcpyNames(Report& report) : report_(report), memKinds_(report.memKindLabels()) {}

std::string_view MemcpyNames::memKind(int64_t kind) {
  auto it = memKinds_.find(kind);
  return it == memKinds_.end() ? std::string_view() : report_.strings().get(it->second);
}

std::string_view MemcpyNames::name(int64_t copyKind, int64_t dstKind) {
  auto [it, inserted] = names_.try_emplace({copyKind, dstKind});
  if (inserted) {
    std::string name = "Memcpy " + shortCopyKind(memcpyKindLabel(report_, copyKind));
    std::string dst(memKind(dstKind));
    if (!dst.empty()) {
      std::transform(dst.begin(), dst.end(), dst.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      name += " (" + dst + ")";
    }
    it->second = std::move(name);
  }
  return it->second;
}

}  // namespace asys
