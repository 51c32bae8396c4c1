// ppu_device_attribute (2.3.20): the PPUs' properties, by device index.
#include "core/report/report.h"
#include "core/rules/registry.h"

namespace asys {

namespace {

Table compute(RuleContext& ctx) {
  Table t(ppuDeviceAttributeRule().columns);
  auto text = [&](size_t col, const std::string& v) {
    if (!v.empty()) t.setText(col, v);  // unset = "-"
  };
  auto integer = [&](size_t col, int64_t v) {
    if (v != kNoValue) t.setInt(col, v);
  };
  for (const Device& d : ctx.report.devices()) {
    integer(0, d.id);
    text(1, d.name);
    text(2, d.busLocation);
    text(3, d.hostName);
    text(4, d.uuid);
    integer(5, d.computeMajor);
    integer(6, d.computeMinor);
    integer(7, d.ceCount);
    integer(8, d.cuCount);
    integer(9, d.totalMemory);
    integer(10, d.cuClock);
    integer(11, d.memoryClock);
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
      .compute = compute,
  };
  return rule;
}

}  // namespace asys
