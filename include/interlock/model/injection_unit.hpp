// SPDX-License-Identifier: BSL-1.0
// interlock/model/injection_unit.hpp: how packets enter a network: each
// endpoint takes its node's oldest queued packet into a local input port.
//
// Contract
//   injection_unit is the part of model::network (network.hpp) that holds,
//   per endpoint, the packet waiting to enter and when its injection
//   channel frees. inject(n, t) visits the nodes of network n with packets
//   to send (sources.hpp); each endpoint whose injection channel is free at
//   t takes the next packet of its node's source queue: its destination
//   drawn at that moment (a source with nothing to send drops it,
//   uncounted), its length, class and, with several endpoints, the endpoint
//   it leaves through at the destination; the packet waits at the endpoint
//   until a VC of its first hop's set at the local input port has credits
//   for all of it, then enters, at config::endpoint_bandwidth flits per
//   cycle, its head arriving config::channel_latency + config::router_delay
//   cycles after it leaves (a slow channel: late enough that forwarding it
//   at one flit per cycle never overtakes its tail). It allocates only when
//   the packet pool grows.
//
// Example
//   // network<...>::step calls inject(*this, t) once per cycle, before the
//   // routers move.
#ifndef INTERLOCK_MODEL_INJECTION_UNIT_HPP
#define INTERLOCK_MODEL_INJECTION_UNIT_HPP

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "interlock/core/random.hpp"
#include "interlock/model/channel_unit.hpp"
#include "interlock/model/config.hpp"
#include "interlock/model/event_wheel.hpp"
#include "interlock/model/packet.hpp"
#include "interlock/model/sources.hpp"
#include "interlock/routing/route.hpp"

namespace interlock {
namespace model {

class injection_unit {
 public:
  /// `endpoints`: the network's endpoints (routers x config::endpoints).
  explicit injection_unit(std::size_t endpoints)
      : pending_(endpoints, no_packet),
        pending_set_(endpoints, 0),
        pending_flits_(endpoints, 0),
        free_at_(endpoints, 0),
        busy_(endpoints, 0.0) {}

  // Each endpoint of a node whose injection channel is free takes the next
  // packet of the node's source queue.
  template <class Net>
  void inject(Net& n, std::uint64_t t) {
    const std::size_t endpoints = n.cfg_.endpoints;
    n.src_.for_each_injecting([&](node_id x) {
      bool pending = false;
      for (std::size_t e = 0; e < endpoints; ++e) {
        const std::size_t k = x * endpoints + e;
        if (free_at_[k] <= t) try_inject(n, x, e, t);
        pending = pending || pending_[k] != no_packet;
      }
      return pending || !n.src_.queue(x).empty();
    });
  }

 private:
  // Packet `id` waits at endpoint k of node x: its destination endpoint, and
  // the local input VC set of its first hop (any VC of the class for a
  // packet to its own node).
  template <class Net>
  void prepare(Net& n, node_id x, std::size_t k, std::uint32_t id) {
    auto& p = n.pool_[id];
    if (n.cfg_.endpoints > 1)  // (no draw with one endpoint: the same runs as before)
      p.endpoint = static_cast<std::uint16_t>(uniform_below(n.src_.rng(x), n.cfg_.endpoints) & 7u);
    pending_[k] = id;
    unsigned scheme_vc = p.cls * n.scheme_.vcs_per_class();
    if (!n.scheme_.arrived(x, p.route)) {
      hop options[max_route_candidates];
      n.scheme_.candidates(x, p.route, options);
      scheme_vc = options[0].vc;
    }
    pending_set_[k] = static_cast<std::uint8_t>(n.sets_.first(scheme_vc));
    pending_flits_[k] = p.flits;
    ++n.created_;
  }

  template <class Net>
  void try_inject(Net& n, node_id x, std::size_t e, std::uint64_t t) {
    splitmix64& rng = n.src_.rng(x);
    const config& cfg = n.cfg_;
    const std::size_t k = x * cfg.endpoints + e;
    while (pending_[k] == no_packet) {
      time_queue& queue = n.src_.queue(x);
      if (queue.empty()) return;
      const std::uint64_t born = queue.front();
      queue.pop();
      if (n.src_.external()) {
        const offered_packet o = n.src_.offered_front(x);
        n.src_.pop_offered(x);
        const std::uint32_t id = n.pool_.acquire();
        auto& p = n.pool_[id];
        p.created = born;
        p.source = x;
        p.flits = o.flits & 0x7FFu;
        p.cls = o.cls & 1u;
        p.route = n.scheme_.start(x, o.destination, static_cast<traffic_class>(p.cls), rng);
        p.sequence = o.tag;  // handed back at delivery
        p.measured = 1;
        prepare(n, x, k, id);
        continue;
      }
      const labelled_destination drawn = n.destination_(x, rng);
      const node_id d = drawn.node;
      if (d == no_node) {  // this source has nothing to send
        ++n.dropped_;
        if (cfg.batch > 0 || n.m_.in_window(born)) n.m_.uncount_created();
        continue;
      }
      const std::uint32_t id = n.pool_.acquire();
      auto& p = n.pool_[id];
      p.created = born;
      p.source = x;
      p.flits = n.src_.draw_length(x) & 0x7FFu;  // 1..1024
      p.pattern = drawn.pattern;
      const bool response = cfg.response_share >= 1 ||
                            (cfg.response_share > 0 && uniform_unit(rng) < cfg.response_share);
      p.cls = response ? 1 : 0;
      p.route = n.scheme_.start(x, d, static_cast<traffic_class>(p.cls), rng);
      p.sequence = n.sequence_++;
      p.measured = (cfg.batch > 0 || n.m_.in_window(born)) ? 1 : 0;
      prepare(n, x, k, id);
    }
    router_state& s = n.s_;
    const std::size_t port = s.local + e;
    const std::size_t local_buffers = s.buffer(x, port, 0);
    const std::uint32_t flits = pending_flits_[k];
    const int pick = n.sets_.pick(&s.credits[local_buffers + pending_set_[k]], flits);
    if (pick < 0) return;
    const std::size_t v = pending_set_[k] + static_cast<std::size_t>(pick);
    s.credits[local_buffers + v] -= static_cast<std::int32_t>(flits);
    auto& p = n.pool_[pending_[k]];
    p.queued = static_cast<std::uint32_t>(std::min<std::uint64_t>(t - p.created, 0xFFFFFFFFu));
    // The injection channel carries config::endpoint_bandwidth flits per
    // cycle; the head reaches the router so that forwarding it at one flit
    // per cycle never overtakes its tail.
    std::uint64_t head_leaves = t;
    if (cfg.endpoint_bandwidth >= 1) {
      free_at_[k] = t + flits;
    } else {
      busy_[k] =
          detail::continued(busy_[k], t) + static_cast<double>(flits) / cfg.endpoint_bandwidth;
      free_at_[k] = static_cast<std::uint64_t>(std::ceil(busy_[k]));
      head_leaves = std::max(t, free_at_[k] - flits);
    }
    if (p.measured) n.m_.count_injected();
    if (n.in_network_ == 0) n.last_progress_ = t;  // an empty network has not stalled
    ++n.injected_;
    ++n.in_network_;
    n.wheel_.schedule(head_leaves + cfg.channel_latency + cfg.router_delay,
                      event{event_kind::arrival, static_cast<std::uint8_t>(port),
                            static_cast<std::uint8_t>(v), x, pending_[k]});
    pending_[k] = no_packet;
  }

  // Per endpoint: the packet waiting to enter the local input port, its VC
  // set there and length, when the injection channel frees and, with
  // endpoint_bandwidth below 1, how far into a cycle it is busy.
  std::vector<std::uint32_t> pending_;
  std::vector<std::uint8_t> pending_set_;
  std::vector<std::uint16_t> pending_flits_;
  std::vector<std::uint64_t> free_at_;
  std::vector<double> busy_;
};

}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_INJECTION_UNIT_HPP
