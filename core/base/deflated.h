// Bytes deflated as they are put (zlib, level 1, in 64 KiB stages) and read
// back in the same order: a holder that must keep something large but idle
// for a while packs it (a compare rule's base side while its target side
// runs, core/rules/compare.cc). Vectors go with their length first.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <zlib.h>

namespace asys {

class Deflated {
 public:
  Deflated() {
    if (deflateInit(&z_, 1) != Z_OK) throw std::runtime_error("zlib cannot deflate");
  }
  Deflated(const Deflated&) = delete;
  Deflated& operator=(const Deflated&) = delete;
  ~Deflated() { end(); }

  void put(const void* data, size_t size) {
    const char* p = static_cast<const char*>(data);
    while (size > 0) {
      const size_t n = std::min(size, kStage - stage_.size());
      stage_.append(p, n);
      p += n;
      size -= n;
      if (stage_.size() == kStage) feed(Z_NO_FLUSH);
    }
  }
  template <typename T>
  void putVector(const std::vector<T>& v) {
    const uint64_t n = v.size();
    put(&n, sizeof n);
    put(v.data(), n * sizeof(T));
  }
  // Done putting: the bytes, deflated.
  std::vector<unsigned char> finish() {
    feed(Z_FINISH);
    end();
    out_.resize(written_);
    out_.shrink_to_fit();
    return std::move(out_);
  }

 private:
  static constexpr size_t kStage = size_t{1} << 16;
  void feed(int flush) {
    z_.next_in = reinterpret_cast<Bytef*>(stage_.data());
    z_.avail_in = static_cast<uInt>(stage_.size());
    for (;;) {
      if (out_.size() - written_ < kStage) out_.resize(written_ + 2 * kStage);
      z_.next_out = out_.data() + written_;
      z_.avail_out = static_cast<uInt>(out_.size() - written_);
      const int ret = deflate(&z_, flush);
      written_ = out_.size() - z_.avail_out;
      if (ret == Z_STREAM_ERROR) throw std::runtime_error("zlib cannot deflate");
      if (flush == Z_FINISH ? ret == Z_STREAM_END : z_.avail_in == 0 && z_.avail_out != 0) break;
    }
    stage_.clear();
  }
  void end() {
    if (!ended_) deflateEnd(&z_);
    ended_ = true;
  }
  z_stream z_{};
  bool ended_ = false;
  std::string stage_;
  std::vector<unsigned char> out_;
  size_t written_ = 0;
};

class Inflated {
 public:
  explicit Inflated(const std::vector<unsigned char>& bytes) : in_(bytes.data()), inLeft_(bytes.size()) {
    if (inflateInit(&z_) != Z_OK) throw std::runtime_error("zlib cannot inflate");
  }
  Inflated(const Inflated&) = delete;
  Inflated& operator=(const Inflated&) = delete;
  ~Inflated() { inflateEnd(&z_); }

  void get(void* data, size_t size) {
    unsigned char* p = static_cast<unsigned char*>(data);
    while (size > 0) {
      const size_t n = std::min(size, size_t{1} << 30);
      z_.next_out = p;
      z_.avail_out = static_cast<uInt>(n);
      while (z_.avail_out > 0) {
        if (z_.avail_in == 0 && inLeft_ > 0) {  // zlib counts in 32 bits: fed a slice at a time
          const size_t slice = std::min(inLeft_, size_t{1} << 30);
          z_.next_in = const_cast<Bytef*>(in_);
          z_.avail_in = static_cast<uInt>(slice);
          in_ += slice;
          inLeft_ -= slice;
        }
        const int ret = inflate(&z_, Z_NO_FLUSH);
        if (ret != Z_OK && !(ret == Z_STREAM_END && z_.avail_out == 0))
          throw std::runtime_error("zlib cannot inflate its own bytes");
      }
      p += n;
      size -= n;
    }
  }
  template <typename T>
  void getVector(std::vector<T>& v) {
    uint64_t n = 0;
    get(&n, sizeof n);
    v.resize(static_cast<size_t>(n));
    get(v.data(), v.size() * sizeof(T));
  }

 private:
  z_stream z_{};
  const unsigned char* in_;
  size_t inLeft_;
};

}  // namespace asys
