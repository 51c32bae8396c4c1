#include "core/rules/rule_json.h"

#include <algorithm>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "core/base/json.h"
#include "core/rules/bridge_schema.h"
#include "core/rules/compare.h"
#include "core/report/report.h"
#include "core/rules/rule.h"

namespace asys {

namespace {

void option(JsonWriter& w, const OptionSpec& o) {
  w.beginObject();
  w.key("name").string(o.name).key("kind").string(wireName(o.kind)).key("placeholder").string(o.placeholder);
  w.key("label").string(o.label).key("labelZh").string(o.labelZh).key("help").string(o.help);
  w.key("helpZh").string(o.helpZh).key("defaultValue").string(o.defaultValue);
  w.key("defaultLabel").string(o.defaultLabel).key("defaultLabelZh").string(o.defaultLabelZh);
  w.key("inverted").boolean(o.inverted).key("group").string(o.group).key("groupZh").string(o.groupZh);
  w.strings("choices", o.choices).strings("choiceLabels", o.choiceLabels).strings("choiceLabelsZh", o.choiceLabelsZh);
  w.key("flags").beginArray();
  for (const FlagSpec& f : o.flags) {
    w.beginObject().key("name").string(f.name).key("label").string(f.label);
    w.key("help").string(f.help).key("helpZh").string(f.helpZh).endObject();
  }
  w.endArray().endObject();
}

// The global options the rule reads, declared in full: the panel edits them
// as lists (one value per CLI occurrence), shared by every rule.
void globalOption(JsonWriter& w, const std::string& name) {
  const GlobalOptionSpec* g = findGlobalOption(name);
  w.beginObject().key("name").string(name).key("placeholder").string(g ? g->placeholder : "");
  w.key("label").string(g ? g->label : name).key("labelZh").string(g ? g->labelZh : "");
  w.key("help").string(g ? g->help : "").key("helpZh").string(g ? g->helpZh : "");
  w.strings("defaults", g ? g->defaults : std::vector<std::string>{}).endObject();
}

void column(JsonWriter& w, const ColumnSpec& c) {
  w.beginObject().key("name").string(c.name).key("unit").string(c.unit).key("kind").string(wireName(c.kind));
  w.key("role").string(wireName(c.role)).key("header").string(c.header()).key("help").string(c.help).endObject();
}

void rule(JsonWriter& w, const RuleSpec& r, Report* report) {
  w.beginObject();
  w.key("name").string(r.name).key("command").string(wireName(r.command)).key("compare").boolean(r.compare);
  w.key("title").string(r.title).key("titleZh").string(r.titleZh).key("topic").string(r.topic);
  w.key("description").string(r.description).key("descriptionZh").string(r.descriptionZh);
  w.key("options").beginArray();
  for (const OptionSpec& o : r.options) option(w, o);
  w.endArray().key("globalOptions").beginArray();
  for (const std::string& name : r.globalOptions) globalOption(w, name);
  w.endArray().key("columns").beginArray();
  for (const ColumnSpec& c : r.columns) column(w, c);
  w.endArray();
  w.key("pie").beginObject().key("valueColumn").string(r.pie.valueColumn).strings("keyColumns", r.pie.keyColumns);
  w.key("countRows").boolean(r.pie.countRows).endObject();
  w.strings("sumColumns", r.sumColumns).strings("treeLevels", r.treeLevels);
  if (r.compare) {
    // The output column whose "base / target" shares order the rows (the hotspot chart).
    std::string share = r.compare->share;
    for (const CompareValue& v : r.compare->values)
      if (v.from == r.compare->share && !v.name.empty()) share = v.name;
    w.key("compareShare").string(share);
  }
  w.key("summaryRow").string(r.summaryRow);
  if (report) {
    std::string missing;
    for (const auto& need : r.needs) {
      if (!need.metBy(*report) && missing.empty()) missing = "This report does not contain " + need.missingText() + ".";
    }
    w.key("available").boolean(missing.empty());
    if (!missing.empty()) w.key("missing").string(missing);
  }
  w.endObject();
}

}  // namespace

std::string rulesJson(Report* report) {
  JsonWriter w;
  w.beginArray();
  for (const RuleSpec* r : allRules()) rule(w, *r, report);
  w.endArray();
  return w.text();
}

namespace {

// A TARGET_INFO_PPU field as JSON: an unknown number (NULL: kNoValue, a
// real read as 0) is null, so that the viewer says "-"; a NULL text is "".
void deviceField(JsonWriter& w, const char* name, int64_t v) {
  w.key(name);
  if (v == kNoValue) w.null();
  else w.integer(v);
}
void deviceField(JsonWriter& w, const char* name, const std::string& v) { w.key(name).string(v); }
void deviceField(JsonWriter& w, const char* name, double v) {
  w.key(name);
  if (v == 0) w.null();
  else w.real(v);
}
#define ASYS_DEVICE_JSON_OF(column, field, kind, null) deviceField(w, #field, d.field);
#define ASYS_DEVICE_JSON(name, kind, sql, id, def, load) ASYS_READ(ASYS_DEVICE_JSON_OF, name, kind, load)

// The named threads (ThreadNames) the summary lists, at most this many: a
// merged job of many ranks can name tens of thousands; the count says all.
constexpr size_t kSummaryThreads = 2000;

// A report whose ThreadNames or StringIds cannot be read still opens (the
// rules that need names say why, docs/fuzzing.md's corpus): its summary
// then lists no threads.
void threadsJson(JsonWriter& w, Report& report) {
  std::vector<std::pair<int64_t, uint32_t>> named;
  std::vector<std::string> names;
  try {
    named.assign(report.threadNames().begin(), report.threadNames().end());
    std::sort(named.begin(), named.end());
    // The names are in StringIds, which most rules load anyway; a report
    // that names no thread leaves it unread here.
    for (size_t i = 0; i < named.size() && i < kSummaryThreads; ++i) {
      names.emplace_back(report.strings().get(named[i].second));
    }
  } catch (const std::exception&) {  // Error, or a malformed table's own
    named.clear();
    names.clear();
  }
  w.key("threadCount").integer(static_cast<int64_t>(named.size())).key("threads").beginArray();
  for (size_t i = 0; i < names.size(); ++i) {
    w.beginObject().key("pid").integer(pidOf(named[i].first)).key("tid").integer(tidOf(named[i].first));
    w.key("name").string(names[i]).endObject();
  }
  w.endArray();
}

}  // namespace

std::string summaryJson(Report& report) {
  const ReportSummary& s = report.summary();
  JsonWriter w;
  auto time = [&](const char* name, int64_t v) {
    w.key(name);
    if (v == kNoValue) w.null();
    else w.integer(v);
  };
  w.beginObject().key("path").string(s.path).key("hostName").string(s.hostName).key("generator").string(s.generator);
  time("captureStart", s.captureStart);
  time("captureEnd", s.captureEnd);
  w.strings("tables", s.tables).key("devices").beginArray();
  for (const Device& d : report.devices()) {
    w.beginObject();
    ASYSREP_TARGET_INFO_PPU(ASYS_DEVICE_JSON)
    w.endObject();
  }
  w.endArray().key("processes").beginArray();
  for (const Process& p : report.processes()) w.beginObject().key("pid").integer(p.pid).key("name").string(p.name).endObject();
  w.endArray();
  threadsJson(w, report);
  w.key("meta").beginArray();
  for (const auto& [name, value] : s.meta) w.beginObject().key("name").string(name).key("value").string(value).endObject();
  w.endArray().endObject();
  return w.text();
}

}  // namespace asys
