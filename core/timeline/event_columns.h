#pragma once
// The timeline's per-event columns, packed: a track holds tens of millions of
// events in the 2 GB WebAssembly heap, so each column keeps what it needs,
// exactly (docs/timeline.md, "Building, and its memory"):
// - times (PackedTimes): 4 bytes a value instead of 8, as offsets from the
//   smallest value of each block of 256; a block whose values span 2^32 ns
//   (4.3 s) or more keeps them whole;
// - table rows (PackedIndices, the same with 2-byte offsets): 2 bytes where
//   a block's rows span under 65,536, else 4;
// - names (NameColumn): 2 bytes, an index into the track's distinct names,
//   while a track has at most 65,536 of them (else the ids, 4 bytes);
// - lanes (LaneColumn): nothing on a one-lane track, 1 byte up to 256 lanes,
//   else 2;
// - kinds (KindColumn): nothing when every event is of one kind, else 1 byte.
// Each reads by index (operator[]) as the plain vector it replaces did.
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace asys {

// HgtxStartEnd: an HGTX start/end range (a row of HGTX_EVENTS, like Hgtx);
// AllocFailure: a failed allocation call drawn again on its process's row (a
// row of HGGC_API, like ApiError; core/timeline/host_rows.h).
enum class TimelineKind : uint8_t {
  Kernel, Memcpy, Memset, Api, ApiError, Hgtx, Osrt, PcclKernel, PcclStage, Projection, HgtxStartEnd, AllocFailure,
  GraphLaunch  // a graph row's launch (graph_rows.cc): a summary of a graph exec's activities on its stream
};

// Gives a vector's memory back now (`v = {}` keeps its capacity).
template <typename T>
void freeVector(std::vector<T>& v) {
  std::vector<T>().swap(v);
}

// Values packed in blocks of 256: each block keeps its smallest value and,
// per value, the offset from it in `Offset` (4 bytes for times, 2 for
// indices and counts); a block whose values span more than `Offset` holds
// keeps them whole. Reads back exact whatever the values.
template <typename Value, typename Offset>
class PackedValues {
 public:
  static constexpr size_t kBlock = 256;
  PackedValues() = default;
  explicit PackedValues(const std::vector<Value>& values);

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // Inlined always: the window queries and sweeps read it per event.
  [[gnu::always_inline]] Value operator[](size_t i) const {
    const size_t b = i / kBlock;
    const uint32_t w = wideAt_[b];
    if (w != kNarrow) return wide_[w + i % kBlock];
    // base + offset <= the block's largest value: no overflow; unsigned so
    // that a base near the type's minimum adds without a signed overflow.
    return static_cast<Value>(static_cast<Unsigned>(base_[b]) + offset_[i]);
  }
  // The largest value of the block holding index i: a window query skips
  // a block of events that all ended before it.
  Value blockMax(size_t i) const { return max_[i / kBlock]; }
  // The first index whose value is >= v (or > v), the values ascending, as
  // std::lower_bound (std::upper_bound) over the plain vector.
  size_t lowerBound(Value v) const;
  size_t upperBound(Value v) const;
  // The largest value (the type's minimum when empty).
  Value max() const;
  size_t bytes() const;

 private:
  using Unsigned = std::make_unsigned_t<Value>;
  static constexpr uint32_t kNarrow = 0xFFFFFFFFu;
  size_t size_ = 0;
  std::vector<Value> base_;       // per block: its smallest value
  std::vector<Value> max_;        // per block: its largest value
  std::vector<uint32_t> wideAt_;  // per block: kNarrow, or where its values start in wide_
  std::vector<Offset> offset_;    // per value: from its block's base (0 in a wide block)
  std::vector<Value> wide_;       // the values of the wide blocks, whole
};

// Times (ns): 4 bytes a value where a block spans under 2^32 ns (4.3 s).
using PackedTimes = PackedValues<int64_t, uint32_t>;
// Indices and counts (an event's table row, a slice's event and count): 2
// bytes a value where a block spans under 65,536.
using PackedIndices = PackedValues<uint32_t, uint16_t>;

class NameColumn {
 public:
  NameColumn() = default;
  explicit NameColumn(const std::vector<uint32_t>& names);
  size_t size() const { return size_; }
  uint32_t operator[](size_t i) const { return ids_.empty() ? distinct_[code_[i]] : ids_[i]; }
  size_t bytes() const;

 private:
  size_t size_ = 0;
  std::vector<uint32_t> distinct_;  // the track's names, by code
  std::vector<uint16_t> code_;      // per event, while there are at most 65,536 names
  std::vector<uint32_t> ids_;       // per event, above that
};

class LaneColumn {
 public:
  LaneColumn() = default;
  explicit LaneColumn(const std::vector<uint16_t>& lanes);
  size_t size() const { return size_; }
  uint16_t operator[](size_t i) const { return !small_.empty() ? small_[i] : !wide_.empty() ? wide_[i] : 0; }
  size_t bytes() const { return small_.capacity() + 2 * wide_.capacity(); }

 private:
  size_t size_ = 0;
  std::vector<uint8_t> small_;  // every lane under 256 (empty: every lane 0)
  std::vector<uint16_t> wide_;  // some lane 256 or more
};

class KindColumn {
 public:
  KindColumn() = default;
  explicit KindColumn(const std::vector<TimelineKind>& kinds);
  size_t size() const { return size_; }
  TimelineKind operator[](size_t i) const { return each_.empty() ? only_ : each_[i]; }
  size_t bytes() const { return each_.capacity(); }

 private:
  size_t size_ = 0;
  TimelineKind only_ = TimelineKind::Kernel;
  std::vector<TimelineKind> each_;  // empty when every event is `only_`
};

// A packed column equals a plain vector holding the same values in the same
// order (tests compare tracks with hand-worked vectors).
template <typename Column, typename T>
bool sameValues(const Column& c, const std::vector<T>& v) {
  if (c.size() != v.size()) return false;
  for (size_t i = 0; i < v.size(); ++i)
    if (!(c[i] == v[i])) return false;
  return true;
}
template <typename Value, typename Offset>
bool operator==(const PackedValues<Value, Offset>& c, const std::vector<Value>& v) {
  return sameValues(c, v);
}
inline bool operator==(const NameColumn& c, const std::vector<uint32_t>& v) { return sameValues(c, v); }
inline bool operator==(const LaneColumn& c, const std::vector<uint16_t>& v) { return sameValues(c, v); }
inline bool operator==(const KindColumn& c, const std::vector<TimelineKind>& v) { return sameValues(c, v); }

}  // namespace asys
