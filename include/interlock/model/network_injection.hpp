// SPDX-License-Identifier: BSL-1.0
// interlock/model/network_injection.hpp: how packets enter a network: each
// endpoint takes its node's oldest queued packet into a local input port.
//
// Contract
//   network_injection<Scheme, Policy, Allocator, InputPolicy> is the second
//   layer of model::network (network.hpp), over network_moves
//   (network_moves.hpp). inject(t) visits the nodes with packets to send
//   (sources.hpp); each endpoint whose injection channel is free at t takes
//   the next packet of its node's source queue: its destination drawn at
//   that moment (a source with nothing to send drops it, uncounted), its
//   length, class and, with several endpoints, the endpoint it leaves
//   through at the destination; the packet waits at the endpoint until a VC
//   of its first hop's set at the local input port has credits for all of
//   it, then enters, at config::endpoint_bandwidth flits per cycle, its
//   head arriving config::channel_latency + config::router_delay cycles
//   after it leaves (a slow channel: late enough that forwarding it at one
//   flit per cycle never overtakes its tail). It allocates only when the
//   packet pool grows.
//
// Example
//   // network<...>::step calls inject(t) once per cycle, after the routers
//   // have moved.
#ifndef INTERLOCK_MODEL_NETWORK_INJECTION_HPP
#define INTERLOCK_MODEL_NETWORK_INJECTION_HPP

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "interlock/core/random.hpp"
#include "interlock/model/config.hpp"
#include "interlock/model/network_moves.hpp"
#include "interlock/model/packet.hpp"
#include "interlock/model/sources.hpp"
#include "interlock/routing/route.hpp"

namespace interlock {
namespace model {

template <class Scheme, class Policy, class Allocator, class InputPolicy>
class network_injection : public network_moves<Scheme, Policy, Allocator, InputPolicy> {
  using base = network_moves<Scheme, Policy, Allocator, InputPolicy>;

 public:
  using base::base;
  using typename base::route_state;

 protected:
  using base::cfg_;
  using base::continued;
  using base::created_;
  using base::destination_;
  using base::dropped_;
  using base::in_network_;
  using base::inj_busy_;
  using base::inj_free_at_;
  using base::injected_;
  using base::last_progress_;
  using base::m_;
  using base::pending_;
  using base::pending_flits_;
  using base::pending_set_;
  using base::pool_;
  using base::s_;
  using base::scheme_;
  using base::sequence_;
  using base::sets_;
  using base::src_;
  using base::wheel_;

  // ---- injection ----------------------------------------------------------

  // Each endpoint of a node whose injection channel is free takes the next
  // packet of the node's source queue.
  void inject(std::uint64_t t) {
    const std::size_t endpoints = cfg_.endpoints;
    src_.for_each_injecting([&](node_id n) {
      bool pending = false;
      for (std::size_t e = 0; e < endpoints; ++e) {
        const std::size_t k = n * endpoints + e;
        if (inj_free_at_[k] <= t) try_inject(n, e, t);
        pending = pending || pending_[k] != no_packet;
      }
      return pending || !src_.queue(n).empty();
    });
  }

  // Packet `id` waits at endpoint k of node n: its destination endpoint, and
  // the local input VC set of its first hop (any VC of the class for a
  // packet to its own node).
  void prepare(node_id n, std::size_t k, std::uint32_t id) {
    packet<route_state>& p = pool_[id];
    if (cfg_.endpoints > 1)  // (no draw with one endpoint: the same runs as before)
      p.endpoint = static_cast<std::uint16_t>(uniform_below(src_.rng(n), cfg_.endpoints) & 7u);
    pending_[k] = id;
    unsigned scheme_vc = p.cls * scheme_.vcs_per_class();
    if (!scheme_.arrived(n, p.route)) {
      hop options[max_route_candidates];
      scheme_.candidates(n, p.route, options);
      scheme_vc = options[0].vc;
    }
    pending_set_[k] = static_cast<std::uint8_t>(sets_.first(scheme_vc));
    pending_flits_[k] = p.flits;
    ++created_;
  }

  void try_inject(node_id n, std::size_t e, std::uint64_t t) {
    splitmix64& rng = src_.rng(n);
    const std::size_t k = n * cfg_.endpoints + e;
    while (pending_[k] == no_packet) {
      time_queue& queue = src_.queue(n);
      if (queue.empty()) return;
      const std::uint64_t born = queue.front();
      queue.pop();
      if (src_.external()) {
        const offered_packet x = src_.offered_front(n);
        src_.pop_offered(n);
        const std::uint32_t id = pool_.acquire();
        packet<route_state>& p = pool_[id];
        p.created = born;
        p.source = n;
        p.flits = x.flits & 0x7FFu;
        p.cls = x.cls & 1u;
        p.route = scheme_.start(n, x.destination, static_cast<traffic_class>(p.cls), rng);
        p.sequence = x.tag;  // handed back at delivery
        p.measured = 1;
        prepare(n, k, id);
        continue;
      }
      const labelled_destination drawn = destination_(n, rng);
      const node_id d = drawn.node;
      if (d == no_node) {  // this source has nothing to send
        ++dropped_;
        if (cfg_.batch > 0 || m_.in_window(born)) m_.uncount_created();
        continue;
      }
      const std::uint32_t id = pool_.acquire();
      packet<route_state>& p = pool_[id];
      p.created = born;
      p.source = n;
      p.flits = src_.draw_length(n) & 0x7FFu;  // 1..1024
      p.pattern = drawn.pattern;
      const bool response = cfg_.response_share >= 1 ||
                            (cfg_.response_share > 0 && uniform_unit(rng) < cfg_.response_share);
      p.cls = response ? 1 : 0;
      p.route = scheme_.start(n, d, static_cast<traffic_class>(p.cls), rng);
      p.sequence = sequence_++;
      p.measured = (cfg_.batch > 0 || m_.in_window(born)) ? 1 : 0;
      prepare(n, k, id);
    }
    const std::size_t port = s_.local + e;
    const std::size_t local_buffers = s_.buffer(n, port, 0);
    const std::uint32_t flits = pending_flits_[k];
    const int pick = sets_.pick(&s_.credits[local_buffers + pending_set_[k]], flits);
    if (pick < 0) return;
    const std::size_t v = pending_set_[k] + static_cast<std::size_t>(pick);
    s_.credits[local_buffers + v] -= static_cast<std::int32_t>(flits);
    packet<route_state>& p = pool_[pending_[k]];
    p.queued = static_cast<std::uint32_t>(std::min<std::uint64_t>(t - p.created, 0xFFFFFFFFu));
    // The injection channel carries config::endpoint_bandwidth flits per
    // cycle; the head reaches the router so that forwarding it at one flit
    // per cycle never overtakes its tail.
    std::uint64_t head_leaves = t;
    if (cfg_.endpoint_bandwidth >= 1) {
      inj_free_at_[k] = t + flits;
    } else {
      inj_busy_[k] =
          continued(inj_busy_[k], t) + static_cast<double>(flits) / cfg_.endpoint_bandwidth;
      inj_free_at_[k] = static_cast<std::uint64_t>(std::ceil(inj_busy_[k]));
      head_leaves = std::max(t, inj_free_at_[k] - flits);
    }
    if (p.measured) m_.count_injected();
    if (in_network_ == 0) last_progress_ = t;  // an empty network has not stalled
    ++injected_;
    ++in_network_;
    wheel_.schedule(head_leaves + cfg_.channel_latency + cfg_.router_delay,
                    event{event_kind::arrival, static_cast<std::uint8_t>(port),
                          static_cast<std::uint8_t>(v), n, pending_[k]});
    pending_[k] = no_packet;
  }
};

}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_NETWORK_INJECTION_HPP
