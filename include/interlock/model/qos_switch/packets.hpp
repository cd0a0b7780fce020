// SPDX-License-Identifier: BSL-1.0
// interlock/model/qos_switch/packets.hpp: the packets of a switch network and the store they live
// in.
//
// Contract
//   packet is one packet's record: when it was created and left its
//   NIC, when its head is ready and its tail arrives where it is, the next
//   packet of its VL's FIFO (vl_buffer.hpp's packet_fifo links through
//   `next`), its NICs, size, SL, the SC and VL it holds now and those its
//   route gives it out of the switch it is in, and the output port chosen
//   there. packets is their store (model/packet.hpp's record_store,
//   the torus model's): acquire() returns a cleared record, reusing released
//   ids first, so the store grows only to the largest number of packets
//   alive at once; release(id) returns it. message and
//   messages do the same for messages cut into
//   packets (sl_traffic::packet_limit): a packet's `message` names its
//   record, or is no_message when the packet is the whole message.
//
// Example
//   interlock::model::qos_switch::packets store;
//   std::uint32_t id = store.acquire();
//   store[id].flits = 16;
//   store.release(id);   // the next acquire() returns id again
#ifndef INTERLOCK_MODEL_QOS_SWITCH_PACKETS_HPP
#define INTERLOCK_MODEL_QOS_SWITCH_PACKETS_HPP

#include <cstdint>

#include "interlock/model/packet.hpp"
#include "interlock/model/qos_switch/vl_buffer.hpp"

namespace interlock {
namespace model {
namespace qos_switch {

/// A packet that is a whole message belongs to no message record.
constexpr std::uint32_t no_message = ~std::uint32_t{0};

struct packet {
  std::uint64_t created = 0, injected = 0;
  std::uint64_t head_ready = 0, tail_at = 0;
  std::uint32_t next = fifo_end;
  std::uint32_t src = 0, dst = 0;
  std::uint32_t flits = 0;
  std::uint32_t message = no_message;     // its message's record (messages)
  std::uint16_t out = 0;                  // the output port chosen at this switch
  std::uint8_t sl = 0, sc = 0, vl = 0;    // the SC and VL it holds now
  std::uint8_t next_sc = 0, next_vl = 0;  // those it takes out of this switch
};

using packets = record_store<packet>;

/// A message cut into packets: when it was created, when its first packet
/// left its NIC, and how many of its packets are still to be delivered.
struct message {
  std::uint64_t created = 0;
  std::uint64_t injected = ~std::uint64_t{0};
  std::uint32_t remaining = 0;
};

/// The records of messages in flight.
using messages = record_store<message>;

}  // namespace qos_switch
}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_QOS_SWITCH_PACKETS_HPP
