// asys_selection_stats REPORT FROM TO: the native selection statistics of
// [FROM, TO) (absolute ns) over REPORT's timeline (core/timeline/
// selection_stats.h), for tests/wasm/selection_stats.test.mjs to compare the
// WebAssembly bridge's timelineSelection with: one JSON line (the window and
// each PPU's times and one-decimal percentages), then the grouped table as
// the CLI's CSV writer writes it.
#include <charconv>
#include <cstdio>
#include <iostream>
#include <string>

#include "core/analysis/stats.h"
#include "core/base/error.h"
#include "core/base/json.h"
#include "core/report/report.h"
#include "core/table/writers.h"
#include "core/timeline/selection_stats.h"
#include "core/timeline/timeline.h"

namespace {

int64_t parse(const char* text) {
  int64_t v = 0;
  const std::string s(text);
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) throw asys::Error(std::string("not a time in ns: ") + text);
  return v;
}

std::string oneDecimal(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: asys_selection_stats REPORT FROM TO\n";
    return 2;
  }
  try {
    auto report = asys::Report::open(argv[1]);
    const asys::Timeline timeline = asys::Timeline::build(*report);
    const asys::WindowStats s = asys::windowStats(timeline, report->strings(), parse(argv[2]), parse(argv[3]));
    asys::JsonWriter j;
    j.beginObject().key("from").integer(s.from).key("to").integer(s.to).key("devices").beginArray();
    for (const asys::DeviceWindowStats& d : s.devices) {
      const int64_t idle = s.length() - d.active;
      j.beginObject().key("device").integer(d.device).key("name").string(d.name);
      j.key("active").integer(d.active).key("idle").integer(idle).key("kernel").integer(d.kernel).key("memory").integer(d.memory);
      j.key("activePercent").string(oneDecimal(asys::percent1(d.active, s.length())));
      j.key("idlePercent").string(oneDecimal(asys::percent1(idle, s.length())));
      j.key("kernelPercent").string(oneDecimal(asys::percent1(d.kernel, s.length())));
      j.key("memoryPercent").string(oneDecimal(asys::percent1(d.memory, s.length())));
      j.endObject();
    }
    j.endArray().endObject();
    std::cout << j.text() << "\n";
    asys::writeTable(s.events, asys::OutputFormat::Csv, std::cout);
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "asys_selection_stats: " << e.what() << "\n";
    return 1;
  }
}
