#pragma once
// A RapidJSON input stream over a plain or gzip-compressed file, read in
// chunks: gzip is inflated 1 MiB at a time (zlib inflate, concatenated
// members allowed), so a .json.gz is never decompressed whole in memory.
// Read errors and corrupt or truncated gzip data end the stream early (Peek()
// returns '\0', so the parser stops) and are reported by InputSource::error().
//
// InputSource owns the file and the buffer; InputStream is the small
// copyable cursor RapidJSON reads through. It is declared copy-optimised
// (StreamTraits below), so the parser's inner loops keep the cursor in
// registers, as they do for an in-memory string.
#include <rapidjson/stream.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

namespace asys::kineto {

class InputSource {
 public:
  // Throws Error("PATH: cannot open: ...") when the file cannot be read.
  explicit InputSource(const std::string& path);
  ~InputSource();
  InputSource(const InputSource&) = delete;
  InputSource& operator=(const InputSource&) = delete;

  bool gzip() const { return gzip_; }
  // Empty unless the stream ended because of a read or decompression error.
  const std::string& error() const { return error_; }
  // Every byte was delivered (end of input reached, no error).
  bool finished() const { return eof_ && error_.empty(); }
  // All the (uncompressed) bytes, once finished().
  uint64_t total() const { return consumed_ + readCount_; }
  // Bytes of uncompressed JSON before the current buffer.
  uint64_t consumed() const { return consumed_; }
  char* buffer() const { return buffer_; }

  // Loads the next chunk: `current` is set to its first byte and `last` to
  // its last one; at the end of input both point at a '\0' sentinel.
  void refill(char*& current, char*& last);

 private:
  size_t fill(char* out, size_t capacity);
  size_t fillGzip(char* out, size_t capacity);

  std::FILE* file_ = nullptr;
  bool gzip_ = false;
  bool eof_ = false;
  std::string error_;
  std::unique_ptr<char[]> storage_;
  char* buffer_ = nullptr;
  size_t readCount_ = 0;
  uint64_t consumed_ = 0;
  struct Zlib;  // zlib's z_stream, kept out of this header
  std::unique_ptr<Zlib> z_;
};

// Bytes that end a run of plain characters inside a JSON string.
struct StringStops {
  bool stop[256] = {};
  constexpr StringStops() {
    for (int c = 0; c < 0x20; ++c) stop[c] = true;
    stop[static_cast<unsigned char>('"')] = stop[static_cast<unsigned char>('\\')] = true;
  }
  constexpr bool operator[](unsigned char c) const { return stop[c]; }
};
inline constexpr StringStops kStringStop{};

class InputStream {
 public:
  typedef char Ch;  // RapidJSON's stream concept

  explicit InputStream(InputSource& source) : source_(&source) { refill(); }

  Ch Peek() const { return *current_; }
  Ch Take() {
    const Ch c = *current_;
    if (current_ < last_) {
      ++current_;
    } else {
      refill();
    }
    return c;
  }
  // Bytes of (uncompressed) JSON consumed so far. Kept as an offset from the
  // cursor so that the parser, which asks before every string character,
  // pays no memory load for it.
  size_t Tell() const { return static_cast<size_t>(offset_ + reinterpret_cast<intptr_t>(current_)); }

  // Writing is not supported (RapidJSON's in-situ parsing is not used).
  Ch* PutBegin() { return nullptr; }
  void Put(Ch) {}
  void Flush() {}
  size_t PutEnd(Ch*) { return 0; }

  // Copies the run of plain string characters at the cursor (up to a quote,
  // a backslash, a control character or the end of the chunk) into `out`,
  // which has RapidJSON's StackStream Push(count).
  template <typename Out>
  void copyPlainString(Out& out) {
    char* p = current_;
    char* const last = last_;
    while (p < last && !kStringStop[static_cast<unsigned char>(*p)]) ++p;
    const size_t n = static_cast<size_t>(p - current_);
    if (n > 0) {
      std::memcpy(out.Push(static_cast<rapidjson::SizeType>(n)), current_, n);
      current_ = p;
    }
  }

  // Whitespace runs are skipped here without a buffer check per byte
  // (found by RapidJSON's unqualified SkipWhitespace call, by argument-
  // dependent lookup).
  friend void SkipWhitespace(InputStream& is) {
    for (;;) {
      char* p = is.current_;
      char* const last = is.last_;
      while (p < last && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')) ++p;
      is.current_ = p;
      if (p < last || !(*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')) return;
      is.Take();  // the chunk's last byte is whitespace: continue in the next one
    }
  }

 private:
  void refill() {
    source_->refill(current_, last_);
    offset_ = static_cast<intptr_t>(source_->consumed()) - reinterpret_cast<intptr_t>(source_->buffer());
  }

  InputSource* source_;
  char* current_ = nullptr;
  char* last_ = nullptr;
  intptr_t offset_ = 0;  // Tell() - current_
};

}  // namespace asys::kineto

namespace rapidjson {
template <>
struct StreamTraits<asys::kineto::InputStream> {
  enum { copyOptimization = 1 };
};
}  // namespace rapidjson
