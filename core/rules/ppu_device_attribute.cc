// ppu_device_attribute (2.3.20): the PPUs' properties, by device index.
#include <algorithm>

#include "core/report/report.h"
#include "core/rules/common.h"
#include "core/rules/registry.h"

namespace asys {

namespace {

// One group a device: keys its id (renumbered as asys merge renumbers
// devices), its place in the report's list (ids may repeat there), its
// numbers and its texts.
GroupedDurations groupedDurations(RuleContext& ctx) {
  GroupedDurations g;
  g.ids = {{IdKind::kDevice, {}}, {IdKind::kPlain, {}}};
  for (int i = 0; i < 7; ++i) g.ids.push_back({IdKind::kPlain, {}});
  g.texts.resize(4);
  int64_t place = 0;
  for (const Device& d : ctx.report.devices()) {
    const int64_t numbers[] = {d.id, place++, d.computeMajor, d.computeMinor, d.ceCount,
                               d.cuCount, d.totalMemory, d.cuClock, d.memoryClock};
    for (size_t c = 0; c < g.ids.size(); ++c) g.ids[c].values.push_back(numbers[c]);
    g.texts[0].push_back(d.name);
    g.texts[1].push_back(d.busLocation);
    g.texts[2].push_back(d.hostName);
    g.texts[3].push_back(d.uuid);
  }
  g.groupCount = place;
  return g;
}

// By device index (the report's own order where ids repeat).
Table groupsTable(const MergedGroups& g, const RuleOptions&) {
  std::vector<uint32_t> order(g.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  const std::vector<int64_t>&id = g.ids[0].values, &place = g.ids[1].values;
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return id[a] != id[b] ? id[a] < id[b] : place[a] < place[b];
  });
  Table t(ppuDeviceAttributeRule().columns);
  auto text = [&](size_t col, const std::string& v) {
    if (!v.empty()) t.setText(col, v);  // unset = "-"
  };
  auto integer = [&](size_t col, int64_t v) {
    if (v != kNoValue) t.setInt(col, v);
  };
  for (uint32_t i : order) {
    integer(0, id[i]);
    for (size_t c = 0; c < 4; ++c) text(1 + c, g.texts[c][i]);
    for (size_t c = 2; c < g.ids.size(); ++c) integer(3 + c, g.ids[c].values[i]);
    t.endRow();
  }
  return t;
}

}  // namespace

const RuleSpec& ppuDeviceAttributeRule() {
  static const RuleSpec rule{
      .name = "ppu_device_attribute",
      .title = "PPU Device Attributes",
      .titleZh = "设备属性信息",
      .rowHelp = "Row number of device attribute",
      .topic = "Device",
      .description =
          "The PPU devices' attributes, one row per device in ascending device index.\n"
          "CU Clock and Memory Clock are the highest clocks the device supports, not its\n"
          "current clocks.",
      .descriptionZh =
          "将PPU设备的各项参数信息，按照设备索引升序输出，每个PPU设备为表格的一行信息。\n"
          "注意CU Clock和Memory Clock为设备支持的最高频率，并非PPU设备的实时频率信息。",
      .columns =
          {
              {"Device ID", "", CellKind::Int, "PPU device identifier"},
              {"Device Name", "", CellKind::Text, "PPU device name"},
              {"PCI Bus ID", "", CellKind::Text, "PCI bus identifier"},
              {"Host Name", "", CellKind::Text, "Host Name"},
              {"UUID", "", CellKind::Text, "PPU device universally unique identifier"},
              {"Compute Capability Major", "", CellKind::Int, "Compute capability major version"},
              {"Compute Capability Minor", "", CellKind::Int, "Compute capability minor version"},
              {"CE Number", "", CellKind::Int, "Compute engine number"},
              {"CU Number", "", CellKind::Int, "Compute unit number"},
              {"Total Memory", "bytes", CellKind::Int, "Total device memory size"},
              {"CU Clock", "Hz", CellKind::Int, "Compute unit clock frequency"},
              {"Memory Clock", "Hz", CellKind::Int, "Memory clock frequency"},
          },
      .needs = {{"TARGET_INFO_PPU", "PPU device information", "--trace hggc"}},
      .pie = {"Total Memory", {"Device ID", "Device Name"}},
      .compute = [](RuleContext& ctx) { return groupsRuleTable(ppuDeviceAttributeRule(), ctx); },
      .groupedDurations = groupedDurations,
      .groupsTable = groupsTable,
  };
  return rule;
}

}  // namespace asys
