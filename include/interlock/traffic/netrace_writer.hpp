// SPDX-License-Identifier: BSL-1.0
// interlock/traffic/netrace_writer.hpp: Netrace traces (format 1) written, for tests and tools.
//
// The reader (traffic/netrace.hpp) documents the format. write_trace lays
// out one trace of one region: the 72-byte header, the notes with their
// NUL, the region, then each packet and its dependency ids, little-endian.
//
// Contract
//   - write_trace(header, packets) writes what it is given, unchecked: a
//     test can write a malformed trace on purpose. The header's packet count
//     and the region's are packets.size(); its cycles are header.cycles.
//   - written_packet owns its dependencies (netrace::packet, the reader's,
//     views the reader's buffer), so a trace is written from braces:
//     {cycle, id, address, type, source, destination, node_types, {deps}}.
//   Complexity: O(bytes).
//
// Example
//   const std::vector<std::uint8_t> bytes = interlock::netrace::write_trace(
//       {"example", 2, 10, ""}, {{5, 0, 0x40, 1, 0, 1, 0x02, {1}}, {9, 1, 0x40, 2, 1, 0, 0x20,
//       {}}});
#ifndef INTERLOCK_TRAFFIC_NETRACE_WRITER_HPP
#define INTERLOCK_TRAFFIC_NETRACE_WRITER_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "interlock/traffic/netrace.hpp"

namespace interlock {
namespace netrace {

namespace detail {
inline void put(std::vector<std::uint8_t>& out, std::uint64_t v, unsigned bytes) {
  for (unsigned b = 0; b < bytes; ++b) out.push_back(static_cast<std::uint8_t>(v >> (8 * b)));
}
}  // namespace detail

/// A packet as write_trace takes it.
struct written_packet {
  std::uint64_t cycle = 0;
  std::uint32_t id = 0;
  std::uint32_t address = 0;
  std::uint8_t type = 1;
  std::uint8_t source = 0;
  std::uint8_t destination = 0;
  std::uint8_t node_types = 0;
  std::vector<std::uint32_t> dependencies;
};
/// What write_trace puts in the header.
struct written_header {
  std::string benchmark;
  unsigned nodes = 64;
  std::uint64_t cycles = 0;
  std::string notes;
};

/// A trace in the format (uncompressed), one region: for tests and tools
/// that make traces. Writes what it is given, unchecked.
inline std::vector<std::uint8_t> write_trace(const written_header& h,
                                             const std::vector<written_packet>& packets) {
  std::vector<std::uint8_t> out;
  detail::put(out, magic, 4);
  const float version = 1.0f;
  std::uint32_t version_bits = 0;
  std::memcpy(&version_bits, &version, 4);
  detail::put(out, version_bits, 4);
  for (std::size_t i = 0; i < name_bytes; ++i)
    out.push_back(i < h.benchmark.size() ? static_cast<std::uint8_t>(h.benchmark[i]) : 0);
  out.push_back(static_cast<std::uint8_t>(h.nodes));
  out.push_back(0);
  detail::put(out, h.cycles, 8);
  detail::put(out, packets.size(), 8);
  detail::put(out, h.notes.empty() ? 0 : h.notes.size() + 1, 4);
  detail::put(out, 1, 4);
  detail::put(out, 0, 8);
  if (!h.notes.empty()) {
    out.insert(out.end(), h.notes.begin(), h.notes.end());
    out.push_back(0);
  }
  detail::put(out, 0, 8);
  detail::put(out, h.cycles, 8);
  detail::put(out, packets.size(), 8);
  for (const written_packet& p : packets) {
    detail::put(out, p.cycle, 8);
    detail::put(out, p.id, 4);
    detail::put(out, p.address, 4);
    out.push_back(p.type);
    out.push_back(p.source);
    out.push_back(p.destination);
    out.push_back(p.node_types);
    out.push_back(static_cast<std::uint8_t>(p.dependencies.size()));
    for (const std::uint32_t d : p.dependencies) detail::put(out, d, 4);
  }
  return out;
}

}  // namespace netrace
}  // namespace interlock

#endif  // INTERLOCK_TRAFFIC_NETRACE_WRITER_HPP
