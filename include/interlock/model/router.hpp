// SPDX-License-Identifier: BSL-1.0
// interlock/model/router.hpp: how a router composes interlock's policies: route computation,
// the input stage, the switch allocator and the output policies.
//
// Contract
//   router<Scheme, Policy, Allocator, InputPolicy> decides, for every
//   router of a network, which packets leave this cycle and where, and
//   moves them out of its buffers; interlock::model::network carries them
//   between routers. It is a composition of three parts it owns, each with
//   its one job: the policies of every port and the heads' choices
//   (router_policies.hpp), the switch allocator (router_allocation.hpp) and
//   the route unit, route computation and the heads that can go
//   (router_routes.hpp); here a router's cycle (which part acts when, two
//   switch stages with pipelined heads among it) and its departures. It
//   reaches the policies only through the surface every interlock policy
//   has:
//   - Switch allocation, by the Allocator parameter:
//       separable_input_first (default): each input port's InputPolicy
//         (round robin by default; any policy with a request_builder, over
//         a candidate_view of the port's VCs) picks one of its heads that
//         can go; each requested output grants one of the input ports that
//         picked it with Policy, over a candidate_view of the input ports
//         holding each offered head's 11-bit age field, pattern label, size
//         in flits and priority (its class);
//       separable_allocator{output_first, iterations}: either, chosen at
//         run time, output first in iterations rounds (iSLIP's, over the
//         ports' policies; router_allocation.hpp);
//       separable_output_first: each output's Policy grants one of the input
//         ports with a head for it (the head the port's InputPolicy offers
//         there), then each input port's InputPolicy accepts one grant;
//       islip<P>{k}, wavefront<P>: interlock's iSLIP (k iterations) and
//         wavefront allocators match input to output ports (P ports at
//         most), with their own round-robin pointers or priority diagonal,
//         so Policy must be round robin; the matched input's InputPolicy
//         picks the VC.
//     Each policy's builder makes its request; arbitrate() decides and
//     commit() updates the state, only for grants used (a declined grant
//     and an input's unused pick change nothing).
//   - Departures: the router takes a granted head out of its input buffer,
//     writes the age it leaves with into its header (with an age arbiter:
//     Procedure 2, counted in the departures' histogram), holds the crossbar input and the output
//     for as long as the network says the packet takes (Network::carry: its flits, or as a slower
//     channel or endpoint takes), applies the hop taken to the packet's
//     route state, and routes the packet behind it, which becomes the
//     head once the tail has left. With output staging buffers
//     (router_state::staged()) a head moves into its output's staging
//     buffer (Network::release returns the input buffer's credits
//     upstream) and a staged head leaves by Network::carry_staged.
//   A router none of whose heads can go sleeps until the earliest cycle a
//   port it waits for frees (credits and arrivals wake it by event).
//   step() allocates nothing.
//
// Example
//   // inside network<Scheme, Policy>::step, for each router r holding
//   // packets, the network carrying what it sends (carry, release,
//   // carry_staged):
//   //   router_.step(r, t, network);
#ifndef INTERLOCK_MODEL_ROUTER_HPP
#define INTERLOCK_MODEL_ROUTER_HPP

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "interlock/arbiters/round_robin.hpp"
#include "interlock/core/bits.hpp"
#include "interlock/model/age_support.hpp"
#include "interlock/model/packet.hpp"
#include "interlock/model/router_allocation.hpp"
#include "interlock/model/router_policies.hpp"
#include "interlock/model/router_routes.hpp"
#include "interlock/model/router_state.hpp"

namespace interlock {
namespace model {

template <class Scheme, class Policy, class Allocator = separable_input_first,
          class InputPolicy = round_robin_arbiter<64>>
class router {
 public:
  using policies_type = router_policies<Policy, Allocator, InputPolicy>;
  using input_policy_factory = typename policies_type::input_policy_factory;
  using policy_factory = typename policies_type::policy_factory;
  using route_state = typename Scheme::state;
  static constexpr bool ages = policies_type::ages;

  router(const Scheme& scheme, router_state& s, const vc_sets& sets, age_state& age,
         packet_pool<route_state>& pool, const policy_factory& make_policy, saturation_rule rule,
         const Allocator& allocator = {}, const input_policy_factory& make_input = {})
      : policies_(s, sets, age, make_policy, rule, allocator, make_input),
        allocation_(policies_),
        routes_(scheme, policies_, pool),
        s_(s),
        age_(age),
        pool_(pool),
        rule_(rule) {}
  router(const router&) = delete;
  router& operator=(const router&) = delete;

  /// Route computation for the packet `id` at the head of VC v's buffer at
  /// router r's port index pi (router_state::port_index) from cycle `at`
  /// (router_routes.hpp).
  void route_head(node_id r, std::size_t pi, std::size_t v, std::uint32_t id,
                  packet<route_state>& p, std::uint64_t at) {
    routes_.route_head(r, pi, v, id, p, at);
  }

  // The policies part's surface (router_policies.hpp): requests counted,
  // the ports and their policies, the cache hints.
  void count_requests(bool on) { policies_.count_requests(on); }
  std::uint64_t arbitrations(node_id r, std::size_t o) const {
    return policies_.arbitrations(r, o);
  }
  std::uint64_t request_cycles(node_id r, std::size_t o, std::size_t i) const {
    return policies_.request_cycles(r, o, i);
  }
  std::size_t ports(node_id r) const { return policies_.ports(r); }
  Policy& policy(node_id r, std::size_t o) { return policies_.policy(r, o); }
  InputPolicy& input_policy(node_id r, std::size_t i) { return policies_.input_policy(r, i); }
  bool prefetching() const noexcept { return policies_.prefetching(); }
  void set_prefetch(prefetch_mode m) noexcept { policies_.set_prefetch(m); }
  void prefetch_ports(node_id r) const noexcept { policies_.prefetch_ports(r); }
  void prefetch_heads(node_id r) const noexcept { policies_.prefetch_heads(r); }

  /// One cycle of router r. The router moves what it decides out of its
  /// buffers and routes the heads behind; `m`, the network, carries the
  /// packets and their credits (see the contract).
  template <class Network>
  void step(node_id r, std::uint64_t t, Network& n) {
    departures<Network> m{this, &n};
    if (s_.staged()) {
      allocation_.step_staged(r, t, m);
      return;
    }
    if (s_.split_switch() && s_.pipelined_heads()) {
      allocate_lookahead(r, t, m);
      return;
    }
    std::uint64_t wake = ~std::uint64_t{0};
    if constexpr (ages) age_.catch_up(r, t);
    std::array<std::uint64_t, 64> can_go;  // per input port: VCs whose head can go now
    std::uint64_t requesting = 0;          // input ports with such a head
    std::uint64_t stalled_ports = 0;       // heads waiting for credits, nothing offered
    std::array<std::uint64_t, 64> port_blocked;
    for (std::uint64_t ports = s_.port_mask[r]; ports != 0; ports &= ports - 1) {
      const std::size_t in = bits::lowest_index(ports);
      const std::size_t pi = s_.port_index(r, in);
      if (policies_.port_busy(s_.port[pi].in_free_at, t, wake)) continue;
      std::uint64_t blocked_vcs = 0;
      can_go[in] = routes_.heads_that_can_go(r, in, t, wake, blocked_vcs);
      if constexpr (ages) {
        if (blocked_vcs != 0) {
          router_perf_counters& counters = age_.counters(r, in);
          for (std::uint64_t x = blocked_vcs & 0xF; x != 0; x &= x - 1)
            counters.count_blocked_cycle(static_cast<unsigned>(bits::lowest_index(x)));
          if (can_go[in] == 0) {
            counters.count_stalled_cycle();
            stalled_ports |= bits::bit(in);
            port_blocked[in] = blocked_vcs;
          }
        }
      }
      if (can_go[in] != 0) requesting |= bits::bit(in);
    }
    if (requesting == 0) {
      // Nothing can go: sleep until a port frees, a credit or a packet
      // arrives (a pick held from last cycle cannot go either: dropped).
      if (s_.holds_picks())
        for (std::size_t q = 0; q < s_.ports_of(r); ++q)
          s_.held_pick[s_.port_index(r, q)] = router_state::no_pick;
      s_.sleep_until[r] = wake;
      if constexpr (ages) {
        for (std::uint64_t x = stalled_ports; x != 0; x &= x - 1) {
          const std::size_t in = bits::lowest_index(x);
          age_.fall_asleep(r, in, port_blocked[in]);
        }
      }
      return;
    }
    if constexpr (std::is_same<Allocator, separable_allocator>::value) {
      if (policies_.separable_.output_first) {
        allocation_.allocate_output_first(r, t, requesting, can_go, m,
                                          policies_.separable_.iterations);
        return;
      }
    }
    if constexpr (std::is_same<Allocator, separable_input_first>::value ||
                  std::is_same<Allocator, separable_allocator>::value) {
      if (s_.split_switch())
        allocation_.allocate_in_two_stages(r, t, requesting, can_go, m);
      else
        allocation_.allocate_input_first(r, t, requesting, can_go, m);
    } else if constexpr (std::is_same<Allocator, separable_output_first>::value) {
      allocation_.allocate_output_first(r, t, requesting, can_go, m);
    } else {
      allocation_.allocate_matrix(r, t, requesting, can_go, m);
    }
  }

 private:
  policies_type policies_;                                        // every port's policies
  router_allocation<Policy, Allocator, InputPolicy> allocation_;  // the switch allocator
  router_routes<Scheme, Policy, Allocator, InputPolicy> routes_;  // the route unit
  router_state& s_;
  age_state& age_;
  packet_pool<route_state>& pool_;
  saturation_rule rule_;  // the age arbiters' (Procedure 2's saturation)

  // A packet leaves router r from input port `in`: with an age arbiter, its
  // age computed at the output leaves in the header (Procedure 2) and is
  // counted in the departures' histogram.
  void stamp_departure(node_id r, std::size_t in, packet<route_state>& p) {
    if constexpr (ages) {
      const age_field sent = send_packet(age_field::from_bits(p.age), age_.clock(r), rule_);
      age_.counters(r, in).count_departure_age(sent.age());
      p.age = sent.bits();
    } else {
      (void)r, (void)in, (void)p;
    }
  }

  // Two switch stages with pipelined heads (config::pipelined_heads): SA2
  // grants last cycle's picks that can still go; then each input port whose
  // crossbar input is free next cycle does SA1 over the heads that could go
  // then (its head pipeline, SA1 included, done; outputs free; credits as
  // they stand), the heads just behind this cycle's departures among them.
  // A router that picks nothing sleeps until the cycle before a head could
  // go. With persistent picks, a pick that lost is offered again while it
  // could go.
  template <class Moves>
  void allocate_lookahead(node_id r, std::uint64_t t, Moves& m) {
    std::uint64_t offering = 0, wake = ~std::uint64_t{0}, blocked = 0;
    std::array<std::uint8_t, 64> held;
    std::array<std::uint64_t, 64> among;
    typename policies_type::head_view f;
    for (std::uint64_t ports = s_.port_mask[r]; ports != 0; ports &= ports - 1) {
      const std::size_t in = bits::lowest_index(ports);
      const std::size_t pi = s_.port_index(r, in);
      held[in] = s_.held_pick[pi];
      s_.held_pick[pi] = router_state::no_pick;
      if (held[in] == router_state::no_pick || s_.port[pi].in_free_at > t) continue;
      if ((routes_.heads_that_can_go(r, in, t, wake, blocked) & bits::bit(held[in])) == 0) continue;
      among[in] = s_.held_among[pi];
      offering |= bits::bit(in);
    }
    const std::uint64_t lost =
        offering & ~allocation_.grant_offers(r, t, offering, held, among, f, m);
    const std::uint64_t u = t + 1;  // the cycle SA1's picks may go
    wake = ~std::uint64_t{0};       // the first cycle a head could go
    bool picked = false;
    for (std::uint64_t ports = s_.port_mask[r]; ports != 0; ports &= ports - 1) {
      const std::size_t in = bits::lowest_index(ports);
      const std::size_t pi = s_.port_index(r, in);
      if (policies_.port_busy(s_.port[pi].in_free_at, u, wake)) continue;
      const std::uint64_t picks = routes_.heads_that_can_go(r, in, u, wake, blocked);
      if (picks == 0) continue;
      picked = true;
      if (s_.persistent_picks() && (lost & bits::bit(in)) != 0 &&
          (picks & bits::bit(held[in])) != 0) {
        s_.held_pick[pi] = held[in];
        s_.held_among[pi] = among[in];
        continue;
      }
      s_.held_pick[pi] = static_cast<std::uint8_t>(policies_.pick_vc(pi, picks, f));
      s_.held_among[pi] = picks;
    }
    if (!picked) s_.sleep_until[r] = wake == ~std::uint64_t{0} ? wake : wake - 1;
  }

  // What the allocators move (their Moves): the router's departures, with
  // the network carrying the packets.
  template <class Network>
  struct departures {
    router* self;
    Network* n;
    void send(node_id r, std::size_t in, const choice& c, std::size_t o, std::uint64_t t) {
      self->send(r, in, c, o, t, *n);
    }
    void stage(node_id r, std::size_t in, const choice& c, std::size_t o, std::uint64_t t) {
      self->stage(r, in, c, o, t, *n);
    }
    void send_staged(node_id r, std::size_t o, std::size_t x, std::size_t out_vc, std::uint64_t t) {
      self->send_staged(r, o, x, out_vc, t, *n);
    }
  };

  // A head taken out of its input buffer: the port's index, the buffer,
  // the packet and its length.
  struct taken {
    std::size_t pi, b;
    std::uint32_t id, flits;
  };
  // Takes the head packet out of input buffer (r, in, vc).
  taken take_head(node_id r, std::size_t in, std::size_t vc) {
    const std::size_t pi = s_.port_index(r, in);
    const std::size_t b = pi * s_.vcs + vc;
    queue_state& q = s_.buf[b].queue;
    const std::size_t next = q.head + std::size_t{1};
    q.head = static_cast<std::uint16_t>(next == q.slots ? 0 : next);
    --q.count;
    return taken{pi, b, s_.buf[b].head.id, s_.buf[b].head.flits};
  }

  // After head h left input buffer (r, in, vc): the next packet of the VC,
  // if any, becomes the head.
  void next_head(node_id r, std::size_t in, std::size_t vc, const taken& h) {
    const std::size_t pi = h.pi, b = h.b;
    if (s_.buf[b].queue.count == 0) {
      // With a head pipeline, the next packet's routing starts no earlier
      // than this one's tail leaves (pipelined heads: than it arrives).
      if (s_.head_cycles != 0 && !s_.pipelined_heads())
        s_.buf[b].head.ready_at = s_.port[pi].in_free_at;
      s_.port[pi].vcs &= ~bits::bit(vc);
      if (s_.port[pi].vcs == 0) s_.port_mask[r] &= ~bits::bit(in);
    } else {
      // It is the head once the packet before it has left the buffer; with
      // pipelined heads it has been in the head pipeline since it arrived.
      const std::uint32_t id = s_.packet_at(b, 0);
      route_head(r, pi, vc, id, pool_[id],
                 s_.arrived.empty() ? s_.port[pi].in_free_at : s_.arrived_at(b, 0));
      // The one behind it is routed when it leaves: ask for it now.
      if (s_.buf[b].queue.count > 1) pool_.prefetch(s_.packet_at(b, 1));
    }
  }

  // The head of (r, in, c.vc) leaves through output o (or ejects): it holds
  // the crossbar input and the output as long as the network carries it.
  template <class Network>
  void send(node_id r, std::size_t in, const choice& c, std::size_t o, std::uint64_t t,
            Network& n) {
    const taken h = take_head(r, in, c.vc);
    stamp_departure(r, in, pool_[h.id]);
    const std::uint64_t busy = n.carry(r, in, c, o, h.id, h.flits, t);
    s_.port[h.pi].in_free_at = t + busy;
    s_.port[s_.port_index(r, o)].out_free_at = t + busy;
    if (c.candidate != choice::eject) routes_.follow_taken(r, h.b, c.candidate, pool_[h.id]);
    next_head(r, in, c.vc, h);
  }

  // The head of (r, in, c.vc) moves through the crossbar into its staging
  // buffer at output o.
  template <class Network>
  void stage(node_id r, std::size_t in, const choice& c, std::size_t o, std::uint64_t t,
             Network& n) {
    const taken h = take_head(r, in, c.vc);
    s_.port[h.pi].in_free_at = t + h.flits;
    n.release(r, in, c.vc, h.flits, t);
    packet<route_state>& p = pool_[h.id];
    if (c.candidate != choice::eject) routes_.follow_taken(r, h.b, c.candidate, p);
    p.next_set = c.out_vc;  // the downstream VC set's first VC
    // Into the staging buffer (input port x VCs + VC) at output o.
    const std::size_t x = in * s_.vcs + c.vc;
    const std::size_t i = s_.staging_index(r, o, x);
    staging_state& st = s_.staging[i];
    std::size_t slot = st.head + st.count;
    if (slot >= s_.staging_capacity) slot -= s_.staging_capacity;
    s_.staging_ring[i * s_.staging_capacity + slot] = h.id;
    st.free -= static_cast<std::int32_t>(h.flits);
    if (st.count++ == 0) stage_head(st, p, o >= s_.local);
    s_.staged_mask[s_.port_index(r, o)] |= bits::bit(x);
    s_.staged_outputs[r] |= bits::bit(o);
    next_head(r, in, c.vc, h);
  }

  static void stage_head(staging_state& st, const packet<route_state>& p, bool eject) {
    st.flits = p.flits;
    st.age = p.age;
    st.pattern = p.pattern;
    st.priority = p.cls;
    st.eject = eject ? 1 : 0;
    st.first_vc = p.next_set;
  }

  // The head of staging buffer x at router r's output o leaves into VC
  // out_vc downstream (or ejects).
  template <class Network>
  void send_staged(node_id r, std::size_t o, std::size_t x, std::size_t out_vc, std::uint64_t t,
                   Network& n) {
    const std::size_t i = s_.staging_index(r, o, x);
    staging_state& st = s_.staging[i];
    const std::uint32_t id = s_.staged_at(i, 0);
    const std::uint32_t flits = st.flits;
    const bool eject = st.eject != 0;
    const std::size_t next = st.head + std::size_t{1};
    st.head = static_cast<std::uint16_t>(next == s_.staging_capacity ? 0 : next);
    --st.count;
    const std::size_t po = s_.port_index(r, o);
    stamp_departure(r, x / s_.vcs, pool_[id]);
    s_.port[po].out_free_at = t + n.carry_staged(r, o, x, out_vc, id, flits, eject, t);
    if (st.count == 0) {
      s_.staged_mask[po] &= ~bits::bit(x);
      if (s_.staged_mask[po] == 0) s_.staged_outputs[r] &= ~bits::bit(o);
    } else {
      stage_head(st, pool_[s_.staged_at(i, 0)], eject);
    }
  }
};

}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_ROUTER_HPP
