#include "core/analysis/time_window.h"

#include <algorithm>
#include <vector>

#include "core/analysis/hgtx_ranges.h"
#include "core/base/error.h"
#include "core/base/text.h"
#include "core/report/report.h"

namespace asys {

namespace {

// A --filter-time bound past int64 from a late capture start is past every
// time of the report: it saturates (origin is within kTimeLimit, v >= 0).
int64_t fromOrigin(int64_t origin, int64_t v) {
  int64_t t;
  return __builtin_add_overflow(origin, v, &t) ? INT64_MAX : t;
}

TimeWindow fromFilterTime(Report& report, const std::string& spec) {
  size_t slash = spec.find('/');
  auto bad = [&]() -> TimeWindow {
    throw Error("--filter-time: expected START/END in nanoseconds from the capture start, got '" + spec + "'");
  };
  if (slash == std::string::npos) return bad();
  std::string_view a = std::string_view(spec).substr(0, slash), b = std::string_view(spec).substr(slash + 1);
  int64_t origin = report.summary().captureStart == kNoValue ? 0 : report.summary().captureStart;
  TimeWindow w;
  int64_t v = 0;
  if (!a.empty()) {
    if (!parseInt64(a, v) || v < 0) return bad();
    w.start = fromOrigin(origin, v);
  }
  if (!b.empty()) {
    if (!parseInt64(b, v) || v < 0) return bad();
    w.end = fromOrigin(origin, v);
  }
  if (w.end <= w.start) throw Error("--filter-time: END must be after START in '" + spec + "'");
  return w;
}

TimeWindow fromFilterHgtx(Report& report, const std::string& spec) {
  std::string name = spec, domain;
  int64_t index = 0;
  if (size_t slash = name.rfind('/'); slash != std::string::npos) {
    int64_t v = 0;
    if (parseInt64(std::string_view(name).substr(slash + 1), v)) {
      if (v < 0) throw Error("--filter-hgtx: the index in '" + spec + "' must be 0 or more");
      index = v;
      name.resize(slash);
    }
  }
  bool hasDomain = false;
  if (size_t at = name.rfind('@'); at != std::string::npos) {
    domain = name.substr(at + 1);
    name.resize(at);
    hasDomain = true;
  }
  if (name.empty()) throw Error("--filter-hgtx: expected NAME[@DOMAIN][/INDEX], got '" + spec + "'");

  const HgtxEvents& h = report.hgtx();
  StringPool& strings = report.strings();
  std::vector<size_t> matches;
  for (size_t i = 0; i < h.size(); ++i) {
    if (!isRange(h, i) || strings.get(h.nameId[i]) != name) continue;
    const uint32_t domainName = report.hgtxDomainName(h.globalTid[i], h.domainId[i]);
    const bool named = domainName != kNoString;
    if (hasDomain ? (named && strings.get(domainName) == domain) : !named) matches.push_back(i);
  }
  std::string what = "'" + name + "'" + (hasDomain ? " in domain '" + domain + "'" : "");
  if (matches.empty()) throw Error("--filter-hgtx: the report has no HGTX range named " + what);
  if (static_cast<size_t>(index) >= matches.size()) {
    throw Error("--filter-hgtx: index " + std::to_string(index) + " is out of range: the report has " +
                std::to_string(matches.size()) + " ranges named " + what);
  }
  std::stable_sort(matches.begin(), matches.end(), [&](size_t a, size_t b) { return h.start[a] < h.start[b]; });
  size_t i = matches[static_cast<size_t>(index)];
  return {h.start[i], h.end[i]};
}

}  // namespace

Span statisticsRange(const Report& report, const TimeWindow& window, Span fallback) {
  const ReportSummary& s = report.summary();
  Span out = fallback;
  if (window.start != std::numeric_limits<int64_t>::min()) out.start = window.start;
  else if (s.captureStart != kNoValue) out.start = s.captureStart;
  if (window.end != std::numeric_limits<int64_t>::max()) out.end = window.end;
  else if (s.captureEnd != kNoValue) out.end = s.captureEnd;
  return out;
}

TimeWindow resolveTimeWindow(Report& report, const std::string& filterTime, const std::string& filterHgtx) {
  if (!filterHgtx.empty()) return fromFilterHgtx(report, filterHgtx);
  if (!filterTime.empty()) return fromFilterTime(report, filterTime);
  return {};
}

}  // namespace asys
