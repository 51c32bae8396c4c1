#include "core/rules/rule.h"

#include <algorithm>

#include "core/analysis/association_ranges.h"
#include "core/base/error.h"
#include "core/base/regex.h"
#include "core/base/stage_timer.h"
#include "core/base/text.h"
#include "core/rules/common.h"
#include "core/rules/compare.h"
#include "core/rules/memory_estimate.h"
#include "core/report/report.h"

namespace asys {

namespace {

std::vector<std::string> splitUnescapedSlash(std::string_view s) {
  std::vector<std::string> out;
  while (true) {
    const size_t slash = s.find('/');
    out.emplace_back(s.substr(0, slash));
    if (slash == std::string_view::npos) break;
    s.remove_prefix(slash + 1);
  }
  return out;
}

std::string optionNames(const RuleSpec& rule) {
  std::string names;
  for (const auto& o : rule.options) {
    if (o.kind == OptionKind::ExclusiveFlags) {
      for (const auto& f : o.flags) names += (names.empty() ? "" : ", ") + f.name;
    } else {
      names += (names.empty() ? "" : ", ") + o.name;
    }
  }
  return names.empty() ? "this rule has no options" : "options: " + names;
}

}  // namespace

bool DataNeed::metBy(const Report& report) const {
  if (report.hasData(table)) return true;
  for (const auto& t : alternatives)
    if (report.hasData(t)) return true;
  return false;
}

std::string DataNeed::missingText() const {
  std::string tables = table;
  for (const auto& t : alternatives) tables += " or " + t;
  return what + " (table " + tables + ", collected with " + collection + ")";
}

std::optional<std::string> RuleOptions::value(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

std::optional<int64_t> RuleOptions::intValue(const std::string& name) const {
  auto v = value(name);
  int64_t out = 0;
  if (!v || !parseInt64(*v, out)) return std::nullopt;
  return out;
}

std::optional<std::vector<int64_t>> RuleOptions::idList(const std::string& name) const {
  auto v = value(name);
  if (!v) return std::nullopt;
  std::vector<int64_t> ids;
  std::string_view rest = *v;
  while (true) {
    size_t slash = rest.find('/');
    int64_t id = 0;
    parseInt64(rest.substr(0, slash), id);  // validated by parseRuleOptions
    ids.push_back(id);
    if (slash == std::string_view::npos) break;
    rest.remove_prefix(slash + 1);
  }
  return ids;
}

std::vector<std::string> RuleOptions::list(const std::string& name) const {
  std::vector<std::string> out;
  auto v = value(name);
  if (!v) return out;
  std::string_view rest = *v;
  while (true) {
    const size_t slash = rest.find('/');
    out.emplace_back(rest.substr(0, slash));
    if (slash == std::string_view::npos) break;
    rest.remove_prefix(slash + 1);
  }
  return out;
}

RuleOptions parseRuleOptions(const RuleSpec& rule, const std::vector<std::string>& items) {
  RuleOptions opts;
  for (const std::string& item : items) {
    size_t eq = item.find('=');
    std::string name = item.substr(0, eq);
    bool hasValue = eq != std::string::npos;
    std::string value = hasValue ? item.substr(eq + 1) : "";
    auto bad = [&](const std::string& why) {
      throw Error(rule.name + ": option '" + item + "': " + why);
    };
    const OptionSpec* spec = nullptr;
    for (const auto& o : rule.options) {
      if (o.kind == OptionKind::ExclusiveFlags) {
        for (const auto& f : o.flags)
          if (f.name == name) spec = &o;
      } else if (o.name == name) {
        spec = &o;
      }
    }
    if (!spec) bad("unknown option (" + optionNames(rule) + ")");
    switch (spec->kind) {
      case OptionKind::Flag:
        if (hasValue) bad("takes no value");
        opts.set(name, "");
        break;
      case OptionKind::ExclusiveFlags:
        if (hasValue) bad("takes no value");
        if (auto prev = opts.value(spec->name); prev && *prev != name)
          bad("cannot be combined with '" + *prev + "'");
        opts.set(spec->name, name);
        break;
      case OptionKind::Int: {
        int64_t v = 0;
        if (!parseInt64(value, v)) bad("expected " + name + "=" + spec->placeholder + " with an integer");
        if (spec->minValue && v < *spec->minValue) bad("must be at least " + std::to_string(*spec->minValue));
        if (spec->maxValue && v > *spec->maxValue) bad("must be at most " + std::to_string(*spec->maxValue));
        opts.set(name, value);
        break;
      }
      case OptionKind::IdList: {
        std::string_view rest = value;
        bool ok = !rest.empty();
        while (ok) {
          size_t slash = rest.find('/');
          int64_t id = 0;
          ok = parseInt64(rest.substr(0, slash), id) && id >= 0;
          if (slash == std::string_view::npos) break;
          rest.remove_prefix(slash + 1);
        }
        if (!ok) bad("expected " + name + "=" + spec->placeholder + ", non-negative integers separated by '/'");
        opts.set(name, value);
        break;
      }
      case OptionKind::Choice: {
        bool ok = false;
        for (const auto& c : spec->choices) ok = ok || c == value;
        if (!ok) {
          std::string allowed;
          for (const auto& c : spec->choices) allowed += (allowed.empty() ? "" : ", ") + c;
          bad("expected one of " + allowed);
        }
        opts.set(name, value);
        break;
      }
      case OptionKind::ChoiceList: {
        std::string allowed;
        for (const auto& c : spec->choices) allowed += (allowed.empty() ? "" : ", ") + c;
        std::string_view rest = value;
        bool ok = !rest.empty();
        while (ok) {
          const size_t slash = rest.find('/');
          const std::string_view item = rest.substr(0, slash);
          ok = std::find(spec->choices.begin(), spec->choices.end(), item) != spec->choices.end();
          if (!ok) bad("'" + std::string(item) + "' is not one of " + allowed + " (separate several with '/')");
          if (slash == std::string_view::npos) break;
          rest.remove_prefix(slash + 1);
        }
        if (!ok) bad("expected " + name + "=" + spec->placeholder + ": one or more of " + allowed + " separated by '/'");
        opts.set(name, value);
        break;
      }
      case OptionKind::TextList: {
        bool ok = !value.empty();
        for (const std::string& item : splitUnescapedSlash(value)) ok = ok && !item.empty();
        if (!ok) bad("expected " + name + "=" + spec->placeholder + ": names separated by '/', none empty");
        opts.set(name, value);
        break;
      }
      case OptionKind::Regex:
      case OptionKind::RegexList: {
        if (value.empty()) bad("expected " + name + "=" + spec->placeholder);
        try {
          if (spec->kind == OptionKind::Regex) Regex check(value, name);
          else compileRegexList(value, name);
        } catch (const Error& e) {
          throw Error(rule.name + ": " + e.what());
        }
        opts.set(name, value);
        break;
      }
    }
  }
  for (const auto& o : rule.options) {
    const bool valued = o.kind == OptionKind::Int || o.kind == OptionKind::Choice;
    if (valued && !o.defaultValue.empty() && !opts.value(o.name)) opts.set(o.name, o.defaultValue);
  }
  return opts;
}

namespace {
void checkNeeds(const RuleSpec& rule, const Report& report) {
  for (const auto& need : rule.needs) {
    if (!need.metBy(report)) throw MissingDataError(report.path() + " does not contain " + need.missingText());
  }
}

// A run of a rule once more where the association chose ranges under a
// domain name HGTX_EVENTS changes after them (HgtxDomainNamedLate): the
// report knows its domains' names from then on, so each report asks it
// once at most (a compare's two).
template <typename Run>
auto againWhereDomainsNamedLate(Run&& run) {
  for (int attempt = 0;; ++attempt) {
    try {
      return run();
    } catch (const HgtxDomainNamedLate&) {
      if (attempt == 2) throw;
    }
  }
}
}  // namespace

Table runCompareRule(const RuleSpec& rule, Report& base, Report& target, const RuleOptions& options,
                     const TimeWindow& baseWindow, const TimeWindow& targetWindow, const RuleConfig& config) {
  if (!rule.compare) throw Error(rule.name + " reads one report, not a base and a target");
  checkNeeds(rule, base);
  checkNeeds(rule, target);
  checkRuleMemory(rule, base, &target);
  RuleContext b{base, options, baseWindow, config}, t{target, options, targetWindow, config};
  StageTimer timer("compare rule " + rule.name);
  return againWhereDomainsNamedLate([&] { return compareTables(*rule.compare, b, t, options.flag("matched-only")); });
}

GroupedDurations runGroupedDurations(const RuleSpec& rule, Report& report, const RuleOptions& options,
                                     const TimeWindow& window, const RuleConfig& config) {
  if (!rule.groupedDurations) throw Error(rule.name + " has no groups to merge across reports");
  checkNeeds(rule, report);
  checkRuleMemory(rule, report);
  RuleContext ctx{report, options, window, config};
  StageTimer timer("groups of rule " + rule.name);
  return againWhereDomainsNamedLate([&] { return rule.groupedDurations(ctx); });
}

Table runRule(const RuleSpec& rule, Report& report, const RuleOptions& options, const TimeWindow& window,
              const RuleConfig& config) {
  if (rule.compare) throw Error(rule.name + " compares two reports: give a base and a target report");
  checkNeeds(rule, report);
  checkRuleMemory(rule, report);
  RuleContext ctx{report, options, window, config};
  StageTimer timer("rule " + rule.name);
  Table t = againWhereDomainsNamedLate([&] { return rule.compute(ctx); });
  if (auto rows = options.intValue("rows"); rows && *rows >= 0) t.truncate(static_cast<size_t>(*rows));
  // What the loads of the rule's tables tolerated (a NULL device id, a name
  // that is not UTF-8) is said once per run, as a warning.
  std::vector<std::string> tables;
  for (const DataNeed& need : rule.needs) {
    tables.push_back(need.table);
    tables.insert(tables.end(), need.alternatives.begin(), need.alternatives.end());
  }
  for (std::string& note : report.notesOn(tables)) t.addWarning(std::move(note));
  return t;
}

const RuleSpec* findRule(const std::string& name) {
  for (const RuleSpec* r : allRules())
    if (r->name == name) return r;
  return nullptr;
}

}  // namespace asys
