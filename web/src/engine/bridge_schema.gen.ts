// Generated from core/rules/bridge_schema.h by asys_bridge_schema_ts; do not edit.
// CTest BridgeSchemaUpToDate fails when this file and the C++ enums differ
// (regenerate: build/native/tests/asys_bridge_schema_ts > web/src/engine/bridge_schema.gen.ts).
export const WIRE_OPTION_KINDS = ["flag", "int", "idList", "choice", "exclusiveFlags", "regex", "regexList", "choiceList", "textList"] as const;
export type WireOptionKind = (typeof WIRE_OPTION_KINDS)[number];
export const WIRE_CELL_KINDS = ["int", "decimal1", "text"] as const;
export type WireCellKind = (typeof WIRE_CELL_KINDS)[number];
export const WIRE_COLUMN_ROLES = ["value", "key", "attribute"] as const;
export type WireColumnRole = (typeof WIRE_COLUMN_ROLES)[number];
export const WIRE_RULE_COMMANDS = ["stats", "analyze"] as const;
export type WireRuleCommand = (typeof WIRE_RULE_COMMANDS)[number];
export const WIRE_EVENT_TABLES = ["none", "kernel", "memcpy", "memset", "api", "hgtx"] as const;
export type WireEventTable = (typeof WIRE_EVENT_TABLES)[number];
export const WIRE_SELECTION_KINDS = ["Kernel", "Memcpy", "Memset", "HGGC API", "HGTX range", "OSRT", "PCCL stage"] as const;
export type WireSelectionKind = (typeof WIRE_SELECTION_KINDS)[number];
export const WIRE_EVENTS_VIEW_KINDS = ["ppuWork", "api", "hgtx", "osrt", "pcclStage", "projection"] as const;
export type WireEventsViewKind = (typeof WIRE_EVENTS_VIEW_KINDS)[number];
