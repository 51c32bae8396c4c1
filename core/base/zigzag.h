#pragma once
// Signed values as unsigned ones that stay small where the value is near
// zero either way (0, -1, 1, -2 ... -> 0, 1, 2, 3 ...): what a step between
// neighbours (the sweep's streams, range_sweep.h) or a distance between two
// ids (OperatorSet::libraryFromTop) is stored as.
#include <cstdint>

namespace asys {

inline uint64_t zigzag(int64_t v) { return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63); }
inline int64_t unzigzag(uint64_t v) { return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1); }

}  // namespace asys
