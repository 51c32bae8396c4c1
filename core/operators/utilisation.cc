// No a*b+c fusion: the CLI and WebAssembly print the same digits.
#include "core/base/fp_contract.h"

#include "core/operators/utilisation.h"

#include "core/analysis/stats.h"

namespace asys {

void UtilisationSum::add(const OpWork& work, int32_t device, int64_t durationNs, const DevicePeaks& peaks) {
  any_ = true;
  const double ns = static_cast<double>(durationNs);
  const double peak = peaks.flops(device, work.dtype), hbm = peaks.hbm(device);
  if (work.flops < 0 || peak <= 0) flopsKnown_ = false;
  else {
    flops_ += work.flops;
    flopCapacity_ += peak * ns;
  }
  const double read = work.bytesRead(), written = work.bytesWritten();
  if (read < 0 || hbm <= 0) readKnown_ = false;
  else read_ += read;
  if (written < 0 || hbm <= 0) writtenKnown_ = false;
  else written_ += written;
  if (hbm > 0) byteCapacity_ += hbm * ns;
}

std::optional<double> UtilisationSum::percent(double work, double capacity, bool known) const {
  if (!any_ || !known || capacity <= 0) return std::nullopt;
  // work / (capacity x 1e-9 s) as a percentage.
  const double pct = work * 1e11 / capacity;
  return round1Near(pct);
}

}  // namespace asys
