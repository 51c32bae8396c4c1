// The Python package's engine: `asys._asys`, a pybind11 module over core/,
// as thin as the CLI and the WebAssembly bridge. It opens reports, runs a
// rule and hands its table over as whole columns (NumPy int64 / float64
// arrays with a missing-cell mask, text as one Python str per distinct
// text), never a Python call per cell. Turning those columns into a
// DataFrame, and keyword arguments into rule options, is asys/_frame.py and
// asys/_options.py.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <mutex>
#include <exception>
#include <optional>
#include <cmath>
#include <memory>
#include <numeric>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <unordered_map>
#include <vector>

#include <unistd.h>

#include "core/analysis/time_window.h"
#include "core/base/error.h"
#include "core/base/text.h"
#include "core/import/importer.h"
#include "core/import/merge_plan.h"
#include "core/import/merge_survey.h"
#include "core/report/report.h"
#include "core/rules/common.h"
#include "core/rules/help.h"
#include "core/rules/rule.h"
#include "core/rules/rule_config.h"
#include "core/table/table.h"
#include "core/table/writers.h"

namespace py = pybind11;

namespace asys {
namespace {

// What every run takes besides the rule: its options as the CLI spells them
// (`opt`, `opt=value`), the statistics range and the global options.
struct RunSettings {
  std::vector<std::string> options;
  std::string filterTime, filterHgtx;
  std::vector<std::pair<std::string, std::string>> global;
};

// One open report. Its statistics range is resolved per run (each run may
// name another range), as the CLI does per invocation.
class PyReport {
 public:
  PyReport(const std::vector<std::string>& paths, const std::string& tempDir) : paths_(paths) {
    if (paths.empty()) throw Error("no report given");
    report_ = openAnyReport(paths, tempDir);
  }
  Report& report() {
    if (!report_) throw Error("the report is closed");
    return *report_;
  }
  void close() { report_.reset(); }
  const std::vector<std::string>& paths() const { return paths_; }

 private:
  std::vector<std::string> paths_;
  std::unique_ptr<Report> report_;
};

const RuleSpec& ruleNamed(const std::string& name) {
  const RuleSpec* rule = findRule(name);
  if (!rule) throw Error("unknown rule '" + name + "' (asys.rules() lists the rules)");
  return *rule;
}

RuleConfig configOf(const RunSettings& s) {
  RuleConfig config;
  for (const auto& [option, value] : s.global) config.add(option, value);
  return config;
}

// A rule's table as columns for Python. Built with the GIL held (it makes
// Python objects); the rule itself ran without it.
py::dict columnsOf(const Table& t) {
  const size_t rows = t.rowCount(), cols = t.columns().size();
  std::vector<py::array_t<int64_t>> ints(cols);
  std::vector<py::array_t<double>> reals(cols);
  std::vector<py::list> texts(cols);
  std::vector<py::array_t<bool>> missing(cols);
  for (size_t c = 0; c < cols; ++c) {
    missing[c] = py::array_t<bool>(static_cast<py::ssize_t>(rows));
    switch (t.columns()[c].kind) {
      case CellKind::Int: ints[c] = py::array_t<int64_t>(static_cast<py::ssize_t>(rows)); break;
      case CellKind::Decimal1: reals[c] = py::array_t<double>(static_cast<py::ssize_t>(rows)); break;
      case CellKind::Text: texts[c] = py::list(static_cast<py::ssize_t>(rows)); break;
    }
  }
  // One Python str per distinct text of a chunk, shared by its cells.
  std::vector<py::object> strOfId;
  forEachChunk(t, [&](const Table& chunk, size_t first) {
    strOfId.assign(chunk.textPool().size(), py::object());
    for (size_t c = 0; c < cols; ++c) {
      bool* miss = missing[c].mutable_data() + first;
      const CellKind kind = chunk.columns()[c].kind;
      int64_t* iv = kind == CellKind::Int ? ints[c].mutable_data() + first : nullptr;
      double* dv = kind == CellKind::Decimal1 ? reals[c].mutable_data() + first : nullptr;
      for (size_t r = 0; r < chunk.rowCount(); ++r) {
        miss[r] = chunk.isMissing(r, c);
        if (kind == CellKind::Int) {
          iv[r] = miss[r] ? 0 : chunk.intAt(r, c);
        } else if (kind == CellKind::Decimal1) {
          dv[r] = miss[r] ? 0.0 : chunk.decimalAt(r, c);
        } else {
          if (miss[r]) {
            texts[c][first + r] = py::none();
            continue;
          }
          const uint32_t id = chunk.textIdAt(r, c);
          py::object& s = strOfId[id];
          if (!s) {
            const std::string_view v = chunk.textAt(r, c);
            s = py::reinterpret_steal<py::object>(PyUnicode_DecodeUTF8(v.data(), static_cast<py::ssize_t>(v.size()), "surrogateescape"));
          }
          texts[c][first + r] = s;
        }
      }
    }
  });

  py::list columns;
  for (size_t c = 0; c < cols; ++c) {
    const ColumnSpec& spec = t.columns()[c];
    py::dict col;
    col["name"] = spec.name;
    col["unit"] = spec.unit;
    col["header"] = spec.header();
    col["kind"] = spec.kind == CellKind::Int ? "int" : spec.kind == CellKind::Decimal1 ? "decimal1" : "text";
    col["role"] = spec.role == ColumnRole::Key ? "key" : spec.role == ColumnRole::Attribute ? "attribute" : "value";
    col["missing"] = missing[c];
    if (spec.kind == CellKind::Int) col["values"] = ints[c];
    else if (spec.kind == CellKind::Decimal1) col["values"] = reals[c];
    else col["values"] = texts[c];
    columns.append(col);
  }
  py::dict files;
  for (const Table::File& f : t.files()) files[py::str(f.name)] = py::bytes(f.text);
  py::dict result;
  result["columns"] = columns;
  result["rows"] = rows;
  result["warnings"] = t.warnings();
  result["files"] = files;
  return result;
}

Table runTable(PyReport& report, const std::string& ruleName, const RunSettings& s) {
  const RuleSpec& rule = ruleNamed(ruleName);
  if (rule.compare) throw Error("'" + rule.name + "' compares two reports: run it with asys.compare(base, target, ...)");
  const RuleOptions options = parseRuleOptions(rule, s.options);
  const RuleConfig config = configOf(s);
  std::unique_ptr<Table> table;
  {
    py::gil_scoped_release release;
    const TimeWindow window = resolveTimeWindow(report.report(), s.filterTime, s.filterHgtx);
    table = std::make_unique<Table>(runRule(rule, report.report(), options, window, config));
  }
  return std::move(*table);
}

py::dict runCompare(PyReport& base, PyReport& target, const std::string& ruleName, const RunSettings& s) {
  const RuleSpec& rule = ruleNamed(ruleName);
  if (!rule.compare) throw Error("'" + rule.name + "' reads one report: run it with Report.stats or Report.analyze");
  const RuleOptions options = parseRuleOptions(rule, s.options);
  const RuleConfig config = configOf(s);
  std::unique_ptr<Table> table;
  {
    py::gil_scoped_release release;
    const TimeWindow bw = resolveTimeWindow(base.report(), s.filterTime, s.filterHgtx);
    const TimeWindow tw = resolveTimeWindow(target.report(), s.filterTime, s.filterHgtx);
    table = std::make_unique<Table>(runCompareRule(rule, base.report(), target.report(), options, bw, tw, config));
  }
  return columnsOf(*table);
}

// A column of texts as the fleet moves it (a report's pool of distinct key
// texts, groupsOf): the texts' bytes one after the other and where each
// starts (n + 1 offsets). One bytes object and one array, not a Python str
// a text; the client factorizes them in C++ (factorizeTexts). Bytes as the
// report has them, UTF-8 or not.
// A text column read in place: its blob and offsets
// checked once, then text(i) a view into the blob.
class TextColumn {
 public:
  TextColumn(const py::bytes& blob, const py::array_t<int64_t>& offsets) : offsets_(offsets) {
    char* data = nullptr;
    py::ssize_t size = 0;
    if (PyBytes_AsStringAndSize(blob.ptr(), &data, &size) != 0) throw py::error_already_set();
    blob_ = std::string_view(data, static_cast<size_t>(size));
    if (offsets_.ndim() != 1 || offsets_.size() < 1) throw Error("a text column needs its offsets");
    const int64_t* o = offsets_.data();
    for (py::ssize_t i = 0; i + 1 < offsets_.size(); ++i)
      if (o[i] < 0 || o[i] > o[i + 1]) throw Error("a text column's offsets do not rise");
    if (o[0] != 0 || o[offsets_.size() - 1] != size) throw Error("a text column's offsets do not span its bytes");
  }
  size_t size() const { return static_cast<size_t>(offsets_.size() - 1); }
  std::string_view text(size_t i) const {
    const int64_t* o = offsets_.data();
    return blob_.substr(static_cast<size_t>(o[i]), static_cast<size_t>(o[i + 1] - o[i]));
  }

 private:
  py::array_t<int64_t> offsets_;  // holds the array; blob_ views the bytes the caller holds
  std::string_view blob_;
};

// Text columns of many reports made one code column: equal texts, equal
// codes, numbered in order of first appearance (as pandas.factorize with
// sort=False numbered them before), and the distinct texts in textColumn's
// form. The fleet's client merges each rule's groups by these codes
// (asys/fleet/merge.py); no Python str is made.
//
// On every core the client has (its workers are idle then: the merge runs
// after the last report's head): each text hashed once, the texts split by
// their hash into one part a thread, each part factorized by its own open-
// addressing table (hash and first index a slot, no node a text), and the
// parts' distinct texts numbered together by where each first appears.
// hgtx_sum on the bench's 32 ranks: 386 k texts, 338 k distinct, 38.6 MB
// (docs/fleet.md, "What the run's time goes to", item 18).
namespace {

struct TextIndex {
  std::vector<std::string_view> texts;  // every text of every column, in order
  std::vector<uint64_t> hashes;
};

// One part's distinct texts (the text's index of its first appearance,
// rising) and each of its texts' local code, written into `code`.
std::vector<size_t> factorizePart(const TextIndex& in, size_t part, size_t parts, int64_t* code) {
  const size_t n = in.texts.size();
  size_t mine = 0;
  for (size_t i = 0; i < n; ++i) mine += (in.hashes[i] % parts) == part;
  size_t capacity = 16;
  while (capacity < mine * 2) capacity <<= 1;
  const size_t mask = capacity - 1;
  // A slot: the hash (0: empty, so a hash of 0 is stored as 1) and the
  // local code.
  std::vector<uint64_t> slotHash(capacity, 0);
  std::vector<uint32_t> slotCode(capacity, 0);
  std::vector<size_t> firsts;
  for (size_t i = 0; i < n; ++i) {
    const uint64_t h = in.hashes[i];
    if (h % parts != part) continue;
    const uint64_t stored = h ? h : 1;
    size_t at = static_cast<size_t>(h >> 7) & mask;  // the low bits chose the part
    while (true) {
      if (slotHash[at] == 0) {
        slotHash[at] = stored;
        slotCode[at] = static_cast<uint32_t>(firsts.size());
        code[i] = static_cast<int64_t>(firsts.size());
        firsts.push_back(i);
        break;
      }
      if (slotHash[at] == stored && in.texts[firsts[slotCode[at]]] == in.texts[i]) {
        code[i] = slotCode[at];
        break;
      }
      at = (at + 1) & mask;
    }
  }
  return firsts;
}

// fn(0) .. fn(n - 1) at once, fn(0) on the calling thread and each other
// on a thread of its own; the first error any of them raised is raised
// once every one has ended.
template <typename Fn>
void onThreads(size_t n, Fn&& fn) {
  std::vector<std::thread> workers;
  std::vector<std::exception_ptr> errors(n);
  auto run = [&](size_t t) {
    try {
      fn(t);
    } catch (...) {
      errors[t] = std::current_exception();
    }
  };
  for (size_t t = 1; t < n; ++t) workers.emplace_back(run, t);
  if (n > 0) run(0);
  for (auto& w : workers) w.join();
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace

py::tuple factorizeTexts(const std::vector<std::pair<py::bytes, py::array_t<int64_t>>>& columns) {
  std::vector<TextColumn> parts;
  size_t n = 0;
  for (const auto& [blob, offsets] : columns) {
    parts.emplace_back(blob, offsets);
    n += parts.back().size();
  }
  if (n >= (size_t{1} << 32)) throw Error("too many texts to factorize");
  py::array_t<int64_t> codes(static_cast<py::ssize_t>(n));
  int64_t* code = codes.mutable_data();
  std::vector<std::string_view> distinct;
  {
    py::gil_scoped_release release;
    TextIndex in;
    in.texts.reserve(n);
    for (const TextColumn& part : parts)
      for (size_t i = 0; i < part.size(); ++i) in.texts.push_back(part.text(i));
    in.hashes.resize(n);
    const size_t threads =
        n < 65536 ? 1 : std::max<size_t>(1, std::min<size_t>(std::thread::hardware_concurrency(), 4));
    onThreads(threads, [&](size_t t) {
      const std::hash<std::string_view> hash;
      for (size_t i = n * t / threads, end = n * (t + 1) / threads; i < end; ++i) in.hashes[i] = hash(in.texts[i]);
    });
    std::vector<std::vector<size_t>> firsts(threads);
    onThreads(threads, [&](size_t t) { firsts[t] = factorizePart(in, t, threads, code); });
    // The parts' distinct texts numbered together by first appearance: each
    // part's list rises, so a merge of the lists.
    size_t total = 0;
    for (const auto& f : firsts) total += f.size();
    std::vector<std::vector<int64_t>> globalOf(threads);
    for (size_t t = 0; t < threads; ++t) globalOf[t].resize(firsts[t].size());
    distinct.reserve(total);
    std::vector<size_t> next(threads, 0);
    for (size_t g = 0; g < total; ++g) {
      size_t best = threads;
      for (size_t t = 0; t < threads; ++t)
        if (next[t] < firsts[t].size() && (best == threads || firsts[t][next[t]] < firsts[best][next[best]])) best = t;
      globalOf[best][next[best]] = static_cast<int64_t>(g);
      distinct.push_back(in.texts[firsts[best][next[best]]]);
      ++next[best];
    }
    onThreads(threads, [&](size_t t) {
      for (size_t i = n * t / threads, end = n * (t + 1) / threads; i < end; ++i)
        code[i] = globalOf[in.hashes[i] % threads][static_cast<size_t>(code[i])];
    });
  }
  std::vector<int64_t> offsets(distinct.size() + 1, 0);
  for (size_t i = 0; i < distinct.size(); ++i) offsets[i + 1] = offsets[i] + static_cast<int64_t>(distinct[i].size());
  py::bytes blob(nullptr, static_cast<size_t>(offsets.back()));
  {
    char* into = PyBytes_AsString(blob.ptr());
    py::gil_scoped_release release;
    for (std::string_view t : distinct) {
      std::copy(t.begin(), t.end(), into);
      into += t.size();
    }
  }
  return py::make_tuple(codes, blob, py::array_t<int64_t>(static_cast<py::ssize_t>(offsets.size()), offsets.data()));
}

// A rule's mergeable groups for the fleet (asys/fleet/state.py): each
// group's values sorted (one counting pass by group, then a sort of each
// group's run), the runs' offsets, each group's sum of squares exact in 192
// bits (three 64-bit words, low first), which no int64 sum could hold, and
// the groups' keys (id columns with how asys merge renumbers them, texts)
// and sums.
py::dict groupsOf(PyReport& report, const std::string& ruleName, const RunSettings& s) {
  const RuleSpec& rule = ruleNamed(ruleName);
  const RuleOptions options = parseRuleOptions(rule, s.options);
  const RuleConfig config = configOf(s);
  GroupedDurations g;
  std::vector<int64_t> offsets, sorted, spanOffsets, spanStarts, spanEnds;
  std::vector<uint64_t> q0, q1, q2;
  std::vector<std::string> notes;
  {
    py::gil_scoped_release release;
    const TimeWindow window = resolveTimeWindow(report.report(), s.filterTime, s.filterHgtx);
    g = runGroupedDurations(rule, report.report(), options, window, config);
    offsets.assign(g.groupCount + 1, 0);
    if (g.grouped.groups() == g.groupCount && g.groupOf.empty()) {
      sorted.resize(g.grouped.size());
      for (size_t i = 0; i < g.groupCount; ++i) {
        const auto values = g.grouped.of(i);
        offsets[i + 1] = offsets[i] + static_cast<int64_t>(values.size());
        std::copy(values.begin(), values.end(), sorted.begin() + offsets[i]);
      }
      g.grouped = GroupedValues();
    } else {
      for (uint32_t group : g.groupOf) ++offsets[group + 1];
      for (size_t i = 0; i < g.groupCount; ++i) offsets[i + 1] += offsets[i];
      // Grouped in place, as summarizeGroupsInPlace does (core/analysis/
      // stats.cc): each swap puts one value in its group's run for good.
      // (A copy into a new array held 8 bytes an event more at the peak.)
      std::vector<int64_t> next(offsets.begin(), offsets.end() - 1);
      for (uint32_t group = 0; group < g.groupCount; ++group) {
        for (int64_t& i = next[group]; i < offsets[group + 1];) {
          const uint32_t other = g.groupOf[i];
          if (other == group) {
            ++i;
            continue;
          }
          const int64_t j = next[other]++;
          std::swap(g.values[i], g.values[j]);
          std::swap(g.groupOf[i], g.groupOf[j]);
        }
      }
      std::vector<uint32_t>().swap(g.groupOf);
      sorted = std::move(g.values);
    }
    // The report's own union of each group's spans (what merges across
    // reports: the union of the unions), as blocks by group.
    if (!g.spans.empty()) {
      const SpanGroups blocks(std::move(g.spanGroup), std::move(g.spans), g.groupCount);
      spanOffsets.assign(g.groupCount + 1, 0);
      for (size_t i = 0; i < g.groupCount; ++i) {
        for (const Span& b : blocks.group(i)) {
          spanStarts.push_back(b.start);
          spanEnds.push_back(b.end);
        }
        spanOffsets[i + 1] = static_cast<int64_t>(spanStarts.size());
      }
    }
    q0.resize(g.groupCount);
    q1.resize(g.groupCount);
    q2.resize(g.groupCount);
    using u128 = unsigned __int128;
    for (size_t i = 0; i < g.groupCount; ++i) {
      std::sort(sorted.begin() + offsets[i], sorted.begin() + offsets[i + 1]);
      u128 low = 0;
      uint64_t carries = 0;
      for (int64_t k = offsets[i]; k < offsets[i + 1]; ++k) {
        const u128 a = static_cast<u128>(sorted[k] < 0 ? -static_cast<__int128>(sorted[k]) : sorted[k]);
        const u128 square = a * a;  // |x| <= 2^63: its square < 2^126
        low += square;
        if (low < square) ++carries;
      }
      q0[i] = static_cast<uint64_t>(low);
      q1[i] = static_cast<uint64_t>(low >> 64);
      q2[i] = carries;
    }
    std::vector<std::string> tables;
    for (const DataNeed& need : rule.needs) {
      tables.push_back(need.table);
      tables.insert(tables.end(), need.alternatives.begin(), need.alternatives.end());
    }
    notes = report.report().notesOn(tables);
    notes.insert(notes.end(), g.warnings.begin(), g.warnings.end());
  }
  auto array = [](const auto& v) {
    using T = typename std::decay_t<decltype(v)>::value_type;
    return py::array_t<T>(static_cast<py::ssize_t>(v.size()), v.data());
  };
  // The values (8 bytes an event, the state's bulk) handed over, not copied.
  auto* kept = new std::vector<int64_t>(std::move(sorted));
  py::capsule owner(kept, [](void* v) { delete static_cast<std::vector<int64_t>*>(v); });
  py::array_t<int64_t> values(static_cast<py::ssize_t>(kept->size()), kept->data(), owner);
  // The key texts as a pool of the distinct texts, once, and per text
  // column each group's id in it (uint32): what the rule gives as ids
  // (hgtx_sum) as it is; texts given whole are pooled here, equal texts
  // one id, each column's strings freed once pooled.
  if (!g.texts.empty()) {
    std::unordered_map<std::string, uint32_t> seen;
    for (auto& column : g.texts) {
      std::vector<uint32_t>& ids = g.textIds.emplace_back(column.size());
      for (size_t i = 0; i < column.size(); ++i) {
        const auto [it, added] = seen.try_emplace(std::move(column[i]), static_cast<uint32_t>(g.textPool.size()));
        if (added) g.textPool.add(it->first);
        ids[i] = it->second;
      }
      std::vector<std::string>().swap(column);
    }
  }
  py::list texts;
  for (auto& column : g.textIds) {
    texts.append(array(column));
    std::vector<uint32_t>().swap(column);
  }
  std::vector<int64_t> poolOffsets(g.textPool.size() + 1, 0);
  for (uint32_t i = 0; i < g.textPool.size(); ++i)
    poolOffsets[i + 1] = poolOffsets[i] + static_cast<int64_t>(g.textPool.get(i).size());
  // Written straight into the bytes object, once (hgtx_sum's names from
  // the report's own strings).
  auto blob = py::reinterpret_steal<py::bytes>(PyBytes_FromStringAndSize(nullptr, static_cast<py::ssize_t>(poolOffsets.back())));
  if (!blob) throw py::error_already_set();
  char* at = PyBytes_AS_STRING(blob.ptr());
  for (uint32_t i = 0; i < g.textPool.size(); ++i) {
    const std::string_view t = g.textPool.get(i);
    at = std::copy(t.begin(), t.end(), at);
  }
  py::tuple pool = py::make_tuple(blob, array(poolOffsets));
  g.textPool = TextPool();
  py::list ids, kinds, sums;
  for (const IdColumn& column : g.ids) {
    ids.append(array(column.values));
    kinds.append(static_cast<int>(column.kind));
  }
  for (const auto& column : g.sums) sums.append(array(column));
  py::dict out;
  out["texts"] = texts;
  out["pool"] = pool;
  out["ids"] = ids;
  out["id_kinds"] = kinds;
  out["sums"] = sums;
  out["offsets"] = array(offsets);
  out["values"] = values;
  out["sumsq"] = py::make_tuple(array(q0), array(q1), array(q2));
  out["warnings"] = notes;
  out["spans"] = spanOffsets.empty() ? py::object(py::none())
                                     : py::object(py::make_tuple(array(spanOffsets), array(spanStarts), array(spanEnds)));
  return out;
}

// The union of spans by group (asys fleet: the union of the reports' unions,
// reduced pairwise on the workers): the disjoint blocks sorted by group,
// then start.
py::tuple spanUnion(py::array_t<int64_t> groupA, py::array_t<int64_t> startA, py::array_t<int64_t> endA) {
  const size_t n = static_cast<size_t>(groupA.size());
  if (static_cast<size_t>(startA.size()) != n || static_cast<size_t>(endA.size()) != n)
    throw Error("span_union: columns of unequal lengths");
  const int64_t *group = groupA.data(), *start = startA.data(), *end = endA.data();
  std::vector<int64_t> og, os, oe;
  {
    py::gil_scoped_release release;
    std::vector<uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      return std::tie(group[a], start[a]) < std::tie(group[b], start[b]);
    });
    for (uint32_t i : order) {
      if (!og.empty() && og.back() == group[i] && start[i] <= oe.back()) {
        oe.back() = std::max(oe.back(), end[i]);
      } else {
        og.push_back(group[i]);
        os.push_back(start[i]);
        oe.push_back(end[i]);
      }
    }
  }
  auto array = [](const std::vector<int64_t>& v) { return py::array_t<int64_t>(static_cast<py::ssize_t>(v.size()), v.data()); };
  return py::make_tuple(array(og), array(os), array(oe));
}

// 256-bit unsigned integers, just what a merged StdDev needs: n * Q for a
// sum of squares Q of up to 2^200 and n below 2^63.
struct U256 {
  uint64_t w[4] = {0, 0, 0, 0};
  static U256 of(unsigned __int128 v) {
    U256 r;
    r.w[0] = static_cast<uint64_t>(v);
    r.w[1] = static_cast<uint64_t>(v >> 64);
    return r;
  }
  void addShifted(uint64_t v, int bits) {  // += v << bits (bits a multiple of 32, < 256)
    unsigned __int128 carry = static_cast<unsigned __int128>(v) << (bits % 64);
    for (int i = bits / 64; i < 4 && carry; ++i) {
      const unsigned __int128 sum = static_cast<unsigned __int128>(w[i]) + static_cast<uint64_t>(carry);
      w[i] = static_cast<uint64_t>(sum);
      carry = (carry >> 64) + (sum >> 64);
    }
  }
  U256 times(uint64_t m) const {
    U256 r;
    unsigned __int128 carry = 0;
    for (int i = 0; i < 4; ++i) {
      const unsigned __int128 p = static_cast<unsigned __int128>(w[i]) * m + carry;
      r.w[i] = static_cast<uint64_t>(p);
      carry = p >> 64;
    }
    return r;
  }
  U256 minus(const U256& b) const {  // *this >= b
    U256 r;
    uint64_t borrow = 0;
    for (int i = 0; i < 4; ++i) {
      const uint64_t d = w[i] - b.w[i];
      const uint64_t d2 = d - borrow;
      borrow = (w[i] < b.w[i]) || (d < borrow);
      r.w[i] = d2;
    }
    return r;
  }
  bool fits128() const { return w[2] == 0 && w[3] == 0; }
  unsigned __int128 low128() const { return (static_cast<unsigned __int128>(w[1]) << 64) | w[0]; }
  long double value() const {
    long double v = 0;
    for (int i = 3; i >= 0; --i) v = v * 18446744073709551616.0L + static_cast<long double>(w[i]);
    return v;
  }
};

unsigned __int128 isqrt128(unsigned __int128 v) {  // core/analysis/stats.cc's
  if (v == 0) return 0;
  unsigned __int128 r = static_cast<unsigned __int128>(std::sqrt(static_cast<long double>(v)));
  while (r * r > v) --r;
  while ((r + 1) * (r + 1) <= v) ++r;
  return r;
}

// The StdDev of merged groups from their exact moments: the engine's
// integer value floor(isqrt(n*Q - T^2) / n) (core/analysis/stats.cc computes
// floor(isqrt(sum((n x - T)^2) / n) / n), and sum((n x - T)^2) / n = n*Q - T^2
// exactly) where the engine stays in integers (every |n x - T| below 2^64,
// their squares' sum below 2^128, which min and max tell); past that the
// engine itself goes to long double, and so does this, from the moments,
// flagging the group. Q comes as six 32-bit limbs, each summed over reports.
py::tuple mergedStdDev(py::array_t<int64_t> countA, py::array_t<int64_t> totalA, py::array_t<int64_t> minA,
                       py::array_t<int64_t> maxA, std::vector<py::array_t<int64_t>> limbs) {
  const size_t n = static_cast<size_t>(countA.size());
  if (limbs.size() != 6) throw Error("merged_stddev: expected 6 limbs");
  for (auto* a : {&totalA, &minA, &maxA})
    if (static_cast<size_t>(a->size()) != n) throw Error("merged_stddev: columns of unequal lengths");
  for (auto& a : limbs)
    if (static_cast<size_t>(a.size()) != n) throw Error("merged_stddev: columns of unequal lengths");
  py::array_t<int64_t> out(static_cast<py::ssize_t>(n));
  py::array_t<bool> approx(static_cast<py::ssize_t>(n));
  const int64_t *count = countA.data(), *total = totalA.data(), *lo = minA.data(), *hi = maxA.data();
  std::vector<const int64_t*> limb;
  for (auto& a : limbs) limb.push_back(a.data());
  int64_t* sd = out.mutable_data();
  bool* flag = approx.mutable_data();
  for (size_t i = 0; i < n; ++i) {
    sd[i] = 0;
    flag[i] = false;
    const int64_t k = count[i], t = total[i];
    if (k < 2) continue;
    U256 q;
    for (int l = 0; l < 6; ++l) q.addShifted(static_cast<uint64_t>(limb[l][i]), 32 * l);
    const unsigned __int128 at = static_cast<unsigned __int128>(t < 0 ? -static_cast<__int128>(t) : t);
    const U256 d = q.times(static_cast<uint64_t>(k)).minus(U256::of(at * at));  // = sum((k x - T)^2) / k
    const __int128 kk = k;
    const __int128 spread = std::max(kk * hi[i] - t, t - kk * lo[i]);
    bool exact = spread >= 0 && (static_cast<unsigned __int128>(spread) >> 64) == 0 && d.fits128();
    if (exact) exact = d.times(static_cast<uint64_t>(k)).fits128();
    if (exact) {
      sd[i] = static_cast<int64_t>(isqrt128(d.low128()) / static_cast<unsigned __int128>(k));
    } else {
      const long double kd = static_cast<long double>(k);
      sd[i] = static_cast<int64_t>(std::sqrt(d.value() / (kd * kd)));
      flag[i] = true;
    }
  }
  return py::make_tuple(out, approx);
}

// The key texts of merged groups, kept by the table that shows them: per
// text column the distinct texts (factorizeTexts' blob and offsets) and
// each merged group's code among them.
struct MergedTexts {
  // A column's distinct texts: a view of the bytes object the caller gave,
  // not a copy (hgtx_sum's 35 MB of names on the bench's 32 ranks: a copy
  // and its page faults were half of the merged table's 0.04 s, on the
  // run's serial path; docs/fleet.md, "What the run's time goes to", item
  // 31). merged_table's binding keeps its texts argument alive as long as
  // the table it returns (py::keep_alive), and bytes never change, so the
  // writer's threads read it without the GIL.
  std::vector<std::string_view> blobs;
  std::vector<std::vector<int64_t>> offsets, codes;
  std::string_view text(size_t column, uint32_t group) const {
    const std::vector<int64_t>& o = offsets[column];
    const int64_t code = codes[column][group];
    return blobs[column].substr(static_cast<size_t>(o[code]), static_cast<size_t>(o[code + 1] - o[code]));
  }
};

// The merged groups' text columns (each its distinct texts and each
// group's code in them), checked; `column` copies a group column.
template <typename Column>
std::shared_ptr<MergedTexts> mergedTexts(
    const std::vector<std::tuple<py::bytes, py::array_t<int64_t>, py::array_t<int64_t>>>& texts, Column column) {
  auto merged = std::make_shared<MergedTexts>();
  for (const auto& [blob, offsets, codes] : texts) {
    const TextColumn distinct(blob, offsets);
    char* data = nullptr;
    py::ssize_t size = 0;
    if (PyBytes_AsStringAndSize(blob.ptr(), &data, &size) != 0) throw py::error_already_set();
    merged->blobs.emplace_back(data, static_cast<size_t>(size));
    merged->offsets.emplace_back(offsets.data(), offsets.data() + offsets.size());
    merged->codes.push_back(column(codes));
    for (int64_t code : merged->codes.back())
      if (code < 0 || static_cast<size_t>(code) >= distinct.size()) throw Error("merged_table: a text code out of range");
  }
  return merged;
}

std::vector<int64_t> int64Column(const py::array_t<int64_t>& a) {
  const auto v = a.unchecked<1>();
  std::vector<int64_t> out(static_cast<size_t>(a.size()));
  for (size_t i = 0; i < out.size(); ++i) out[i] = v(static_cast<py::ssize_t>(i));
  return out;
}

// The order a duration summary's merged groups are written in (total time
// descending, then the texts: durationSummaryOrder), made without the GIL:
// the fleet makes it in a thread while the medians' rounds go on, and
// gives it to merged_table (hgtx_sum's 338 k merged names on the bench's
// 32 ranks: 0.1-0.2 s of sorting no longer after the rounds).
//
// `ranks` (text_ranks of the one distinct-text column every text column's
// codes are into, or empty): the same order from integers, each text
// compared by its rank among the distinct texts (made by the client
// beside the merge, when a core is free, not beside the rounds: item 20),
// falling back to the texts where two groups tie on every key.
py::array_t<int64_t> summaryOrderOf(
    const std::vector<std::tuple<py::bytes, py::array_t<int64_t>, py::array_t<int64_t>>>& texts,
    const py::array_t<int64_t>& total, const py::array_t<int64_t>& ranks) {
  const std::vector<int64_t> totals = int64Column(total);
  const size_t n = totals.size();
  // The texts read where they are, not copied: the caller holds the bytes
  // and arrays for the call, and nothing changes them while the GIL is
  // released (bytes are immutable; the codes are the merge's own).
  std::vector<TextColumn> columns;
  std::vector<std::vector<int64_t>> codes;
  for (const auto& [blob, offsets, groupCodes] : texts) {
    columns.emplace_back(blob, offsets);
    if (static_cast<size_t>(groupCodes.size()) != n) throw Error("summary_order: columns of unequal lengths");
    codes.push_back(int64Column(groupCodes));
    for (int64_t code : codes.back())
      if (code < 0 || static_cast<size_t>(code) >= columns.back().size()) throw Error("summary_order: a text code out of range");
  }
  std::vector<int64_t> rank;
  if (ranks.size()) {
    rank = int64Column(ranks);
    for (const auto& column : columns)
      if (column.size() != rank.size()) throw Error("summary_order: ranks of another text column");
  }
  std::vector<uint32_t> order;
  {
    py::gil_scoped_release release;
    auto byTexts = [&] {
      return durationSummaryOrder(totals, columns.size(), [&](size_t c, uint32_t g) {
        return columns[c].text(static_cast<size_t>(codes[c][g]));
      });
    };
    if (rank.empty()) {
      order = byTexts();
    } else {
      // Per group its keys as durationSummaryOrder compares them: the
      // total (descending), then the texts from the last column.
      const size_t k = columns.size();
      std::vector<int64_t> keys(n * k);
      for (size_t g = 0; g < n; ++g)
        for (size_t c = 0; c < k; ++c) keys[g * k + c] = rank[static_cast<size_t>(codes[k - 1 - c][g])];
      auto less = [&](uint32_t a, uint32_t b) {
        if (totals[a] != totals[b]) return totals[a] > totals[b];
        return std::lexicographical_compare(keys.begin() + a * k, keys.begin() + (a + 1) * k, keys.begin() + b * k,
                                            keys.begin() + (b + 1) * k);
      };
      order.resize(n);
      if (k <= 2 && rank.size() < (size_t{1} << 32)) {
        // The keys side by side, two ranks in one word: one contiguous sort.
        struct Row {
          int64_t total;
          uint64_t texts;
          uint32_t group;
        };
        std::vector<Row> rows(n);
        for (size_t g = 0; g < n; ++g) {
          uint64_t texts = 0;
          for (size_t c = 0; c < k; ++c) texts = (texts << 32) | static_cast<uint64_t>(keys[g * k + c]);
          rows[g] = {totals[g], texts, static_cast<uint32_t>(g)};
        }
        std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
          return a.total != b.total ? a.total > b.total : a.texts < b.texts;
        });
        for (size_t i = 0; i < n; ++i) order[i] = rows[i].group;
      } else {
        std::iota(order.begin(), order.end(), 0u);
        std::sort(order.begin(), order.end(), less);
      }
      bool tied = false;
      for (size_t i = 1; i < n && !tied; ++i) tied = !less(order[i - 1], order[i]);
      if (tied) order = byTexts();  // equal keys: std::sort's own order among them, as the engine's
    }
  }
  py::array_t<int64_t> out(static_cast<py::ssize_t>(order.size()));
  auto o = out.mutable_unchecked<1>();
  for (size_t i = 0; i < order.size(); ++i) o(static_cast<py::ssize_t>(i)) = order[i];
  return out;
}

// A report's answer to one median round (asys/fleet/state.py:
// ReportState.answer), from its values sorted within each group (`offsets`:
// group g's run is values[offsets[g], offsets[g + 1])), without the GIL.
// Count queries (group, lo, width, buckets, hi): per query its buckets'
// counts, one query after the other: bucket i holds the values in
// [lo + width i, lo + width (i + 1)), the last one those up to hi. Fetch
// queries (group, lo, hi): the values in [lo, hi] of each, one query after
// the other, and how many each. The NumPy version made a call or more a
// group (searchsorted over up to 4096 edges, or a vectorized bisection):
// 4-5 ms a report a round on the bench's ranks, on the rounds' path.
using Int64s = py::array_t<int64_t, py::array::c_style | py::array::forcecast>;

namespace {

struct Runs {
  const int64_t* values;
  size_t size;
  const int64_t* offsets;
  size_t groups;
  std::pair<const int64_t*, const int64_t*> of(int64_t g) const {
    if (g < 0 || static_cast<size_t>(g) >= groups) throw Error("answer: a group out of range");
    const int64_t a = offsets[g], b = offsets[g + 1];
    if (a < 0 || a > b || static_cast<size_t>(b) > size) throw Error("answer: offsets out of range");
    return {values + a, values + b};
  }
};

Runs runsOf(const Int64s& values, const Int64s& offsets) {
  if (values.ndim() != 1 || offsets.ndim() != 1 || offsets.size() < 1) throw Error("answer: one-dimensional columns");
  return {values.data(), static_cast<size_t>(values.size()), offsets.data(), static_cast<size_t>(offsets.size() - 1)};
}

void sameLength(std::initializer_list<const Int64s*> columns) {
  for (const Int64s* c : columns)
    if (c->ndim() != 1 || c->size() != (*columns.begin())->size()) throw Error("answer: columns of unequal lengths");
}

}  // namespace

py::array_t<int64_t> answerCounts(const Int64s& values, const Int64s& offsets, const Int64s& group, const Int64s& lo,
                                  const Int64s& width, const Int64s& buckets, const Int64s& hi) {
  const Runs runs = runsOf(values, offsets);
  sameLength({&group, &lo, &width, &buckets, &hi});
  const size_t n = static_cast<size_t>(group.size());
  size_t total = 0;
  for (size_t q = 0; q < n; ++q) {
    if (buckets.data()[q] < 1) throw Error("answer: a count query of no bucket");
    total += static_cast<size_t>(buckets.data()[q]);
  }
  py::array_t<int64_t> out(static_cast<py::ssize_t>(total));
  int64_t* counts = out.mutable_data();
  {
    py::gil_scoped_release release;
    size_t at = 0;
    for (size_t q = 0; q < n; ++q) {
      const auto [begin, end] = runs.of(group.data()[q]);
      const uint64_t first = static_cast<uint64_t>(lo.data()[q]), step = static_cast<uint64_t>(width.data()[q]);
      const size_t nb = static_cast<size_t>(buckets.data()[q]);
      // Edge i = lo + width i in 64-bit unsigned arithmetic, as an int64
      // (exact: the edges lie in [lo, hi]); each edge's first value >= it.
      const int64_t* left = std::lower_bound(begin, end, lo.data()[q]);
      int64_t previousEdge = lo.data()[q];
      for (size_t i = 0; i < nb; ++i) {
        const int64_t* next;
        if (i + 1 < nb) {
          const int64_t edge = static_cast<int64_t>(first + step * static_cast<uint64_t>(i + 1));
          next = std::lower_bound(edge >= previousEdge ? left : begin, end, edge);
          previousEdge = edge;
        } else {
          next = std::upper_bound(begin, end, hi.data()[q]);
        }
        counts[at++] = next - left;
        left = next;
      }
    }
  }
  return out;
}

// answer_counts as it crosses (wire.sparse_counts): how many buckets in
// all, and the position and count of each bucket that holds a value, found
// by walking the values in each query's range (a division a bucket that
// holds one), not a binary search a bucket edge: a range of up to 8192
// values counted one value a bucket holds a few hundred of a report's values
// (the first median round on the bench's ranks: ~155 k buckets a report,
// almost all empty, and their zeros never made).
py::tuple answerCountsSparse(const Int64s& values, const Int64s& offsets, const Int64s& group, const Int64s& lo,
                             const Int64s& width, const Int64s& buckets, const Int64s& hi) {
  const Runs runs = runsOf(values, offsets);
  sameLength({&group, &lo, &width, &buckets, &hi});
  const size_t n = static_cast<size_t>(group.size());
  std::vector<int64_t> positions, counts;
  size_t total = 0;
  {
    py::gil_scoped_release release;
    for (size_t q = 0; q < n; ++q) {
      const int64_t nb = buckets.data()[q];
      if (nb < 1) throw Error("answer: a count query of no bucket");
      if (width.data()[q] < 1) throw Error("answer: a count query's buckets of no width");
      const auto [begin, end] = runs.of(group.data()[q]);
      const int64_t low = lo.data()[q], high = hi.data()[q];
      const uint64_t first = static_cast<uint64_t>(low), step = static_cast<uint64_t>(width.data()[q]);
      const int64_t* at = std::lower_bound(begin, end, low);
      const int64_t* stop = std::upper_bound(at, end, high);
      while (at < stop) {
        // The bucket of this value (lo + width b <= value, in 64-bit
        // unsigned arithmetic as the edges are), and its last value.
        const uint64_t b = (static_cast<uint64_t>(*at) - first) / step;
        if (b >= static_cast<uint64_t>(nb)) throw Error("answer: a value past its count query's buckets");
        const uint64_t edge = first + step * b;
        const uint64_t room = static_cast<uint64_t>(high) - edge;  // the range's end: at most hi
        const int64_t last = static_cast<int64_t>(edge + std::min(step - 1, room));
        const int64_t* from = at;
        while (at < stop && *at <= last) ++at;
        positions.push_back(static_cast<int64_t>(total + b));
        counts.push_back(at - from);
      }
      total += static_cast<size_t>(nb);
    }
  }
  py::array_t<int64_t> at(static_cast<py::ssize_t>(positions.size())), held(static_cast<py::ssize_t>(counts.size()));
  std::copy(positions.begin(), positions.end(), at.mutable_data());
  std::copy(counts.begin(), counts.end(), held.mutable_data());
  return py::make_tuple(total, at, held);
}

py::tuple answerFetch(const Int64s& values, const Int64s& offsets, const Int64s& group, const Int64s& lo,
                      const Int64s& hi) {
  const Runs runs = runsOf(values, offsets);
  sameLength({&group, &lo, &hi});
  const size_t n = static_cast<size_t>(group.size());
  std::vector<std::pair<const int64_t*, const int64_t*>> spans(n);
  size_t total = 0;
  {
    py::gil_scoped_release release;
    for (size_t q = 0; q < n; ++q) {
      const auto [begin, end] = runs.of(group.data()[q]);
      spans[q] = {std::lower_bound(begin, end, lo.data()[q]), std::upper_bound(begin, end, hi.data()[q])};
      if (spans[q].second < spans[q].first) throw Error("answer: a fetch query's hi below its lo");
      total += static_cast<size_t>(spans[q].second - spans[q].first);
    }
  }
  py::array_t<int64_t> fetched(static_cast<py::ssize_t>(total)), lengths(static_cast<py::ssize_t>(n));
  int64_t* into = fetched.mutable_data();
  int64_t* length = lengths.mutable_data();
  {
    py::gil_scoped_release release;
    for (size_t q = 0; q < n; ++q) {
      into = std::copy(spans[q].first, spans[q].second, into);
      length[q] = spans[q].second - spans[q].first;
    }
  }
  return py::make_tuple(fetched, lengths);
}

// Codes (>= 0) renumbered 0, 1, ... in order of their first appearance,
// in one pass (the merge's text keys: NumPy's unique with its indices
// sorted them twice).
py::array_t<int64_t> firstAppearance(const Int64s& codes) {
  if (codes.ndim() != 1) throw Error("first_appearance: a one-dimensional column");
  const size_t n = static_cast<size_t>(codes.size());
  const int64_t* in = codes.data();
  py::array_t<int64_t> out(static_cast<py::ssize_t>(n));
  int64_t* renumbered = out.mutable_data();
  {
    py::gil_scoped_release release;
    int64_t top = -1;
    for (size_t i = 0; i < n; ++i) {
      if (in[i] < 0) throw Error("first_appearance: a negative code");
      top = std::max(top, in[i]);
    }
    std::vector<int64_t> number(static_cast<size_t>(top + 1), -1);
    int64_t next = 0;
    for (size_t i = 0; i < n; ++i) {
      int64_t& k = number[static_cast<size_t>(in[i])];
      if (k < 0) k = next++;
      renumbered[i] = k;
    }
  }
  return out;
}

// Each distinct text's rank in byte order (as std::string_view compares:
// unsigned bytes), without the GIL: for summary_order's `ranks`.
py::array_t<int64_t> distinctTextRanks(const py::bytes& blob, const py::array_t<int64_t>& offsets) {
  const TextColumn texts(blob, offsets);
  const size_t n = texts.size();
  py::array_t<int64_t> out(static_cast<py::ssize_t>(n));
  int64_t* rank = out.mutable_data();
  {
    py::gil_scoped_release release;
    std::vector<uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return texts.text(a) < texts.text(b); });
    for (size_t i = 0; i < n; ++i) rank[order[i]] = static_cast<int64_t>(i);
  }
  return out;
}

// The table of merged groups (their statistics worked out by the fleet):
// the rule's own groupsTable (tableOfGroups), then `rows` as runRule
// applies it. A rule without one (the duration summaries) gets the
// summary as a view, its rows made as they are written (as hgtx_sum's own
// table is: 338 k merged range names were 1.5 s of interning into a
// table's text pool on the client).
Table mergedTable(const std::string& ruleName, const std::vector<std::string>& items,
                  const std::vector<py::array_t<int64_t>>& stats,
                  const std::vector<std::tuple<py::bytes, py::array_t<int64_t>, py::array_t<int64_t>>>& texts,
                  const std::vector<std::pair<int, py::array_t<int64_t>>>& ids,
                  const std::vector<py::array_t<int64_t>>& sums, const py::array_t<int64_t>& covered,
                  const py::array_t<int64_t>& order) {
  const RuleSpec& rule = ruleNamed(ruleName);
  if (!rule.groupedDurations) throw Error(rule.name + " has no groups to merge across reports");
  const RuleOptions options = parseRuleOptions(rule, items);
  if (stats.size() != 7) throw Error("merged_table: expected 7 statistics columns");
  const size_t n = static_cast<size_t>(stats[0].size());
  auto column = [n](const py::array_t<int64_t>& a) {
    if (static_cast<size_t>(a.size()) != n) throw Error("merged_table: columns of unequal lengths");
    const auto v = a.unchecked<1>();
    std::vector<int64_t> out(n);
    for (size_t i = 0; i < n; ++i) out[i] = v(static_cast<py::ssize_t>(i));
    return out;
  };
  auto merged = mergedTexts(texts, column);
  std::vector<std::vector<int64_t>> s;
  for (const auto& a : stats) s.push_back(column(a));
  std::vector<DurationStats> groupStats(n);
  for (size_t i = 0; i < n; ++i) groupStats[i] = {s[0][i], s[1][i], s[2][i], s[3][i], s[4][i], s[5][i], s[6][i]};
  auto limited = [&](Table t) {
    if (auto limit = options.intValue("rows"); limit && *limit >= 0) t.truncate(static_cast<size_t>(*limit));
    return t;
  };
  if (!rule.groupsTable) {
    const size_t textColumns = merged->blobs.size();
    GroupText text = [merged](size_t c, uint32_t g) { return merged->text(c, g); };
    if (order.size() == 0)
      return limited(durationSummaryView(rule.columns, std::move(groupStats), textColumns, std::move(text)));
    // Made apart (summary_order): checked to be an order of the groups.
    std::vector<uint32_t> given(n);
    std::vector<char> seen(n, 0);
    if (static_cast<size_t>(order.size()) != n) throw Error("merged_table: an order of another size than the groups");
    const auto o = order.unchecked<1>();
    for (size_t i = 0; i < n; ++i) {
      const int64_t g = o(static_cast<py::ssize_t>(i));
      if (g < 0 || static_cast<size_t>(g) >= n || seen[static_cast<size_t>(g)]) throw Error("merged_table: not an order of the groups");
      seen[static_cast<size_t>(g)] = 1;
      given[i] = static_cast<uint32_t>(g);
    }
    return limited(durationSummaryView(rule.columns, std::move(groupStats), textColumns, std::move(text), std::move(given)));
  }
  MergedGroups g;
  g.stats = std::move(groupStats);
  for (size_t c = 0; c < merged->blobs.size(); ++c) {
    std::vector<std::string> values(n);
    for (size_t i = 0; i < n; ++i) values[i] = std::string(merged->text(c, static_cast<uint32_t>(i)));
    g.texts.push_back(std::move(values));
  }
  for (const auto& [kind, values] : ids) g.ids.push_back({static_cast<IdKind>(kind), column(values)});
  for (const auto& a : sums) g.sums.push_back(column(a));
  g.covered = covered.size() ? column(covered) : std::vector<int64_t>(n, 0);
  return limited(tableOfGroups(rule, g, options));
}

// The table written in `format`, without the GIL (a thread of the caller's,
// such as the fleet's closing of its cluster, runs meanwhile). A CSV of many
// rows is written in `threads` parts at once, each a range of whole rows
// (writeCsvRows, the header with the first), joined in order: the same
// bytes as one writeCsv. Only for tables whose row source may be read from
// several threads at once (the fleet's merged duration summaries: a view
// over columns it does not change); 1 for any other.
py::bytes writeAs(const Table& t, const std::string& format, int threads) {
  const OutputFormat f = parseOutputFormat(format);
  std::string data;
  {
    py::gil_scoped_release release;
    const size_t rows = t.rowCount();
    const size_t parts =
        f == OutputFormat::Csv && threads > 1 ? std::min<size_t>(static_cast<size_t>(threads), rows / kChunkRows) : 1;
    if (parts <= 1) {
      std::ostringstream out;
      writeTable(t, f, out);
      data = std::move(out).str();
    } else {
      std::vector<std::string> pieces(parts);
      onThreads(parts, [&](size_t p) {
        const size_t first = rows * p / parts, end = rows * (p + 1) / parts;
        std::ostringstream out;
        writeCsvRows(t, first, end - first, p == 0, out);
        pieces[p] = std::move(out).str();
      });
      size_t size = 0;
      for (const auto& piece : pieces) size += piece.size();
      data.reserve(size);
      for (auto& piece : pieces) {
        data += piece;
        std::string().swap(piece);
      }
    }
  }
  return py::bytes(data);
}

// The table written in `format` straight to the file descriptor `fd`,
// without the GIL. A CSV of many rows is formatted in pieces of a quarter
// chunk of rows (writeCsvRows each: a chunk table of its own, so that its
// string pool holds a piece's names, not every name of the table) on
// `threads` threads, and each piece written to `fd` in order as soon as it
// and the pieces before it are made: the same bytes as one writeCsv,
// without joining the pieces into one string and copying that into a
// Python bytes object (hgtx_sum's 55 MB on the bench's 32 ranks, the last
// thing the fleet's command line does: docs/fleet.md item 19). The row
// source must allow reads from several threads at once, as writeAs says.
namespace {

struct WriteFailed {
  int error;
};

void writeAll(int fd, const std::string& s) {
  const char* at = s.data();
  size_t left = s.size();
  while (left) {
    const ssize_t n = ::write(fd, at, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw WriteFailed{errno};
    }
    at += n;
    left -= static_cast<size_t>(n);
  }
}

void writeCsvPieces(const Table& t, int fd, size_t threads) {
  const size_t rows = t.rowCount();
  const size_t pieceRows = kChunkRows / 4;
  const size_t pieces = (rows + pieceRows - 1) / pieceRows;
  std::vector<std::string> made(pieces);
  std::vector<char> ready(pieces, 0);
  std::mutex m;
  std::condition_variable changed;
  size_t nextPiece = 0;
  bool stop = false;
  std::exception_ptr failure;
  auto format = [&](size_t p) {
    std::ostringstream out;
    writeCsvRows(t, p * pieceRows, pieceRows, p == 0, out);
    return std::move(out).str();
  };
  // A piece to make, or none left (or the write stopped).
  auto claim = [&](std::unique_lock<std::mutex>&) -> size_t { return stop || nextPiece == pieces ? pieces : nextPiece++; };
  auto make = [&](size_t p) {
    try {
      std::string s = format(p);
      std::lock_guard<std::mutex> lock(m);
      made[p] = std::move(s);
      ready[p] = 1;
    } catch (...) {
      std::lock_guard<std::mutex> lock(m);
      if (!failure) failure = std::current_exception();
      stop = true;
    }
    changed.notify_all();
  };
  std::vector<std::thread> workers;
  auto finish = [&] {
    {
      std::lock_guard<std::mutex> lock(m);
      stop = true;
    }
    changed.notify_all();
    for (auto& w : workers) w.join();
    workers.clear();
  };
  for (size_t i = 1; i < threads; ++i)
    workers.emplace_back([&] {
      while (true) {
        size_t p;
        {
          std::unique_lock<std::mutex> lock(m);
          p = claim(lock);
        }
        if (p == pieces) return;
        make(p);
      }
    });
  try {
    for (size_t w = 0; w < pieces; ++w) {
      std::string s;
      while (true) {
        std::unique_lock<std::mutex> lock(m);
        if (failure) std::rethrow_exception(failure);
        if (ready[w]) {
          s = std::move(made[w]);
          break;
        }
        // Not made yet: make the next piece here meanwhile, or wait.
        const size_t p = claim(lock);
        if (p != pieces) {
          lock.unlock();
          make(p);
        } else {
          changed.wait(lock);
        }
      }
      writeAll(fd, s);
    }
  } catch (...) {
    finish();
    throw;
  }
  finish();
}

}  // namespace

void writeTo(const Table& t, const std::string& format, int fd, int threads) {
  const OutputFormat f = parseOutputFormat(format);
  int error = 0;
  {
    py::gil_scoped_release release;
    try {
      if (f == OutputFormat::Csv && threads > 1 && t.rowCount() >= 2 * kChunkRows) {
        writeCsvPieces(t, fd, static_cast<size_t>(threads));
      } else {
        std::ostringstream out;
        writeTable(t, f, out);
        writeAll(fd, std::move(out).str());
      }
    } catch (const WriteFailed& e) {
      error = e.error;
    }
  }
  if (error) {
    errno = error;
    PyErr_SetFromErrno(PyExc_OSError);
    throw py::error_already_set();
  }
}

// The rules as the package's help and option checks need them.
py::list ruleList() {
  py::list out;
  for (const RuleSpec* r : allRules()) {
    py::dict d;
    d["name"] = r->name;
    d["title"] = r->title;
    d["command"] = r->command == RuleCommand::Analyze ? "analyze" : "stats";
    d["compare"] = r->compare != nullptr;
    d["mergeable"] = static_cast<bool>(r->groupedDurations);
    // Its merged table is its own groupsTable; else the duration summary
    // view (merged_table), which Table.write may write in parts at once.
    d["groups_table"] = static_cast<bool>(r->groupsTable);
    py::list options;
    for (const OptionSpec& o : r->options) {
      if (o.kind == OptionKind::ExclusiveFlags) {
        for (const FlagSpec& f : o.flags) options.append(py::make_tuple(f.name, "flag"));
      } else {
        options.append(py::make_tuple(o.name, o.kind == OptionKind::Flag ? "flag" : "value"));
      }
    }
    d["options"] = options;
    d["global_options"] = r->globalOptions;
    py::list columns;
    for (const ColumnSpec& c : r->columns) columns.append(c.header());
    d["columns"] = columns;
    out.append(d);
  }
  return out;
}

RunSettings settingsOf(std::vector<std::string> options, std::string filterTime, std::string filterHgtx,
                       std::vector<std::pair<std::string, std::string>> global) {
  return {std::move(options), std::move(filterTime), std::move(filterHgtx), std::move(global)};
}

}  // namespace
}  // namespace asys

PYBIND11_MODULE(_asys, m) {
  using namespace asys;
  m.doc() = "The asys engine (core/) for Python; use the asys package, not this module.";
  // One-line errors, as the CLI prints them: bad input (AsysError), and data
  // a rule needs that the report lacks (MissingDataError, a subclass).
  static py::exception<Error> asysError(m, "AsysError", PyExc_ValueError);
  static py::exception<MissingDataError> missingError(m, "MissingDataError", asysError.ptr());
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const MissingDataError& e) {
      missingError(e.what());
    } catch (const Error& e) {
      asysError(e.what());
    }
  });

  py::class_<PyReport>(m, "Report")
      .def(py::init<const std::vector<std::string>&, const std::string&>(), py::arg("paths"), py::arg("temp_dir"),
           py::call_guard<py::gil_scoped_release>())
      .def_property_readonly("paths", &PyReport::paths)
      .def("close", &PyReport::close)
      .def(
          "run",
          [](PyReport& r, const std::string& rule, std::vector<std::string> options, std::string filterTime,
             std::string filterHgtx, std::vector<std::pair<std::string, std::string>> global) {
            return columnsOf(runTable(
                r, rule, settingsOf(std::move(options), std::move(filterTime), std::move(filterHgtx), std::move(global))));
          },
          py::arg("rule"), py::arg("options"), py::arg("filter_time"), py::arg("filter_hgtx"), py::arg("global_options"))
      .def(
          "run_table",
          [](PyReport& r, const std::string& rule, std::vector<std::string> options, std::string filterTime,
             std::string filterHgtx, std::vector<std::pair<std::string, std::string>> global) {
            return runTable(
                r, rule, settingsOf(std::move(options), std::move(filterTime), std::move(filterHgtx), std::move(global)));
          },
          py::arg("rule"), py::arg("options"), py::arg("filter_time"), py::arg("filter_hgtx"), py::arg("global_options"));
  m.def(
      "compare",
      [](PyReport& base, PyReport& target, const std::string& rule, std::vector<std::string> options,
         std::string filterTime, std::string filterHgtx, std::vector<std::pair<std::string, std::string>> global) {
        return runCompare(base, target, rule,
                          settingsOf(std::move(options), std::move(filterTime), std::move(filterHgtx), std::move(global)));
      },
      py::arg("base"), py::arg("target"), py::arg("rule"), py::arg("options"), py::arg("filter_time"),
      py::arg("filter_hgtx"), py::arg("global_options"));
  m.def(
      "grouped_durations",
      [](PyReport& r, const std::string& rule, std::vector<std::string> options, std::string filterTime,
         std::string filterHgtx, std::vector<std::pair<std::string, std::string>> global) {
        return groupsOf(r, rule, settingsOf(std::move(options), std::move(filterTime), std::move(filterHgtx), std::move(global)));
      },
      py::arg("report"), py::arg("rule"), py::arg("options"), py::arg("filter_time"), py::arg("filter_hgtx"),
      py::arg("global_options"));
  py::class_<Table>(m, "Table")
      .def("columns", [](const Table& t) { return columnsOf(t); })
      .def("write", &writeAs, py::arg("format"), py::arg("threads") = 1)
      .def("write_to", &writeTo, py::arg("format"), py::arg("fd"), py::arg("threads") = 1);
  // The table keeps `texts` (argument 4) alive: a duration summary's view
  // reads its names in the bytes objects given (MergedTexts), so a list
  // given must not change while the table lives (the fleet gives a tuple).
  m.def("merged_table", &mergedTable, py::arg("rule"), py::arg("options"), py::arg("stats"), py::arg("texts"),
        py::arg("ids"), py::arg("sums"), py::arg("covered") = py::array_t<int64_t>(0),
        py::arg("order") = py::array_t<int64_t>(0), py::keep_alive<0, 4>());
  m.def("summary_order", &summaryOrderOf, py::arg("texts"), py::arg("total"),
        py::arg("ranks") = py::array_t<int64_t>(0));
  m.def("answer_counts", &answerCounts, py::arg("values"), py::arg("offsets"), py::arg("group"), py::arg("lo"),
        py::arg("width"), py::arg("buckets"), py::arg("hi"));
  m.def("answer_counts_sparse", &answerCountsSparse, py::arg("values"), py::arg("offsets"), py::arg("group"),
        py::arg("lo"), py::arg("width"), py::arg("buckets"), py::arg("hi"));
  m.def("answer_fetch", &answerFetch, py::arg("values"), py::arg("offsets"), py::arg("group"), py::arg("lo"),
        py::arg("hi"));
  m.def("first_appearance", &firstAppearance, py::arg("codes"));
  m.def("text_ranks", &distinctTextRanks, py::arg("blob"), py::arg("offsets"));
  m.def("factorize_texts", &factorizeTexts, py::arg("columns"));
  m.def("span_union", &spanUnion, py::arg("group"), py::arg("start"), py::arg("end"));
  // What asys merge finds of a report's ids (surveyInput): (pids, devices,
  // epochOffset or None, HGGC_KERNEL rows).
  m.def(
      "report_ids",
      [](const std::string& path) {
        InputIds ids;
        {
          py::gil_scoped_release release;
          ids = inputIds(surveyInput(path));
          ids.kernelRows = kernelRowsOf(path);
        }
        return py::make_tuple(ids.pids, ids.devices, ids.epochOffset, ids.kernelRows);
      },
      py::arg("path"));
  // Per report (path, pids, devices, epochOffset, kernel rows), in the
  // merge's order: its (pid changes, device changes, time shift, kernel
  // position shift) as asys merge makes them.
  m.def(
      "plan_id_changes",
      [](const std::vector<std::tuple<std::string, std::vector<int64_t>, std::vector<int64_t>, std::optional<int64_t>,
                                      int64_t>>& reports) {
        std::vector<InputIds> inputs;
        for (const auto& [path, pids, devices, epoch, kernels] : reports)
          inputs.push_back({path, pids, devices, epoch, kernels});
        std::vector<py::tuple> out;
        for (const IdPlan& p : planIdChanges(inputs))
          out.push_back(py::make_tuple(p.pids, p.devices, p.timeShift, p.kernelRowShift));
        return out;
      },
      py::arg("reports"));
  // Id columns renumbered as asys merge renumbers a report's ids.
  m.def(
      "renumber_ids",
      [](const std::vector<std::pair<int, std::vector<int64_t>>>& ids, const IdChanges& pids, const IdChanges& devices,
         int64_t timeShift, int64_t kernelRowShift) {
        std::vector<IdColumn> columns;
        for (const auto& [kind, values] : ids) columns.push_back({static_cast<IdKind>(kind), values});
        renumberIds(columns, pids, devices, timeShift, kernelRowShift);
        std::vector<py::array_t<int64_t>> out;
        for (const IdColumn& c : columns) out.emplace_back(static_cast<py::ssize_t>(c.values.size()), c.values.data());
        return out;
      },
      py::arg("ids"), py::arg("pids"), py::arg("devices"), py::arg("time_shift"), py::arg("kernel_row_shift"));
  m.def("merged_stddev", &mergedStdDev, py::arg("count"), py::arg("total"), py::arg("min"), py::arg("max"),
        py::arg("limbs"));
  m.def("rules", &ruleList);
  // `RULE:OPT:OPT=VALUE` as the CLI splits it: the name and the option items.
  m.def("parse_rule_spec", [](const std::string& spec) {
    std::vector<std::string> parts = splitUnescaped(spec, ':');
    std::vector<std::string> items;
    for (size_t i = 1; i < parts.size(); ++i) items.push_back(unescapeSeparators(parts[i]));
    return py::make_tuple(parts.empty() ? std::string() : parts[0], items);
  });
  m.def("rule_help", [](const std::string& name) { return ruleHelp(ruleNamed(name)); });
  m.def("global_option_names", [] {
    std::vector<std::string> names;
    for (const GlobalOptionSpec& g : globalOptions()) names.push_back(g.name);
    return names;
  });
}
