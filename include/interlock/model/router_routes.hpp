// SPDX-License-Identifier: BSL-1.0
// interlock/model/router_routes.hpp: route computation at a router, and the heads that can go.
//
// Contract
//   router_routes<Scheme, Policy, Allocator, InputPolicy> is the route unit
//   of model::router (router.hpp), the one part that knows the routing
//   scheme; it writes the heads' choices into the router's policies part
//   (router_policies.hpp, given when built):
//   - route computation, once per packet, when it reaches the head of its
//     buffer (route_head): Scheme::arrived() and Scheme::candidates() give
//     the ways on, each a hop (dimension, sign, slice, scheme VC, adaptive);
//     the topology's port_of(hop) names the output port (a node shape's
//     port_of(router, hop), model/anton2_node.hpp) and vc_sets the
//     physical VCs. A head with one way on takes it at once (follow(); an
//     oblivious scheme's one next() both names and takes it), while its
//     packet is in cache; otherwise follow() is applied to the
//     hop taken when the packet leaves (follow_taken), its candidates
//     computed again from the route state they came from;
//   - the heads that can go at an input port (heads_that_can_go): at an
//     input port whose crossbar input is free, a head can go when its
//     output channel is free and, for some candidate, the downstream VC set
//     has credits for the whole packet (virtual cut-through); an adaptive
//     scheme's adaptive hops are preferred (the one with the most credits)
//     over the escape hop, the T3E's rule. A head waiting only for credits
//     is skipped until a credit reaches one of its outputs (not with an age
//     arbiter: its Table 4 counters count every blocked cycle).
//   It reads packets from the network's packet pool (packet.hpp) by id and
//   allocates nothing once built.
//
// Example
//   // model::router holds one; the network routes each new head through it:
//   //   router_.route_head(r, pi, v, id, pool[id], now);  // buffer (port index pi, VC v)
#ifndef INTERLOCK_MODEL_ROUTER_ROUTES_HPP
#define INTERLOCK_MODEL_ROUTER_ROUTES_HPP

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "interlock/core/assert.hpp"
#include "interlock/core/bits.hpp"
#include "interlock/model/age_support.hpp"
#include "interlock/model/packet.hpp"
#include "interlock/model/router_policies.hpp"
#include "interlock/model/router_state.hpp"
#include "interlock/model/vc_sets.hpp"
#include "interlock/routing/route.hpp"
#include "interlock/topology/torus.hpp"

namespace interlock {
namespace model {

namespace detail {
/// The output port of a hop a scheme computed at router r: a torus names
/// it by direction (port_of(hop)); a node shape by router and hop.
inline std::size_t hop_port(const torus_topology& t, node_id, const hop& h) { return t.port_of(h); }
template <class Topology>
auto hop_port(const Topology& t, node_id r, const hop& h) -> decltype(t.port_of(r, h)) {
  return t.port_of(r, h);
}
}  // namespace detail

template <class Scheme, class Policy, class Allocator, class InputPolicy>
class router_routes {
 public:
  using policies_type = router_policies<Policy, Allocator, InputPolicy>;
  using route_state = typename Scheme::state;
  using topology_type = std::decay_t<decltype(std::declval<const Scheme&>().topology())>;
  static constexpr bool ages = policies_type::ages;

  /// The route unit of the routers whose policies (and heads' choices) are
  /// `p`, routing by `scheme` the packets of `pool`.
  router_routes(const Scheme& scheme, policies_type& p, packet_pool<route_state>& pool)
      : scheme_(scheme),
        t_(scheme.topology()),
        pool_(pool),
        p_(p),
        s_(p.s_),
        sets_(p.sets_),
        options_(p.options_),
        option_out_(p.option_out_) {
    static_assert(require_routing_scheme<Scheme>(), "Scheme must be a routing scheme");
  }
  router_routes(const router_routes&) = delete;
  router_routes& operator=(const router_routes&) = delete;

  /// Route computation for the packet at the head of VC v's buffer at router
  /// r's port index pi (its buffer b = pi x VCs + v), from cycle `at`. With
  /// a head pipeline it competes head_cycles after `at` or after the tail
  /// before it left (ready_at holds that while the buffer is empty),
  /// whichever is later; with pipelined heads `at` is its arrival, and it
  /// competes head_cycles after that (a VC's packets arrive a cycle apart at
  /// least, so they pass the stages one behind another).
  void route_head(node_id r, std::size_t pi, std::size_t v, std::uint32_t id,
                  packet<route_state>& p, std::uint64_t at) {
    const std::size_t b = pi * s_.vcs + v;
    head_state& head = s_.buf[b].head;
    if (s_.head_cycles != 0)
      head.ready_at =
          s_.pipelined_heads() ? at + s_.head_cycles : std::max(at, head.ready_at) + s_.head_cycles;
    head.id = id;
    head.flits = p.flits;
    head.endpoint = static_cast<std::uint8_t>(p.endpoint);
    s_.buf[b].fields = model::head_fields{p.age, p.pattern, static_cast<std::uint8_t>(p.cls)};
    if (scheme_.arrived(r, p.route)) {
      head.ncand = 0;
    } else if constexpr (interlock::detail::is_oblivious_v<Scheme>) {
      // The one way on, taken now while the packet is in cache: next()
      // names the hop and moves the route state past it in one call (what
      // candidates() and then follow() would do, each calling next()).
      head.ncand = 1;
      s_.cand_info[b * s_.max_cand] = candidate_of(r, scheme_.next(r, p.route));
      ++p.hops;
    } else {
      hop cand[max_route_candidates];
      head.ncand = static_cast<std::uint8_t>(scheme_.candidates(r, p.route, cand));
      INTERLOCK_ASSERT(head.ncand <= s_.max_cand,
                       "more candidates than the records kept per buffer");
      for (std::size_t k = 0; k < head.ncand; ++k)
        s_.cand_info[b * s_.max_cand + k] = candidate_of(r, cand[k]);
      // One way on: the packet takes it whenever it goes, so its route
      // state moves on now, while the packet is in cache.
      if (head.ncand == 1) {
        scheme_.follow(r, p.route, cand[0]);
        ++p.hops;
      }
    }
    s_.port[pi].blocked &= ~bits::bit(v);
  }

  /// What a head's candidate hop records: its output port at router r, the
  /// first physical VC of its VC set, whether it is adaptive.
  candidate_info candidate_of(node_id r, const hop& h) const {
    return candidate_info{static_cast<std::uint8_t>(detail::hop_port(t_, r, h)),
                          static_cast<std::uint8_t>(sets_.first(h.vc)),
                          static_cast<std::uint8_t>(h.adaptive ? 1 : 0), 0};
  }

  /// The route state of the head of buffer b takes candidate k (unless it
  /// took its only way on at route time): its candidates, computed again
  /// from the route state they came from.
  void follow_taken(node_id r, std::size_t b, std::uint8_t k, packet<route_state>& p) {
    if (s_.buf[b].head.ncand == 1) return;
    hop cand[max_route_candidates];
    scheme_.candidates(r, p.route, cand);
    scheme_.follow(r, p.route, cand[k]);
    ++p.hops;
  }

  // The VCs of input port `in` whose head can go now (output channel free,
  // credits for the whole packet on some way on), each with its choice in
  // options_/option_out_; `wake` lowered to when a busy port it needs frees;
  // blocked_vcs: heads lacking credits on a way on.
  std::uint64_t heads_that_can_go(node_id r, std::size_t in, std::uint64_t t, std::uint64_t& wake,
                                  std::uint64_t& blocked_vcs) {
    const std::size_t pi = s_.port_index(r, in);
    choice* options = &options_[pi * s_.vcs];
    std::uint8_t* option_out = &option_out_[pi * s_.vcs];
    std::uint64_t can_go = 0;
    for (std::uint64_t vcs = s_.port[pi].vcs & ~s_.port[pi].blocked; vcs != 0; vcs &= vcs - 1) {
      const std::size_t v = bits::lowest_index(vcs);
      const std::size_t b = pi * s_.vcs + v;
      if (p_.in_head_pipeline(b, t, wake)) continue;
      const head_state h = s_.buf[b].head;
      if (h.ncand == 0) {
        const std::size_t out = s_.local + h.endpoint;
        const std::uint64_t free_at = s_.port[s_.port_index(r, out)].out_free_at;
        if (free_at <= t) {
          can_go |= bits::bit(v);
          options[v] = choice{static_cast<std::uint8_t>(v), choice::eject, 0};
          option_out[v] = static_cast<std::uint8_t>(out);
        } else {
          wake = std::min(wake, free_at);
        }
        continue;
      }
      // Adaptive hops first (most credits), the escape hop otherwise.
      int best = -1;
      std::size_t best_vc = 0;
      bool best_adaptive = false;
      std::int32_t best_credits = -1;
      const std::uint32_t flits = h.flits;
      const candidate_info* info = &s_.cand_info[b * s_.max_cand];
      bool busy = false;
      for (std::size_t k = 0; k < h.ncand; ++k) {
        const candidate_info ci = info[k];
        const std::uint64_t free_at = s_.port[s_.port_index(r, ci.port)].out_free_at;
        if (free_at > t) {
          wake = std::min(wake, free_at);
          busy = true;
          continue;
        }
        const std::size_t set = s_.buffer(r, ci.port, ci.first_vc);
        const int pv = sets_.pick(&s_.credits[set], flits);
        if (pv < 0) {
          blocked_vcs |= bits::bit(v);
          continue;
        }
        const std::int32_t c = s_.credits[set + static_cast<std::size_t>(pv)];
        const bool better = best < 0 || (ci.adaptive != 0 && !best_adaptive) ||
                            (ci.adaptive != 0 && c > best_credits);
        if (better) {
          best = static_cast<int>(k);
          best_vc = ci.first_vc + static_cast<std::size_t>(pv);
          best_credits = c;
          best_adaptive = ci.adaptive != 0;
        }
      }
      if constexpr (!ages) {
        if (best < 0 && !busy) {
          // Every way on lacks credits: skip this head until one comes.
          s_.port[pi].blocked |= bits::bit(v);
          for (std::size_t k = 0; k < h.ncand; ++k)
            s_.link[s_.port_index(r, info[k].port)].waiters |= bits::bit(in);
        }
      }
      if (best >= 0) {
        can_go |= bits::bit(v);
        options[v] = choice{static_cast<std::uint8_t>(v), static_cast<std::uint8_t>(best),
                            static_cast<std::uint8_t>(best_vc)};
        option_out[v] = info[best].port;
      }
    }
    return can_go;
  }

 private:
  const Scheme& scheme_;
  const topology_type& t_;
  packet_pool<route_state>& pool_;  // the network's packets
  policies_type& p_;
  router_state& s_;
  const vc_sets& sets_;
  std::vector<choice>& options_;           // per input buffer: its head's choice
  std::vector<std::uint8_t>& option_out_;  // and its output port
};

}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_ROUTER_ROUTES_HPP
