#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace asys {

// Small unsigned values (indices into a short table, counts) in 1 byte
// each while every one is below 255, in 2 while below 65,535, else in 4:
// the column is widened, whole, by the first value that needs it.
// ppu_op_trace's places (tens), hgtx_ppu_proj_trace's threads (hundreds)
// and children counts, the operator instances' recogniser ops and devices.
class SmallIds {
 public:
  void resize(size_t n) {
    switch (width_) {
      case 1: v8_.resize(n, 0); break;
      case 2: v16_.resize(n, 0); break;
      default: v32_.resize(n, 0); break;
    }
  }
  void reserve(size_t n) {
    switch (width_) {
      case 1: v8_.reserve(n); break;
      case 2: v16_.reserve(n); break;
      default: v32_.reserve(n); break;
    }
  }
  // Appended at the width the value needs (the column widened first).
  void push_back(uint32_t v) {
    widenFor(v);
    switch (width_) {
      case 1: v8_.push_back(static_cast<uint8_t>(v)); break;
      case 2: v16_.push_back(static_cast<uint16_t>(v)); break;
      default: v32_.push_back(v); break;
    }
  }
  void shrink_to_fit() {
    v8_.shrink_to_fit();
    v16_.shrink_to_fit();
    v32_.shrink_to_fit();
  }
  size_t size() const { return width_ == 1 ? v8_.size() : width_ == 2 ? v16_.size() : v32_.size(); }
  uint32_t get(size_t i) const { return width_ == 1 ? v8_[i] : width_ == 2 ? v16_[i] : v32_[i]; }
  void set(size_t i, uint32_t v) {
    widenFor(v);
    switch (width_) {
      case 1: v8_[i] = static_cast<uint8_t>(v); break;
      case 2: v16_[i] = static_cast<uint16_t>(v); break;
      default: v32_[i] = v; break;
    }
  }

 private:
  template <typename From, typename To>
  static void copyInto(std::vector<From>& from, std::vector<To>& to) {
    to.reserve(from.capacity());
    to.assign(from.begin(), from.end());
    std::vector<From>().swap(from);
  }
  void widenFor(uint32_t v) {
    if (width_ == 1 && v >= 0xFF) widen(v >= 0xFFFF ? 4 : 2);
    if (width_ == 2 && v >= 0xFFFF) widen(4);
  }
  void widen(int width) {
    if (width_ == 1 && width == 2) copyInto(v8_, v16_);
    else if (width_ == 1) copyInto(v8_, v32_);
    else copyInto(v16_, v32_);
    width_ = width;
  }
  int width_ = 1;
  std::vector<uint8_t> v8_;
  std::vector<uint16_t> v16_;
  std::vector<uint32_t> v32_;
};

}  // namespace asys
