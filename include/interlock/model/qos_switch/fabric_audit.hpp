// SPDX-License-Identifier: BSL-1.0
// interlock/model/qos_switch/fabric_audit.hpp: what breaks a switch network's invariants.
//
// Contract
//   audit(fabric, idle, created, delivered) returns "" when the
//   invariants hold, or the first that breaks, naming the buffer or link
//   and VL, by the laws every network of the model keeps
//   (model/conservation.hpp):
//   - every packet created is delivered, queued in a buffer (a NIC's, an
//     input, central or output buffer; a packet crossing a crossbar or a
//     link is queued where it goes), or being delivered (packet_ledger);
//   - each buffer's occupancy per VL equals its queued flits (in every
//     FIFO, per VL or per SC) plus those departing through a crossbar or
//     link (occupancy);
//   - each link's credit view of the input buffer at its other end closes
//     the credit loop: the flits it counts as used there equal that
//     buffer's occupancy plus the credits in flight back (credit_loop);
//   - when `idle` (nothing generating, no event pending): no packet in
//     the network.
//   A check for tests and programs' --audit: it walks every buffer's FIFOs
//   and every pending event, so it costs the packets in flight.
#ifndef INTERLOCK_MODEL_QOS_SWITCH_FABRIC_AUDIT_HPP
#define INTERLOCK_MODEL_QOS_SWITCH_FABRIC_AUDIT_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "interlock/model/conservation.hpp"
#include "interlock/model/qos_switch/vl_fabric.hpp"

namespace interlock {
namespace model {
namespace qos_switch {

template <class Scheduler>
std::string audit(const fabric<Scheduler>& f, bool idle, std::uint64_t created,
                  std::uint64_t delivered) {
  const std::size_t vls = f.levels.vls();
  packet_ledger ledger;
  ledger.created = created;
  ledger.delivered = delivered;
  for (std::size_t b = 0; b < f.buffers.size(); ++b) {
    const buffer& B = f.buffers[b];
    // Queued flits per VL, over every FIFO (a FIFO per SC holds its VL's).
    std::array<std::uint64_t, vl_space::max_vls> queued{};
    for (std::size_t q = 0; q < B.queue.size(); ++q)
      for (std::uint32_t id = B.queue[q].head; id != fifo_end; id = f.packets[id].next) {
        queued[f.packets[id].vl] += f.packets[id].flits;
        ++ledger.in_buffers;
      }
    for (std::size_t v = 0; v < vls; ++v) {
      const occupancy o{B.space.used(v), queued[v], B.leaving[v]};
      if (!o.holds()) return check(o, "buffer " + std::to_string(b) + " VL " + std::to_string(v));
    }
  }
  f.events.for_each([&](const event& e) {
    if (e.kind == event_kind::deliver) ++ledger.delivering;
  });
  if (!ledger.holds()) return check(ledger);
  for (std::size_t l = 0; l < f.links.size(); ++l) {
    const link<Scheduler>& L = f.links[l];
    if (L.to_input == no_buffer) continue;
    const std::int64_t size = L.credit_view.capacity();
    for (std::size_t v = 0; v < vls; ++v) {
      const credit_loop loop{size, size - std::int64_t{L.credit_view.used(v)},
                             f.buffers[L.to_input].space.used(v), L.credits_in_flight[v]};
      if (!loop.holds())
        return check(loop, "link " + std::to_string(l) + " VL " + std::to_string(v));
    }
  }
  if (idle && ledger.in_network() + ledger.delivering != 0)
    return std::to_string(ledger.in_network() + ledger.delivering) +
           " packets still in the network when idle";
  return {};
}

}  // namespace qos_switch
}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_QOS_SWITCH_FABRIC_AUDIT_HPP
