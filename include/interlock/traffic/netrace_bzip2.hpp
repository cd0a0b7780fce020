// SPDX-License-Identifier: BSL-1.0
// interlock/traffic/netrace_bzip2.hpp: bzip2-compressed Netrace traces, read through libbz2.
//
// Netrace distributes its traces compressed with bzip2 (*.tra.bz2). This
// header decompresses them as they are read, with libbz2's streaming API, so
// a trace of any size costs two fixed buffers. It is opt-in, like the model:
// the umbrella header leaves it out, and a program that includes it links
// libbz2 (CMake: find_package(BZip2), BZip2::BZip2; or -lbz2).
//
// Contract
//   - bzip2_source(path): a Source for netrace::reader (traffic/netrace.hpp)
//     over a bzip2 file, concatenated streams included (as parallel
//     compressors write them). A file that is not bzip2, or is corrupt or
//     cut short, throws netrace::error naming the path, the compressed byte
//     offset and libbz2's verdict.
//   - trace_source(path): either, chosen by the file's first bytes ("BZh":
//     bzip2, anything else read as it is), so a tool takes both; the file
//     is opened and read once, so a pipe (/dev/stdin, <(...)) works.
//   Complexity: O(bytes); no allocation after construction.
//
// Example (compiled, not run: it reads a file)
//   interlock::netrace::reader<interlock::netrace::trace_source> r(
//       interlock::netrace::trace_source("blackscholes.tra.bz2"), "blackscholes.tra.bz2");
//   interlock::netrace::packet p;
//   while (r.next(p)) { /* ... */ }
#ifndef INTERLOCK_TRAFFIC_NETRACE_BZIP2_HPP
#define INTERLOCK_TRAFFIC_NETRACE_BZIP2_HPP

#include <bzlib.h>

#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "interlock/traffic/netrace.hpp"

namespace interlock {
namespace netrace {

class bzip2_source {
 public:
  explicit bzip2_source(const std::string& path)
      : path_(path), f_(std::fopen(path.c_str(), "rb")), in_(1 << 16) {
    if (f_ == nullptr) throw std::runtime_error(path + ": cannot open: " + std::strerror(errno));
    start_stream();
  }
  /// An open file it now owns, of which `head` (fewer bytes than a buffer)
  /// was read already: they are decompressed first, so a pipe is read once.
  bzip2_source(std::FILE* f, std::string path, const std::string& head)
      : path_(std::move(path)), f_(f), in_(1 << 16) {
    start_stream();
    std::memcpy(in_.data(), head.data(), head.size());
    compressed_ = head.size();
    stream_->next_in = in_.data();
    stream_->avail_in = static_cast<unsigned>(head.size());
  }
  bzip2_source(bzip2_source&& o) noexcept
      : path_(std::move(o.path_)),
        f_(std::exchange(o.f_, nullptr)),
        in_(std::move(o.in_)),
        stream_(std::exchange(o.stream_, nullptr)),
        compressed_(o.compressed_),
        done_(o.done_) {}
  bzip2_source& operator=(bzip2_source&&) = delete;
  ~bzip2_source() {
    if (stream_ != nullptr) BZ2_bzDecompressEnd(stream_.get());
    if (f_ != nullptr) std::fclose(f_);
  }

  /// Up to n decompressed bytes; fewer only at the end of the last stream.
  std::size_t read(void* into, std::size_t n) {
    bz_stream& s = *stream_;
    s.next_out = static_cast<char*>(into);
    s.avail_out = static_cast<unsigned>(n);
    while (s.avail_out > 0 && !done_) {
      if (s.avail_in == 0 && !refill()) {
        fail("the end of the file inside a bzip2 stream");
      }
      const int rc = BZ2_bzDecompress(&s);
      if (rc == BZ_STREAM_END) {
        // Another stream may follow (concatenated files).
        const unsigned left = s.avail_in;
        char* rest = s.next_in;
        BZ2_bzDecompressEnd(&s);
        if (left == 0 && !refill()) {
          done_ = true;
          break;
        }
        char* next = left > 0 ? rest : s.next_in;
        const unsigned avail = left > 0 ? left : s.avail_in;
        char* out = s.next_out;
        const unsigned room = s.avail_out;
        start_stream();
        s.next_in = next;
        s.avail_in = avail;
        s.next_out = out;
        s.avail_out = room;
      } else if (rc != BZ_OK) {
        fail(rc == BZ_DATA_ERROR_MAGIC ? "not bzip2 data"
             : rc == BZ_DATA_ERROR     ? "corrupt bzip2 data"
             : rc == BZ_MEM_ERROR      ? "out of memory"
                                       : "libbz2 error " + std::to_string(rc));
      }
    }
    return n - s.avail_out;
  }

 private:
  struct stream_delete {
    void operator()(bz_stream* s) const noexcept { delete s; }
  };

  void start_stream() {
    if (!stream_) stream_.reset(new bz_stream);
    std::memset(stream_.get(), 0, sizeof(bz_stream));
    if (BZ2_bzDecompressInit(stream_.get(), 0, 0) != BZ_OK) fail("libbz2 could not start");
  }
  bool refill() {
    const std::size_t k = std::fread(in_.data(), 1, in_.size(), f_);
    if (k == 0) {
      if (std::ferror(f_) != 0) throw std::runtime_error(path_ + ": read error");
      return false;
    }
    compressed_ += k;
    stream_->next_in = in_.data();
    stream_->avail_in = static_cast<unsigned>(k);
    return true;
  }
  [[noreturn]] void fail(const std::string& what) const {
    const std::uint64_t at = compressed_ - (stream_ ? stream_->avail_in : 0);
    throw error(path_ + " (compressed)", at, "bzip2 stream", what, "a complete bzip2 file");
  }

  std::string path_;
  std::FILE* f_;
  std::vector<char> in_;
  std::unique_ptr<bz_stream, stream_delete> stream_;
  std::uint64_t compressed_ = 0;
  bool done_ = false;
};

/// A trace file, compressed (bzip2) or not, told apart by its first bytes.
class trace_source {
 public:
  explicit trace_source(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (f == nullptr) throw std::runtime_error(path + ": cannot open: " + std::strerror(errno));
    // Opened once and its first bytes kept: a pipe cannot be read twice.
    char head[3] = {};
    const std::size_t k = std::fread(head, 1, 3, f);
    if (k < 3 && std::ferror(f) != 0) {
      std::fclose(f);
      throw std::runtime_error(path + ": read error");
    }
    const std::string first(head, k);
    if (first == "BZh")
      bzip2_ = std::make_unique<bzip2_source>(f, path, first);
    else
      plain_ = std::make_unique<file_source>(f, path, first);
  }
  std::size_t read(void* into, std::size_t n) {
    return bzip2_ ? bzip2_->read(into, n) : plain_->read(into, n);
  }
  bool compressed() const noexcept { return bzip2_ != nullptr; }

 private:
  std::unique_ptr<bzip2_source> bzip2_;
  std::unique_ptr<file_source> plain_;
};

}  // namespace netrace
}  // namespace interlock

#endif  // INTERLOCK_TRAFFIC_NETRACE_BZIP2_HPP
