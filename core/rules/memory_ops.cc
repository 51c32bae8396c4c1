#include "core/rules/memory_ops.h"

#include <limits>

#include "core/analysis/key_groups.h"
#include "core/report/report.h"

namespace asys {

DataNeed memoryOpsNeed() {
  return {.table = "HGGC_MEMCPY", .what = "HGGC memcpy or memset data", .collection = "--trace hggc",
          .alternatives = {"HGGC_MEMSET"}};
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
