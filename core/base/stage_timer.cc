#include "core/base/stage_timer.h"

#include <cstdio>
#include <cstdlib>

namespace asys {

namespace {
bool profiling() {
  static const bool on = std::getenv("ASYS_PROFILE") != nullptr;
  return on;
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
  std::fprintf(stderr, "asys-profile: %s %.1f ms\n", stage_.c_str(), ms);
}

void profileNote(const std::string& line) {
  if (profiling()) std::fprintf(stderr, "asys-profile: %s\n", line.c_str());
}

}  // namespace asys
