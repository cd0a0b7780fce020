// SPDX-License-Identifier: BSL-1.0
// interlock/model/network_moves.hpp: a network's state, and how packets move between its
// routers: arrivals, the channels they cross, credits and deliveries.
//
// Contract
//   network_moves<Scheme, Policy, Allocator, InputPolicy> is the first layer
//   of model::network (network.hpp): it builds, once, from a checked
//   configuration (network_checks.hpp), the fabric, the router state, the
//   packet pool, the routers, the event wheel, the sources and the
//   measurement, and carries what the routers send (router.hpp takes a
//   packet out of its buffer and routes the one behind it):
//   - carry: a packet leaving an input buffer through an output (or
//     ejecting) holds it for its flits, or as long as a slower channel or
//     endpoint takes; its credits go back upstream when its tail has left,
//     after the channel into the input; its head arrives downstream after
//     the output's channel and config::router_delay;
//   - release and carry_staged: the same through output staging buffers;
//   - arrive: a packet enters its input buffer (aged with an age arbiter),
//     and is routed if it is the head; deliver: it leaves the network.
//   It allocates only when a packet pool or source queue grows.
//
// Example
//   // network<...> derives from it; its step() handles the cycle's events
//   // (handle) and lets each router decide and move (router.hpp), the
//   // network carrying the packets (carry, release, carry_staged).
#ifndef INTERLOCK_MODEL_NETWORK_MOVES_HPP
#define INTERLOCK_MODEL_NETWORK_MOVES_HPP

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "interlock/core/assert.hpp"
#include "interlock/core/bits.hpp"
#include "interlock/core/prefetch.hpp"
#include "interlock/model/age_support.hpp"
#include "interlock/model/anton2_node.hpp"
#include "interlock/model/config.hpp"
#include "interlock/model/deadlock.hpp"
#include "interlock/model/event_wheel.hpp"
#include "interlock/model/fabric.hpp"
#include "interlock/model/link_timeline.hpp"
#include "interlock/model/measurement.hpp"
#include "interlock/model/network_checks.hpp"
#include "interlock/model/packet.hpp"
#include "interlock/model/router.hpp"
#include "interlock/model/router_state.hpp"
#include "interlock/model/sources.hpp"
#include "interlock/model/vc_sets.hpp"

namespace interlock {
namespace model {

template <class Scheme, class Policy, class Allocator, class InputPolicy>
class network_moves {
 public:
  using route_state = typename Scheme::state;
  using router_type = router<Scheme, Policy, Allocator, InputPolicy>;
  using policy_factory = typename router_type::policy_factory;
  using input_policy_factory = typename router_type::input_policy_factory;
  static constexpr bool ages = router_type::ages;

  network_moves(const Scheme& scheme, const config& cfg, traffic_source destination,
                const policy_factory& make_policy, age_config age, const Allocator& allocator,
                const input_policy_factory& make_input)
      : scheme_(scheme),
        f_(make_fabric(scheme.topology())),
        cfg_(detail::checked_config(cfg, f_)),
        destination_(std::move(destination)),
        age_cfg_(std::move(age)),
        sets_(scheme.vcs_per_channel(), scheme.vcs_per_class(),
              cfg_.response_share<1, cfg_.response_share> 0, cfg_.vcs),
        s_(detail::make_router_state(f_, sets_, cfg_, detail::route_candidates(scheme.topology()))),
        age_(ages ? detail::checked_age(age_cfg_, f_, sets_, cfg_) : 0, s_.ports, age_cfg_),
        router_(scheme, s_, sets_, age_, pool_, make_policy, age_cfg_.rule, allocator, make_input),
        wheel_(
            cfg_.channel_latency + f_.max_extra_latency() + cfg_.router_delay +
            static_cast<std::uint64_t>(std::ceil(
                cfg_.max_flits() / std::min(cfg_.endpoint_bandwidth, detail::min_bandwidth(f_)))) +
            3),
        src_(f_.routers(), cfg_, detail::host_flags(f_)),
        m_(f_.routers(), s_.ports),
        timeline_(f_, cfg_.utilization_bin) {
    const node_id nodes = f_.routers();
    stall_limit_ = cfg_.stall_limit != 0 ? cfg_.stall_limit
                                         : 1000 + 8 * (cfg_.max_flits() + cfg_.channel_latency +
                                                       f_.max_extra_latency() + cfg_.router_delay);
    const std::size_t endpoints = static_cast<std::size_t>(nodes) * cfg_.endpoints;
    pending_.assign(endpoints, no_packet);
    pending_set_.assign(endpoints, 0);
    pending_flits_.assign(endpoints, 0);
    inj_free_at_.assign(endpoints, 0);
    inj_busy_.assign(endpoints, 0.0);
    ej_busy_.assign(endpoints, 0.0);
    if (!f_.uniform_bandwidth()) {
      slow_.assign(s_.total_ports, slow_channel{});
      for (node_id r = 0; r < nodes; ++r)
        for (std::size_t o = 0; o < std::min(s_.ports_of(r), s_.local); ++o)
          slow_[s_.port_index(r, o)].bandwidth = f_.bandwidth(r, o);
    }
    router_.set_prefetch(cfg_.prefetch);
  }
  network_moves(const network_moves&) = delete;
  network_moves& operator=(const network_moves&) = delete;

  /// Called for every packet that wins an output: (router, input port, output
  /// port, flits, cycle); tests check the ports' one flit per cycle with it.
  std::function<void(node_id, std::size_t, std::size_t, unsigned, std::uint64_t)> on_send;
  /// Called for every packet delivered: (source, destination, class, sequence, cycle).
  std::function<void(node_id, node_id, unsigned, std::uint64_t, std::uint64_t)> on_delivery;

 protected:
  // The routers' departures call carry, release and carry_staged (the
  // network is router::step's Network).
  friend router_type;

  // When a slow endpoint port busy until `busy` (a fraction of a cycle) starts
  // its next packet at cycle t: right after the last one when it goes on at
  // once (the fraction is not lost), else at t.
  static double continued(double busy, std::uint64_t t) {
    return static_cast<double>(t) < busy + 1.0 ? std::max(busy, static_cast<double>(t) - 1.0)
                                               : static_cast<double>(t);
  }

  // ---- events --------------------------------------------------------------

  void handle(const event& e) {
    switch (e.kind) {
      case event_kind::arrival:
        arrive(e.router, e.port, e.vc, e.payload);
        break;
      case event_kind::credit: {
        s_.credits[s_.buffer(e.router, e.port, e.vc)] += static_cast<std::int32_t>(e.payload);
        std::uint64_t& waiting = s_.link[s_.port_index(e.router, e.port)].waiters;
        for (std::uint64_t x = waiting; x != 0; x &= x - 1)
          s_.port[s_.port_index(e.router, bits::lowest_index(x))].blocked = 0;
        waiting = 0;
        s_.wake(e.router);
        break;
      }
      case event_kind::delivery:
        deliver(e.router, e.payload);
        break;
      case event_kind::staging_credit:
        s_.staging[s_.staging_index(e.router, e.port, e.vc)].free +=
            static_cast<std::int32_t>(e.payload);
        s_.wake(e.router);
        break;
    }
  }

  void arrive(node_id r, std::size_t port, std::size_t v, std::uint32_t id) {
    packet<route_state>& p = pool_[id];
    if constexpr (ages) {
      // The bias follows the class (REQ_AGE_BIAS for VC0/1, RSP for VC2/3).
      p.age = receive_packet(age_field::from_bits(p.age), p.cls * 2u,
                             age_cfg_.port_bias.empty()
                                 ? age_cfg_.bias
                                 : age_cfg_.port_bias[std::min(port, f_.network_ports())],
                             age_.clock(r))
                  .bits();
      if (v < 4)  // Table 4: VC0-3
        age_.counters(r, port).count_received(static_cast<unsigned>(v), p.flits);
    }
    const std::size_t b = s_.buffer(r, port, v);
    queue_state& in = s_.buf[b].queue;
    INTERLOCK_ASSERT(in.count < in.slots, "input buffer overflow");
    s_.wake(r);
    std::size_t slot = in.head + in.count;
    if (slot >= in.slots) slot -= in.slots;
    s_.ring[in.base + slot] = id;
    if (!s_.arrived.empty()) s_.arrived[in.base + slot] = now_;
    if (in.count++ == 0) {
      router_.route_head(r, b, id, p, now_);
      s_.port[s_.port_index(r, port)].vcs |= bits::bit(v);
      s_.port_mask[r] |= bits::bit(port);
      s_.mark_active(r);
    }
  }

  void deliver(node_id at, std::uint32_t id) {
    const packet<route_state>& p = pool_[id];
    const std::uint64_t t = now_;
    ++delivered_;
    m_.count_delivery(p.source, p.flits, p.measured != 0, p.created, p.queued, p.hops, t);
    if (on_delivery) on_delivery(p.source, at, p.cls, p.sequence, t);
    if (feed_ != nullptr) feed_->delivered(p.sequence, t);
    pool_.release(id);
  }

  // Cycles router r's ejection port o (an endpoint's) takes for `flits` from cycle t.
  std::uint64_t ejection_cycles(node_id r, std::size_t o, std::uint32_t flits, std::uint64_t t) {
    if (cfg_.endpoint_bandwidth >= 1) return flits;
    double& busy = ej_busy_[r * cfg_.endpoints + (o - s_.local)];
    busy = continued(busy, t) + static_cast<double>(flits) / cfg_.endpoint_bandwidth;
    return static_cast<std::uint64_t>(std::ceil(busy)) - t;
  }

  // Cycles router r's network output o takes for `flits` from cycle t: one
  // per flit, or as the fabric's slower channel takes.
  std::uint64_t channel_cycles(node_id r, std::size_t o, std::uint32_t flits, std::uint64_t t) {
    if (s_.link[s_.port_index(r, o)].slow == 0) return flits;
    slow_channel& c = slow_[s_.port_index(r, o)];
    c.busy = continued(c.busy, t) + static_cast<double>(flits) / c.bandwidth;
    return static_cast<std::uint64_t>(std::ceil(c.busy)) - t;
  }

  /// Asks the cache for what handling the cycle's events `due` touches,
  /// all before the first is handled: every arriving packet and the buffer
  /// or credits each event changes (cold: last touched a hop ago). Where
  /// the routers' state is asked ahead (router::prefetching), also what
  /// handling them writes (the router's sleep, an output's waiters) and
  /// then, once the buffers' lines are in, the ring slot and the port each
  /// arrival fills. Hints only.
  void prefetch_events(const std::vector<event>& due) const noexcept {
    const bool deep = router_.prefetching();
    for (const event& e : due) {
      if (e.kind == event_kind::arrival) {
        pool_.prefetch(e.payload);
        interlock::prefetch(&s_.buf[s_.buffer(e.router, e.port, e.vc)]);
      } else if (e.kind == event_kind::credit) {
        interlock::prefetch(&s_.credits[s_.buffer(e.router, e.port, e.vc)]);
        if (deep) interlock::prefetch(&s_.link[s_.port_index(e.router, e.port)]);
      }
      if (deep) interlock::prefetch(&s_.sleep_until[e.router]);
    }
    if (!deep) return;
    for (const event& e : due) {
      if (e.kind != event_kind::arrival) continue;
      const queue_state& q = s_.buf[s_.buffer(e.router, e.port, e.vc)].queue;
      std::size_t slot = q.head + q.count;
      if (slot >= q.slots) slot -= q.slots;
      interlock::prefetch(&s_.ring[q.base + slot]);
      interlock::prefetch(&s_.port[s_.port_index(e.router, e.port)]);
    }
  }

  /// Asks the cache for what router r's departures write outside the
  /// router's own state: its outputs' measured flits and, on a fabric with
  /// slower channels, their channels (a hint).
  void prefetch_channels(node_id r) const noexcept {
    m_.prefetch_channels(r);
    if (!slow_.empty()) interlock::prefetch_lines(slow_.data() + s_.first_port[r], s_.ports_of(r));
  }

  // Carries the packet `id` (`flits` long) that router r sends from input
  // port `in` through output o (or ejects): the cycles it holds them (its
  // flits, or as long as a slower channel or endpoint_bandwidth takes); its
  // credits go back upstream when its tail has left, after the channel
  // into the input; its head arrives downstream after the output's channel
  // and config::router_delay.
  std::uint64_t carry(node_id r, std::size_t in, const choice& c, std::size_t o, std::uint32_t id,
                      std::uint32_t flits, std::uint64_t t) {
    last_progress_ = t;
    if (on_send) on_send(r, in, o, flits, t);
    const std::uint64_t busy = c.candidate == choice::eject ? ejection_cycles(r, o, flits, t)
                                                            : channel_cycles(r, o, flits, t);
    // The buffer's space goes back to the output of the router behind that
    // drives this input (the local port's credits are the injection
    // side's, at the same router).
    const link_state& from = s_.link[s_.port_index(r, in)];
    wheel_.schedule(t + busy - 1 + from.in_latency,
                    event{event_kind::credit, from.upstream_port, c.vc, from.upstream, flits});
    if (c.candidate == choice::eject) {
      --in_network_;
      wheel_.schedule(t + busy, event{event_kind::delivery, 0, 0, r, id});
    } else {
      forward(r, o, c.out_vc, id, flits, busy, t);
    }
    return busy;
  }

  // Returns the credits of a packet (`flits` long) that left input buffer
  // (r, in, vc) at cycle t into an output staging buffer.
  void release(node_id r, std::size_t in, std::size_t vc, std::uint32_t flits, std::uint64_t t) {
    last_progress_ = t;
    const link_state& from = s_.link[s_.port_index(r, in)];
    wheel_.schedule(t + flits - 1 + from.in_latency,
                    event{event_kind::credit, from.upstream_port, static_cast<std::uint8_t>(vc),
                          from.upstream, flits});
  }

  // Carries the packet `id` that leaves staging buffer x at router r's
  // output o into VC out_vc downstream (or ejects): the cycles it holds the
  // output; the staging buffer's space comes back when its tail has left.
  std::uint64_t carry_staged(node_id r, std::size_t o, std::size_t x, std::size_t out_vc,
                             std::uint32_t id, std::uint32_t flits, bool eject, std::uint64_t t) {
    last_progress_ = t;
    const std::size_t in = x / s_.vcs;
    if (on_send) on_send(r, in, o, flits, t);
    const std::uint64_t busy =
        eject ? ejection_cycles(r, o, flits, t) : channel_cycles(r, o, flits, t);
    wheel_.schedule(t + busy, event{event_kind::staging_credit, static_cast<std::uint8_t>(o),
                                    static_cast<std::uint8_t>(x), r, flits});
    if (eject) {
      --in_network_;
      wheel_.schedule(t + busy, event{event_kind::delivery, 0, 0, r, id});
    } else {
      forward(r, o, out_vc, id, flits, busy, t);
    }
    return busy;
  }

  // The packet takes downstream VC out_vc's credits at router r's output o
  // and arrives there (a slower channel delivers its head so that
  // forwarding it at a flit per cycle never overtakes its tail).
  void forward(node_id r, std::size_t o, std::size_t out_vc, std::uint32_t id, std::uint32_t flits,
               std::uint64_t busy, std::uint64_t t) {
    s_.credits[s_.buffer(r, o, out_vc)] -= static_cast<std::int32_t>(flits);
    m_.count_channel(r, o, flits, t);
    if (timeline_.enabled()) timeline_.count(r, o, flits, t);
    const link_state& out = s_.link[s_.port_index(r, o)];
    wheel_.schedule(t + (busy - flits) + out.out_latency + cfg_.router_delay,
                    event{event_kind::arrival, out.downstream_port,
                          static_cast<std::uint8_t>(out_vc), out.downstream, id});
  }

  const Scheme& scheme_;
  fabric f_;
  config cfg_;
  traffic_source destination_;
  age_config age_cfg_;
  vc_sets sets_;
  router_state s_;
  age_state age_;
  packet_pool<route_state> pool_;
  router_type router_;
  event_wheel wheel_;
  sources src_;
  measurement m_;
  link_timeline timeline_;
  // Per node: the packet waiting to enter the local input port, its VC set
  // there and length, and when the injection channel frees.
  std::vector<std::uint32_t> pending_;
  std::vector<std::uint8_t> pending_set_;
  std::vector<std::uint16_t> pending_flits_;
  std::vector<std::uint64_t> inj_free_at_;
  std::vector<double> inj_busy_, ej_busy_;  // endpoint_bandwidth < 1: when each port frees
  // Per port, on a fabric with slower channels: when each output's channel
  // frees and its bandwidth, side by side.
  struct slow_channel {
    double busy = 0, bandwidth = 1;
  };
  std::vector<slow_channel> slow_;
  // Time and counts.
  std::uint64_t now_ = 0, last_progress_ = 0, stall_limit_ = 0;
  std::uint64_t created_ = 0, injected_ = 0, delivered_ = 0, in_network_ = 0, sequence_ = 0;
  std::uint64_t dropped_ = 0;  // packets whose source had no destination
  std::uint64_t stepped_ = 0;  // cycles stepped (the others were skipped, idle)
  bool started_ = false;
  external_traffic* feed_ = nullptr;  // a trace's packets, instead of the sources' draws
  // Age runs: the counters at the measured window's start and end.
  std::unique_ptr<age_snapshot> window_snapshot_, end_snapshot_;
  deadlock_report deadlock_;
};

}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_NETWORK_MOVES_HPP
