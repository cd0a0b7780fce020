// SPDX-License-Identifier: BSL-1.0
// interlock/model/qos_switch/allocation.hpp: a switch's VC and switch allocation, and its
// crossbars.
//
// Models [QoSThesis] Sections 2.2.2 and 4.2.2: allocation in two stages
// (VA-SA). Each input or central buffer's input arbiter (round robin over
// VLs) offers one VL whose head packet is routed and, by the shape's
// va_rule, has room where it goes (can_go), or whose head is routed, room
// or not (routed: a pick without room requests nothing that cycle);
// each output buffer's, and each central link's, output arbiter (round
// robin) grants one of the buffers that offered it. An output in the
// input's own MPort is reached through the MPort crossbar; any other
// through the MPort's central links, taken in order (each link's arbiter
// grants among the offers that fit it, the rest go on to the next link),
// then the central crossbar. A packet crosses a crossbar at the speed-up
// of its link (mport_speedup or central_speedup flits per speedup_cycles,
// moved evenly: floor(t x speed-up / speedup_cycles) by cycle t), never
// ending before its tail has arrived: the source buffer and the
// destination's write port are busy until it ends, and the source's space
// comes back then. Out of an input buffer a packet takes the SC and VL of
// its route.
//
// Contract
//   allocation<Scheduler>::build(fabric) sizes its request masks;
//   allocate(fabric) runs one cycle's allocation over the buffers woken in
//   it (fabric.sources, then emptied): a source with nothing that can go
//   waits on the buffers it needs (woken when they free room or their
//   write port); one that loses an arbitration is woken the next cycle.
//   Work is proportional to the buffers woken; nothing allocates once the
//   waiter lists have grown.
#ifndef INTERLOCK_MODEL_QOS_SWITCH_ALLOCATION_HPP
#define INTERLOCK_MODEL_QOS_SWITCH_ALLOCATION_HPP

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "interlock/core/bits.hpp"
#include "interlock/core/grant.hpp"
#include "interlock/model/qos_switch/vl_fabric.hpp"

namespace interlock {
namespace model {
namespace qos_switch {

template <class Scheduler>
class allocation {
 public:
  using fabric_type = fabric<Scheduler>;

  void build(const fabric_type& f) {
    requests_.assign(f.layout.switches() * f.shape.ports + f.layout.switches() * f.shape.mports(),
                     0);
    chosen_vl_.assign(f.nic_base, 0);
  }

  void allocate(fabric_type& f) {
    // With share_cycles, sources that sent a packet and have flits of the
    // cycle left offer again in a further round.
    while (!f.sources.empty()) {
      round(f);
      f.sources.swap(again_);
      again_.clear();
    }
  }

 private:
  void round(fabric_type& f) {
    touched_.clear();
    // Virtual allocation: each awake source offers one VL.
    for (const std::uint32_t b : f.sources) offer(f, b);
    f.sources.clear();
    // Switch allocation: each requested destination grants one source.
    for (const std::uint32_t di : touched_) {
      std::uint64_t req = requests_[di];
      requests_[di] = 0;
      if (di < f.outputs) {
        const auto d = static_cast<std::uint32_t>(f.outputs + di);
        buffer& D = f.buffers[d];
        // One grant; more while the write port has flits of the cycle left.
        for (std::uint64_t fit = req; fit != 0; fit = fitting(f, di, d, req)) {
          const grant g = D.source_arbiter.arbitrate(fit);
          D.source_arbiter.commit(g);
          transfer(f, f.source_of(di, g.index()), d);
          req &= ~(std::uint64_t{1} << g.index());
          if (D.write_busy_until > f.now) break;
        }
      } else {
        const std::uint32_t group = di - static_cast<std::uint32_t>(f.outputs);
        for (std::size_t j = 0; j < f.shape.central_links && req != 0; ++j) {
          const std::uint32_t cb = f.central_buffer(group, j);
          buffer& D = f.buffers[cb];
          for (std::uint64_t fit = fitting(f, di, cb, req); fit != 0;
               fit = fitting(f, di, cb, req)) {
            const grant g = D.source_arbiter.arbitrate(fit);
            D.source_arbiter.commit(g);
            transfer(f, f.source_of(di, g.index()), cb);
            req &= ~(std::uint64_t{1} << g.index());
            if (D.write_busy_until > f.now) break;
          }
        }
      }
      // Sources that lost try again next cycle.
      for (std::uint64_t r = req; r != 0; r &= r - 1)
        push(f.events, f.now + 1, event_kind::wake_source, f.source_of(di, bits::lowest_index(r)));
    }
  }

  // The requesters in req (at destination index di) whose chosen packet
  // buffer d can take now.
  std::uint64_t fitting(const fabric_type& f, std::uint32_t di, std::uint32_t d,
                        std::uint64_t req) const {
    std::uint64_t fit = 0;
    for (std::uint64_t r = req; r != 0; r &= r - 1) {
      const std::size_t local = bits::lowest_index(r);
      const std::uint32_t src = f.source_of(di, local);
      const buffer& B = f.buffers[src];
      if (f.can_take(d, f.packets[B.queue[chosen_vl_[src]].head])) fit |= std::uint64_t{1} << local;
    }
    return fit;
  }

  // Whether buffer d, or one of central group d's links, can take pk now.
  bool fits(const fabric_type& f, std::uint32_t d, const packet& pk) const {
    if (d < f.central_stage()) return f.can_take(d, pk);
    const std::uint32_t group = d - static_cast<std::uint32_t>(f.central_stage());
    bool any = false;
    for (std::size_t j = 0; j < f.shape.central_links; ++j)
      any = any || f.can_take(f.central_buffer(group, j), pk);
    return any;
  }
  // Source b waits for room at d (at every link of a central group).
  void wait_for(fabric_type& f, std::uint32_t d, std::uint32_t b) {
    if (d < f.central_stage()) {
      f.buffers[d].waiters.push_back(b);
      return;
    }
    const std::uint32_t group = d - static_cast<std::uint32_t>(f.central_stage());
    for (std::size_t j = 0; j < f.shape.central_links; ++j)
      f.buffers[f.central_buffer(group, j)].waiters.push_back(b);
  }
  // Source b requests d for its chosen VL v.
  void request(std::uint32_t b, std::size_t v, std::uint32_t d, const fabric_type& f) {
    chosen_vl_[b] = static_cast<std::uint8_t>(v);
    const std::size_t di =
        d >= f.central_stage()
            ? f.outputs + (d - f.central_stage())  // central groups after outputs
            : d - f.outputs;
    if (requests_[di] == 0) touched_.push_back(static_cast<std::uint32_t>(di));
    requests_[di] |= std::uint64_t{1} << f.local_index(b);
  }

  // Source b's input arbiter offers one VL (the shape's va_rule).
  void offer(fabric_type& f, std::uint32_t b) {
    buffer& B = f.buffers[b];
    if (B.read_busy_until > f.now) return;  // woken when its transfer ends
    const bool can_go_only = f.shape.va == va_rule::can_go;
    // Flits of this cycle its crossbar input has left (share_cycles).
    const std::uint32_t room = B.read_cycle == f.now
                                   ? f.flits_in_cycle(f.speed_of(b), f.now) - B.read_used
                                   : ~std::uint32_t{0};
    std::uint64_t offered = 0, routed = 0;
    for (std::uint32_t m = B.occupied; m != 0; m &= m - 1) {
      const std::size_t v = bits::lowest_index(m);
      const packet& pk = f.packets[B.queue[v].head];
      if (pk.head_ready > f.now) continue;  // woken when it is ready
      if (pk.flits > room) continue;        // woken next cycle, when its transfer ends
      const std::uint32_t d = f.destination(b, pk);
      head_destination_[v] = d;
      routed |= std::uint64_t{1} << v;
      if (!can_go_only) continue;
      if (fits(f, d, pk)) {
        offered |= std::uint64_t{1} << v;
      } else {
        wait_for(f, d, b);
      }
    }
    if (can_go_only) {
      // The pointer moves when the packet leaves (transfer).
      if (offered != 0) {
        const std::size_t v = B.vl_arbiter.arbitrate(offered).index();
        request(b, v, head_destination_[v], f);
      }
      return;
    }
    // va_rule::routed: the pick moves the pointer; a pick without room
    // where it goes requests nothing this cycle.
    if (routed == 0) return;
    const grant g = B.vl_arbiter.arbitrate(routed);
    B.vl_arbiter.commit(g);
    const std::size_t v = g.index();
    const std::uint32_t d = head_destination_[v];
    if (fits(f, d, f.packets[B.queue[v].head])) {
      request(b, v, d, f);
      return;
    }
    ++f.blocked_picks;
    if ((routed & ~(std::uint64_t{1} << v)) != 0) {
      push(f.events, f.now + 1, event_kind::wake_source, b);  // the next VL's turn
    } else {
      wait_for(f, d, b);
    }
  }

  // The packet at the head of src's chosen VL crosses a crossbar into dst.
  void transfer(fabric_type& f, std::uint32_t src, std::uint32_t dst) {
    buffer& B = f.buffers[src];
    const std::size_t v = chosen_vl_[src];
    B.vl_arbiter.commit(grant(v));
    const std::uint32_t id = B.dequeue(f.packets, v);
    packet& pk = f.packets[id];
    const bool from_input = src < f.outputs;
    const std::uint32_t speed = from_input ? f.shape.mport_speedup : f.shape.central_speedup;
    const std::uint32_t this_cycle = f.flits_in_cycle(speed, f.now);
    const std::uint64_t end = std::max(f.crossing_end(speed, f.now, pk.flits), pk.tail_at);
    f.peak_crossbar =
        std::max(f.peak_crossbar, static_cast<double>(pk.flits) / static_cast<double>(end - f.now));
    // A packet done within the cycle leaves the rest of it to the next
    // (share_cycles); otherwise the crossbar input is busy until it ends.
    const bool shares = f.shape.share_cycles && end == f.now + 1;
    B.read_busy_until = end;
    if (shares) {
      B.read_used = (B.read_cycle == f.now ? B.read_used : 0) + pk.flits;
      B.read_cycle = f.now;
      f.peak_crossbar = std::max(f.peak_crossbar, static_cast<double>(B.read_used));
      if (B.read_used < this_cycle) {
        B.read_busy_until = f.now;
        again_.push_back(src);
      }
    }
    B.leaving[v] += pk.flits;
    push(f.events, end, event_kind::release, src, static_cast<std::uint32_t>(v), pk.flits);
    push(f.events, end, event_kind::wake_source, src);
    // Out of the input buffer the packet takes the SC and VL of its route.
    pk.sc = pk.next_sc;
    pk.vl = pk.next_vl;
    buffer& D = f.buffers[dst];
    D.space.reserve(pk.vl, pk.flits);
    D.write_busy_until = end;
    if (shares) {
      if (D.write_cycle != f.now) {
        D.write_cycle = f.now;
        D.write_used = 0;
        D.write_cap = this_cycle;
      }
      D.write_used += pk.flits;
      if (D.write_used < D.write_cap) D.write_busy_until = f.now;
    }
    const bool to_output = dst < f.centrals;
    const std::uint64_t arrival = f.now + f.shape.latency.at + f.shape.latency.x;
    // Output buffers store it (SB, by the shape's storing_unit); central
    // buffers are perfect.
    const std::uint64_t stored =
        to_output ? D.store(f.shape.storing, pk.vl, arrival, f.shape.latency.sb) : arrival;
    pk.head_ready = stored;
    pk.tail_at = end + (stored - f.now);
    D.enqueue(f.packets, f.queue_of(dst, pk), id);
    if (to_output) {
      const std::uint32_t l = f.link_of_output[dst - f.outputs];
      push(f.events, pk.head_ready, event_kind::wake_link, l);
    } else {
      push(f.events, pk.head_ready, event_kind::wake_source, dst);
    }
    push(f.events, end, event_kind::port_free, dst);
  }

  std::vector<std::uint32_t> touched_;
  std::vector<std::uint64_t> requests_;
  std::vector<std::uint8_t> chosen_vl_;
  std::vector<std::uint32_t> again_;  // sources to offer again this cycle
  std::array<std::uint32_t, vl_space::max_vls> head_destination_{};  // offer()'s, per VL
};

}  // namespace qos_switch
}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_QOS_SWITCH_ALLOCATION_HPP
