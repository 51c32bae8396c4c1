#pragma once
// Coarse stage timings for profiling work (bench/README.md): with the
// environment variable ASYS_PROFILE set, each StageTimer prints one line
// "asys-profile: <stage> <ms> ms, process peak <MiB> MiB" to standard
// error when it goes out of scope: natively, the process's peak resident
// memory so far (the WebAssembly engine prints the time only). With
// ASYS_PROFILE=stages: "..., peak <MiB> MiB (process <MiB> MiB)", the
// stage's own peak too, found by resetting the kernel's high-water mark,
// which also resets the peak the process's parent is told (GNU time's %M):
// never measure a whole run's peak that way. Used around table loads and rule runs only, never per row.
#include <chrono>
#include <cstddef>
#include <string>

namespace asys {

class StageTimer {
 public:
  explicit StageTimer(std::string stage);
  ~StageTimer();
  StageTimer(const StageTimer&) = delete;
  StageTimer& operator=(const StageTimer&) = delete;

 private:
  std::string stage_;
  std::chrono::steady_clock::time_point start_;
  bool on_;
  static constexpr size_t kNoPeak = static_cast<size_t>(-1);
  size_t peakIndex_ = kNoPeak;  // this stage's place among the open ones
};

// With ASYS_PROFILE set, prints "asys-profile: <line>" (a figure that is no
// timing: the memory estimate's rows, for bench/rule-peaks.sh).
void profileNote(const std::string& line);

}  // namespace asys
