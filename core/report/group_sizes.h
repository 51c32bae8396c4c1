#pragma once
// A view's rows in groups (a kernel's rows, one per range), with each
// group's row count held in one byte and every 64th group's first row in
// four: about 1 byte a group in place
// of a first row's 4 (hgtx_kern_trace: 9.8 M kernels at scale 2500, 37 ->
// 10 MiB held while its rows are written). A group of 255 rows or more
// (a kernel's ranges are its nesting levels: rare) is held beside. The
// rows must be fewer than 2^32 (rows() says when a group passes that).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace asys {

class GroupSizes {
 public:
  void reserve(size_t groups) {
    size_.reserve(groups);
    first_.reserve(groups / kEvery + 1);
  }
  // The next group, of `rows` rows.
  void add(size_t rows) {
    if (size_.size() % kEvery == 0) first_.push_back(static_cast<uint32_t>(rows_));
    if (rows < kBig) {
      size_.push_back(static_cast<uint8_t>(rows));
    } else {
      size_.push_back(kBig);
      big_.emplace_back(static_cast<uint32_t>(size_.size() - 1), static_cast<uint32_t>(rows));
    }
    rows_ += rows;  // the caller stops past 2^32 - 1
  }
  size_t groups() const { return size_.size(); }
  size_t rows() const { return rows_; }
  // Group g's row count.
  size_t sizeOf(size_t g) const {
    if (size_[g] != kBig) return size_[g];
    return std::lower_bound(big_.begin(), big_.end(), std::pair<uint32_t, uint32_t>(static_cast<uint32_t>(g), 0))
        ->second;
  }

  // Which group row r is in, for rows asked in ascending order from
  // `from`: one search to start, then a walk.
  class Walk {
   public:
    Walk(const GroupSizes& sizes, size_t from) : sizes_(sizes) {
      const auto block = std::upper_bound(sizes.first_.begin(), sizes.first_.end(), from);
      if (block != sizes.first_.begin()) {
        group_ = static_cast<size_t>(block - sizes.first_.begin() - 1) * kEvery;
        start_ = *(block - 1);
      }
      groupOf(from);
    }
    // The group of row r (r >= the last row asked; below the row count, or
    // past the groups' end).
    size_t groupOf(size_t r) {
      while (group_ < sizes_.groups() && start_ + sizes_.sizeOf(group_) <= r) start_ += sizes_.sizeOf(group_++);
      return group_;
    }
    // Row r's place in its group (after groupOf(r)).
    size_t indexOf(size_t r) const { return r - start_; }

   private:
    const GroupSizes& sizes_;
    size_t group_ = 0;
    size_t start_ = 0;  // group_'s first row
  };
  Walk walkFrom(size_t from) const { return Walk(*this, from); }

 private:
  static constexpr size_t kEvery = 64;
  static constexpr uint8_t kBig = 255;
  std::vector<uint8_t> size_;
  std::vector<uint32_t> first_;  // group k * kEvery's first row
  std::vector<std::pair<uint32_t, uint32_t>> big_;  // (group, rows) of the groups of kBig rows or more, by group
  size_t rows_ = 0;
};

}  // namespace asys
