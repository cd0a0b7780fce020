// SPDX-License-Identifier: BSL-1.0
// interlock/model/qos_switch/vl_fabric.hpp: a switch network's VL buffers and links, and how they
// are numbered.
//
// Models [QoSThesis] Sections 2.2 and 4.2.2 (Figures 2.1, 2.2, 4.2): every
// switch has an input buffer per port, an output buffer per port and a
// central buffer per central link, each a dynamic VL space (vl_buffer.hpp)
// with a FIFO of packets per VL; every NIC a queue per VL without bound
// ([QoSThesis] Section 4.4.1: what does not fit waits in the application).
// A link runs from a switch output buffer, or a NIC's queue, to the input
// buffer at its other end (none for a link into a NIC) and sees that
// buffer's space through credits that come back FLY cycles after it frees.
//
// Contract
//   fabric<Scheduler> is the state allocation.hpp and
//   link_scheduler.hpp act on and qos_switch.hpp advances:
//   - buffers are numbered inputs (switch s, port p: s * P + p), outputs
//     (S * P + s * P + p), central buffers (2 S P + s * C + g * L + j for
//     MPort g's central link j, C = MPorts x links), then NICs (nic_base +
//     n); links one per output port with a peer, then one per NIC (nic_link
//     + n), each with its own copy of the scheduler;
//   - destination(b, packet) is where the head of buffer b goes next: an
//     output buffer, or central_stage() + g for the central links of b's
//     MPort g; local_index(b) the requester index b has at that
//     destination's arbiter and source_of() its inverse;
//   - queue_of(b, packet) is the FIFO of b the packet joins: its VL's, or
//     with sc_queues its SC's in output buffers and NIC queues (space and
//     credits are always its VL's);
//   - wake_source / wake_link put a buffer or link in this cycle's work
//     list once; release, port_free and credit are the events' effects.
//   Nothing here allocates after build() except the waiter lists and the
//   work lists growing to their largest size.
#ifndef INTERLOCK_MODEL_QOS_SWITCH_VL_FABRIC_HPP
#define INTERLOCK_MODEL_QOS_SWITCH_VL_FABRIC_HPP

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "interlock/arbiters/round_robin.hpp"
#include "interlock/core/random.hpp"
#include "interlock/model/qos_switch/events.hpp"
#include "interlock/model/qos_switch/layout.hpp"
#include "interlock/model/qos_switch/packets.hpp"
#include "interlock/model/qos_switch/shape.hpp"
#include "interlock/model/qos_switch/vl_buffer.hpp"

namespace interlock {
namespace model {
namespace qos_switch {

inline constexpr std::uint32_t no_buffer = 0xFFFFFFFFu;

struct buffer {
  vl_space space;
  std::array<packet_fifo, vl_space::max_vls> queue{};
  std::uint32_t occupied = 0;  // bit q: queue[q] holds a packet (q: a VL, or an SC)
  std::array<std::uint32_t, vl_space::max_vls> leaving{};
  std::uint64_t read_busy_until = 0;   // as a source: its crossbar input
  std::uint64_t write_busy_until = 0;  // as a destination: its write port
  // With share_cycles: the flits its crossbar input (read) and write port
  // have moved in cycle read_cycle / write_cycle, and the write port's
  // speed-up that cycle (its first packet's crossbar).
  std::uint64_t read_cycle = ~std::uint64_t{0}, write_cycle = ~std::uint64_t{0};
  std::uint32_t read_used = 0, write_used = 0, write_cap = 0;
  std::uint64_t stamp = ~std::uint64_t{0};  // the cycle it was last woken as a source
  std::uint32_t link_in = no_buffer;        // the link feeding it (input buffers)
  // When its routing unit is next free (routing_unit::per_port: [0]; per_vl:
  // per VL).
  std::array<std::uint64_t, vl_space::max_vls> routing_free{};
  // When its write stage is next free to store a packet (storing_unit; the
  // same indexing).
  std::array<std::uint64_t, vl_space::max_vls> storing_free{};

  /// The cycle a packet whose header arrives at `arrival` in VL v is
  /// stored, SB cycles each, one at a time by `unit`.
  std::uint64_t store(storing_unit unit, std::size_t v, std::uint64_t arrival,
                      std::uint32_t sb) noexcept {
    return serial_stage(unit, storing_free, v, arrival, sb);
  }
  /// The cycle a header stored at `stored` in VL v is routed, RT cycles
  /// each, one at a time by `unit`.
  std::uint64_t route_done(routing_unit unit, std::size_t v, std::uint64_t stored,
                           std::uint32_t rt) noexcept {
    return serial_stage(unit, routing_free, v, stored, rt);
  }

  // A stage of `cycles` that a unit serves at once (pipelined) or one
  // packet at a time, per port ([0]) or per VL: when a packet reaching it
  // at `at` in VL v leaves it; `free` is when each unit is next free.
  static std::uint64_t serial_stage(routing_unit unit,
                                    std::array<std::uint64_t, vl_space::max_vls>& free,
                                    std::size_t v, std::uint64_t at,
                                    std::uint32_t cycles) noexcept {
    if (unit == routing_unit::pipelined) return at + cycles;
    std::uint64_t& next = free[unit == routing_unit::per_vl ? v : 0];
    next = std::max(at, next) + cycles;
    return next;
  }
  round_robin_arbiter<32, rr_order::ascending> vl_arbiter;
  round_robin_arbiter<64, rr_order::ascending> source_arbiter;
  std::vector<std::uint32_t> waiters;  // sources waiting for its room or write port

  void enqueue(qos_switch::packets& store, std::size_t v, std::uint32_t id) noexcept {
    queue[v].push(store, id);
    occupied |= std::uint32_t{1} << v;
  }
  std::uint32_t dequeue(qos_switch::packets& store, std::size_t v) noexcept {
    const std::uint32_t id = queue[v].pop(store);
    if (queue[v].empty()) occupied &= ~(std::uint32_t{1} << v);
    return id;
  }
};

template <class Scheduler>
struct link {
  std::uint32_t from = 0;              // its output buffer or NIC queue
  std::uint32_t to_input = no_buffer;  // the input buffer at the other end, or none (a NIC)
  std::uint32_t latency = 0;
  std::uint64_t busy_until = 0;
  std::uint64_t stamp = ~std::uint64_t{0};
  vl_space credit_view;
  std::array<std::uint32_t, vl_space::max_vls> credits_in_flight{};
  Scheduler scheduler;
};

template <class Scheduler>
struct fabric {
  qos_switch::layout layout;
  qos_switch::shape shape;
  service_levels levels;

  std::size_t inputs = 0, outputs = 0, centrals = 0, nic_base = 0, nic_link = 0;
  std::vector<buffer> buffers;
  std::vector<link<Scheduler>> links;
  std::vector<std::uint32_t> link_of_output;
  qos_switch::packets packets;
  qos_switch::events events;
  std::uint64_t now = 0;
  std::vector<std::uint32_t> sources, ready_links;  // this cycle's work
  std::vector<splitmix64> switch_rng;               // each switch's route choices
  std::vector<std::uint64_t> link_flits, input_flits;
  std::uint32_t peak_link = 0;
  double peak_crossbar = 0;
  std::uint64_t blocked_picks = 0;  // va_rule::routed picks whose head had no room

  fabric(qos_switch::layout l, const qos_switch::shape& s, const service_levels& v)
      : layout(std::move(l)), shape(s), levels(v) {}

  void build(const Scheduler& scheduler) {
    const std::size_t S = layout.switches(), P = shape.ports;
    const std::size_t vls = levels.vls();
    inputs = 0;
    outputs = S * P;
    centrals = 2 * S * P;
    nic_base = centrals + S * shape.central_buffers();
    const auto space = [&](std::uint32_t capacity) {
      const std::uint32_t max = std::min(shape.vl_max_flits, capacity);
      return vl_space(capacity, vls, std::min(shape.vl_min_flits, capacity / std::uint32_t(vls)),
                      max);
    };
    buffers.resize(nic_base + layout.nics());
    for (std::size_t b = 0; b < buffers.size(); ++b) {
      std::uint32_t capacity = b < outputs    ? shape.input_flits
                               : b < centrals ? shape.output_flits
                               : b < nic_base ? shape.central_flits
                                              : (1u << 30);
      buffers[b].space = b < nic_base ? space(capacity) : vl_space(capacity, vls, 0, capacity);
    }
    // Links: one per switch output port with a peer, then one per NIC.
    link_of_output.assign(S * P, no_buffer);
    for (std::size_t s = 0; s < S; ++s) {
      for (std::size_t p = 0; p < P; ++p) {
        const port_peer& q = layout.peer(s, p);
        if (q.what == port_peer::kind::none) continue;
        link<Scheduler> L{static_cast<std::uint32_t>(outputs + s * P + p),
                          q.what == port_peer::kind::switch_port
                              ? static_cast<std::uint32_t>(inputs + q.id * P + q.port)
                              : no_buffer,
                          shape.latency.fly,
                          0,
                          ~std::uint64_t{0},
                          space(shape.input_flits),
                          {},
                          scheduler};
        link_of_output[s * P + p] = static_cast<std::uint32_t>(links.size());
        if (L.to_input != no_buffer)
          buffers[L.to_input].link_in = static_cast<std::uint32_t>(links.size());
        links.push_back(std::move(L));
      }
    }
    nic_link = links.size();
    for (std::size_t n = 0; n < layout.nics(); ++n) {
      const nic_attachment& at = layout.nic(n);
      link<Scheduler> L{static_cast<std::uint32_t>(nic_base + n),
                        static_cast<std::uint32_t>(inputs + at.sw * P + at.port),
                        shape.latency.inj,
                        0,
                        ~std::uint64_t{0},
                        space(shape.input_flits),
                        {},
                        scheduler};
      buffers[L.to_input].link_in = static_cast<std::uint32_t>(links.size());
      links.push_back(std::move(L));
    }
    for (std::size_t sw = 0; sw < S; ++sw) switch_rng.emplace_back(sw + 1);
    link_flits.assign(S * P, 0);
    input_flits.assign(S * P, 0);
  }

  // ---- this cycle's work -------------------------------------------------
  void wake_source(std::uint32_t b) {
    buffer& B = buffers[b];
    if (B.stamp == now) return;
    B.stamp = now;
    sources.push_back(b);
  }
  void wake_link(std::uint32_t l) {
    link<Scheduler>& L = links[l];
    if (L.stamp == now) return;
    L.stamp = now;
    ready_links.push_back(l);
  }
  void wake_waiters(std::uint32_t d) {
    auto& w = buffers[d].waiters;
    for (const std::uint32_t s : w) wake_source(s);
    w.clear();
  }

  // ---- the events' effects -----------------------------------------------
  // `flits` of VL v leave buffer b: its space comes back, its waiters try
  // again, and an input buffer sends the credits back up its link.
  void release(std::uint32_t b, std::uint32_t v, std::uint32_t flits) {
    buffer& B = buffers[b];
    B.space.release(v, flits);
    B.leaving[v] -= flits;
    wake_waiters(b);
    if (b < outputs && B.link_in != no_buffer) {
      link<Scheduler>& L = links[B.link_in];
      L.credits_in_flight[v] += flits;
      push(events, now + L.latency, event_kind::credit, B.link_in, v, flits);
    }
  }
  // Buffer b's write port is free: its waiters try again. An output
  // buffer's link is looked at as a packet lands in it; this fixes the
  // order links act in within a cycle, and so the order in which a switch
  // draws the route choices of the packets they send it.
  void port_free(std::uint32_t b) {
    wake_waiters(b);
    if (b >= outputs && b < centrals) {
      const std::uint32_t l = link_of_output[b - outputs];
      if (l != no_buffer) wake_link(l);
    }
  }
  void credit(std::uint32_t l, std::uint32_t v, std::uint32_t flits) {
    link<Scheduler>& L = links[l];
    L.credit_view.release(v, flits);
    L.credits_in_flight[v] -= flits;
    wake_link(l);
  }

  // ---- numbering ---------------------------------------------------------
  // The FIFO of buffer b that pk joins: its SC's in an output buffer or a
  // NIC's queue with sc_queues, its VL's otherwise.
  std::size_t queue_of(std::uint32_t b, const packet& pk) const noexcept {
    const bool per_sc = shape.sc_queues && b >= outputs && (b < centrals || b >= nic_base);
    return per_sc ? pk.sc : pk.vl;
  }
  // Where the head of buffer b's VL goes next: an output buffer, or the
  // central stage of b's MPort (returned as central_stage() + group).
  std::uint32_t destination(std::uint32_t b, const packet& pk) const noexcept {
    const std::size_t P = shape.ports;
    if (b < outputs) {
      const std::size_t s = b / P, p = b % P;
      const std::size_t o = pk.out;
      if (shape.mport_of(o) == shape.mport_of(p))
        return static_cast<std::uint32_t>(outputs + s * P + o);
      return static_cast<std::uint32_t>(central_stage() + s * shape.mports() + shape.mport_of(p));
    }
    const std::size_t c = b - centrals;
    const std::size_t s = c / shape.central_buffers();
    return static_cast<std::uint32_t>(outputs + s * P + pk.out);
  }
  std::size_t central_stage() const noexcept { return buffers.size(); }
  std::uint32_t central_buffer(std::uint32_t group, std::size_t j) const noexcept {
    return static_cast<std::uint32_t>(centrals + group * shape.central_links + j);
  }
  bool can_take(std::uint32_t d, const packet& pk) const noexcept {
    const buffer& D = buffers[d];
    return D.write_busy_until <= now && D.space.fits(pk.next_vl, pk.flits) &&
           (D.write_cycle != now || D.write_used + pk.flits <= D.write_cap);
  }
  // Flits per shape.speedup_cycles out of buffer b through its crossbar.
  std::uint32_t speed_of(std::uint32_t b) const noexcept {
    return b < outputs ? shape.mport_speedup : shape.central_speedup;
  }
  // The flits a link of `speed` moves in cycle t (speed every
  // shape.speedup_cycles cycles, evenly).
  std::uint32_t flits_in_cycle(std::uint32_t speed, std::uint64_t t) const noexcept {
    const std::uint64_t c = shape.speedup_cycles;
    return static_cast<std::uint32_t>((t + 1) * speed / c - t * speed / c);
  }
  // The cycle a link of `speed` taken at cycle t has moved `flits` more.
  std::uint64_t crossing_end(std::uint32_t speed, std::uint64_t t,
                             std::uint32_t flits) const noexcept {
    const std::uint64_t c = shape.speedup_cycles;
    const std::uint64_t moved = t * speed / c + flits;  // by the end
    return (moved * c + speed - 1) / speed;
  }
  // The requester index a source has at a destination's arbiter.
  std::size_t local_index(std::uint32_t src) const noexcept {
    const std::size_t P = shape.ports, m = shape.mport_ports;
    if (src < outputs) return (src % P) % m;
    return m + (src - centrals) % shape.central_buffers();
  }
  // d_index: an output buffer's index (s * P + o) or a central group's
  // (outputs + s * M + g).
  std::uint32_t source_of(std::uint32_t d_index, std::size_t local) const noexcept {
    const std::size_t P = shape.ports, m = shape.mport_ports;
    if (d_index < outputs) {
      const std::size_t s = d_index / P, g = shape.mport_of(d_index % P);
      if (local < m) return static_cast<std::uint32_t>(inputs + s * P + g * m + local);
      return static_cast<std::uint32_t>(centrals + s * shape.central_buffers() + (local - m));
    }
    const std::size_t group = d_index - outputs;
    const std::size_t s = group / shape.mports(), g = group % shape.mports();
    return static_cast<std::uint32_t>(inputs + s * P + g * m + local);
  }
};

}  // namespace qos_switch
}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_QOS_SWITCH_VL_FABRIC_HPP
