// The engine's WebAssembly surface: four coarse calls (open a report, list
// the rules, run a rule into a columnar result, render a rule as text), and
// the settings that hold for every later run (the time filter, the global
// rule options). The browser never binds fine-grained C++ objects and no call
// is per row.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <memory>
#include <sstream>

#include "core/base/error.h"
#include "core/base/json.h"
#include "core/import/importer.h"
#include "core/report/report.h"
#include "core/rules/rule.h"
#include "core/rules/rule_json.h"
#include "core/rules/time_window.h"
#include "core/table/sort.h"
#include "core/table/writers.h"

using emscripten::val;

namespace asys {

namespace {

std::unique_ptr<Report> g_report;
TimeWindow g_window;
std::unique_ptr<Table> g_lastTable;  // the last runRule result, for sortOrder
RuleConfig g_config;                 // the global rule options (setRuleConfig)

std::string errorJson(const std::string& message) {
  return "{\"ok\":false,\"error\":" + jsonQuote(message) + "}";
}

// Opens one or more files as the current report: an asysrep directly, an
// Nsight Systems export or Kineto traces (several rank files together) by
// importing them into a temporary asysrep in memory first. The open report
// stays until the new one opened: a bad file loses nothing.
std::string openReports(const std::vector<std::string>& paths) {
  try {
    std::unique_ptr<Report> opened = openAnyReport(paths, "/tmp");
    g_lastTable.reset();
    g_report = std::move(opened);
    g_window = {};
    return "{\"ok\":true,\"summary\":" + summaryJson(*g_report) + "}";
  } catch (const std::exception& e) {
    return errorJson(e.what());
  }
}

std::string openReport(const std::string& path) { return openReports({path}); }

std::string openReportList(const val& paths) {
  return openReports(emscripten::vecFromJSArray<std::string>(paths));
}

std::string listRules() { return rulesJson(g_report.get()); }

// The statistics time range for every later run, as --filter-time /
// --filter-hgtx give it on the command line ("" = not set).
std::string setTimeFilter(const std::string& filterTime, const std::string& filterHgtx) {
  try {
    if (!g_report) throw Error("no report is open");
    g_window = resolveTimeWindow(*g_report, filterTime, filterHgtx);
    std::string range = g_window.isAll() ? "null"
                        : "[" + std::to_string(g_window.start) + "," + std::to_string(g_window.end) + "]";
    return "{\"ok\":true,\"window\":" + range + "}";
  } catch (const std::exception& e) {
    return errorJson(e.what());
  }
}

// {"callstack-group-config": ["NAME=RE/RE", ...], ...}: each entry is one
// occurrence of the CLI's global option, in order. An empty object (or
// empty lists) is the default configuration.
RuleConfig configFrom(const val& json) {
  RuleConfig config;
  if (json.isUndefined() || json.isNull()) return config;
  val object = json.typeOf().as<std::string>() == "string" ? val::global("JSON").call<val>("parse", json) : json;
  val keys = val::global("Object").call<val>("keys", object);
  const size_t n = keys["length"].as<size_t>();
  for (size_t i = 0; i < n; ++i) {
    const std::string name = keys[i].as<std::string>();
    if (!findGlobalOption(name)) throw Error("unknown global option '" + name + "'");
    val values = object[name];
    if (!val::global("Array").call<bool>("isArray", values)) throw Error(name + ": expected a list of values");
    const size_t count = values["length"].as<size_t>();
    for (size_t v = 0; v < count; ++v) config.add(name, val::global("String")(values[v]).as<std::string>());
  }
  return config;
}

// The global rule options for every later run, as the CLI's repeated
// --callstack-group-config gives them. A bad value is an error (one line, as
// the CLI prints it) and keeps the configuration in force.
std::string setRuleConfig(const val& json) {
  try {
    g_config = configFrom(json);
    return "{\"ok\":true}";
  } catch (const std::exception& e) {
    return errorJson(e.what());
  }
}

// Checks one value of a global option without applying it: the settings
// panel validates each entry as it is typed.
std::string checkRuleOption(const std::string& name, const std::string& value) {
  try {
    if (!findGlobalOption(name)) throw Error("unknown global option '" + name + "'");
    RuleConfig scratch;
    scratch.add(name, value);
    return "{\"ok\":true}";
  } catch (const std::exception& e) {
    return errorJson(e.what());
  }
}

// The panel sends option name -> string value; turn it into the CLI's
// `opt` / `opt=value` items so both front ends share one parser.
RuleOptions optionsFrom(const RuleSpec& rule, const val& options) {
  std::vector<std::string> items;
  if (!options.isUndefined() && !options.isNull()) {
    val object = options.typeOf().as<std::string>() == "string"
                     ? val::global("JSON").call<val>("parse", options)
                     : options;
    val keys = val::global("Object").call<val>("keys", object);
    const size_t n = keys["length"].as<size_t>();
    for (size_t i = 0; i < n; ++i) {
      std::string name = keys[i].as<std::string>();
      std::string value = object[name].isString() ? object[name].as<std::string>()
                                                   : val::global("String")(object[name]).as<std::string>();
      const OptionSpec* spec = nullptr;
      for (const auto& o : rule.options)
        if (o.name == name) spec = &o;
      if (spec && spec->kind == OptionKind::Flag) {
        if (value != "false") items.push_back(name);
      } else if (spec && spec->kind == OptionKind::ExclusiveFlags) {
        if (!value.empty()) items.push_back(value);
      } else if (!value.empty()) {
        items.push_back(name + "=" + value);
      }
    }
  }
  return parseRuleOptions(rule, items);
}

Table computeRule(const std::string& name, const val& options) {
  if (!g_report) throw Error("no report is open");
  const RuleSpec* rule = findRule(name);
  if (!rule) throw Error("unknown rule '" + name + "'");
  return runRule(*rule, *g_report, optionsFrom(*rule, options), g_window, g_config);
}

val runRuleColumnar(const std::string& name, const val& options) {
  val result = val::object();
  try {
    g_lastTable.reset();
    Table t = computeRule(name, options);
    const size_t rows = t.rowCount();
    val columns = val::array();
    val cells = val::array();
    for (size_t c = 0; c < t.columns().size(); ++c) {
      const ColumnSpec& spec = t.columns()[c];
      val col = val::object();
      col.set("name", spec.name);
      col.set("unit", spec.unit);
      col.set("header", spec.header());
      col.set("kind", spec.kind == CellKind::Text ? "text" : spec.kind == CellKind::Int ? "int" : "decimal1");
      columns.call<void>("push", col);
      if (spec.kind == CellKind::Text) {
        std::vector<uint32_t> ids(rows);
        for (size_t r = 0; r < rows; ++r) ids[r] = t.isMissing(r, c) ? 0xFFFFFFFFu : t.textIdAt(r, c);
        cells.call<void>("push", val::global("Uint32Array").new_(emscripten::typed_memory_view(rows, ids.data())));
      } else {
        std::vector<double> values(rows);
        for (size_t r = 0; r < rows; ++r) {
          values[r] = t.isMissing(r, c) ? NAN
                      : spec.kind == CellKind::Int ? static_cast<double>(t.intAt(r, c))
                                                   : t.decimalAt(r, c);
        }
        cells.call<void>("push", val::global("Float64Array").new_(emscripten::typed_memory_view(rows, values.data())));
      }
    }
    g_lastTable = std::make_unique<Table>(std::move(t));
    // All distinct texts as UTF-8 joined by NUL: one decode and split in JS.
    std::string pool;
    const StringPool& texts = g_lastTable->textPool();
    for (uint32_t id = 0; id < texts.size(); ++id) {
      pool += texts.get(id);
      pool += '\0';
    }
    result.set("ok", true);
    result.set("columns", columns);
    result.set("rowCount", rows);
    result.set("cells", cells);
    result.set("textPool", val::global("Uint8Array").new_(
                               emscripten::typed_memory_view(pool.size(), reinterpret_cast<const uint8_t*>(pool.data()))));
    // The time spans of each row (a trace row's range, its activity), as the
    // little-endian bytes of int64 arrays: 64-bit times never pass through
    // doubles (the worker views them as BigInt64Array).
    val spans = val::array();
    auto int64Bytes = [](const std::vector<int64_t>& v) {
      return val::global("Uint8Array").new_(
          emscripten::typed_memory_view(v.size() * 8, reinterpret_cast<const uint8_t*>(v.data())));
    };
    for (size_t w = 0; w < g_lastTable->spanNames().size(); ++w) {
      val span = val::object();
      span.set("name", g_lastTable->spanNames()[w]);
      span.set("start", int64Bytes(g_lastTable->spanStarts(w)));
      span.set("end", int64Bytes(g_lastTable->spanEnds(w)));
      spans.call<void>("push", span);
    }
    result.set("spans", spans);
    val warnings = val::array();
    for (const auto& w : g_lastTable->warnings()) warnings.call<void>("push", w);
    result.set("warnings", warnings);
  } catch (const std::exception& e) {
    result.set("ok", false);
    result.set("error", std::string(e.what()));
  }
  return result;
}

// Row order of the last runRule result sorted by a column (a Uint32Array).
val sortOrder(size_t column, bool descending) {
  if (!g_lastTable) return val::null();
  std::vector<uint32_t> order = sortedRowOrder(*g_lastTable, column, descending);
  return val::global("Uint32Array").new_(emscripten::typed_memory_view(order.size(), order.data()));
}

std::string renderRule(const std::string& name, const val& options, const std::string& format) {
  try {
    Table t = computeRule(name, options);
    std::ostringstream out;
    writeTable(t, parseOutputFormat(format), out);
    return "{\"ok\":true,\"text\":" + jsonQuote(out.str()) + "}";
  } catch (const std::exception& e) {
    return errorJson(e.what());
  }
}

}  // namespace

}  // namespace asys

EMSCRIPTEN_BINDINGS(asys_engine) {
  emscripten::function("openReport", &asys::openReport);
  emscripten::function("openReports", &asys::openReportList);
  emscripten::function("listRules", &asys::listRules);
  emscripten::function("setTimeFilter", &asys::setTimeFilter);
  emscripten::function("setRuleConfig", &asys::setRuleConfig);
  emscripten::function("checkRuleOption", &asys::checkRuleOption);
  emscripten::function("runRule", &asys::runRuleColumnar);
  emscripten::function("sortOrder", &asys::sortOrder);
  emscripten::function("renderRule", &asys::renderRule);
}
