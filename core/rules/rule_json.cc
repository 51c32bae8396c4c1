#include "core/rules/rule_json.h"

#include <sstream>

#include "core/base/json.h"
#include "core/rules/bridge_schema.h"
#include "core/rules/compare.h"
#include "core/report/report.h"
#include "core/rules/rule.h"

namespace asys {

namespace {

template <typename T, typename F>
void array(std::ostream& out, const std::vector<T>& items, F each) {
  out << '[';
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out << ',';
    each(items[i]);
  }
  out << ']';
}

}  // namespace

std::string rulesJson(Report* report) {
  std::ostringstream out;
  array(out, allRules(), [&](const RuleSpec* r) {
    out << "{\"name\":" << jsonQuote(r->name)
        << ",\"command\":" << jsonQuote(wireName(r->command))
        << ",\"compare\":" << (r->compare ? "true" : "false") << ",\"title\":" << jsonQuote(r->title)
        << ",\"titleZh\":" << jsonQuote(r->titleZh)
        << ",\"topic\":" << jsonQuote(r->topic) << ",\"description\":" << jsonQuote(r->description)
        << ",\"descriptionZh\":" << jsonQuote(r->descriptionZh)
        << ",\"options\":";
    array(out, r->options, [&](const OptionSpec& o) {
      out << "{\"name\":" << jsonQuote(o.name) << ",\"kind\":" << jsonQuote(wireName(o.kind))
          << ",\"placeholder\":" << jsonQuote(o.placeholder) << ",\"label\":" << jsonQuote(o.label)
          << ",\"labelZh\":" << jsonQuote(o.labelZh)
          << ",\"help\":" << jsonQuote(o.help) << ",\"helpZh\":" << jsonQuote(o.helpZh)
          << ",\"defaultValue\":" << jsonQuote(o.defaultValue)
          << ",\"defaultLabel\":" << jsonQuote(o.defaultLabel) << ",\"defaultLabelZh\":" << jsonQuote(o.defaultLabelZh)
          << ",\"inverted\":" << (o.inverted ? "true" : "false") << ",\"group\":" << jsonQuote(o.group)
          << ",\"groupZh\":" << jsonQuote(o.groupZh)
          << ",\"choices\":";
      array(out, o.choices, [&](const std::string& c) { out << jsonQuote(c); });
      out << ",\"choiceLabels\":";
      array(out, o.choiceLabels, [&](const std::string& c) { out << jsonQuote(c); });
      out << ",\"choiceLabelsZh\":";
      array(out, o.choiceLabelsZh, [&](const std::string& c) { out << jsonQuote(c); });
      out << ",\"flags\":";
      array(out, o.flags, [&](const FlagSpec& f) {
        out << "{\"name\":" << jsonQuote(f.name) << ",\"label\":" << jsonQuote(f.label)
            << ",\"help\":" << jsonQuote(f.help) << ",\"helpZh\":" << jsonQuote(f.helpZh) << '}';
      });
      out << '}';
    });
    // The global options the rule reads, declared in full: the panel edits
    // them as lists (one value per CLI occurrence), shared by every rule.
    out << ",\"globalOptions\":";
    array(out, r->globalOptions, [&](const std::string& name) {
      const GlobalOptionSpec* g = findGlobalOption(name);
      out << "{\"name\":" << jsonQuote(name) << ",\"placeholder\":" << jsonQuote(g ? g->placeholder : "")
          << ",\"label\":" << jsonQuote(g ? g->label : name)
          << ",\"labelZh\":" << jsonQuote(g ? g->labelZh : "") << ",\"help\":" << jsonQuote(g ? g->help : "")
          << ",\"helpZh\":" << jsonQuote(g ? g->helpZh : "")
          << ",\"defaults\":";
      array(out, g ? g->defaults : std::vector<std::string>{}, [&](const std::string& d) { out << jsonQuote(d); });
      out << '}';
    });
    out << ",\"columns\":";
    array(out, r->columns, [&](const ColumnSpec& c) {
      out << "{\"name\":" << jsonQuote(c.name) << ",\"unit\":" << jsonQuote(c.unit) << ",\"kind\":"
          << jsonQuote(wireName(c.kind)) << ",\"role\":" << jsonQuote(wireName(c.role)) << ",\"header\":" << jsonQuote(c.header())
          << ",\"help\":" << jsonQuote(c.help) << '}';
    });
    out << ",\"pie\":{\"valueColumn\":" << jsonQuote(r->pie.valueColumn) << ",\"keyColumns\":";
    array(out, r->pie.keyColumns, [&](const std::string& k) { out << jsonQuote(k); });
    out << ",\"countRows\":" << (r->pie.countRows ? "true" : "false") << "},\"sumColumns\":";
    array(out, r->sumColumns, [&](const std::string& c) { out << jsonQuote(c); });
    out << ",\"treeLevels\":";
    array(out, r->treeLevels, [&](const std::string& c) { out << jsonQuote(c); });
    if (r->compare) {
      // The output column whose "base / target" shares order the rows (the hotspot chart).
      std::string share = r->compare->share;
      for (const CompareValue& v : r->compare->values)
        if (v.from == r->compare->share && !v.name.empty()) share = v.name;
      out << ",\"compareShare\":" << jsonQuote(share);
    }
    out << ",\"summaryRow\":" << jsonQuote(r->summaryRow);
    if (report) {
      std::string missing;
      for (const auto& need : r->needs) {
        if (!need.metBy(*report) && missing.empty()) missing = "This report does not contain " + need.missingText() + ".";
      }
      out << ",\"available\":" << (missing.empty() ? "true" : "false");
      if (!missing.empty()) out << ",\"missing\":" << jsonQuote(missing);
    }
    out << '}';
  });
  return out.str();
}

std::string summaryJson(Report& report) {
  const ReportSummary& s = report.summary();
  std::ostringstream out;
  auto number = [&](int64_t v) {
    if (v == kNoValue) out << "null";
    else out << v;
  };
  out << "{\"path\":" << jsonQuote(s.path) << ",\"hostName\":" << jsonQuote(s.hostName)
      << ",\"generator\":" << jsonQuote(s.generator) << ",\"captureStart\":";
  number(s.captureStart);
  out << ",\"captureEnd\":";
  number(s.captureEnd);
  out << ",\"tables\":";
  array(out, s.tables, [&](const std::string& t) { out << jsonQuote(t); });
  out << ",\"devices\":";
  array(out, report.devices(), [&](const Device& d) {
    out << "{\"id\":" << d.id << ",\"name\":" << jsonQuote(d.name) << '}';
  });
  out << ",\"processes\":";
  array(out, report.processes(), [&](const Process& p) {
    out << "{\"pid\":" << p.pid << ",\"name\":" << jsonQuote(p.name) << '}';
  });
  out << '}';
  return out.str();
}

}  // namespace asys
