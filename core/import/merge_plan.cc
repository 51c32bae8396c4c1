#include "core/import/merge_plan.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "core/base/error.h"
#include "core/base/stage_timer.h"
#include "core/base/text.h"
#include "core/import/merge_columns.h"
#include "core/import/merge_survey.h"

namespace asys {

namespace {

constexpr int64_t kMaxPid = 0xFFFFFF;  // 24 bits of globalTid

// Pids or device ids: an input keeps its ids unless an earlier input has
// them; a clash takes the smallest id that no input uses, so the ids of
// later inputs stay theirs too.
class IdAllocator {
 public:
  IdAllocator(int64_t first, int64_t last, const char* what) : next_(first), last_(last), what_(what) {}
  void reserve(const std::vector<int64_t>& ids) { used_.insert(ids.begin(), ids.end()); }
  IdChanges assign(const std::vector<int64_t>& ids, const std::string& path) {
    IdChanges changes;
    for (int64_t id : ids) {
      if (taken_.insert(id).second) continue;
      while (used_.count(next_) != 0 || taken_.count(next_) != 0) ++next_;
      if (next_ > last_) throw Error(path + ": no " + what_ + " left to renumber " + std::to_string(id) + " to");
      taken_.insert(next_);
      changes.emplace_back(id, next_);
    }
    return changes;
  }

 private:
  std::set<int64_t> used_, taken_;  // every input's ids; the merged report's so far
  int64_t next_, last_;
  const char* what_;
};

// StringIds, CALLCHAINS and memory event ids: each input's ids moved past
// the previous inputs' (the first input's stay as they are).
class IdShifter {
 public:
  int64_t shift(const IdRange& r) {
    if (r.empty()) return 0;
    const int64_t by = started_ ? end_ + 1 - r.lo : 0;
    started_ = true;
    end_ = r.hi + by;
    return by;
  }

 private:
  bool started_ = false;
  int64_t end_ = 0;
};

// One dictionary's merged rows: the same texts are one id.
class DictionaryMerger {
 public:
  IdChanges add(const std::vector<DictionaryRow>& rows) {
    IdChanges changes;
    for (const DictionaryRow& r : rows) {
      const Texts texts{r.first, r.second};
      const auto same = byTexts_.find(texts);
      if (same != byTexts_.end()) {
        if (same->second != r.id) changes.emplace_back(r.id, same->second);
        continue;
      }
      int64_t id = r.id;
      if (byId_.count(id) != 0) {
        id = byId_.rbegin()->first + 1;
        changes.emplace_back(r.id, id);
      }
      byId_.emplace(id, texts);
      byTexts_.emplace(texts, id);
      rows_.push_back({id, r.first, r.second});
    }
    return changes;
  }
  std::vector<DictionaryRow> rows() const { return rows_; }

 private:
  using Texts = std::pair<std::optional<std::string>, std::optional<std::string>>;
  std::map<int64_t, Texts> byId_;
  std::map<Texts, int64_t> byTexts_;
  std::vector<DictionaryRow> rows_;
};

int64_t metaNumber(const InputSurvey& s, const char* name) {
  int64_t v = 0;
  const std::string* text = s.metaValue(name);
  if (!parseInt64(*text, v)) throw Error(s.path + ": META_DATA " + name + " '" + *text + "' is not a number");
  return v;
}

bool hasMeta(const InputSurvey& s, const char* name) {
  const std::string* v = s.metaValue(name);
  return v != nullptr && !v->empty();
}

// Versions must agree; clocks must be alignable: every input records
// epochOffset (its time 0 in ns since the Unix epoch) or none does.
void checkConsistent(const std::vector<InputSurvey>& in) {
  const InputSurvey& first = in[0];
  for (const InputSurvey& s : in) {
    if (*s.metaValue("formatVersion") != *first.metaValue("formatVersion")) {
      throw Error(s.path + ": asysrep format version " + *s.metaValue("formatVersion") + ", but " + first.path +
                  " is version " + *first.metaValue("formatVersion") + ": merge reports of one format version");
    }
    if (hasMeta(s, "epochOffset") != hasMeta(first, "epochOffset")) {
      const InputSurvey& with = hasMeta(s, "epochOffset") ? s : first;
      const InputSurvey& without = hasMeta(s, "epochOffset") ? first : s;
      throw Error(without.path + ": no META_DATA epochOffset, but " + with.path +
                  " has one: their clocks cannot be aligned");
    }
  }
}

// META_DATA of the merged report: format and version; hostName the distinct
// host names; the capture the earliest start and the latest end (when every
// input has them); epochOffset the first input's (the clock of the merged
// report); generator `asys merge`; any other key when every input gives it
// the same value.
std::vector<std::pair<std::string, std::string>> mergeMeta(const std::vector<InputSurvey>& in,
                                                           const std::vector<InputPlan>& plans) {
  std::vector<std::pair<std::string, std::string>> out;
  out.emplace_back("format", "asysrep");
  out.emplace_back("formatVersion", *in[0].metaValue("formatVersion"));
  std::vector<std::string> hosts;
  for (const InputSurvey& s : in) {
    if (!hasMeta(s, "hostName")) continue;
    if (std::find(hosts.begin(), hosts.end(), *s.metaValue("hostName")) == hosts.end())
      hosts.push_back(*s.metaValue("hostName"));
  }
  if (!hosts.empty()) {
    std::string joined;
    for (const std::string& h : hosts) joined += (joined.empty() ? "" : ", ") + h;
    out.emplace_back("hostName", joined);
  }
  auto everyone = [&](const char* key) {
    return std::all_of(in.begin(), in.end(), [&](const InputSurvey& s) { return hasMeta(s, key); });
  };
  if (everyone("captureStart") && everyone("captureEnd")) {
    int64_t start = INT64_MAX, end = INT64_MIN;
    for (size_t i = 0; i < in.size(); ++i) {
      start = std::min(start, metaNumber(in[i], "captureStart") + plans[i].timeShift);
      end = std::max(end, metaNumber(in[i], "captureEnd") + plans[i].timeShift);
    }
    out.emplace_back("captureStart", std::to_string(start));
    out.emplace_back("captureEnd", std::to_string(end));
  }
  if (everyone("epochOffset")) out.emplace_back("epochOffset", *in[0].metaValue("epochOffset"));
  out.emplace_back("generator", "asys merge (" + std::to_string(in.size()) + (in.size() == 1 ? " report)" : " reports)"));
  const std::set<std::string> merged = {"format",     "formatVersion", "hostName", "captureStart",
                                        "captureEnd", "epochOffset",   "generator"};
  for (const auto& entry : in[0].meta) {  // not a structured binding: lambdas capture it (Clang 15)
    if (merged.count(entry.first) != 0) continue;
    const bool same = std::all_of(in.begin(), in.end(), [&](const InputSurvey& s) {
      const std::string* v = s.metaValue(entry.first);
      return v != nullptr && *v == entry.second;
    });
    if (same) out.push_back(entry);
  }
  return out;
}

// Two names of one file would count its events twice.
void checkDistinct(const std::vector<std::string>& inputs) {
  for (size_t i = 0; i < inputs.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      std::error_code ec;
      if (std::filesystem::equivalent(inputs[i], inputs[j], ec)) {
        throw Error(inputs[i] + ": given twice (also as " + inputs[j] + "); a report merged with itself counts its events twice");
      }
    }
  }
}

}  // namespace

std::vector<IdPlan> planIdChanges(const std::vector<InputIds>& inputs) {
  IdAllocator pids(1, kMaxPid, "process id"), devices(0, INT32_MAX, "device id");
  for (const InputIds& s : inputs) {
    pids.reserve(s.pids);
    devices.reserve(s.devices);
  }
  std::vector<IdPlan> out;
  const bool clocks = !inputs.empty() && inputs[0].epochOffset.has_value();
  int64_t kernels = 0;
  for (const InputIds& s : inputs) {
    IdPlan p;
    p.kernelRowShift = kernels;
    kernels += s.kernelRows;
    p.pids = pids.assign(s.pids, s.path);
    p.devices = devices.assign(s.devices, s.path);
    if (clocks && s.epochOffset) p.timeShift = *s.epochOffset - *inputs[0].epochOffset;
    out.push_back(std::move(p));
  }
  return out;
}

InputIds inputIds(const InputSurvey& s) {
  InputIds ids{s.path, s.pids, s.devices, std::nullopt, 0};
  if (hasMeta(s, "epochOffset")) ids.epochOffset = metaNumber(s, "epochOffset");
  return ids;
}

MergePlan planMerge(const std::vector<std::string>& inputs) {
  if (inputs.empty()) throw Error("no report given");
  std::vector<InputSurvey> surveys;
  surveys.reserve(inputs.size());
  {
    StageTimer timer("merge: survey of " + std::to_string(inputs.size()) + " reports");
    for (const std::string& path : inputs) surveys.push_back(surveyInput(path));
  }
  checkDistinct(inputs);
  checkConsistent(surveys);

  const std::vector<MergeTable>& tables = mergeTables();
  MergePlan plan;
  std::vector<InputIds> ids;
  for (const InputSurvey& s : surveys) ids.push_back(inputIds(s));
  std::vector<IdPlan> idPlans = planIdChanges(ids);
  IdShifter strings, callchains, events;
  std::vector<DictionaryMerger> dictionaries(tables.size());
  for (size_t i = 0; i < surveys.size(); ++i) {
    const InputSurvey& s = surveys[i];
    InputPlan p;
    p.path = s.path;
    p.columns = s.columns;
    p.timeShift = idPlans[i].timeShift;
    p.pids = std::move(idPlans[i].pids);
    p.devices = std::move(idPlans[i].devices);
    p.stringShift = strings.shift(s.strings);
    p.callchainShift = callchains.shift(s.callchains);
    p.eventIdShift = events.shift(s.eventIds);
    for (size_t t = 0; t < tables.size(); ++t) {
      if (tables[t].merge != TableMerge::kDictionary) continue;
      IdChanges changes = dictionaries[t].add(s.dictionaries[t]);
      const IdKind kind = tables[t].columns[0].kind;
      (kind == IdKind::kCopyKind ? p.copyKinds : kind == IdKind::kMemKind ? p.memKinds : p.metrics) = std::move(changes);
    }
    plan.inputs.push_back(std::move(p));
  }
  plan.dictionaries.resize(tables.size());
  for (size_t t = 0; t < tables.size(); ++t) plan.dictionaries[t] = dictionaries[t].rows();
  plan.meta = mergeMeta(surveys, plan.inputs);
  return plan;
}

}  // namespace asys
