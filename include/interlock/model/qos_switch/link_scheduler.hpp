// SPDX-License-Identifier: BSL-1.0
// interlock/model/qos_switch/link_scheduler.hpp: which packet a link sends next, and routing where
// it lands.
//
// Models [QoSThesis] Sections 2.2.3 and 4.2.2: a packet leaves an output
// buffer, or a NIC's queue, when the link's scheduler (the template
// parameter: round_robin_scheduler, qos::sbt_scheduler,
// qos::dtable_scheduler, qos::ib_vl_arbiter, any queue_requests scheduler;
// schedulers.hpp) grants its queue among the heads that have arrived and
// have credits downstream, at one flit per cycle (virtual cut-through: the
// input buffer at the other end must have room for all of it in its VL).
// Its header is stored SB after it arrives (by the shape's storing_unit: at
// once, or when the input buffer's write stage, or its VL's, is free, which
// is then busy SB cycles; the tail waits as long as the header) and routed
// RT after that (by the routing_unit, likewise): a port of the route's group, picked
// at random by the switch's generator, and the SC and VL of the route's
// class. A packet into a NIC is delivered FLY after its tail
// leaves. With whole_packet_crossing its head is ready only once its tail
// is in.
//
// Contract
//   link_scheduler<Scheduler>::schedule(fabric) sends on every link
//   woken this cycle (fabric.ready_links, then emptied) that is free; a
//   busy link is woken when it frees. The scheduler sees one queue per VL
//   (queues<S>::per_vl, InfiniBand's arbiter) or per SC, head sizes
//   in its units (head_units). No allocation, no virtual dispatch.
#ifndef INTERLOCK_MODEL_QOS_SWITCH_LINK_SCHEDULER_HPP
#define INTERLOCK_MODEL_QOS_SWITCH_LINK_SCHEDULER_HPP

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

#include "interlock/core/bits.hpp"
#include "interlock/core/grant.hpp"
#include "interlock/core/random.hpp"
#include "interlock/core/span.hpp"
#include "interlock/model/qos_switch/schedulers.hpp"
#include "interlock/model/qos_switch/vl_fabric.hpp"
#include "interlock/qos/queue_requests.hpp"

namespace interlock {
namespace model {
namespace qos_switch {

template <class Scheduler>
class link_scheduler {
 public:
  static constexpr bool per_vl = queues<Scheduler>::per_vl;
  static constexpr std::size_t max_queues = 64;
  using fabric_type = fabric<Scheduler>;

  void schedule(fabric_type& f) {
    for (const std::uint32_t l : f.ready_links) send(f, l);
    f.ready_links.clear();
  }

 private:
  void send(fabric_type& f, std::uint32_t l) {
    link<Scheduler>& L = f.links[l];
    if (L.busy_until > f.now) return;  // woken when it frees
    buffer& B = f.buffers[L.from];
    qos::queue_requests r;
    std::uint64_t mask = 0;
    for (std::uint32_t m = B.occupied; m != 0; m &= m - 1) {
      const std::size_t fifo = bits::lowest_index(m);
      const packet& pk = f.packets[B.queue[fifo].head];
      if (pk.head_ready > f.now) continue;
      if (L.to_input != no_buffer && !L.credit_view.fits(pk.vl, pk.flits)) continue;
      const std::size_t q = per_vl ? pk.vl : pk.sc;
      // With a FIFO per SC, two FIFOs of one VL may both have a head for a
      // scheduler of VLs: the lower SC's stands for the VL.
      if ((mask >> q) & 1) continue;
      mask |= std::uint64_t{1} << q;
      head_size_[q] = head_units<Scheduler>(pk.flits, f.shape);
      queue_fifo_[q] = static_cast<std::uint8_t>(fifo);
    }
    if (mask == 0) return;
    r.requests = mask;
    r.head_size = span<const std::uint32_t>(head_size_.data(), head_size_.size());
    const grant g = L.scheduler.arbitrate(r);
    if (!g) return;
    L.scheduler.commit(g, r);
    const std::uint32_t id = B.dequeue(f.packets, queue_fifo_[g.index()]);
    packet& pk = f.packets[id];
    const std::size_t v = pk.vl;
    const std::uint64_t end = std::max(f.now + pk.flits, pk.tail_at);
    L.busy_until = end;
    push(f.events, end, event_kind::wake_link, l);
    if (L.from >= f.nic_base) {
      pk.injected = f.now;
      B.space.release(v, pk.flits);
    } else {
      B.leaving[v] += pk.flits;
      push(f.events, end, event_kind::release, L.from, static_cast<std::uint32_t>(v), pk.flits);
      f.link_flits[L.from - f.outputs] += pk.flits;
    }
    f.peak_link = std::max<std::uint32_t>(
        f.peak_link, static_cast<std::uint32_t>((pk.flits + (end - f.now) - 1) / (end - f.now)));
    if (L.to_input == no_buffer) {
      push(f.events, end + L.latency, event_kind::deliver, id);
      return;
    }
    L.credit_view.reserve(v, pk.flits);
    buffer& D = f.buffers[L.to_input];
    D.space.reserve(v, pk.flits);
    f.input_flits[L.to_input - f.inputs] += pk.flits;
    route(f, L.to_input, pk);
    const std::uint64_t arrival = f.now + L.latency;
    const std::uint64_t stored = D.store(f.shape.storing, v, arrival, f.shape.latency.sb);
    pk.head_ready = D.route_done(f.shape.routing, v, stored, f.shape.latency.rt);
    pk.tail_at = end + L.latency + (stored - arrival);
    if (f.shape.whole_packet_crossing) pk.head_ready = std::max(pk.head_ready, pk.tail_at);
    D.enqueue(f.packets, v, id);
    push(f.events, pk.head_ready, event_kind::wake_source, L.to_input);
  }

  // Routing at an input buffer: a port of the route's group, picked at
  // random by the switch's generator, and the SC and VL of its class.
  static void route(fabric_type& f, std::uint32_t input, packet& pk) {
    const std::size_t s = (input - f.inputs) / f.shape.ports;
    const route_group& r = f.layout.route_entry(s, pk.dst);
    const std::size_t pick = r.count > 1 ? uniform_below(f.switch_rng[s], r.count) : 0;
    pk.out = static_cast<std::uint16_t>(r.first + pick);
    pk.next_sc = static_cast<std::uint8_t>(f.levels.sc(pk.sl, r.cls));
    pk.next_vl = static_cast<std::uint8_t>(f.levels.vl(pk.sl, r.cls));
  }

  std::array<std::uint32_t, max_queues> head_size_{};
  std::array<std::uint8_t, max_queues> queue_fifo_{};  // the FIFO of each scheduler queue's head
};

}  // namespace qos_switch
}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_QOS_SWITCH_LINK_SCHEDULER_HPP
