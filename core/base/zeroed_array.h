#pragma once
// A fixed-size array of a trivially copyable type whose all-zero bytes are
// its empty value, allocated zeroed (calloc) rather than written zero (as
// std::vector::assign does): where the allocator maps a large block anew
// (glibc: every block past its mmap threshold) its pages are faulted in
// only as they are first written, so a column filled in order by a step
// that frees as much behind it (giveBackPassed) does not hold its whole
// size from the step's start. Elsewhere the same values, zeroed at once.
#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>

namespace asys {

template <typename T>
class ZeroedArray {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  ZeroedArray() = default;
  explicit ZeroedArray(size_t n) : size_(n) {
    if (n == 0) return;
    data_.reset(static_cast<T*>(std::calloc(n, sizeof(T))));
    if (!data_) throw std::bad_alloc();
  }
  ZeroedArray(ZeroedArray&& o) noexcept : data_(std::move(o.data_)), size_(std::exchange(o.size_, 0)) {}
  ZeroedArray& operator=(ZeroedArray&& o) noexcept {
    data_ = std::move(o.data_);
    size_ = std::exchange(o.size_, 0);
    return *this;
  }
  size_t size() const { return size_; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }

 private:
  struct Free {
    void operator()(T* p) const { std::free(p); }
  };
  std::unique_ptr<T[], Free> data_;
  size_t size_ = 0;
};

}  // namespace asys
