// The engine's WebAssembly surface, version 10 (kApiVersion): a handle-based API. Several
// reports are open at once, each with its own id, statistics time range and
// loaded tables; a rule runs against a report id (a compare rule against two)
// and its result stays in the engine under a result id, to be sorted, paged,
// rendered and released. Every call answers one envelope object,
// {ok: true, ...} or {ok: false, error: "one line"}; nothing throws into JS.
// Calls are coarse (no call per row), and 64-bit times and ids cross exactly:
// integer cells and spans as the bytes of int64 arrays (BigInt64Array in JS),
// single times as BigInt.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <sstream>

#include "core/analysis/stats.h"
#include "core/analysis/time_window.h"
#include "core/base/error.h"
#include "core/import/importer.h"
#include "core/report/report.h"
#include "core/rules/rule.h"
#include "core/base/text.h"
#include "core/rules/bridge_schema.h"
#include "core/rules/rule_json.h"
#include "core/table/result_queries.h"
#include "core/table/sort.h"
#include "core/table/writers.h"
#include "core/timeline/correlation.h"
#include "core/timeline/selection_stats.h"
#include "core/timeline/timeline.h"
#include "core/timeline/track_events.h"
#include "core/table/xlsx_writer.h"

using emscripten::val;

namespace asys {

namespace {

// The client checks this on start: a page and an engine of other versions
// do not talk.
constexpr int kApiVersion = 10;

struct OpenReport {
  std::unique_ptr<Report> report;
  TimeWindow window;  // its own statistics range (setTimeFilter)
  std::unique_ptr<Timeline> timeline;  // built on the first timeline call
  std::unique_ptr<TimelineLinks> links;  // built on the first timelineRelated call
};

std::map<int, OpenReport> g_reports;
// A result as the viewer holds it. A view (a trace) is never made whole
// here: its rows were streamed into the answer of `run` a chunk at a time,
// and are made again for a page, a sort or an export. Its text cells are
// ids into `texts`, every distinct text sent with that answer; a held
// table's are ids into its own pool.
struct StoredResult {
  Table table;
  StringPool texts;  // views only
  int report = 0;    // a view's report (it reads it): closing the report drops the view
  // An Events view (eventsView): its timeline row and which event each row is.
  std::shared_ptr<const TrackEventRowMap> eventRows;
  size_t track = 0;
  const StringPool& pool() const { return table.isView() ? texts : table.textPool(); }
};
std::map<int, std::unique_ptr<StoredResult>> g_results;
int g_nextReport = 1, g_nextResult = 1;
RuleConfig g_config;  // the global rule options (setRuleConfig), for every report

val okEnvelope() {
  val v = val::object();
  v.set("ok", true);
  return v;
}

// One text of a NUL-joined text pool: a NUL inside the text (Nsight Systems
// stores environment blocks as names) is written as U+2400 (the symbol for
// NUL), so it cannot end the text early and shift every later index. The
// exports (render) keep the report's bytes.
void appendPoolText(std::string& pool, std::string_view text) {
  for (const char c : text) {
    if (c == '\0') pool += "\u2400";
    else pool += c;
  }
  pool += '\0';
}

val errorEnvelope(const std::string& message) {
  val v = val::object();
  v.set("ok", false);
  v.set("error", message);
  return v;
}

// Runs `body` (which fills the envelope) and turns any error into the
// error envelope.
template <typename Body>
val answer(Body&& body) {
  try {
    val v = okEnvelope();
    body(v);
    return v;
  } catch (const std::exception& e) {
    return errorEnvelope(e.what());
  }
}

val parseJson(const std::string& json) { return val::global("JSON").call<val>("parse", json); }

val bigInt(int64_t v) { return val::global("BigInt")(std::to_string(v)); }

// The little-endian bytes of an int64 array (a copy JS views as BigInt64Array).
val int64Bytes(const int64_t* v, size_t n) {
  return val::global("Uint8Array").new_(emscripten::typed_memory_view(n * 8, reinterpret_cast<const uint8_t*>(v)));
}
val int64Bytes(const std::vector<int64_t>& v) { return int64Bytes(v.data(), v.size()); }

OpenReport& reportOf(int id) {
  auto it = g_reports.find(id);
  if (it == g_reports.end()) throw Error("no open report with id " + std::to_string(id));
  return it->second;
}

StoredResult& storedOf(int id) {
  auto it = g_results.find(id);
  if (it == g_results.end()) throw Error("no result with id " + std::to_string(id) + " (released, or its report closed?)");
  return *it->second;
}
Table& resultOf(int id) { return storedOf(id).table; }

const RuleSpec& ruleOf(const std::string& name) {
  const RuleSpec* rule = findRule(name);
  if (!rule) throw Error("unknown rule '" + name + "'");
  return *rule;
}

// One panel value as the CLI's item (`opt` or `opt=value`); none when unset.
std::optional<std::string> optionItem(const RuleSpec& rule, const std::string& name, const std::string& value) {
  const OptionSpec* spec = nullptr;
  for (const auto& o : rule.options)
    if (o.name == name) spec = &o;
  if (spec && spec->kind == OptionKind::Flag) return value != "false" ? std::optional(name) : std::nullopt;
  if (spec && spec->kind == OptionKind::ExclusiveFlags) return !value.empty() ? std::optional(value) : std::nullopt;
  return !value.empty() ? std::optional(name + "=" + value) : std::nullopt;
}

// The panel sends option name -> string value; turn it into the CLI's
// `opt` / `opt=value` items so both front ends share one parser.
RuleOptions optionsFrom(const RuleSpec& rule, const val& options) {
  std::vector<std::string> items;
  if (!options.isUndefined() && !options.isNull()) {
    val object = options.typeOf().as<std::string>() == "string" ? parseJson(options.as<std::string>()) : options;
    val keys = val::global("Object").call<val>("keys", object);
    const size_t n = keys["length"].as<size_t>();
    for (size_t i = 0; i < n; ++i) {
      std::string name = keys[i].as<std::string>();
      std::string value = object[name].isString() ? object[name].as<std::string>()
                                                   : val::global("String")(object[name]).as<std::string>();
      if (auto item = optionItem(rule, name, value)) items.push_back(*item);
    }
  }
  return parseRuleOptions(rule, items);
}

// {"callstack-group-config": ["NAME=RE/RE", ...], ...}: each entry is one
// occurrence of the CLI's global option, in order. An empty object (or
// empty lists) is the default configuration.
RuleConfig configFrom(const val& json) {
  RuleConfig config;
  if (json.isUndefined() || json.isNull()) return config;
  val object = json.typeOf().as<std::string>() == "string" ? parseJson(json.as<std::string>()) : json;
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

// Rows [from, from + count) of a table as columns: Int cells as int64 bytes
// (INT64_MIN = "-"), Decimal1 as a Float64Array (NaN = "-"), Text as a
// Uint32Array of indices into the table's text pool (0xFFFFFFFF = "-"); and
// the rows' time spans (int64 bytes each) and event references (per
// declared event: `table`, a Uint8Array of kEventTableNames indices, 0 =
// none, and `index`, a Uint32Array of rows of that report table).
// `textIds`, when given, maps the table's text ids to the ids the viewer
// knows (a view's chunk: its own pool's ids to the result's).
val columnarRows(const Table& t, size_t from, size_t count, const std::vector<uint32_t>* textIds = nullptr) {
  val columns = val::array();
  val cells = val::array();
  for (size_t c = 0; c < t.columns().size(); ++c) {
    const ColumnSpec& spec = t.columns()[c];
    val col = val::object();
    col.set("name", spec.name);
    col.set("unit", spec.unit);
    col.set("header", spec.header());
    col.set("kind", std::string(wireName(spec.kind)));
    columns.call<void>("push", col);
    if (spec.kind == CellKind::Text) {
      std::vector<uint32_t> ids(count);
      for (size_t r = 0; r < count; ++r) {
        const uint32_t id = t.textIdAt(from + r, c);
        ids[r] = t.isMissing(from + r, c) ? 0xFFFFFFFFu : textIds ? (*textIds)[id] : id;
      }
      cells.call<void>("push", val::global("Uint32Array").new_(emscripten::typed_memory_view(count, ids.data())));
    } else if (spec.kind == CellKind::Int) {
      std::vector<int64_t> values(count);
      for (size_t r = 0; r < count; ++r) values[r] = t.isMissing(from + r, c) ? INT64_MIN : t.intAt(from + r, c);
      cells.call<void>("push", int64Bytes(values));
    } else {
      std::vector<double> values(count);
      for (size_t r = 0; r < count; ++r) values[r] = t.isMissing(from + r, c) ? NAN : t.decimalAt(from + r, c);
      cells.call<void>("push", val::global("Float64Array").new_(emscripten::typed_memory_view(count, values.data())));
    }
  }
  val spans = val::array();
  for (size_t w = 0; w < t.spanNames().size(); ++w) {
    val span = val::object();
    span.set("name", t.spanNames()[w]);
    span.set("start", int64Bytes(t.spanStarts(w).data() + from, count));
    span.set("end", int64Bytes(t.spanEnds(w).data() + from, count));
    spans.call<void>("push", span);
  }
  val events = val::array();
  for (size_t w = 0; w < t.eventNames().size(); ++w) {
    val event = val::object();
    event.set("name", t.eventNames()[w]);
    const EventTable* tables = t.eventTables(w).data() + from;
    event.set("table", val::global("Uint8Array")
                           .new_(emscripten::typed_memory_view(count, reinterpret_cast<const uint8_t*>(tables))));
    event.set("index", val::global("Uint32Array").new_(emscripten::typed_memory_view(count, t.eventIndexes(w).data() + from)));
    events.call<void>("push", event);
  }
  val out = val::object();
  out.set("columns", columns);
  out.set("cells", cells);
  out.set("rowCount", count);
  out.set("spans", spans);
  out.set("events", events);
  return out;
}

// The ids in `texts` of every text of a chunk's pool (interned when new).
std::vector<uint32_t> textIdsIn(StringPool& texts, const Table& chunk) {
  std::vector<uint32_t> ids(chunk.textPool().size());
  for (uint32_t i = 0; i < ids.size(); ++i) ids[i] = texts.intern(chunk.textPool().get(i));
  return ids;
}

// A view's rows [from, from + count) in the shape columnarRows answers, made
// a chunk at a time into arrays of the whole count: the engine's memory
// holds one chunk, never the rows' cells whole.
val viewRows(StoredResult& stored, size_t from, size_t count) {
  const Table& t = stored.table;
  const size_t cols = t.columns().size();
  val cells = val::array();
  for (size_t c = 0; c < cols; ++c) {
    const CellKind kind = t.columns()[c].kind;
    const char* type = kind == CellKind::Text ? "Uint32Array" : kind == CellKind::Int ? "Uint8Array" : "Float64Array";
    cells.call<void>("push", val::global(type).new_(kind == CellKind::Int ? 8 * count : count));
  }
  val spans = val::array();
  for (size_t w = 0; w < t.spanNames().size(); ++w) {
    val span = val::object();
    span.set("name", t.spanNames()[w]);
    span.set("start", val::global("Uint8Array").new_(8 * count));
    span.set("end", val::global("Uint8Array").new_(8 * count));
    spans.call<void>("push", span);
  }
  val events = val::array();
  for (size_t w = 0; w < t.eventNames().size(); ++w) {
    val event = val::object();
    event.set("name", t.eventNames()[w]);
    event.set("table", val::global("Uint8Array").new_(count));
    event.set("index", val::global("Uint32Array").new_(count));
    events.call<void>("push", event);
  }
  val columns = val::undefined();
  forEachChunk(
      t,
      [&](const Table& chunk, size_t first) {
        const std::vector<uint32_t> ids = textIdsIn(stored.texts, chunk);
        val part = columnarRows(chunk, 0, chunk.rowCount(), &ids);
        if (columns.isUndefined()) columns = part["columns"];
        const size_t at = first - from;
        for (size_t c = 0; c < cols; ++c) {
          const size_t offset = t.columns()[c].kind == CellKind::Int ? 8 * at : at;
          cells[c].call<void>("set", part["cells"][c], offset);
        }
        for (size_t w = 0; w < t.spanNames().size(); ++w) {
          for (const char* side : {"start", "end"}) spans[w][side].call<void>("set", part["spans"][w][side], 8 * at);
        }
        for (size_t w = 0; w < t.eventNames().size(); ++w) {
          for (const char* field : {"table", "index"}) events[w][field].call<void>("set", part["events"][w][field], at);
        }
      },
      kChunkRows, from, count);
  if (columns.isUndefined()) columns = columnarRows(t.emptyLike(), 0, 0)["columns"];
  val out = val::object();
  out.set("columns", columns);
  out.set("cells", cells);
  out.set("rowCount", count);
  out.set("spans", spans);
  out.set("events", events);
  return out;
}

// A new result: stored under an id, answered with its whole columnar data,
// all distinct texts as UTF-8 joined by NUL (one decode and split in JS),
// the rows' time spans, the rule's warnings and its files. `report`: the
// report a view reads.
StoredResult& keepResult(Table t, int report, val& v) {
  const int id = g_nextResult++;
  StoredResult& stored = *g_results.emplace(id, std::make_unique<StoredResult>(StoredResult{std::move(t), {}, report}))
                              .first->second;
  v.set("result", id);
  return stored;
}

// What a result is besides its cells: its warnings and its own files (the
// bytes the CLI writes, which the viewer offers for download).
void setNotes(const Table& table, val& v) {
  val warnings = val::array();
  for (const auto& w : table.warnings()) warnings.call<void>("push", w);
  v.set("warnings", warnings);
  val files = val::array();
  for (const Table::File& f : table.files()) {
    val file = val::object();
    file.set("name", f.name);
    file.set("text", f.text);
    files.call<void>("push", file);
  }
  v.set("files", files);
}

val textPoolBytes(const StringPool& texts) {
  std::string pool;
  for (uint32_t i = 0; i < texts.size(); ++i) appendPoolText(pool, texts.get(i));
  return val::global("Uint8Array")
      .new_(emscripten::typed_memory_view(pool.size(), reinterpret_cast<const uint8_t*>(pool.data())));
}

void storeResult(Table t, int report, val& v) {
  StoredResult& stored = keepResult(std::move(t), report, v);
  const Table& table = stored.table;
  val rows = table.isView() ? viewRows(stored, 0, table.rowCount()) : columnarRows(table, 0, table.rowCount());
  v.set("columns", rows["columns"]);
  v.set("cells", rows["cells"]);
  v.set("rowCount", table.rowCount());
  v.set("textPool", textPoolBytes(stored.pool()));
  v.set("spans", rows["spans"]);
  v.set("events", rows["events"]);
  setNotes(table, v);
}

// A result kept in the engine, answered without cells (paged: true): its
// columns, rows, span and event names, warnings and files; the viewer asks
// for the rows it shows (pageRows).
void setPagedAnswer(const Table& table, val& v) {
  v.set("paged", true);
  v.set("columns", columnarRows(table.emptyLike(), 0, 0)["columns"]);
  v.set("rowCount", table.rowCount());
  val spanNames = val::array();
  for (const std::string& n : table.spanNames()) spanNames.call<void>("push", n);
  v.set("spanNames", spanNames);
  val eventNames = val::array();
  for (const std::string& n : table.eventNames()) eventNames.call<void>("push", n);
  v.set("eventNames", eventNames);
  setNotes(table, v);
}

// ---------------------------------------------------------------------------
// The API

int apiVersion() { return kApiVersion; }

// Opens files as one report: an asysrep directly, an Nsight Systems export or
// Kineto traces (several rank files together) by importing them into a
// temporary asysrep in memory first. Other open reports are untouched.
val open(const val& paths) {
  return answer([&](val& v) {
    std::unique_ptr<Report> report = openAnyReport(emscripten::vecFromJSArray<std::string>(paths), "/tmp");
    const int id = g_nextReport++;
    val summary = parseJson(summaryJson(*report));
    // The summary read the names (its threads' names are in StringIds):
    // given back, so that the report is as the CLI opens it. Nothing holds
    // one of its ids yet, and a compare rule's side gives back what it read
    // only from a report that held no names before it (core/rules/compare.cc,
    // sideOf): without this, the base side's names, columns and tables
    // stayed beside the target side in the engine.
    report->releaseAll();
    // The capture times as BigInt: epoch ns (a Kineto trace's) are past 2^53,
    // where JSON.parse rounds them to a multiple of 256 ns; the viewer counts
    // every time it shows from the capture start, exactly.
    const ReportSummary& s = report->summary();
    summary.set("captureStart", s.captureStart == kNoValue ? val::null() : bigInt(s.captureStart));
    summary.set("captureEnd", s.captureEnd == kNoValue ? val::null() : bigInt(s.captureEnd));
    v.set("summary", summary);
    g_reports[id] = {std::move(report), {}, nullptr, nullptr};
    v.set("report", id);
  });
}

val close(int report) {
  return answer([&](val&) {
    reportOf(report);
    // Its views read it: they go with it (not one that holds its rows,
    // hgtx_ppu_proj_sum's, which stays as the tables that hold their cells do).
    for (auto it = g_results.begin(); it != g_results.end();) {
      const Table& t = it->second->table;
      if (t.isView() && !t.viewHoldsItsRows() && it->second->report == report) it = g_results.erase(it);
      else ++it;
    }
    g_reports.erase(report);
  });
}

// The rules, each with its availability in `report` (0: no report).
val listRules(int report) {
  return answer([&](val& v) {
    v.set("rules", parseJson(rulesJson(report == 0 ? nullptr : reportOf(report).report.get())));
  });
}

// A report's statistics time range for its later runs, as --filter-time /
// --filter-hgtx give it ("" = not set). A bad one keeps the range in force.
val setTimeFilter(int report, const std::string& filterTime, const std::string& filterHgtx) {
  return answer([&](val& v) {
    OpenReport& r = reportOf(report);
    r.window = resolveTimeWindow(*r.report, filterTime, filterHgtx);
    if (r.window.isAll()) {
      v.set("window", val::null());
    } else {
      val w = val::array();
      w.call<void>("push", bigInt(r.window.start));
      w.call<void>("push", bigInt(r.window.end));
      v.set("window", w);
    }
  });
}

// The global rule options for every later run, as the CLI's repeated
// --callstack-group-config gives them. A bad value is an error and keeps the
// configuration in force.
val setRuleConfig(const val& json) {
  return answer([&](val&) { g_config = configFrom(json); });
}

// Checks one value of a global option without applying it: the settings
// panel validates each entry as it is typed.
val checkRuleOption(const std::string& name, const std::string& value) {
  return answer([&](val&) {
    if (!findGlobalOption(name)) throw Error("unknown global option '" + name + "'");
    RuleConfig scratch;
    scratch.add(name, value);
  });
}

// Checks one value of one rule option with the CLI's parser, without running
// the rule: the settings panel validates regexes as they are typed (the
// error is the CLI's for `-r rule:name=value`). An unset value is valid.
val checkOption(const std::string& rule, const std::string& name, const std::string& value) {
  return answer([&](val&) {
    const RuleSpec& spec = ruleOf(rule);
    if (auto item = optionItem(spec, name, value)) parseRuleOptions(spec, {*item});
  });
}

val run(int report, const std::string& name, const val& options) {
  return answer([&](val& v) {
    OpenReport& r = reportOf(report);
    const RuleSpec& rule = ruleOf(name);
    storeResult(runRule(rule, *r.report, optionsFrom(rule, options), r.window, g_config), report, v);
  });
}

// The same, for a viewer that pages: a result of at most `cellLimit` rows
// is answered whole, as `run` answers it (paged: false); a larger one stays
// in the engine (paged: true) and is answered without cells: its columns,
// rows, span names, warnings and files. The viewer then asks for the rows
// it shows (pageRows) and asks the engine its questions (searchRows,
// keyTotals, rowsWithKeys, columnTotals, sortOrder).
void storePaged(Table t, int report, double cellLimit, val& v) {
  if (static_cast<double>(t.rowCount()) <= cellLimit) {
    storeResult(std::move(t), report, v);
    v.set("paged", false);
    return;
  }
  setPagedAnswer(keepResult(std::move(t), report, v).table, v);
}

val runPaged(int report, const std::string& name, const val& options, double cellLimit) {
  return answer([&](val& v) {
    OpenReport& r = reportOf(report);
    const RuleSpec& rule = ruleOf(name);
    storePaged(runRule(rule, *r.report, optionsFrom(rule, options), r.window, g_config), report, cellLimit, v);
  });
}

// A compare rule on a base and a target report, each in its own time range.
val runCompare(int base, int target, const std::string& name, const val& options) {
  return answer([&](val& v) {
    OpenReport& b = reportOf(base);
    OpenReport& t = reportOf(target);
    const RuleSpec& rule = ruleOf(name);
    // compareTables' table is a view of the two sides' held columns: it
    // reads neither report later, so it is kept as report 0's (never dropped by close).
    storeResult(runCompareRule(rule, *b.report, *t.report, optionsFrom(rule, options), b.window, t.window, g_config),
                0, v);
  });
}

// ---------------------------------------------------------------------------
// The timeline (core/timeline): tracks once, then windows merged to pixels.

Timeline& timelineOf(OpenReport& r) {
  if (!r.timeline) r.timeline = std::make_unique<Timeline>(Timeline::build(*r.report));
  return *r.timeline;
}

// A time in nanoseconds as JS sends it: decimal text (BigInt's toString), so
// no double ever holds it.
int64_t timeArg(const std::string& text, const char* what) {
  int64_t v = 0;
  if (!parseInt64(text, v)) throw Error(std::string("timeline: ") + what + " '" + text + "' is not a time in ns");
  return v;
}

// The report's tracks: {first, last (BigInt: the events' extent), captureStart
// (BigInt or null), groups: [{name, busy (BigInt), share}], tracks: [{id,
// group, label, lanes, events, busy, share, counter}]}. `share` is the
// node's busy time over its parent's (a number, null when it has none);
// `counter` is null for an event track, else {unit, integer, max}: the
// axis max as BigInt for an integer counter (bytes: exact), else a number.
// A host row has `hostRow` (startEnd, library, allocationFailures) and, for
// start/end ranges and allocation failures, `hostNotes`: per event, as int64
// bytes, `thread` (the starting or calling thread's globalTid), `endThread`
// (a start/end range's ending thread, INT64_MIN: never ended) and `value`
// (a failed call's return value).
// `notes`: what the timeline left out and why, one line each.
val timelineTracks(int report) {
  return answer([&](val& v) {
    OpenReport& r = reportOf(report);
    const Timeline& t = timelineOf(r);
    v.set("first", bigInt(t.first()));
    v.set("last", bigInt(t.last()));
    const int64_t capture = r.report->summary().captureStart;
    v.set("captureStart", capture == kNoValue ? val::null() : bigInt(capture));
    val tracks = val::array();
    for (size_t i = 0; i < t.tracks().size(); ++i) {
      const TimelineTrack& tr = t.tracks()[i];
      val o = val::object();
      o.set("id", static_cast<int>(i));
      o.set("group", tr.group);
      o.set("label", tr.label);
      o.set("lanes", static_cast<int>(tr.lanes));
      o.set("events", static_cast<double>(tr.size()));
      o.set("busy", bigInt(tr.busy));
      o.set("share", std::isnan(tr.share) ? val::null() : val(tr.share));
      o.set("context", tr.context);
      o.set("contextShare", std::isnan(tr.contextShare) ? val::null() : val(tr.contextShare));
      if (tr.derived()) {
        o.set("parent", static_cast<int>(tr.parent));
        o.set("groupedBy", std::string(tr.grouping == TimelineTrack::Grouping::HgtxRange ? "hgtxRange" : "baseName"));
        if (tr.outsideRanges) o.set("outsideRanges", true);
        if (tr.otherRanges > 0) o.set("otherRanges", static_cast<int>(tr.otherRanges));
      }
      // A host row (core/timeline/host_rows.h): which, and per event what
      // its details say (the few events of these rows: int64 bytes).
      if (tr.hostRow != HostRow::None) {
        o.set("hostRow", std::string(tr.hostRow == HostRow::StartEnd  ? "startEnd"
                                     : tr.hostRow == HostRow::Library ? "library"
                                                                      : "allocationFailures"));
        if (tr.notes) {
          val n = val::object();
          n.set("thread", int64Bytes(tr.notes->thread));
          n.set("endThread", int64Bytes(tr.notes->endThread));
          n.set("value", int64Bytes(tr.notes->value));
          o.set("hostNotes", n);
        }
      }
      if (tr.deviceRow) {
        o.set("deviceRow", true);
        o.set("kernelShare", std::isnan(tr.kernelShare) ? val::null() : val(tr.kernelShare));
        o.set("memoryShare", std::isnan(tr.memoryShare) ? val::null() : val(tr.memoryShare));
      }
      // A graph row (Timeline::graphRows): its stream, graph (null: unknown)
      // and exec, and per launch (its events) what its details say.
      if (tr.graphRow()) {
        o.set("graphOf", static_cast<int>(tr.graphOf));
        if (tr.launches) {
          const GraphLaunchNotes& g = *tr.launches;
          o.set("graph", g.graph == INT64_MIN ? val::null() : val(static_cast<double>(g.graph)));
          o.set("exec", static_cast<double>(g.exec));
          auto u32 = [](const std::vector<uint32_t>& x) {
            return val::global("Uint32Array").new_(emscripten::typed_memory_view(x.size(), x.data()));
          };
          val n = val::object();
          n.set("correlationId", int64Bytes(g.correlationId));
          n.set("busy", int64Bytes(g.busy));
          n.set("kernels", u32(g.kernels));
          n.set("memcpys", u32(g.memcpys));
          n.set("memsets", u32(g.memsets));
          o.set("graphNotes", n);
        }
      }
      if (tr.merged()) {
        val sources = val::array();
        for (uint32_t k : tr.sources) sources.call<void>("push", static_cast<int>(k));
        o.set("sources", sources);
      }
      if (tr.counter) {
        val c = val::object();
        c.set("unit", tr.counter->unit);
        c.set("integer", tr.counter->integer);
        c.set("max", tr.counter->integer ? bigInt(tr.counter->imax)
                                         : std::isnan(tr.counter->dmax) ? val::null() : val(tr.counter->dmax));
        o.set("counter", c);
      } else {
        o.set("counter", val::null());
      }
      tracks.call<void>("push", o);
    }
    v.set("tracks", tracks);
    val groups = val::array();
    for (const TimelineGroup& g : t.groups()) {
      val o = val::object();
      o.set("name", g.name);
      o.set("busy", bigInt(g.busy));
      o.set("share", std::isnan(g.share) ? val::null() : val(g.share));
      groups.call<void>("push", o);
    }
    v.set("groups", groups);
    val notes = val::array();
    for (const std::string& n : t.notes()) notes.call<void>("push", n);
    v.set("notes", notes);
    // Kernels grouped by HGTX range refused (the projection's bound): the
    // report's PPU activities and the bound, for the toolbar's line.
    if (t.rangeGroupsRefused()) {
      val refused = val::object();
      refused.set("activities", static_cast<double>(t.ppuActivities()));
      refused.set("max", static_cast<double>(t.associationMax()));
      v.set("rangeGroupsRefused", refused);
    }
  });
}

// Builds the rows of each of `ids`' kernels by base name (a stream's; any
// other track has none), kept in the report's timeline: timelineTracks then
// lists them after every other track, each with its `parent`. Answers
// {added}: how many rows this call made.
val timelineKernelGroups(int report, const val& ids) {
  return answer([&](val& v) {
    OpenReport& r = reportOf(report);
    Timeline& t = timelineOf(r);
    const size_t before = t.tracks().size();
    for (int id : emscripten::vecFromJSArray<int>(ids)) {
      if (id < 0 || static_cast<size_t>(id) >= before) throw Error("timeline: no track " + std::to_string(id));
      t.kernelGroups(*r.report, static_cast<size_t>(id));
    }
    v.set("added", static_cast<int>(t.tracks().size() - before));
  });
}

// Builds the rows of each of `ids`' kernels grouped by HGTX range
// (Timeline::kernelRangeGroups: a stream's or the PCCL kernels'; any other
// track has none), kept as the rows by base name are: timelineTracks then
// lists them after every other track, each with its `parent` and
// groupedBy "hgtxRange". Answers {added}: how many rows this call made.
val timelineKernelRangeGroups(int report, const val& ids) {
  return answer([&](val& v) {
    OpenReport& r = reportOf(report);
    Timeline& t = timelineOf(r);
    const size_t before = t.tracks().size();
    std::vector<size_t> tracks;
    for (int id : emscripten::vecFromJSArray<int>(ids)) {
      if (id < 0 || static_cast<size_t>(id) >= before) throw Error("timeline: no track " + std::to_string(id));
      tracks.push_back(static_cast<size_t>(id));
    }
    t.kernelRangeGroups(*r.report, tracks);
    v.set("added", static_cast<int>(t.tracks().size() - before));
  });
}

// Builds the PPUs' device rows (kernels over memory operations, one a PPU
// with work; Timeline::deviceRows), kept in the report's timeline:
// timelineTracks then lists them after the built tracks (ids stay), each
// with `deviceRow`, `sources` and its kernel and memory shares. Answers
// {added}: how many rows this call made (0 once built).
val timelineDeviceRows(int report) {
  return answer([&](val& v) {
    OpenReport& r = reportOf(report);
    Timeline& t = timelineOf(r);
    const size_t before = t.tracks().size();
    t.deviceRows(*r.report);
    v.set("added", static_cast<int>(t.tracks().size() - before));
  });
}

// Builds the graph rows (a row per graph exec launched on a stream, a slice
// per launch; Timeline::graphRows), kept in the report's timeline:
// timelineTracks then lists them after the built tracks (ids stay), each
// with `graphOf` (its stream), `graph`, `exec` and `graphNotes`. Answers
// {added}: how many rows this call made (0 once built).
val timelineGraphRows(int report) {
  return answer([&](val& v) {
    OpenReport& r = reportOf(report);
    Timeline& t = timelineOf(r);
    const size_t before = t.tracks().size();
    t.graphRows(*r.report);
    v.set("added", static_cast<int>(t.tracks().size() - before));
  });
}

// Every node's busy share inside [from, to) (decimal ns; the statistics
// range): {tracks: [{share, contextShare}], groups: [share]}, in the order
// of timelineTracks' (null: no share), as timelineTracks gives them for the
// whole capture.
val timelineShares(int report, const std::string& fromText, const std::string& toText) {
  return answer([&](val& v) {
    const Timeline& t = timelineOf(reportOf(report));
    const int64_t from = timeArg(fromText, "range start"), to = timeArg(toText, "range end");
    if (from >= to) throw Error("timeline: the range [" + fromText + ", " + toText + ") is empty");
    const TimelineShares s = t.sharesIn(from, to);
    auto number = [](double d) { return std::isnan(d) ? val::null() : val(d); };
    val tracks = val::array();
    for (size_t i = 0; i < s.share.size(); ++i) {
      val o = val::object();
      o.set("share", number(s.share[i]));
      o.set("contextShare", number(s.contextShare[i]));
      if (t.tracks()[i].deviceRow) {
        o.set("kernelShare", number(s.kernelShare[i]));
        o.set("memoryShare", number(s.memoryShare[i]));
      }
      tracks.call<void>("push", o);
    }
    val groups = val::array();
    for (double g : s.groupShare) groups.call<void>("push", number(g));
    v.set("tracks", tracks);
    v.set("groups", groups);
  });
}

// The slices of `tracks` (ids) in [from, to) at `pixels` columns, in one
// answer: per track start/end (int64 bytes), lane, kind, count, event, and
// name (indices into one NUL-joined UTF-8 textPool of the window's names);
// counter tracks among `ids` answer in `counters` instead: per track its
// steps' time (int64 bytes) and min / max (int64 bytes for an integer
// counter, so bytes stay exact; else a Float64Array, NaN = no value).
val timelineWindow(int report, const std::string& fromText, const std::string& toText, int pixels, const val& ids) {
  return answer([&](val& v) {
    const Timeline& t = timelineOf(reportOf(report));
    const int64_t from = timeArg(fromText, "window start"), to = timeArg(toText, "window end");
    if (pixels <= 0 || pixels > 100000) throw Error("timeline: pixels " + std::to_string(pixels) + " out of 1..100000");
    std::map<uint32_t, uint32_t> local;  // report string id -> pool index
    std::string pool;
    val tracks = val::array(), counters = val::array();
    for (int id : emscripten::vecFromJSArray<int>(ids)) {
      if (id >= 0 && static_cast<size_t>(id) < t.tracks().size() && t.tracks()[id].counter) {
        const CounterSlices c = t.counterWindow(static_cast<size_t>(id), from, to, static_cast<uint32_t>(pixels));
        val o = val::object();
        o.set("id", id);
        o.set("integer", c.integer);
        o.set("time", int64Bytes(c.time));
        if (c.integer) {
          o.set("min", int64Bytes(c.imin));
          o.set("max", int64Bytes(c.imax));
        } else {
          o.set("min", val::global("Float64Array").new_(emscripten::typed_memory_view(c.dmin.size(), c.dmin.data())));
          o.set("max", val::global("Float64Array").new_(emscripten::typed_memory_view(c.dmax.size(), c.dmax.data())));
        }
        counters.call<void>("push", o);
        continue;
      }
      TimelineSlices s = t.window(static_cast<size_t>(id), from, to, static_cast<uint32_t>(pixels));
      for (uint32_t& n : s.name) {
        auto [it, added] = local.emplace(n, static_cast<uint32_t>(local.size()));
        if (added) {
          appendPoolText(pool, n == kNoString ? std::string_view("") : reportOf(report).report->strings().get(n));
        }
        n = it->second;
      }
      std::vector<uint8_t> kinds(s.kind.size());
      for (size_t i = 0; i < kinds.size(); ++i) kinds[i] = static_cast<uint8_t>(s.kind[i]);
      val o = val::object();
      o.set("id", id);
      o.set("start", int64Bytes(s.start));
      o.set("end", int64Bytes(s.end));
      auto copy = [](const auto& vec, const char* type) {
        using T = typename std::decay_t<decltype(vec)>::value_type;
        // The typed array constructor copies out of the module's memory.
        return val::global(type).new_(emscripten::typed_memory_view(vec.size(), reinterpret_cast<const T*>(vec.data())));
      };
      o.set("lane", copy(s.lane, "Uint16Array"));
      o.set("kind", copy(kinds, "Uint8Array"));
      o.set("count", copy(s.count, "Uint32Array"));
      o.set("event", copy(s.event, "Uint32Array"));
      o.set("name", copy(s.name, "Uint32Array"));
      if (!s.memKind.empty()) o.set("memKind", copy(s.memKind, "Uint8Array"));
      // Drawn as an occupancy histogram: per pixel column of [from, to), its busy fraction.
      if (!s.occupancy.empty()) {
        o.set("occupancy", copy(s.occupancy, "Float32Array"));
        o.set("occupancyFrom", bigInt(from));
        o.set("occupancyTo", bigInt(to));
        // A device row's: its kernels' in `occupancy` (the upper half), its memory operations' here.
        if (!s.memoryOccupancy.empty()) o.set("occupancyLower", copy(s.memoryOccupancy, "Float32Array"));
      }
      tracks.call<void>("push", o);
    }
    v.set("textPool", val::global("Uint8Array")
                          .new_(emscripten::typed_memory_view(pool.size(), reinterpret_cast<const uint8_t*>(pool.data()))));
    v.set("tracks", tracks);
    v.set("counters", counters);
  });
}

// A drag selection's statistics over [from, to) (decimal ns;
// core/timeline/selection_stats.h): `selection`, {from, to, length (BigInt),
// devices: [{device, name, active, idle, kernel, memory (BigInt ns),
// activePercent, idlePercent, kernelPercent, memoryPercent (one decimal)}]},
// and its events grouped by kind and name as a result, answered as runPaged
// answers a rule's (whole up to `cellLimit` rows): the viewer shows, sorts,
// searches and exports it as any table.
val timelineSelection(int report, const std::string& fromText, const std::string& toText, double cellLimit) {
  return answer([&](val& v) {
    OpenReport& r = reportOf(report);
    const Timeline& t = timelineOf(r);
    const int64_t from = timeArg(fromText, "selection start"), to = timeArg(toText, "selection end");
    WindowStats stats = windowStats(t, r.report->strings(), from, to);
    val sel = val::object();
    sel.set("from", bigInt(stats.from));
    sel.set("to", bigInt(stats.to));
    sel.set("length", bigInt(stats.length()));
    val devices = val::array();
    for (const DeviceWindowStats& d : stats.devices) {
      const int64_t idle = stats.length() - d.active;
      val o = val::object();
      o.set("device", static_cast<double>(d.device));
      o.set("name", d.name);
      o.set("active", bigInt(d.active));
      o.set("idle", bigInt(idle));
      o.set("kernel", bigInt(d.kernel));
      o.set("memory", bigInt(d.memory));
      o.set("activePercent", percent1(d.active, stats.length()));
      o.set("idlePercent", percent1(idle, stats.length()));
      o.set("kernelPercent", percent1(d.kernel, stats.length()));
      o.set("memoryPercent", percent1(d.memory, stats.length()));
      devices.call<void>("push", o);
    }
    sel.set("devices", devices);
    v.set("selection", sel);
    storePaged(std::move(stats.events), report, cellLimit, v);
  });
}

// Event `eventArg` of track `track` as the viewer names it (a window's
// `event`): checked, or a one-line error.
uint32_t eventArgOf(const Timeline& t, int track, double eventArg) {
  if (track < 0 || static_cast<size_t>(track) >= t.tracks().size())
    throw Error("timeline: no track " + std::to_string(track));
  const TimelineTrack& tr = t.tracks()[track];
  if (!(eventArg >= 0) || eventArg >= static_cast<double>(tr.size()) || eventArg != std::floor(eventArg))
    throw Error("timeline: track " + std::to_string(track) + " has no event " + val::global("String")(eventArg).as<std::string>());
  return static_cast<uint32_t>(eventArg);
}

// One event as {track, event, start, end (BigInt), lane, kind, name}.
val eventObject(const Timeline& t, const StringPool& strings, size_t track, uint32_t event) {
  const TimelineTrack& tr = t.tracks()[track];
  val self = val::object();
  self.set("track", static_cast<int>(track));
  self.set("event", event);
  self.set("start", bigInt(tr.start[event]));
  self.set("end", bigInt(tr.end[event]));
  self.set("lane", static_cast<int>(tr.lane[event]));
  self.set("kind", static_cast<int>(tr.kind[event]));
  self.set("name", tr.name[event] == kNoString ? std::string() : std::string(strings.get(tr.name[event])));
  return self;
}

// A report table's name as the bridge spells it (kEventTableNames), or a one-line error.
EventTable eventTableArg(const std::string& name) {
  EventTable table = EventTable::None;
  if (!eventTableOfWireName(name, table) || table == EventTable::None)
    throw Error("no event table '" + name + "' (kernel, memcpy, memset, api, hgtx)");
  return table;
}

// A row index as JS sends it (a number), or a one-line error.
uint32_t indexArg(double index) {
  if (!(index >= 0) || index >= 4294967295.0 || index != std::floor(index))
    throw Error("no event row " + val::global("String")(index).as<std::string>());
  return static_cast<uint32_t>(index);
}

// The timeline's event that is row `index` of report table `table` (a rule
// row's event reference): `event` as timelineRelated's `selected`, or null
// when the timeline does not draw it (an HGTX start/end range, a report
// without that track).
val timelineFindEvent(int report, const std::string& table, double index) {
  return answer([&](val& v) {
    OpenReport& r = reportOf(report);
    const Timeline& t = timelineOf(r);
    const std::optional<TimelineEventAt> at = t.findEvent(eventTableArg(table), indexArg(index));
    v.set("event", at ? eventObject(t, r.report->strings(), at->track, at->event) : val::null());
  });
}

// The report table and row of a timeline event (a window's `event`):
// {table, index}; table "none" for an event of no table row (an OSRT call,
// a PCCL stage, a projection).
val timelineEventRow(int report, int track, double eventArg) {
  return answer([&](val& v) {
    const Timeline& t = timelineOf(reportOf(report));
    const uint32_t event = eventArgOf(t, track, eventArg);
    const TimelineTrack& tr = t.tracks()[static_cast<size_t>(track)];
    const uint32_t row = tr.tableRow(event);  // a repeated failed call's: its call's
    const EventTable table = row == kNoTimelineRow ? EventTable::None : eventTableOf(tr.kind[event]);
    v.set("table", std::string(wireName(table)));
    v.set("index", table == EventTable::None ? val::null() : val(row));
  });
}

// The events linked to one event (a track id and its index in the track, as
// a window's `event` gives it): for an HGGC API call the kernels, memcpys and
// memsets it launched, for one of those its launching call (correlation.h).
// Answers `selected`, the event itself ({track, event, start, end (BigInt),
// lane, kind, name}), and `related`: columns track, event (Uint32Array),
// start, end (int64 bytes), lane, kind, name (indices into `textPool`).
val timelineRelated(int report, int track, double eventArg) {
  return answer([&](val& v) {
    OpenReport& r = reportOf(report);
    const Timeline& t = timelineOf(r);
    const uint32_t event = eventArgOf(t, track, eventArg);
    if (!r.links) r.links = std::make_unique<TimelineLinks>(TimelineLinks::build(*r.report, t));
    const StringPool& strings = r.report->strings();
    auto nameOf = [&](uint32_t n) { return n == kNoString ? std::string_view("") : strings.get(n); };
    v.set("selected", eventObject(t, strings, static_cast<size_t>(track), event));
    const std::vector<TimelineEventRef> related = r.links->related(t, {static_cast<uint32_t>(track), event});
    const size_t n = related.size();
    std::vector<uint32_t> tracks(n), events(n), names(n);
    std::vector<int64_t> starts(n), ends(n);
    std::vector<uint16_t> lanes(n);
    std::vector<uint8_t> kinds(n);
    std::map<uint32_t, uint32_t> local;  // report string id -> pool index
    std::string pool;
    for (size_t i = 0; i < n; ++i) {
      const TimelineTrack& o = t.tracks()[related[i].track];
      const uint32_t e = related[i].event;
      tracks[i] = related[i].track;
      events[i] = e;
      starts[i] = o.start[e];
      ends[i] = o.end[e];
      lanes[i] = o.lane[e];
      kinds[i] = static_cast<uint8_t>(o.kind[e]);
      auto [it, added] = local.emplace(o.name[e], static_cast<uint32_t>(local.size()));
      if (added) appendPoolText(pool, nameOf(o.name[e]));
      names[i] = it->second;
    }
    auto copy = [](const auto& vec, const char* type) {
      using T = typename std::decay_t<decltype(vec)>::value_type;
      return val::global(type).new_(emscripten::typed_memory_view(vec.size(), reinterpret_cast<const T*>(vec.data())));
    };
    val out = val::object();
    out.set("track", copy(tracks, "Uint32Array"));
    out.set("event", copy(events, "Uint32Array"));
    out.set("start", int64Bytes(starts));
    out.set("end", int64Bytes(ends));
    out.set("lane", copy(lanes, "Uint16Array"));
    out.set("kind", copy(kinds, "Uint8Array"));
    out.set("name", copy(names, "Uint32Array"));
    v.set("related", out);
    v.set("textPool", val::global("Uint8Array")
                          .new_(emscripten::typed_memory_view(pool.size(), reinterpret_cast<const uint8_t*>(pool.data()))));
  });
}

// The Events view of timeline row `track` (core/timeline/track_events.h):
// its events in the report's statistics range as a paged result (runPaged's
// paged answer: no cells; pageRows, sortOrder, searchRows, renderCsvRows
// and the rest take its id), whatever its size, so no row list crosses
// whole. `kind`: which columns it has (ppuWork, api, hgtx, osrt, pcclStage,
// projection). A counter row has no events: an error.
val eventsView(int report, int track) {
  return answer([&](val& v) {
    OpenReport& r = reportOf(report);
    const Timeline& t = timelineOf(r);
    if (track < 0) throw Error("events view: no timeline row " + std::to_string(track));
    TrackEvents events = trackEvents(*r.report, t, static_cast<size_t>(track), r.window);
    StoredResult& stored = keepResult(std::move(events.table), report, v);
    stored.eventRows = std::move(events.rows);
    stored.track = events.track;
    setPagedAnswer(stored.table, v);
    v.set("kind", std::string(wireName(events.kind)));
    v.set("track", track);
  });
}

// An Events view's result, checked.
StoredResult& eventsViewOf(int result) {
  StoredResult& stored = storedOf(result);
  if (!stored.eventRows) throw Error("result " + std::to_string(result) + " is not an events view");
  return stored;
}

// The timeline event that row `row` of an Events view shows: `event`, as
// timelineFindEvent answers it ("Show on timeline").
val eventsViewEvent(int result, double row) {
  return answer([&](val& v) {
    StoredResult& stored = eventsViewOf(result);
    if (!(row >= 0) || row >= static_cast<double>(stored.eventRows->size()) || row != std::floor(row))
      throw Error("events view: no row " + val::global("String")(row).as<std::string>());
    OpenReport& r = reportOf(stored.report);
    const uint32_t event = stored.eventRows->eventOf(static_cast<size_t>(row));
    v.set("event", eventObject(timelineOf(r), r.report->strings(), stored.track, event));
  });
}

// The row of an Events view that shows event `event` of its timeline row
// (a slice picked on the timeline): `row`, null when the statistics range
// leaves it out.
val eventsViewRow(int result, double event) {
  return answer([&](val& v) {
    StoredResult& stored = eventsViewOf(result);
    const std::optional<size_t> row = stored.eventRows->rowOf(indexArg(event));
    v.set("row", row ? val(static_cast<double>(*row)) : val::null());
  });
}

// The first row of a result (its own order) with an event reference to
// row `index` of report table `table`, over its declared events in order:
// {row} (null: none; the statistics range or an option left it out).
val resultRowOfEvent(int result, const std::string& table, double index) {
  return answer([&](val& v) {
    const Table& t = resultOf(result);
    const EventTable which = eventTableArg(table);
    const uint32_t row = indexArg(index);
    std::optional<size_t> found;
    for (size_t slot = 0; slot < t.eventNames().size() && !found; ++slot) found = rowOfEvent(t, slot, which, row);
    v.set("row", found ? val(static_cast<double>(*found)) : val::null());
  });
}

// The row order of a result sorted by a column (stable; "-" last), so the
// viewer never sorts a million rows itself.
val sortOrder(int result, size_t column, bool descending) {
  return answer([&](val& v) {
    const Table& t = resultOf(result);
    if (column >= t.columns().size()) throw Error("the result has no column " + std::to_string(column));
    std::vector<uint32_t> order = sortedRowOrder(t, column, descending);
    v.set("order", val::global("Uint32Array").new_(emscripten::typed_memory_view(order.size(), order.data())));
  });
}

// Rows [offset, offset + count) of a result, in the shape `run` answers
// (text cells index the pool `run` sent).
val page(int result, size_t offset, size_t count) {
  return answer([&](val& v) {
    StoredResult& stored = storedOf(result);
    const Table& t = stored.table;
    const size_t from = std::min(offset, t.rowCount());
    const size_t n = std::min(count, t.rowCount() - from);
    val rows = t.isView() ? viewRows(stored, from, n) : columnarRows(t, from, n);
    v.set("columns", rows["columns"]);
    v.set("cells", rows["cells"]);
    v.set("rowCount", rows["rowCount"]);
    v.set("offset", from);
  });
}

std::vector<uint32_t> rowList(const val& rows) { return emscripten::convertJSArrayToNumberVector<uint32_t>(rows); }

// Rows `rows` (a Uint32Array of result rows, in the order shown) in the
// shape `run` answers, with a text pool of their own: a paged result's page.
val pageRows(int result, const val& rows) {
  return answer([&](val& v) {
    const Table page = rowsOf(resultOf(result), rowList(rows));
    val part = columnarRows(page, 0, page.rowCount());
    v.set("columns", part["columns"]);
    v.set("cells", part["cells"]);
    v.set("rowCount", page.rowCount());
    v.set("spans", part["spans"]);
    v.set("events", part["events"]);
    v.set("textPool", textPoolBytes(page.textPool()));
  });
}

// Rows [first, first + count) of a result: the viewer asks a large result
// its questions part by part, so the rows it pages to are answered between
// the parts.
RowRange rangeOf(double first, double count) {
  if (!(first >= 0) || !(count >= 0)) throw Error("a row range must not be negative");
  return {static_cast<size_t>(std::min(first, 1e15)), static_cast<size_t>(std::min(count, 1e15))};
}

// The time columns a viewer shows from a zero: `times` null (none), or
// {zero: "<decimal ns>" (a string: epoch ns are past a double's 2^53),
// columns: [index, ...]}.
ShownTimes shownTimesOf(const val& times) {
  ShownTimes out;
  if (times.isNull() || times.isUndefined()) return out;
  const std::string zero = times["zero"].as<std::string>();
  const auto [end, ec] = std::from_chars(zero.data(), zero.data() + zero.size(), out.zero);
  if (ec != std::errc() || end != zero.data() + zero.size()) throw Error("a time zero must be whole ns, not '" + zero + "'");
  for (int c : emscripten::vecFromJSArray<int>(times["columns"])) {
    if (c >= 0) out.columns.push_back(static_cast<size_t>(c));
  }
  return out;
}

// The rows of [first, first + count) whose cells contain `query` as the
// table shows them (core/table/result_queries.h; the columns of `times` as
// ns since its zero): `mask`, one byte per row of the range, or null for a
// blank query.
val answerSearchRows(int result, const std::string& query, double first, double count, const val& times) {
  return answer([&](val& v) {
    const auto mask = asys::searchRows(resultOf(result), query, rangeOf(first, count), shownTimesOf(times));
    if (!mask) {
      v.set("mask", val::null());
      return;
    }
    v.set("mask", val::global("Uint8Array").new_(emscripten::typed_memory_view(mask->size(), mask->data())));
  });
}

// A pie chart's sums over [first, first + count): `keys` (NUL-joined UTF-8)
// and `values` (Float64Array), column `valueCol` summed per key of `keyCol`;
// valueCol < 0 counts rows.
val answerKeyTotals(int result, int keyCol, int valueCol, double first, double count) {
  return answer([&](val& v) {
    if (keyCol < 0) throw Error("keyTotals: no key column");
    const KeyTotals totals = asys::keyTotals(resultOf(result), static_cast<size_t>(keyCol),
                                             valueCol < 0 ? std::nullopt : std::optional<size_t>(valueCol),
                                             rangeOf(first, count));
    std::string pool;
    for (const std::string& k : totals.keys) appendPoolText(pool, k);
    v.set("keys", val::global("Uint8Array")
                      .new_(emscripten::typed_memory_view(pool.size(), reinterpret_cast<const uint8_t*>(pool.data()))));
    v.set("values", val::global("Float64Array")
                        .new_(emscripten::typed_memory_view(totals.values.size(), totals.values.data())));
  });
}

// The rows of [first, first + count) (ascending) whose key cell of `keyCol`
// is one of `keys` (an array of strings): a pie slice's rows.
val answerRowsWithKeys(int result, int keyCol, const val& keys, double first, double count) {
  return answer([&](val& v) {
    if (keyCol < 0) throw Error("rowsWithKeys: no key column");
    const std::vector<uint32_t> rows = asys::rowsWithKeys(resultOf(result), static_cast<size_t>(keyCol),
                                                          emscripten::vecFromJSArray<std::string>(keys),
                                                          rangeOf(first, count));
    v.set("rows", val::global("Uint32Array").new_(emscripten::typed_memory_view(rows.size(), rows.data())));
  });
}

// The sums of columns `cols` over `rows` (a Uint32Array; null: the rows of
// [first, first + count)), the summary row left out: `totals`, [{col,
// digits}] for an integer column (exact, as decimal digits), [{col, value}]
// for a decimal one.
val answerColumnTotals(int result, const val& cols, const val& rows, const std::string& summaryRow, double first,
                       double count) {
  return answer([&](val& v) {
    std::vector<size_t> columns;
    for (int c : emscripten::vecFromJSArray<int>(cols))
      if (c >= 0) columns.push_back(static_cast<size_t>(c));
    std::optional<std::vector<uint32_t>> list;
    if (!rows.isNull() && !rows.isUndefined()) list = rowList(rows);
    val totals = val::array();
    for (const ColumnTotal& c : asys::columnTotals(resultOf(result), columns, list, summaryRow, rangeOf(first, count))) {
      val one = val::object();
      one.set("col", c.col);
      if (c.exact) one.set("digits", c.digits);
      else one.set("value", c.value);
      totals.call<void>("push", one);
    }
    v.set("totals", totals);
  });
}

// A stream buffer that holds at most `limit` bytes (kMaxText unless told);
// past them a write throws Error. A JavaScript string holds at most about
// 512 M characters, and the engine's 2 GB must hold the result as well: a
// text past this bound trapped the engine (ppu_metric_trace's 9.3 M rows)
// instead of failing in one line. Its text is read in place, not copied as
// libc++ 14's std::ostringstream::str() copies it (a trace's CSV: 4.5 %).
constexpr size_t kMaxText = size_t{256} << 20;
class BoundedText : public std::streambuf {
 public:
  explicit BoundedText(size_t limit = kMaxText) : limit_(limit) {}
  std::string text;

 protected:
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    if (text.size() + static_cast<size_t>(n) > limit_) {
      throw Error("render: the text is past 256 MiB: export it in parts (renderCsvRows)");
    }
    text.append(s, static_cast<size_t>(n));
    return n;
  }
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    const char ch = traits_type::to_char_type(c);
    xsputn(&ch, 1);
    return c;
  }

 private:
  size_t limit_;
};

// A result as text in csv, json or column, the bytes the CLI writes.
val render(int result, const std::string& format) {
  return answer([&](val& v) {
    const Table& t = resultOf(result);
    const OutputFormat f = parseOutputFormat(format);
    if (f == OutputFormat::Xlsx) throw Error("render: xlsx is a binary workbook: renderXlsx(result, sheet) answers its bytes");
    BoundedText text;
    std::ostream out(&text);
    out.exceptions(std::ios::badbit);  // the buffer's Error reaches answer()
    writeTable(t, f, out);
    v.set("text", text.text);
  });
}

// Rows [first, first + count) of a result as the CLI's CSV writes them (the
// header line with the first part): `bytes`, a Uint8Array. The viewer's CSV
// export asks part by part and joins the parts in a Blob, so a trace of ten
// million rows is never one string, in the engine or in JavaScript.
val renderCsvRows(int result, size_t first, size_t count) {
  return answer([&](val& v) {
    BoundedText text(SIZE_MAX);
    std::ostream out(&text);
    out.exceptions(std::ios::badbit);
    writeCsvRows(resultOf(result), first, count, first == 0, out);
    const std::string& bytes = text.text;
    v.set("bytes", val::global("Uint8Array")
                       .new_(emscripten::typed_memory_view(bytes.size(), reinterpret_cast<const uint8_t*>(bytes.data()))));
  });
}

// The result as the workbook `asys stats --format xlsx` writes, its one
// sheet named `sheet` (the rule's name): `bytes`, a Uint8Array.
val renderXlsx(int result, const std::string& sheet) {
  return answer([&](val& v) {
    const std::string bytes = xlsxBytes(resultOf(result), sheet);
    v.set("bytes", val::global("Uint8Array")
                       .new_(emscripten::typed_memory_view(bytes.size(), reinterpret_cast<const uint8_t*>(bytes.data()))));
  });
}

val release(int result) {
  return answer([&](val&) {
    resultOf(result);
    g_results.erase(result);
  });
}

}  // namespace

}  // namespace asys

EMSCRIPTEN_BINDINGS(asys_engine) {
  emscripten::function("apiVersion", &asys::apiVersion);
  emscripten::function("open", &asys::open);
  emscripten::function("close", &asys::close);
  emscripten::function("listRules", &asys::listRules);
  emscripten::function("setTimeFilter", &asys::setTimeFilter);
  emscripten::function("setRuleConfig", &asys::setRuleConfig);
  emscripten::function("checkRuleOption", &asys::checkRuleOption);
  emscripten::function("checkOption", &asys::checkOption);
  emscripten::function("run", &asys::run);
  emscripten::function("runCompare", &asys::runCompare);
  emscripten::function("runPaged", &asys::runPaged);
  emscripten::function("pageRows", &asys::pageRows);
  emscripten::function("searchRows", &asys::answerSearchRows);
  emscripten::function("keyTotals", &asys::answerKeyTotals);
  emscripten::function("rowsWithKeys", &asys::answerRowsWithKeys);
  emscripten::function("columnTotals", &asys::answerColumnTotals);
  emscripten::function("sortOrder", &asys::sortOrder);
  emscripten::function("page", &asys::page);
  emscripten::function("render", &asys::render);
  emscripten::function("renderCsvRows", &asys::renderCsvRows);
  emscripten::function("renderXlsx", &asys::renderXlsx);
  emscripten::function("release", &asys::release);
  emscripten::function("timelineTracks", &asys::timelineTracks);
  emscripten::function("timelineShares", &asys::timelineShares);
  emscripten::function("timelineKernelGroups", &asys::timelineKernelGroups);
  emscripten::function("timelineKernelRangeGroups", &asys::timelineKernelRangeGroups);
  emscripten::function("timelineDeviceRows", &asys::timelineDeviceRows);
  emscripten::function("timelineGraphRows", &asys::timelineGraphRows);
  emscripten::function("timelineWindow", &asys::timelineWindow);
  emscripten::function("timelineRelated", &asys::timelineRelated);
  emscripten::function("timelineSelection", &asys::timelineSelection);
  emscripten::function("timelineFindEvent", &asys::timelineFindEvent);
  emscripten::function("timelineEventRow", &asys::timelineEventRow);
  emscripten::function("resultRowOfEvent", &asys::resultRowOfEvent);
  emscripten::function("eventsView", &asys::eventsView);
  emscripten::function("eventsViewEvent", &asys::eventsViewEvent);
  emscripten::function("eventsViewRow", &asys::eventsViewRow);
}
