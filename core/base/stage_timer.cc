#include "core/base/stage_timer.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace asys {

namespace {
bool profiling() {
  static const bool on = std::getenv("ASYS_PROFILE") != nullptr;
  return on;
}
// The process's peak resident memory so far in KiB (Linux's VmHWM), or -1
// where there is none (the WebAssembly engine): what tells a rule's peak
// step from the others (docs/big-reports.md).
long peakKiB() {
  std::FILE* status = std::fopen("/proc/self/status", "r");
  if (!status) return -1;
  char line[256];
  long kib = -1;
  while (std::fgets(line, sizeof line, status))
    if (std::strncmp(line, "VmHWM:", 6) == 0) {
      kib = std::strtol(line + 6, nullptr, 10);
      break;
    }
  std::fclose(status);
  return kib;
}
}  // namespace

StageTimer::StageTimer(std::string stage) : on_(profiling()) {
  if (!on_) return;
  stage_ = std::move(stage);
  start_ = std::chrono::steady_clock::now();
}

StageTimer::~StageTimer() {
  if (!on_) return;
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
  const long kib = peakKiB();
  if (kib < 0)
    std::fprintf(stderr, "asys-profile: %s %.1f ms\n", stage_.c_str(), ms);
  else
    std::fprintf(stderr, "asys-profile: %s %.1f ms, peak %.1f MiB\n", stage_.c_str(), ms, kib / 1024.0);
}

void profileNote(const std::string& line) {
  if (profiling()) std::fprintf(stderr, "asys-profile: %s\n", line.c_str());
}

}  // namespace asys
