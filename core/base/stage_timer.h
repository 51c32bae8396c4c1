#pragma once
// Coarse stage timings for profiling work (bench/README.md): with the
// environment variable ASYS_PROFILE set, each StageTimer prints one line
// "asys-profile: <stage> <ms> ms, peak <MiB> MiB" to standard error when it
// goes out of scope (the peak: the process's resident high-water mark so
// far, natively only). Used around table loads and rule runs only, never per row.
#include <chrono>
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
};

// With ASYS_PROFILE set, prints "asys-profile: <line>" (a figure that is no
// timing: the memory estimate's rows, for bench/rule-peaks.sh).
void profileNote(const std::string& line);

}  // namespace asys
