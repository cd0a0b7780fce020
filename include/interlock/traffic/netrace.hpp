// SPDX-License-Identifier: BSL-1.0
// interlock/traffic/netrace.hpp: a reader of Netrace packet traces (format version 1).
//
// Netrace traces (Hestness, Grot and Keckler, NoCArc 2010) record the packets
// of a 64-core CMP running PARSEC programs: each packet's cycle, id, address,
// type, source and destination nodes and their node types, and its
// dependencies. A packet's dependencies are its *downward* ones: the ids of
// later packets that may not be injected until this one has been delivered
// (a read response waits for its request, a request for the response that
// unblocked its core). model/trace_replay.hpp replays a trace closed-loop.
//
// The format, little-endian, as the public header documents it:
//   header, 72 bytes  magic 0x484A5455 (u32), version (float, 1.0), benchmark
//                     name (30 bytes, NUL-padded), nodes (u8), a pad byte,
//                     cycles (u64), packets (u64), notes length (u32, with
//                     the terminating NUL), regions (u32), 8 padding bytes
//   notes             the notes length in bytes
//   regions, 24 each  seek offset (u64, from the end of the regions), cycles
//                     (u64), packets (u64)
//   packets, 21 each  cycle (u64), id (u32), address (u32), type (u8), source
//                     and destination (u8 each), node types (u8: the
//                     source's in the high nibble, 0..3 = L1 data, L1
//                     instruction, L2, memory controller), dependencies
//                     (u8), then that many dependency ids (u32 each)
// Packet types 0..30 carry 8 bytes (requests, acknowledgements) or 72 (a
// 64-byte line and its header); the others are invalid (netrace's table).
//
// Contract
//   - netrace::reader<Source> reads from any Source with
//     `std::size_t read(void* into, std::size_t bytes)` (fewer bytes only at
//     the end): memory_source (bytes in memory), file_source (an
//     uncompressed file), or a bzip2-compressed trace through
//     traffic/netrace_bzip2.hpp (libbz2).
//   - Everything is validated where it is read, and a malformed trace throws
//     netrace::error naming the source, the byte offset in the (decompressed)
//     trace, the field, its value and what is allowed: the magic and
//     version; at least one node; notes of at most 65536 bytes ending in
//     NUL; at most 65536 regions, their offsets in order and their packets
//     and cycles summing to the header's; per packet, a cycle not before the
//     previous one nor after the header's cycles, a valid type, source and
//     destination below the node count, node types 0..3, no dependency on
//     itself, nothing cut short; and, read from the start, exactly the
//     header's number of packets.
//   - next(p) fills p and returns true, or returns false at the end. p's
//     dependencies are valid until the next call.
//   - seek_region(r) skips forward to region r (before the first packet):
//     its packets follow, and region_start() is the cycle it starts at (the
//     earlier regions' cycles); the count check is then off.
//   - traffic/netrace_writer.hpp writes the format (write_trace), for
//     tests and tools that make traces.
//   Complexity: O(bytes); one buffer for the dependencies, reused.
//
// Example (a trace from traffic/netrace_writer.hpp)
//   std::vector<std::uint8_t> bytes = interlock::netrace::write_trace(
//       {"example", 2, 10}, {{5, 0, 0x40, 1, 0, 1, 0x02, {1}}, {9, 1, 0x40, 2, 1, 0, 0x20, {}}});
//   interlock::netrace::reader<interlock::netrace::memory_source> r(
//       interlock::netrace::memory_source(bytes), "example");
//   interlock::netrace::packet p;
//   while (r.next(p)) { /* p.cycle, p.source, p.destination, p.dependencies */ }
#ifndef INTERLOCK_TRAFFIC_NETRACE_HPP
#define INTERLOCK_TRAFFIC_NETRACE_HPP

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "interlock/core/span.hpp"

namespace interlock {
namespace netrace {

inline constexpr std::uint32_t magic = 0x484A5455;
inline constexpr std::size_t header_bytes = 72;
inline constexpr std::size_t region_bytes = 24;
inline constexpr std::size_t packet_bytes = 21;
inline constexpr std::size_t name_bytes = 30;
inline constexpr std::uint32_t max_notes = 65536;
inline constexpr std::uint32_t max_regions = 65536;

/// The bytes a packet of each type carries (netrace's table); 0: invalid.
inline constexpr std::array<std::uint8_t, 31> type_bytes = {0, 8, 72, 72, 72, 8,  72, 0, 0, 0, 0,
                                                            0, 0, 8,  8,  8,  72, 0,  0, 0, 0, 0,
                                                            0, 0, 0,  8,  0,  8,  8,  8, 72};
/// Packet type names (netrace's), e.g. for reports.
inline constexpr std::array<const char*, 31> type_names = {
    "InvalidCmd",     "ReadReq",         "ReadResp",     "ReadRespWithInvalidate",
    "WriteReq",       "WriteResp",       "Writeback",    "InvalidCmd",
    "InvalidCmd",     "InvalidCmd",      "InvalidCmd",   "InvalidCmd",
    "InvalidCmd",     "UpgradeReq",      "UpgradeResp",  "ReadExReq",
    "ReadExResp",     "InvalidCmd",      "InvalidCmd",   "InvalidCmd",
    "InvalidCmd",     "InvalidCmd",      "InvalidCmd",   "InvalidCmd",
    "InvalidCmd",     "BadAddressError", "InvalidCmd",   "InvalidateReq",
    "InvalidateResp", "DowngradeReq",    "DowngradeResp"};
/// Whether a type answers another packet (the responses a CMP's protocol
/// keeps apart from requests).
constexpr bool is_response(std::uint8_t type) noexcept {
  return type == 2 || type == 3 || type == 5 || type == 14 || type == 16 || type == 28 ||
         type == 30;
}
/// The bytes of a packet type, 0 for an invalid one.
constexpr unsigned bytes_of(std::uint8_t type) noexcept {
  return type < type_bytes.size() ? type_bytes[type] : 0;
}

enum class node_type : std::uint8_t { l1_data, l1_instruction, l2, memory_controller };

struct region {
  std::uint64_t seek_offset = 0;  // from the end of the regions
  std::uint64_t cycles = 0;
  std::uint64_t packets = 0;
};

struct header {
  float version = 1.0f;
  std::string benchmark;
  unsigned nodes = 0;
  std::uint64_t cycles = 0;
  std::uint64_t packets = 0;
  std::uint32_t notes_length = 0;  // bytes, with the terminating NUL
  std::string notes;               // up to the first NUL
  std::vector<region> regions;
  /// The bytes before the first packet: the header, the notes and regions.
  std::uint64_t size() const noexcept {
    return header_bytes + notes_length + region_bytes * regions.size();
  }
};

struct packet {
  std::uint64_t cycle = 0;
  std::uint32_t id = 0;
  std::uint32_t address = 0;
  std::uint8_t type = 0;
  std::uint8_t source = 0;
  std::uint8_t destination = 0;
  std::uint8_t node_types = 0;             // the source's in the high nibble
  span<const std::uint32_t> dependencies;  // the ids of later packets that wait for this one

  node_type source_type() const noexcept { return static_cast<node_type>(node_types >> 4); }
  node_type destination_type() const noexcept { return static_cast<node_type>(node_types & 15u); }
  unsigned bytes() const noexcept { return bytes_of(type); }
};

/// A trace that cannot be read: where, what, and what is allowed.
class error : public std::runtime_error {
 public:
  error(std::string_view source, std::uint64_t offset, std::string_view field,
        std::string_view value, std::string_view allowed)
      : std::runtime_error(std::string(source) + ": byte " + std::to_string(offset) + ": " +
                           std::string(field) + " = " + std::string(value) +
                           "; allowed: " + std::string(allowed)),
        offset_(offset),
        field_(field) {}
  std::uint64_t offset() const noexcept { return offset_; }
  const std::string& field() const noexcept { return field_; }

 private:
  std::uint64_t offset_;
  std::string field_;
};

/// Bytes in memory (the caller keeps them alive).
class memory_source {
 public:
  explicit memory_source(span<const std::uint8_t> bytes) noexcept : bytes_(bytes) {}
  memory_source(const std::vector<std::uint8_t>& bytes) noexcept  // NOLINT: a view
      : bytes_(bytes.data(), bytes.size()) {}
  std::size_t read(void* into, std::size_t n) noexcept {
    const std::size_t k = std::min(n, bytes_.size() - at_);
    if (k > 0) std::memcpy(into, bytes_.data() + at_, k);
    at_ += k;
    return k;
  }

 private:
  span<const std::uint8_t> bytes_;
  std::size_t at_ = 0;
};

/// An uncompressed trace file; throws std::runtime_error naming the path
/// when it cannot be opened or read.
class file_source {
 public:
  explicit file_source(const std::string& path) : path_(path), f_(std::fopen(path.c_str(), "rb")) {
    if (f_ == nullptr) throw std::runtime_error(path + ": cannot open: " + std::strerror(errno));
  }
  /// An open file it now owns, of which `head` (up to 8 bytes) was read
  /// already: read() gives them first, so a pipe is read once.
  file_source(std::FILE* f, std::string path, std::string head)
      : path_(std::move(path)), f_(f), head_(std::move(head)) {}
  file_source(file_source&& o) noexcept
      : path_(std::move(o.path_)), f_(std::exchange(o.f_, nullptr)), head_(std::move(o.head_)) {}
  file_source& operator=(file_source&&) = delete;
  ~file_source() {
    if (f_ != nullptr) std::fclose(f_);
  }
  std::size_t read(void* into, std::size_t n) {
    std::size_t given = 0;
    if (!head_.empty()) {
      given = std::min(n, head_.size());
      std::memcpy(into, head_.data(), given);
      head_.erase(0, given);
    }
    const std::size_t k = std::fread(static_cast<char*>(into) + given, 1, n - given, f_);
    if (given + k < n && std::ferror(f_) != 0) throw std::runtime_error(path_ + ": read error");
    return given + k;
  }

 private:
  std::string path_;
  std::FILE* f_;
  std::string head_;  // bytes read before, given first
};

namespace detail {
inline std::uint64_t little(const std::uint8_t* p, unsigned bytes) noexcept {
  std::uint64_t v = 0;
  for (unsigned b = 0; b < bytes; ++b) v |= static_cast<std::uint64_t>(p[b]) << (8 * b);
  return v;
}
}  // namespace detail

template <class Source>
class reader {
 public:
  /// Reads and validates the header, notes and regions; `name` names the
  /// source in errors (a path).
  reader(Source source, std::string name) : source_(std::move(source)), name_(std::move(name)) {
    read_header();
  }

  const header& info() const noexcept { return header_; }
  /// Bytes consumed so far, from the start of the trace.
  std::uint64_t offset() const noexcept { return offset_; }
  /// Packets read so far.
  std::uint64_t packets_read() const noexcept { return count_; }

  /// Skips to region r's first packet (before any packet has been read).
  void seek_region(std::size_t r) {
    if (r >= header_.regions.size())
      fail(offset_, "region", std::to_string(r),
           "0.." + std::to_string(header_.regions.size() - 1) + " (the trace's regions)");
    if (count_ != 0) throw std::logic_error("netrace::reader::seek_region after a packet");
    const std::uint64_t target = header_.size() + header_.regions[r].seek_offset;
    std::array<std::uint8_t, 4096> sink;
    while (offset_ < target) {
      const std::size_t k =
          static_cast<std::size_t>(std::min<std::uint64_t>(sink.size(), target - offset_));
      if (source_.read(sink.data(), k) != k)
        fail(offset_, "region " + std::to_string(r) + " seek offset",
             std::to_string(header_.regions[r].seek_offset), "an offset inside the trace");
      offset_ += k;
    }
    checking_count_ = false;
    for (std::size_t i = 0; i < r; ++i) start_ += header_.regions[i].cycles;
  }
  /// The cycle the packets read start from: 0, or a sought region's start.
  std::uint64_t region_start() const noexcept { return start_; }

  /// The next packet, validated; false at the end of the trace.
  bool next(packet& p) {
    std::array<std::uint8_t, packet_bytes> b;
    const std::uint64_t at = offset_;
    const std::size_t got = source_.read(b.data(), b.size());
    offset_ += got;
    if (got == 0) {
      if (checking_count_ && count_ != header_.packets)
        fail(at, "packets", std::to_string(count_) + " (the end of the trace)",
             std::to_string(header_.packets) + " (the header's count)");
      return false;
    }
    if (got < b.size())
      fail(at, "packet " + std::to_string(count_),
           "the end of the trace after " + std::to_string(got) + " bytes", "21 bytes");
    if (checking_count_ && count_ == header_.packets)
      fail(at, "packets", "more than " + std::to_string(header_.packets),
           std::to_string(header_.packets) + " (the header's count)");
    p.cycle = detail::little(b.data(), 8);
    p.id = static_cast<std::uint32_t>(detail::little(b.data() + 8, 4));
    p.address = static_cast<std::uint32_t>(detail::little(b.data() + 12, 4));
    p.type = b[16];
    p.source = b[17];
    p.destination = b[18];
    p.node_types = b[19];
    const unsigned deps = b[20];
    const std::string which = "packet " + std::to_string(count_);
    if (p.cycle < previous_cycle_ || p.cycle > header_.cycles)
      fail(at, which + " cycle", std::to_string(p.cycle),
           std::to_string(previous_cycle_) + ".." + std::to_string(header_.cycles) +
               " (not before the previous packet, not after the trace's cycles)");
    if (bytes_of(p.type) == 0)
      fail(at + 16, which + " type", std::to_string(p.type), "a valid Netrace packet type");
    if (p.source >= header_.nodes)
      fail(at + 17, which + " source", std::to_string(p.source), nodes_allowed());
    if (p.destination >= header_.nodes)
      fail(at + 18, which + " destination", std::to_string(p.destination), nodes_allowed());
    if ((p.node_types >> 4) > 3 || (p.node_types & 15u) > 3)
      fail(at + 19, which + " node types", "0x" + hex2(p.node_types),
           "a nibble 0..3 each (L1 data, L1 instruction, L2, memory controller)");
    deps_.resize(deps);
    if (deps > 0) {
      std::array<std::uint8_t, 4 * 255> d;
      const std::size_t want = 4u * deps;
      const std::size_t k = source_.read(d.data(), want);
      if (k < want)
        fail(offset_ + k, which + " dependencies",
             "the end of the trace after " + std::to_string(k / 4),
             std::to_string(deps) + " dependency ids");
      for (unsigned i = 0; i < deps; ++i) {
        deps_[i] = static_cast<std::uint32_t>(detail::little(d.data() + 4 * i, 4));
        if (deps_[i] == p.id)
          fail(offset_ + 4 * i, which + " dependency", std::to_string(deps_[i]),
               "another packet's id (not its own)");
      }
      offset_ += want;
    }
    p.dependencies = span<const std::uint32_t>(deps_.data(), deps_.size());
    previous_cycle_ = p.cycle;
    ++count_;
    return true;
  }

 private:
  [[noreturn]] void fail(std::uint64_t at, std::string_view field, std::string_view value,
                         std::string_view allowed) const {
    throw error(name_, at, field, value, allowed);
  }
  std::string nodes_allowed() const {
    return "0.." + std::to_string(header_.nodes - 1) + " (the trace's nodes)";
  }
  static std::string hex2(unsigned v) {
    const char* digits = "0123456789abcdef";
    return std::string{digits[(v >> 4) & 15u], digits[v & 15u]};
  }

  // Reads exactly n bytes, or fails naming `field`.
  void take(std::uint8_t* into, std::size_t n, std::string_view field) {
    const std::size_t k = source_.read(into, n);
    if (k < n) fail(offset_ + k, field, "the end of the trace", std::to_string(n) + " bytes");
    offset_ += n;
  }

  void read_header() {
    std::array<std::uint8_t, header_bytes> b;
    take(b.data(), b.size(), "header");
    const std::uint64_t m = detail::little(b.data(), 4);
    if (m != magic)
      fail(0, "magic",
           "0x" + hex2(static_cast<unsigned>(m >> 24)) + hex2((m >> 16) & 255u) +
               hex2((m >> 8) & 255u) + hex2(m & 255u),
           "0x484a5455 (a Netrace trace; a compressed one is read through netrace_bzip2.hpp)");
    float version = 0;
    std::memcpy(&version, b.data() + 4, 4);
    if (!(version == 1.0f)) fail(4, "version", std::to_string(version), "1.0");
    const auto name = b.begin() + 8;
    header_.benchmark.assign(name, std::find(name, name + name_bytes, std::uint8_t{0}));
    header_.nodes = b[38];
    if (header_.nodes == 0) fail(38, "nodes", "0", "1..255");
    header_.cycles = detail::little(b.data() + 40, 8);
    header_.packets = detail::little(b.data() + 48, 8);
    const std::uint64_t notes = detail::little(b.data() + 56, 4);
    const std::uint64_t regions = detail::little(b.data() + 60, 4);
    if (notes > max_notes) fail(56, "notes length", std::to_string(notes), "0..65536");
    if (regions > max_regions) fail(60, "regions", std::to_string(regions), "0..65536");
    if (notes > 0) {
      std::vector<std::uint8_t> text(static_cast<std::size_t>(notes));
      take(text.data(), text.size(), "notes");
      if (text.back() != 0)
        fail(offset_ - 1, "notes", "text without its terminating NUL", "notes ending in NUL");
      header_.notes_length = static_cast<std::uint32_t>(notes);
      const auto end = std::find(text.begin(), text.end(), std::uint8_t{0});
      header_.notes.assign(text.begin(), end);
    }
    std::uint64_t packets = 0, cycles = 0;
    for (std::uint64_t i = 0; i < regions; ++i) {
      std::array<std::uint8_t, region_bytes> r;
      const std::uint64_t at = offset_;
      take(r.data(), r.size(), "region " + std::to_string(i));
      region g{detail::little(r.data(), 8), detail::little(r.data() + 8, 8),
               detail::little(r.data() + 16, 8)};
      if (!header_.regions.empty() && g.seek_offset < header_.regions.back().seek_offset)
        fail(at, "region " + std::to_string(i) + " seek offset", std::to_string(g.seek_offset),
             "at least the previous region's, " +
                 std::to_string(header_.regions.back().seek_offset));
      packets += g.packets;
      cycles += g.cycles;
      header_.regions.push_back(g);
    }
    if (regions > 0 && (packets != header_.packets || cycles != header_.cycles))
      fail(72 + notes, "regions",
           std::to_string(packets) + " packets in " + std::to_string(cycles) + " cycles",
           "the header's " + std::to_string(header_.packets) + " packets in " +
               std::to_string(header_.cycles) + " cycles");
  }

  Source source_;
  std::string name_;
  header header_;
  std::vector<std::uint32_t> deps_;
  std::uint64_t offset_ = 0;
  std::uint64_t count_ = 0;
  std::uint64_t previous_cycle_ = 0;
  std::uint64_t start_ = 0;
  bool checking_count_ = true;
};

}  // namespace netrace
}  // namespace interlock

#endif  // INTERLOCK_TRAFFIC_NETRACE_HPP
