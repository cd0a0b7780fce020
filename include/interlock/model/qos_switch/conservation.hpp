// SPDX-License-Identifier: BSL-1.0
// interlock/model/qos_switch/conservation.hpp: what breaks a switch network's invariants.
//
// Contract
//   audit(fabric, idle, created, delivered) returns "" when the
//   invariants hold, or the first that breaks, naming the buffer or link
//   and VL:
//   - each buffer's occupancy per VL equals its queued flits (in every
//     FIFO, per VL or per SC) plus those departing through a crossbar or
//     link;
//   - each link's credit view equals the input buffer's occupancy at its
//     other end plus the credits in flight back to it;
//   - when `idle` (nothing generating, no event pending): every created
//     packet delivered and every buffer empty.
//   A check for tests and programs' --audit: it walks every buffer's FIFOs,
//   so it costs the packets in flight.
#ifndef INTERLOCK_MODEL_QOS_SWITCH_CONSERVATION_HPP
#define INTERLOCK_MODEL_QOS_SWITCH_CONSERVATION_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "interlock/model/qos_switch/vl_fabric.hpp"

namespace interlock {
namespace model {
namespace qos_switch {

template <class Scheduler>
std::string audit(const fabric<Scheduler>& f, bool idle, std::uint64_t created,
                  std::uint64_t delivered) {
  const std::size_t vls = f.levels.vls();
  for (std::size_t b = 0; b < f.buffers.size(); ++b) {
    const buffer& B = f.buffers[b];
    // Queued flits per VL, over every FIFO (a FIFO per SC holds its VL's).
    std::array<std::uint64_t, vl_space::max_vls> queued{};
    for (std::size_t q = 0; q < B.queue.size(); ++q)
      for (std::uint32_t id = B.queue[q].head; id != fifo_end; id = f.packets[id].next)
        queued[f.packets[id].vl] += f.packets[id].flits;
    for (std::size_t v = 0; v < vls; ++v) {
      if (B.space.used(v) != queued[v] + B.leaving[v]) {
        return "buffer " + std::to_string(b) + " VL " + std::to_string(v) + " holds " +
               std::to_string(B.space.used(v)) + " flits but queues " + std::to_string(queued[v]) +
               " and sends " + std::to_string(B.leaving[v]);
      }
    }
  }
  for (std::size_t l = 0; l < f.links.size(); ++l) {
    const link<Scheduler>& L = f.links[l];
    if (L.to_input == no_buffer) continue;
    for (std::size_t v = 0; v < vls; ++v) {
      const std::uint64_t seen = L.credit_view.used(v);
      const std::uint64_t real = f.buffers[L.to_input].space.used(v) + L.credits_in_flight[v];
      if (seen != real) {
        return "link " + std::to_string(l) + " VL " + std::to_string(v) + " sees " +
               std::to_string(seen) + " flits used downstream, " + std::to_string(real) +
               " are (occupancy + credits in flight)";
      }
    }
  }
  if (idle) {
    if (created != delivered)
      return std::to_string(created - delivered) + " packets never delivered";
    for (std::size_t b = 0; b < f.buffers.size(); ++b) {
      if (f.buffers[b].space.used() != 0)
        return "buffer " + std::to_string(b) + " not empty after drain";
    }
  }
  return {};
}

}  // namespace qos_switch
}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_QOS_SWITCH_CONSERVATION_HPP
