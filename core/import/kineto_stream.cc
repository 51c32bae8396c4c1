#include "core/import/kineto_stream.h"

#include <zlib.h>

#include <cerrno>
#include <cstring>

#include "core/base/error.h"

namespace asys::kineto {

namespace {
constexpr size_t kChunk = 1 << 20;       // uncompressed bytes handed to the parser at a time
constexpr size_t kInputChunk = 1 << 18;  // compressed bytes read at a time
}  // namespace

struct InputSource::Zlib {
  z_stream stream{};
  std::unique_ptr<unsigned char[]> input{new unsigned char[kInputChunk]};
  bool initialised = false;
  bool inMember = true;  // inside a gzip member (its end not yet seen)
  bool done = false;     // no more output
};

InputSource::InputSource(const std::string& path) {
  file_ = std::fopen(path.c_str(), "rb");
  if (file_ == nullptr) throw Error(path + ": cannot open: " + std::strerror(errno));
  unsigned char magic[2] = {};
  const size_t got = std::fread(magic, 1, 2, file_);
  gzip_ = got == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
  std::rewind(file_);
  if (gzip_) {
    z_ = std::make_unique<Zlib>();
    // 15 window bits + 16: gzip wrapper only.
    if (inflateInit2(&z_->stream, 15 + 16) != Z_OK) {
      std::fclose(file_);
      file_ = nullptr;
      throw Error(path + ": cannot start gzip decompression");
    }
    z_->initialised = true;
  }
  storage_.reset(new char[kChunk + 1]);
  buffer_ = storage_.get();
  buffer_[0] = '\0';
}

InputSource::~InputSource() {
  if (z_ && z_->initialised) inflateEnd(&z_->stream);
  if (file_ != nullptr) std::fclose(file_);
}

void InputSource::refill(char*& current, char*& last) {
  if (eof_) {  // rest on the sentinel; Tell() stays the total
    current = last = buffer_ + readCount_;
    return;
  }
  consumed_ += readCount_;
  readCount_ = fill(buffer_, kChunk);
  current = buffer_;
  if (readCount_ == kChunk) {
    last = buffer_ + readCount_ - 1;
  } else {
    buffer_[readCount_] = '\0';
    last = buffer_ + readCount_;
    eof_ = true;
  }
}

size_t InputSource::fill(char* out, size_t capacity) {
  if (!error_.empty()) return 0;
  if (gzip_) return fillGzip(out, capacity);
  size_t produced = 0;
  while (produced < capacity) {
    const size_t n = std::fread(out + produced, 1, capacity - produced, file_);
    if (n == 0) {
      if (std::ferror(file_)) error_ = std::string("read error: ") + std::strerror(errno);
      break;
    }
    produced += n;
  }
  return produced;
}

size_t InputSource::fillGzip(char* out, size_t capacity) {
  Zlib& z = *z_;
  z_stream& zs = z.stream;
  size_t produced = 0;
  while (produced < capacity && !z.done) {
    if (zs.avail_in == 0) {
      const size_t n = std::fread(z.input.get(), 1, kInputChunk, file_);
      if (n == 0) {
        if (std::ferror(file_)) {
          error_ = std::string("read error: ") + std::strerror(errno);
        } else if (z.inMember) {
          error_ = "truncated gzip file (the compressed data ends before the end of the gzip stream)";
        }
        z.done = true;
        break;
      }
      zs.next_in = z.input.get();
      zs.avail_in = static_cast<uInt>(n);
      if (!z.inMember) {
        // Bytes after a complete member: another member, or trailing garbage
        // (ignored, as gzip -d does).
        if (zs.next_in[0] != 0x1f) {
          z.done = true;
          break;
        }
        inflateReset(&zs);
        z.inMember = true;
      }
    }
    zs.next_out = reinterpret_cast<Bytef*>(out + produced);
    zs.avail_out = static_cast<uInt>(capacity - produced);
    const int rc = inflate(&zs, Z_NO_FLUSH);
    produced = capacity - zs.avail_out;
    if (rc == Z_STREAM_END) {
      z.inMember = false;
      if (zs.avail_in > 0) {
        if (zs.next_in[0] != 0x1f) {
          z.done = true;
        } else {
          inflateReset(&zs);
          z.inMember = true;
        }
      }
    } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
      error_ = std::string("corrupt gzip data (") + (zs.msg != nullptr ? zs.msg : "inflate failed") + ")";
      z.done = true;
    }
  }
  return produced;
}

}  // namespace asys::kineto
