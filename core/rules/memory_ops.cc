#include "core/rules/memory_ops.h"

#include <algorithm>
#include <cctype>
#include <limits>

#include "core/analysis/key_groups.h"
#include "core/report/report.h"

namespace asys {

DataNeed memoryOpsNeed() {
  return {.table = "HGGC_MEMCPY", .what = "HGGC memcpy or memset data", .collection = "--trace hggc",
          .alternatives = {"HGGC_MEMSET"}};
}

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

MemoryOpSamples memoryOpSamples(RuleContext& ctx, MemoryOpValue value) {
  constexpr uint64_t kMemsetKey = 1ull << 40;  // above every string id
  constexpr int64_t kOpenEnd = std::numeric_limits<int64_t>::max();
  Report& report = ctx.report;
  StringPool& strings = report.strings();
  const auto& kindLabels = report.memcpyKindLabels();
  const uint32_t unknown = strings.intern("Unknown");
  KeyGroups groups;
  MemoryOpSamples out;
  auto add = [&](const MemoryOps& m, bool memset) {
    for (size_t i = 0; i < m.size(); ++i) {
      // Bytes are known even for an operation cut off by the end of the
      // capture; its duration is not.
      int64_t v = value == MemoryOpValue::Bytes ? m.bytes[i] : m.end[i] == kNoValue ? kNoValue : m.end[i] - m.start[i];
      if (v == kNoValue || !ctx.window.overlaps(m.start[i], m.end[i] == kNoValue ? kOpenEnd : m.end[i])) continue;
      uint64_t key = kMemsetKey;
      if (!memset) {
        auto it = kindLabels.find(m.copyKind[i]);
        key = it == kindLabels.end() ? unknown : it->second;
      }
      out.groupOf.push_back(groups.indexOf(key));
      out.values.push_back(v);
    }
  };
  const MemoryOps& copies = report.memcpys();
  const MemoryOps& sets = report.memsets();
  out.groupOf.reserve(copies.size() + sets.size());
  out.values.reserve(copies.size() + sets.size());
  add(copies, false);
  add(sets, true);
  out.names.resize(groups.size());
  for (uint32_t g = 0; g < groups.size(); ++g) {
    uint64_t key = groups.key(g);
    out.names[g] = key == kMemsetKey ? "[HGGC memset]"
                                     : "[HGGC memcpy " + std::string(strings.get(static_cast<uint32_t>(key))) + "]";
  }
  return out;
}

}  // namespace asys
