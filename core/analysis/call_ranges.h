#pragma once
// The ranges around each HGGC API call, held as a tree instead of as lists
// (docs/big-reports.md, "The calls' ranges as a tree"). Push/pop ranges on a
// thread nest, so the ranges around a call are, nearly always, its innermost
// range (the last of them in slot order) and that range's ancestors: each
// range's parent is the last range before it in slot order, on its thread,
// that contains it (RangeSweep::parents). A call is held as its innermost
// range (4 bytes) where that chain is exactly its ranges, checked range by
// range against what the sweep found when the call is set; any other call
// (a zero-length call where one range ends and another starts, start/end
// ranges that overlap without nesting) keeps its list as found. So a reader
// gets the same ranges in the same (slot) order either way, and the lists of
// (call, range) pairs (4 bytes a pair and 4 a call) are never held.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

#include "core/analysis/key_join.h"
#include "core/base/grouped_lists.h"

namespace asys {

// A list of range slots in slot order, by value: read off a call's chain
// (held inline when short, as every real nesting is) or a span of a list
// held elsewhere (which must outlive it).
class RangeList {
 public:
  RangeList() = default;
  explicit RangeList(std::span<const uint32_t> held) : held_(held.data()), size_(held.size()) {}

  const uint32_t* begin() const { return data(); }
  const uint32_t* end() const { return data() + size_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  uint32_t operator[](size_t i) const { return data()[i]; }
  uint32_t back() const { return data()[size_ - 1]; }
  std::span<const uint32_t> span() const { return {data(), size_}; }

 private:
  friend class CallRanges;
  static constexpr size_t kInline = 15;
  const uint32_t* data() const { return held_ ? held_ : deep_.empty() ? inline_ : deep_.data(); }

  const uint32_t* held_ = nullptr;
  size_t size_ = 0;
  uint32_t inline_[kInline];
  std::vector<uint32_t> deep_;  // a chain deeper than kInline
};

class CallRanges {
 public:
  // Marks a call whose ranges are a list of their own (the low bits: its
  // index in listed_); any other value below is the call's innermost range.
  static constexpr uint32_t kListed = 0x80000000u;

  CallRanges() = default;
  // `parent`: by range slot, its parent or kNoMatch (RangeSweep::parents).
  explicit CallRanges(std::vector<uint32_t> parent) { setParents(std::move(parent)); }
  // The same with `calls` calls, each with no range yet (set() after).
  CallRanges(std::vector<uint32_t> parent, size_t calls) : CallRanges(std::move(parent)) { resize(calls); }

  // The parents, for a list made before they were known (its calls all
  // set after).
  void setParents(std::vector<uint32_t> parent) {
    if (parent.size() >= kListed) throw std::length_error("more HGTX ranges than a call's ranges can refer to");
    parent_ = std::move(parent);
  }

  // `calls` calls, each with no range yet (set() after).
  void resize(size_t calls) {
    inner_.assign(calls, kNoMatch);
    calls_ = calls;
  }
  // Instead, `calls` calls of which few have ranges: only those are held,
  // each with its row (8 bytes a call with ranges, none for the others),
  // added with setSparse in ascending row order.
  void sparse(size_t calls) {
    std::vector<uint32_t>().swap(inner_);
    sparse_ = true;
    calls_ = calls;
  }
  void setSparse(size_t row, std::span<const uint32_t> ranges) {
    if (ranges.empty()) return;
    rows_.push_back(static_cast<uint32_t>(row));
    inner_.push_back(kNoMatch);
    set(inner_.size() - 1, ranges);
  }
  void reserve(size_t calls) { inner_.reserve(calls); }
  // The next call (its row: calls() before), with `ranges` around it in slot order.
  void push(std::span<const uint32_t> ranges) {
    inner_.push_back(kNoMatch);
    calls_ = inner_.size();
    set(inner_.size() - 1, ranges);
  }
  // Call `row` (of resize's) has `ranges` around it, in slot order; each
  // call is set once, listed calls in ascending row order.
  void set(size_t row, std::span<const uint32_t> ranges) {
    if (ranges.empty()) {
      inner_[row] = kNoMatch;
    } else if (isChain(ranges)) {
      inner_[row] = ranges.back();
    } else {
      list(row, ranges);
    }
  }
  // A list held as given, whatever the tree says (tests; a caller whose
  // lists do not come from a sweep).
  void setListed(size_t row, std::span<const uint32_t> ranges) {
    if (row >= inner_.size()) inner_.resize(row + 1, kNoMatch);
    calls_ = inner_.size();
    list(row, ranges);
  }

  size_t calls() const { return calls_; }
  // The calls whose ranges are a list of their own, and their ranges.
  size_t listedCalls() const { return listed_.groups(); }
  size_t listedRanges() const { return listed_.size(); }

  // Call `row`'s ranges, in slot order.
  RangeList of(size_t row) const { return ofValue(valueOf(row)); }

  // What the tree holds for call `row`: kNoMatch (no range), its innermost
  // range, or kListed | its list. A reader that holds it by something else
  // (hgtx_kern_sum: by activity) reads the ranges with ofValue and may give
  // back the calls' values (dropCalls): the parents and lists stay.
  uint32_t valueOf(size_t row) const {
    if (!sparse_) return inner_[row];
    const auto it = std::lower_bound(rows_.begin(), rows_.end(), static_cast<uint32_t>(row));
    return it == rows_.end() || *it != row ? kNoMatch : inner_[static_cast<size_t>(it - rows_.begin())];
  }
  // The calls' values given back (4 bytes a call): valueOf and of read
  // nothing after, ofValue still does.
  void dropCalls() {
    std::vector<uint32_t>().swap(inner_);
    std::vector<uint32_t>().swap(rows_);
  }
  // The ranges of a value valueOf gave, in slot order.
  RangeList ofValue(uint32_t v) const {
    if (v == kNoMatch) return {};
    if (v & kListed) return RangeList(listed_.of(v & ~kListed));
    // One walk up the chain, innermost first, then turned to slot order.
    RangeList out;
    size_t n = 0;
    for (uint32_t r = v; r != kNoMatch; r = parent_[r], ++n) {
      if (n < RangeList::kInline) {
        out.inline_[n] = r;
        continue;
      }
      if (n == RangeList::kInline) out.deep_.assign(out.inline_, out.inline_ + n);
      out.deep_.push_back(r);
    }
    uint32_t* at = n > RangeList::kInline ? out.deep_.data() : out.inline_;
    std::reverse(at, at + n);
    out.size_ = n;
    return out;
  }

 private:
  // Call `row` keeps `ranges` as a list of its own.
  void list(size_t row, std::span<const uint32_t> ranges) {
    inner_[row] = kListed | static_cast<uint32_t>(listed_.groups());
    for (const uint32_t r : ranges) listed_.append(r);
    listed_.endGroup();
  }
  // Whether `ranges` (slot order) are their last one's chain of ancestors, exactly.
  bool isChain(std::span<const uint32_t> ranges) const {
    uint32_t r = ranges.back();
    for (size_t i = ranges.size(); i-- > 0; r = parent_[r])
      if (r == kNoMatch || r != ranges[i] || r >= parent_.size()) return false;
    return r == kNoMatch;
  }

  std::vector<uint32_t> parent_;  // by range slot
  std::vector<uint32_t> inner_;   // by HGGC_API row (sparse: by rows_ entry): kNoMatch, an innermost range, or kListed | list
  GroupedLists<uint32_t> listed_;
  size_t calls_ = 0;
  bool sparse_ = false;
  std::vector<uint32_t> rows_;    // sparse: the calls with ranges, ascending
};

}  // namespace asys
