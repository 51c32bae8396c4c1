#include "core/base/stage_timer.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

namespace asys {

namespace {
bool profiling() {
  static const bool on = std::getenv("ASYS_PROFILE") != nullptr;
  return on;
}

// The process's peak resident memory so far (VmHWM), natively (Linux),
// and with ASYS_PROFILE=stages each stage's own: the kernel's high-water
// mark is then read and reset (clear_refs 5) at every stage's start and
// end, and each reading is the peak of the interval
// since the one before, given to every stage open over it. So a stage's
// peak is its own even where an earlier one peaked higher, and nested
// stages (a scan within an association step) each get theirs. Where there
// is no /proc (the WebAssembly engine) only the time is printed.
class Peaks {
 public:
  static Peaks& get() {
    static Peaks peaks;
    return peaks;
  }
  bool on() const { return overall_ >= 0; }
  // Whether each stage's own peak is told (ASYS_PROFILE=stages), not only
  // the process's so far.
  bool resets() const { return resets_; }
  // A stage opens: returns its index (its peak starts at the interval's).
  size_t open() {
    std::lock_guard<std::mutex> lock(mutex_);
    sampleLocked();
    open_.push_back(0);
    return open_.size() - 1;
  }
  // Stage `index` closes: its own peak and the process's so far, in KiB.
  std::pair<long, long> close(size_t index) {
    std::lock_guard<std::mutex> lock(mutex_);
    sampleLocked();
    const long own = index < open_.size() ? open_[index] : -1;
    if (index < open_.size()) open_.resize(index);  // a stage closes those opened within it
    return {own, overall_};
  }

 private:
  Peaks() {
    overall_ = readHwm();
    // Resetting the high-water mark also resets what the process's parent
    // is told at its exit (GNU time's %M), so it is done only when asked.
    const char* mode = std::getenv("ASYS_PROFILE");
    resets_ = overall_ >= 0 && mode && std::strcmp(mode, "stages") == 0 && reset();
  }
  static long readHwm() {
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
  static bool reset() {
    std::FILE* refs = std::fopen("/proc/self/clear_refs", "w");
    if (!refs) return false;
    const bool ok = std::fputs("5", refs) >= 0;
    return std::fclose(refs) == 0 && ok;
  }
  void sampleLocked() {
    if (overall_ < 0) return;
    const long kib = readHwm();
    if (resets_) reset();
    overall_ = std::max(overall_, kib);
    for (long& peak : open_) peak = std::max(peak, kib);
  }

  bool resets_ = false;
  long overall_ = -1;  // -1: no /proc
  std::vector<long> open_;  // the open stages' peaks, outermost first
  std::mutex mutex_;
};
}  // namespace

StageTimer::StageTimer(std::string stage) : on_(profiling()) {
  if (!on_) return;
  stage_ = std::move(stage);
  if (Peaks::get().on()) peakIndex_ = Peaks::get().open();
  start_ = std::chrono::steady_clock::now();
}

StageTimer::~StageTimer() {
  if (!on_) return;
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
  if (peakIndex_ == kNoPeak) {
    std::fprintf(stderr, "asys-profile: %s %.1f ms\n", stage_.c_str(), ms);
    return;
  }
  const auto [own, overall] = Peaks::get().close(peakIndex_);
  if (Peaks::get().resets())
    std::fprintf(stderr, "asys-profile: %s %.1f ms, peak %.1f MiB (process %.1f MiB)\n", stage_.c_str(), ms,
                 own / 1024.0, overall / 1024.0);
  else
    std::fprintf(stderr, "asys-profile: %s %.1f ms, process peak %.1f MiB\n", stage_.c_str(), ms, overall / 1024.0);
}

void profileNote(const std::string& line) {
  if (profiling()) std::fprintf(stderr, "asys-profile: %s\n", line.c_str());
}

}  // namespace asys
