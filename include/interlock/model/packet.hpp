// SPDX-License-Identifier: BSL-1.0
// interlock/model/packet.hpp: a packet of the reference network model, and the store the
// model's records live in.
//
// Contract
//   record_store<Record, Alignment> hands out records by a 32-bit id and
//   takes them back: acquire() returns a fresh record (released ids first),
//   release(id) returns it; ids are reused, storage is never shrunk, and
//   nothing is allocated once the store has grown to the number of records
//   a run holds at once. Each record starts a slot aligned to Alignment.
//   Every network of the model keeps its packets (and the QoS switch its
//   messages, qos_switch/packets.hpp) in one.
//   packet<RouteState> is what travels in a torus or Anton 2 network: the
//   routing scheme's state (which holds the destination), the creation
//   cycle, the cycles spent in the source queue, the source, the length in
//   flits, the header fields a policy may read (the SeaStar's 11-bit age
//   field, the traffic-pattern label, the class) and the hops taken.
//   packet_pool<RouteState> is their store, each record starting a 64-byte
//   cache line.
//
// Example
//   interlock::model::packet_pool<interlock::dimension_order_routing::state> pool;
//   std::uint32_t id = pool.acquire();
//   pool[id].flits = 4;
//   pool.release(id);
#ifndef INTERLOCK_MODEL_PACKET_HPP
#define INTERLOCK_MODEL_PACKET_HPP

#include <cstddef>
#include <cstdint>
#include <vector>

#include "interlock/core/prefetch.hpp"
#include "interlock/topology/torus.hpp"

namespace interlock {
namespace model {

/// No packet (an empty slot).
inline constexpr std::uint32_t no_packet = 0xFFFFFFFFu;

template <class RouteState>
struct packet {
  // What a hop reads first (the route state, the length and the header
  // fields), then what only creation and delivery read.
  RouteState route{};
  std::uint16_t flits : 11;    // 1..1024 (config::check)
  std::uint16_t measured : 1;  // created in the measured window (or in a batch)
  std::uint16_t cls : 1;       // traffic class; its priority too: a response outranks a request
  std::uint16_t endpoint : 3;  // the destination endpoint it leaves through (config::endpoints)
  std::uint16_t age = 0;       // the header's 11-bit age field (age_field::bits())
  std::uint16_t hops = 0;
  std::uint8_t pattern = 0;   // its traffic-pattern label (inverse-weighted arbiters)
  std::uint8_t next_set = 0;  // in an output staging buffer: its downstream VC set's first VC
  std::uint32_t queued = 0;   // cycles in the source queue
  node_id source = 0;
  std::uint64_t created = 0;   // the cycle it was created in its source queue
  std::uint64_t sequence = 0;  // creation order over the whole network
  packet() : flits(1), measured(0), cls(0), endpoint(0) {}
};

/// Records of type Record by id, each starting a slot aligned to Alignment.
template <class Record, std::size_t Alignment = alignof(Record)>
class record_store {
 public:
  using value_type = Record;
  static constexpr std::size_t slot_alignment = Alignment;

  /// A fresh record's id (its fields reset).
  std::uint32_t acquire() {
    if (!free_.empty()) {
      const std::uint32_t id = free_.back();
      free_.pop_back();
      items_[id].p = value_type{};
      return id;
    }
    items_.emplace_back();
    return static_cast<std::uint32_t>(items_.size() - 1);
  }
  void release(std::uint32_t id) { free_.push_back(id); }

  /// Asks the cache for the first line of record id ahead of its use (the
  /// run is the same without it: it only overlaps the misses).
  void prefetch(std::uint32_t id) const noexcept { interlock::prefetch(&items_[id].p); }

  value_type& operator[](std::uint32_t id) noexcept { return items_[id].p; }
  const value_type& operator[](std::uint32_t id) const noexcept { return items_[id].p; }
  /// Records ever held at once (the store's storage).
  std::size_t capacity() const noexcept { return items_.size(); }
  std::size_t live() const noexcept { return items_.size() - free_.size(); }

 private:
  struct alignas(Alignment) slot {
    value_type p;
  };
  std::vector<slot> items_;
  std::vector<std::uint32_t> free_;
};

/// Packets by id, each record starting a 64-byte cache line: one that fits
/// a line is stored in one (dimension order's is 64 bytes), and a longer
/// one (Anton 2's, 80) has what a hop reads in its first line.
template <class RouteState>
using packet_pool = record_store<packet<RouteState>, 64>;

}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_PACKET_HPP
