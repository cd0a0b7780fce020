// SPDX-License-Identifier: BSL-1.0
// interlock/model/channel_unit.hpp: the channels of a network: what a departure crosses
// between routers or out to an endpoint, and the arrivals, credits and deliveries at their ends.
//
// Contract
//   channel_unit is the part of model::network (network.hpp) that carries
//   packets between its routers; its functions take the network `n` whose
//   router state, packet pool, event wheel and measurement they move the
//   packets through (the router decides, router.hpp; the network steps).
//   - carry: a packet leaving an input buffer through an output (or
//     ejecting) holds it for its flits, or as long as a slower channel or
//     endpoint takes; its credits go back upstream when its tail has left,
//     after the channel into the input; its head arrives downstream after
//     the output's channel and config::router_delay;
//   - release and carry_staged: the same through output staging buffers;
//   - handle: the cycle's events: an arrival enters its input buffer (aged
//     with an age arbiter) and is routed if it is the head, credits return,
//     a staging buffer's space comes back, a delivery leaves the network
//     (handle_at_router: all but the delivery, which touch only the state
//     of the router they reach).
//   It owns the timing of what is slower than a flit per cycle: a fabric's
//   slower channels and, with config::endpoint_bandwidth below 1, the
//   endpoints' ejection ports. It allocates nothing after construction.
//
// Example
//   // network<...>::step hands each due event to handle(n, e); a router's
//   // departure calls carry(n, ...) through the network.
#ifndef INTERLOCK_MODEL_CHANNEL_UNIT_HPP
#define INTERLOCK_MODEL_CHANNEL_UNIT_HPP

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "interlock/core/assert.hpp"
#include "interlock/core/bits.hpp"
#include "interlock/core/prefetch.hpp"
#include "interlock/model/age_support.hpp"
#include "interlock/model/config.hpp"
#include "interlock/model/event_wheel.hpp"
#include "interlock/model/fabric.hpp"
#include "interlock/model/packet.hpp"
#include "interlock/model/router_policies.hpp"
#include "interlock/model/router_state.hpp"

namespace interlock {
namespace model {
namespace detail {

// When a slow port busy until `busy` (a fraction of a cycle) starts its next
// packet at cycle t: right after the last one when it goes on at once (the
// fraction is not lost), else at t.
inline double continued(double busy, std::uint64_t t) {
  return static_cast<double>(t) < busy + 1.0 ? std::max(busy, static_cast<double>(t) - 1.0)
                                             : static_cast<double>(t);
}

}  // namespace detail

class channel_unit {
 public:
  /// The channels of fabric f under configuration c, with s's ports.
  channel_unit(const fabric& f, const config& c, const router_state& s) {
    ej_busy_.assign(static_cast<std::size_t>(f.routers()) * c.endpoints, 0.0);
    if (!f.uniform_bandwidth()) {
      slow_.assign(s.total_ports, slow_channel{});
      for (node_id r = 0; r < f.routers(); ++r)
        for (std::size_t o = 0; o < std::min(s.ports_of(r), s.local); ++o)
          slow_[s.port_index(r, o)].bandwidth = f.bandwidth(r, o);
    }
  }

  template <class Net>
  void handle(Net& n, const event& e) {
    if (e.kind == event_kind::delivery)
      deliver(n, e.router, e.payload);
    else
      handle_at_router(n, e);
  }

  /// An event that changes only its router's state and the packet it
  /// brings: an arrival, credits, a staging buffer's space (a lane handles
  /// those of its routers, lanes.hpp).
  template <class Net>
  void handle_at_router(Net& n, const event& e) {
    router_state& s = n.s_;
    switch (e.kind) {
      case event_kind::arrival:
        arrive(n, e.router, e.port, e.vc, e.payload);
        break;
      case event_kind::credit: {
        s.credits[s.buffer(e.router, e.port, e.vc)] += static_cast<std::int32_t>(e.payload);
        std::uint64_t& waiting = s.link[s.port_index(e.router, e.port)].waiters;
        for (std::uint64_t x = waiting; x != 0; x &= x - 1)
          s.port[s.port_index(e.router, bits::lowest_index(x))].blocked = 0;
        waiting = 0;
        s.wake(e.router);
        break;
      }
      case event_kind::staging_credit:
        s.staging[s.staging_index(e.router, e.port, e.vc)].free +=
            static_cast<std::int32_t>(e.payload);
        s.wake(e.router);
        break;
      case event_kind::delivery:
        break;
    }
  }

  /// Handles the cycle's events `due` that `keep` selects, in order, each
  /// through handle(e), asking the cache for what each touches while the
  /// ones before it are handled (hints only; the same run without them).
  /// The state an event changes is cold, last touched a hop ago, and a
  /// large network's cycle has more events than the cache holds lines, so
  /// each event's lines are asked `ahead` events before it: the arriving
  /// packet and the buffer or credits it changes, and, where the routers'
  /// state is asked ahead (router::prefetching), what handling it writes
  /// (the router's sleep, an output's waiters); then, `late` events before
  /// it, once its buffer's line is in, the ring slot, the port and the
  /// candidate records an arrival fills.
  template <class Net, class Keep, class Handle>
  static void handle_prefetched(const Net& n, const std::vector<event>& due, Keep&& keep,
                                Handle&& handle) {
    constexpr std::size_t ahead = 32, late = 16;
    const bool deep = n.router_.prefetching();
    // Step i asks for event i's first lines, event i - late's second ones
    // and handles event i - ahead.
    const std::size_t count = due.size();
    for (std::size_t i = 0; i < count + ahead; ++i) {
      if (i < count && keep(due[i])) prefetch_first(n, due[i], deep);
      if (deep && i >= late && i - late < count && keep(due[i - late]))
        prefetch_late(n, due[i - late]);
      if (i >= ahead && keep(due[i - ahead])) handle(due[i - ahead]);
    }
  }

  /// Asks the cache for what router r's departures write outside the
  /// router's own state: its outputs' measured flits and, on a fabric with
  /// slower channels, their channels (a hint).
  template <class Net>
  void prefetch(const Net& n, node_id r) const noexcept {
    n.m_.prefetch_channels(r);
    if (!slow_.empty())
      interlock::prefetch_lines(slow_.data() + n.s_.first_port[r], n.s_.ports_of(r));
  }

  // Carries the packet `id` (`flits` long) that router r sends from input
  // port `in` through output o (or ejects): the cycles it holds them (its
  // flits, or as long as a slower channel or endpoint_bandwidth takes); its
  // credits go back upstream when its tail has left, after the channel
  // into the input; its head arrives downstream after the output's channel
  // and config::router_delay.
  template <class Net>
  std::uint64_t carry(Net& n, node_id r, std::size_t in, const choice& c, std::size_t o,
                      std::uint32_t id, std::uint32_t flits, std::uint64_t t) {
    n.last_progress_ = t;
    if (n.on_send) n.on_send(r, in, o, flits, t);
    const std::uint64_t busy = c.candidate == choice::eject ? ejection_cycles(n, r, o, flits, t)
                                                            : channel_cycles(n, r, o, flits, t);
    // The buffer's space goes back to the output of the router behind that
    // drives this input (the local port's credits are the injection
    // side's, at the same router).
    const link_state& from = n.s_.link[n.s_.port_index(r, in)];
    n.wheel_.schedule(t + busy - 1 + from.in_latency,
                      event{event_kind::credit, from.upstream_port, c.vc, from.upstream, flits});
    if (c.candidate == choice::eject) {
      --n.in_network_;
      n.wheel_.schedule(t + busy, event{event_kind::delivery, 0, 0, r, id});
    } else {
      forward(n, r, o, c.out_vc, id, flits, busy, t);
    }
    return busy;
  }

  // Returns the credits of a packet (`flits` long) that left input buffer
  // (r, in, vc) at cycle t into an output staging buffer.
  template <class Net>
  void release(Net& n, node_id r, std::size_t in, std::size_t vc, std::uint32_t flits,
               std::uint64_t t) {
    n.last_progress_ = t;
    const link_state& from = n.s_.link[n.s_.port_index(r, in)];
    n.wheel_.schedule(t + flits - 1 + from.in_latency,
                      event{event_kind::credit, from.upstream_port, static_cast<std::uint8_t>(vc),
                            from.upstream, flits});
  }

  // Carries the packet `id` that leaves staging buffer x at router r's
  // output o into VC out_vc downstream (or ejects): the cycles it holds the
  // output; the staging buffer's space comes back when its tail has left.
  template <class Net>
  std::uint64_t carry_staged(Net& n, node_id r, std::size_t o, std::size_t x, std::size_t out_vc,
                             std::uint32_t id, std::uint32_t flits, bool eject, std::uint64_t t) {
    n.last_progress_ = t;
    const std::size_t in = x / n.s_.vcs;
    if (n.on_send) n.on_send(r, in, o, flits, t);
    const std::uint64_t busy =
        eject ? ejection_cycles(n, r, o, flits, t) : channel_cycles(n, r, o, flits, t);
    n.wheel_.schedule(t + busy, event{event_kind::staging_credit, static_cast<std::uint8_t>(o),
                                      static_cast<std::uint8_t>(x), r, flits});
    if (eject) {
      --n.in_network_;
      n.wheel_.schedule(t + busy, event{event_kind::delivery, 0, 0, r, id});
    } else {
      forward(n, r, o, out_vc, id, flits, busy, t);
    }
    return busy;
  }

 private:
  template <class Net>
  static void prefetch_first(const Net& n, const event& e, bool deep) noexcept {
    const router_state& s = n.s_;
    if (e.kind == event_kind::arrival) {
      n.pool_.prefetch(e.payload);
      interlock::prefetch(&s.buf[s.buffer(e.router, e.port, e.vc)]);
    } else if (e.kind == event_kind::delivery) {
      n.pool_.prefetch(e.payload);
    } else if (e.kind == event_kind::credit) {
      interlock::prefetch(&s.credits[s.buffer(e.router, e.port, e.vc)]);
      if (deep) interlock::prefetch(&s.link[s.port_index(e.router, e.port)]);
    }
    if (deep && e.kind != event_kind::delivery) interlock::prefetch(&s.sleep_until[e.router]);
  }

  template <class Net>
  static void prefetch_late(const Net& n, const event& e) noexcept {
    if (e.kind != event_kind::arrival) return;
    const router_state& s = n.s_;
    const std::size_t b = s.buffer(e.router, e.port, e.vc);
    const queue_state& q = s.buf[b].queue;
    std::size_t slot = q.head + q.count;
    if (slot >= q.slots) slot -= q.slots;
    interlock::prefetch(&s.ring[q.base + slot]);
    interlock::prefetch(&s.port[s.port_index(e.router, e.port)]);
    interlock::prefetch(&s.cand_info[b * s.max_cand]);
  }

  template <class Net>
  void arrive(Net& n, node_id r, std::size_t port, std::size_t v, std::uint32_t id) {
    auto& p = n.pool_[id];
    router_state& s = n.s_;
    if constexpr (Net::ages) {
      // The bias follows the class (REQ_AGE_BIAS for VC0/1, RSP for VC2/3).
      const age_config& a = n.age_cfg_;
      p.age = receive_packet(
                  age_field::from_bits(p.age), p.cls * 2u,
                  a.port_bias.empty() ? a.bias : a.port_bias[std::min(port, n.f_.network_ports())],
                  n.age_.clock(r))
                  .bits();
      if (v < 4)  // Table 4: VC0-3
        n.age_.counters(r, port).count_received(static_cast<unsigned>(v), p.flits);
    }
    const std::size_t pi = s.port_index(r, port), b = pi * s.vcs + v;
    queue_state& in = s.buf[b].queue;
    INTERLOCK_ASSERT(in.count < in.slots, "input buffer overflow");
    s.wake(r);
    std::size_t slot = in.head + in.count;
    if (slot >= in.slots) slot -= in.slots;
    s.ring[in.base + slot] = id;
    if (!s.arrived.empty()) s.arrived[in.base + slot] = n.now_;
    if (in.count++ == 0) {
      n.router_.route_head(r, pi, v, id, p, n.now_);
      s.port[pi].vcs |= bits::bit(v);
      s.port_mask[r] |= bits::bit(port);
      s.mark_active(r);
    }
  }

  template <class Net>
  static void deliver(Net& n, node_id at, std::uint32_t id) {
    const auto& p = n.pool_[id];
    const std::uint64_t t = n.now_;
    ++n.delivered_;
    n.m_.count_delivery(p.source, p.flits, p.measured != 0, p.created, p.queued, p.hops, t);
    if (n.on_delivery) n.on_delivery(p.source, at, p.cls, p.sequence, t);
    if (n.feed_ != nullptr) n.feed_->delivered(p.sequence, t);
    n.pool_.release(id);
  }

  // Cycles router r's ejection port o (an endpoint's) takes for `flits` from cycle t.
  template <class Net>
  std::uint64_t ejection_cycles(const Net& n, node_id r, std::size_t o, std::uint32_t flits,
                                std::uint64_t t) {
    if (n.cfg_.endpoint_bandwidth >= 1) return flits;
    double& busy = ej_busy_[r * n.cfg_.endpoints + (o - n.s_.local)];
    busy = detail::continued(busy, t) + static_cast<double>(flits) / n.cfg_.endpoint_bandwidth;
    return static_cast<std::uint64_t>(std::ceil(busy)) - t;
  }

  // Cycles router r's network output o takes for `flits` from cycle t: one
  // per flit, or as the fabric's slower channel takes.
  template <class Net>
  std::uint64_t channel_cycles(const Net& n, node_id r, std::size_t o, std::uint32_t flits,
                               std::uint64_t t) {
    if (n.s_.link[n.s_.port_index(r, o)].slow == 0) return flits;
    slow_channel& c = slow_[n.s_.port_index(r, o)];
    c.busy = detail::continued(c.busy, t) + static_cast<double>(flits) / c.bandwidth;
    return static_cast<std::uint64_t>(std::ceil(c.busy)) - t;
  }

  // The packet takes downstream VC out_vc's credits at router r's output o
  // and arrives there (a slower channel delivers its head so that
  // forwarding it at a flit per cycle never overtakes its tail).
  template <class Net>
  static void forward(Net& n, node_id r, std::size_t o, std::size_t out_vc, std::uint32_t id,
                      std::uint32_t flits, std::uint64_t busy, std::uint64_t t) {
    router_state& s = n.s_;
    s.credits[s.buffer(r, o, out_vc)] -= static_cast<std::int32_t>(flits);
    n.m_.count_channel(r, o, flits, t);
    if (n.timeline_.enabled()) n.timeline_.count(r, o, flits, t);
    const link_state& out = s.link[s.port_index(r, o)];
    n.wheel_.schedule(t + (busy - flits) + out.out_latency + n.cfg_.router_delay,
                      event{event_kind::arrival, out.downstream_port,
                            static_cast<std::uint8_t>(out_vc), out.downstream, id});
  }

  // Per port, on a fabric with slower channels: when each output's channel
  // frees and its bandwidth, side by side.
  struct slow_channel {
    double busy = 0, bandwidth = 1;
  };
  std::vector<slow_channel> slow_;
  std::vector<double> ej_busy_;  // endpoint_bandwidth < 1: when each ejection port frees
};

}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_CHANNEL_UNIT_HPP
