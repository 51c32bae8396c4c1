// No a*b+c fusion: the CLI and WebAssembly print the same digits.
#include "core/base/fp_contract.h"

#include "core/operators/utilisation.h"

#include <array>
#include <cmath>

#include "core/analysis/stats.h"

namespace asys {

void UtilisationSum::add(const OpWork& work, int32_t device, int64_t durationNs, const DevicePeaks& peaks) {
  any_ = true;
  ++added_;
  const double ns = static_cast<double>(durationNs);
  const double peak = peaks.flops(device, work.dtype), hbm = peaks.hbm(device);
  if (work.flops < 0 || peak <= 0) {
    flopsKnown_ = false;
    ++flopsUnknown_;
  } else {
    flops_.add(work.flops);
    flopCapacity_.add(peak * ns);
  }
  const double read = work.bytesRead(), written = work.bytesWritten();
  if (read < 0 || hbm <= 0) {
    readKnown_ = false;
    ++readUnknown_;
  } else {
    read_.add(read);
  }
  if (written < 0 || hbm <= 0) {
    writtenKnown_ = false;
    ++writtenUnknown_;
  } else {
    written_.add(written);
  }
  if (hbm > 0) byteCapacity_.add(hbm * ns);
}

std::optional<double> UtilisationSum::percent(const ExactSum& work, const ExactSum& capacity, bool known) const {
  const double c = capacity.value(), w = work.value();
  if (!any_ || !known || !(c > 0) || std::isnan(w)) return std::nullopt;
  // work / (capacity x 1e-9 s) as a percentage.
  const double pct = w * 1e11 / c;
  return round1Near(pct);
}

bool UtilisationSum::exact() const {
  return flops_.exact() && flopCapacity_.exact() && read_.exact() && written_.exact() && byteCapacity_.exact();
}

void UtilisationSum::appendParts(std::vector<std::vector<int64_t>>& columns, size_t first) const {
  size_t c = first;
  for (const ExactSum* s : {&flops_, &flopCapacity_, &read_, &written_, &byteCapacity_}) {
    for (uint64_t limb : s->normalizedLimbs()) columns[c++].push_back(static_cast<int64_t>(limb));
  }
  columns[c++].push_back(flops_.inexactCount() + flopCapacity_.inexactCount() + read_.inexactCount() +
                         written_.inexactCount() + byteCapacity_.inexactCount());
  columns[c++].push_back(added_);
  columns[c++].push_back(flopsUnknown_);
  columns[c++].push_back(readUnknown_);
  columns[c++].push_back(writtenUnknown_);
}

UtilisationSum UtilisationSum::ofParts(const std::vector<std::vector<int64_t>>& columns, size_t first, size_t group) {
  UtilisationSum u;
  size_t c = first;
  const int64_t inexact = columns[first + 5 * ExactSum::kLimbs][group];
  for (ExactSum* s : {&u.flops_, &u.flopCapacity_, &u.read_, &u.written_, &u.byteCapacity_}) {
    std::array<uint64_t, ExactSum::kLimbs> limbs;
    for (uint64_t& l : limbs) l = static_cast<uint64_t>(columns[c++][group]);
    *s = ExactSum::ofLimbs(limbs, inexact);
  }
  ++c;
  u.added_ = columns[c++][group];
  u.flopsUnknown_ = columns[c++][group];
  u.readUnknown_ = columns[c++][group];
  u.writtenUnknown_ = columns[c++][group];
  u.any_ = u.added_ > 0;
  u.flopsKnown_ = u.flopsUnknown_ == 0;
  u.readKnown_ = u.readUnknown_ == 0;
  u.writtenKnown_ = u.writtenUnknown_ == 0;
  return u;
}

}  // namespace asys
