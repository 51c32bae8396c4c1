#include "core/rules/bridge_schema.h"

#include <sstream>

#include "core/base/json.h"

namespace asys {

namespace {

template <size_t N>
void list(std::ostream& out, const char* constName, const char* typeName,
          const std::array<std::string_view, N>& names) {
  out << "export const " << constName << " = [";
  for (size_t i = 0; i < N; ++i) out << (i ? ", " : "") << jsonQuote(names[i]);
  out << "] as const;\nexport type " << typeName << " = (typeof " << constName << ")[number];\n";
}

}  // namespace

std::string bridgeSchemaTypeScript() {
  std::ostringstream out;
  out << "// Generated from core/rules/bridge_schema.h by asys_bridge_schema_ts; do not edit.\n"
         "// CTest BridgeSchemaUpToDate fails when this file and the C++ enums differ\n"
         "// (regenerate: build/native/tests/asys_bridge_schema_ts > web/src/engine/bridge_schema.gen.ts).\n";
  list(out, "WIRE_OPTION_KINDS", "WireOptionKind", kOptionKindNames);
  list(out, "WIRE_CELL_KINDS", "WireCellKind", kCellKindNames);
  list(out, "WIRE_COLUMN_ROLES", "WireColumnRole", kColumnRoleNames);
  list(out, "WIRE_RULE_COMMANDS", "WireRuleCommand", kRuleCommandNames);
  list(out, "WIRE_EVENT_TABLES", "WireEventTable", kEventTableNames);
  list(out, "WIRE_SELECTION_KINDS", "WireSelectionKind", kSelectionKindWireNames);
  list(out, "WIRE_EVENTS_VIEW_KINDS", "WireEventsViewKind", kTrackEventsKindNames);
  return out.str();
}

}  // namespace asys
