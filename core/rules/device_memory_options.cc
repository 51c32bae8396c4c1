#include "core/rules/device_memory_options.h"

#include "core/report/report.h"

namespace asys {

OptionSpec matchFirstGroupOption() {
  return {.name = "match-first-group",
          .kind = OptionKind::Flag,
          .label = "Only match the first group in order",
          .labelZh = "只归属于按顺序第一个匹配的组",
          .help = "Optional argument. When used with --callstack-group-config:\n"
                  "If given, only matching the first callstack group.\n"
                  "Default is matching all callstack group.",
          .helpZh = "指定只归属于第一个匹配的组。\n默认为不勾选，即归属于所有匹配的组。"};
}

DataNeed deviceMemoryNeed() {
  return {"PPU_MEMORY_USAGE_EVENTS", "PPU device memory usage data", "--hggc-memory-usage device"};
}

void addPairingWarnings(Table& t, RuleContext& ctx, const DeviceMemoryEvents& events) {
  const MemoryUsageEvents& m = ctx.report.memoryUsage(mcol::pairing);
  auto inWindow = [&](uint32_t e) { return ctx.window.overlaps(m.start[e], m.start[e]); };
  size_t never = 0, twice = 0, other = 0;
  for (uint32_t e : events.order) {
    if (m.operation[e] != kMemoryRelease || events.partner[e] != DeviceMemoryEvents::kNone || !inWindow(e)) continue;
    ++(events.secondRelease[e] ? twice : never);
  }
  for (uint32_t e : events.otherOperations) other += inWindow(e);
  auto count = [](size_t n, const std::string& one, const std::string& many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
  };
  if (never + twice > 0) {
    std::string why;
    if (never > 0) why = std::to_string(never) + " of an address never allocated";
    if (twice > 0) why += (why.empty() ? "" : ", ") + std::to_string(twice) + " of an address already released (a second release)";
    const bool one = never + twice == 1;
    t.addWarning(count(never + twice, "release matches", "releases match") +
                 " no unreleased allocation of the same address in the same process and device: " + why + "; " +
                 (one ? "it counts" : "they count") + " in no total");
  }
  if (other > 0) {
    t.addWarning(count(other, "memory event has", "memory events have") +
                 " a memoryOperationType other than 0 (allocation) or 1 (release) and " + (other == 1 ? "is" : "are") +
                 " left out");
  }
}

}  // namespace asys
