#pragma once
// The bridge contract's one source (docs/bridge-contract.md): the names under
// which the C++ enums cross to the viewer. rule_json.cc writes these names;
// bridgeSchemaTypeScript() turns the same lists into
// web/src/engine/bridge_schema.gen.ts, which a CTest checks is up to date, so
// neither side can change an enum alone.
#include <array>
#include <cstddef>
#include <string>
#include <string_view>

#include "core/rules/rule.h"
#include "core/table/table.h"
#include "core/timeline/selection_stats.h"
#include "core/timeline/track_events.h"

namespace asys {

// In the order of each enum's enumerators (a name is looked up by index).
inline constexpr std::array<std::string_view, 9> kOptionKindNames = {
    "flag", "int", "idList", "choice", "exclusiveFlags", "regex", "regexList", "choiceList", "textList"};
inline constexpr std::array<std::string_view, 3> kCellKindNames = {"int", "decimal1", "text"};
inline constexpr std::array<std::string_view, 3> kColumnRoleNames = {"value", "key", "attribute"};
inline constexpr std::array<std::string_view, 2> kRuleCommandNames = {"stats", "analyze"};
// A row's event reference (Table::setEvent) crosses as the index into this
// list (a byte per row); the timeline calls take and give the name.
inline constexpr std::array<std::string_view, 6> kEventTableNames = {"none", "kernel", "memcpy", "memset", "api", "hgtx"};
// Which columns an Events view has (eventsView's `kind`; core/timeline/track_events.h).
inline constexpr std::array<std::string_view, 6> kTrackEventsKindNames = {"ppuWork", "api",       "hgtx",
                                                                          "osrt",    "pcclStage", "projection"};

// The Kind column of a timeline selection's grouped events
// (timelineSelection; the list is core/timeline/selection_stats.h's).
inline constexpr const std::array<std::string_view, 7>& kSelectionKindWireNames = kSelectionKindNames;

// A list shorter than its enum fails here when an enumerator is added last.
static_assert(static_cast<size_t>(OptionKind::TextList) + 1 == kOptionKindNames.size());
static_assert(static_cast<size_t>(CellKind::Text) + 1 == kCellKindNames.size());
static_assert(static_cast<size_t>(ColumnRole::Attribute) + 1 == kColumnRoleNames.size());
static_assert(static_cast<size_t>(RuleCommand::Analyze) + 1 == kRuleCommandNames.size());
static_assert(static_cast<size_t>(EventTable::Hgtx) + 1 == kEventTableNames.size());
static_assert(static_cast<size_t>(TrackEventsKind::Projection) + 1 == kTrackEventsKindNames.size());

constexpr std::string_view wireName(OptionKind k) { return kOptionKindNames[static_cast<size_t>(k)]; }
constexpr std::string_view wireName(CellKind k) { return kCellKindNames[static_cast<size_t>(k)]; }
constexpr std::string_view wireName(ColumnRole r) { return kColumnRoleNames[static_cast<size_t>(r)]; }
constexpr std::string_view wireName(RuleCommand c) { return kRuleCommandNames[static_cast<size_t>(c)]; }
constexpr std::string_view wireName(EventTable t) { return kEventTableNames[static_cast<size_t>(t)]; }
constexpr std::string_view wireName(TrackEventsKind k) { return kTrackEventsKindNames[static_cast<size_t>(k)]; }
// The event table of a wire name; false for a name not in the list.
constexpr bool eventTableOfWireName(std::string_view name, EventTable& out) {
  for (size_t i = 0; i < kEventTableNames.size(); ++i)
    if (kEventTableNames[i] == name) {
      out = static_cast<EventTable>(i);
      return true;
    }
  return false;
}

// The TypeScript module (bridge_schema.gen.ts) that declares these lists as
// `as const` arrays and their union types, for normalize.ts to validate with.
std::string bridgeSchemaTypeScript();

}  // namespace asys
