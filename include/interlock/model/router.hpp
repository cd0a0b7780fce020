// interlock/model/router.hpp: how a router composes interlock's policies: route computation,
// the input stage and the output stage of a separable allocation.
//
// Contract
//   router<Scheme, Policy> decides, for every router of a network, which
//   packets leave this cycle and where; interlock::model::network moves
//   them. It reaches the policies only through the surface every interlock
//   policy has:
//   - Route computation, once per packet, when it reaches the head of its
//     buffer (route_head): Scheme::arrived() and Scheme::candidates() give
//     the ways on, each a hop (dimension, sign, slice, scheme VC, adaptive);
//     the topology's port_of() names the output port and vc_sets the
//     physical VCs. A head with one way on takes it at once (follow()), while
//     its packet is in cache; otherwise follow() is applied to the hop taken
//     (follow_taken).
//   - Input stage: each input port whose crossbar input is free offers one
//     head. A head can go when its output channel is free and, for some
//     candidate, the downstream VC set has credits for the whole packet
//     (virtual cut-through); an adaptive scheme's adaptive hops are
//     preferred (the one with the most credits) over the escape hop, the
//     T3E's rule. Among the VCs whose head can go, a round-robin arbiter of
//     the input port picks one; its pointer moves only when its choice is
//     granted.
//   - Output stage: each requested output grants one of the input ports
//     asking for it with Policy, any interlock arbiter or scheduler with a
//     request_builder: the candidates are the input ports, described by a
//     candidate_view holding each head's 11-bit age field, pattern label,
//     size in flits and priority (its class). The builder makes the
//     policy's request; arbitrate() decides and commit() updates the state,
//     only for the grant used.
//   A router none of whose heads can go sleeps until the earliest cycle a
//   port it waits for frees (credits and arrivals wake it by event), and a
//   head waiting only for credits is skipped until a credit reaches one of
//   its outputs (not with an age arbiter: its Table 4 counters count every
//   blocked cycle). step() allocates nothing.
//
// Example
//   // inside network<Scheme, Policy>::step, for each router r holding packets:
//   //   router_.step(r, t, [&](node_id r, std::size_t in, const choice& c,
//   //                          std::size_t out, std::uint64_t t) { send(...); });
#ifndef INTERLOCK_MODEL_ROUTER_HPP
#define INTERLOCK_MODEL_ROUTER_HPP

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "interlock/arbiters/round_robin.hpp"
#include "interlock/core/bits.hpp"
#include "interlock/core/candidates.hpp"
#include "interlock/core/grant.hpp"
#include "interlock/model/age_support.hpp"
#include "interlock/model/packet.hpp"
#include "interlock/model/router_state.hpp"
#include "interlock/model/vc_sets.hpp"
#include "interlock/routing/route.hpp"
#include "interlock/topology/torus.hpp"

namespace interlock {
namespace model {

/// An input's decision: which VC's head goes, by which candidate, into which VC.
struct choice {
  std::uint8_t vc;
  std::uint8_t candidate;  // index into the head's candidates; eject: it leaves here
  std::uint8_t out_vc;
  static constexpr std::uint8_t eject = 0xFF;
};

template <class Scheme, class Policy>
class router {
 public:
  using route_state = typename Scheme::state;
  using policy_factory = std::function<Policy(node_id router, std::size_t output_port)>;
  static constexpr bool ages = reads_age_v<Policy>;

  router(const Scheme& scheme, router_state& s, const vc_sets& sets, age_state& age,
         const policy_factory& make_policy, saturation_rule rule)
      : scheme_(scheme), t_(scheme.topology()), s_(s), sets_(sets), age_(age) {
    static_assert(require_routing_scheme<Scheme>(), "Scheme must be a routing scheme");
    static_assert(has_request_builder_v<Policy>, "Policy needs a request_builder");
    input_arb_.assign(static_cast<std::size_t>(s.nodes) * s.ports, round_robin_arbiter<64>{});
    policies_.reserve(static_cast<std::size_t>(s.nodes) * s.ports);
    for (node_id r = 0; r < s.nodes; ++r)
      for (std::size_t o = 0; o < s.ports; ++o) policies_.push_back(make_policy(r, o));
    if constexpr (ages) {
      for (node_id r = 0; r < s.nodes; ++r) builders_.emplace_back(age.clock(r), rule);
    } else {
      (void)rule;
      builders_.resize(1);
    }
  }
  router(const router&) = delete;
  router& operator=(const router&) = delete;

  /// Route computation for the packet now at the head of buffer b of router r.
  void route_head(node_id r, std::size_t b, packet<route_state>& p) {
    buffer_state& head = s_.buf[b];
    head.flits = p.flits;
    head.age = p.age;
    head.pattern = p.pattern;
    head.priority = p.cls;
    if (scheme_.arrived(r, p.route)) {
      head.ncand = 0;
    } else {
      hop* cand = &s_.cand[b * s_.max_cand];
      head.ncand = static_cast<std::uint8_t>(scheme_.candidates(r, p.route, cand));
      for (std::size_t k = 0; k < head.ncand; ++k)
        s_.cand_info[b * s_.max_cand + k] =
            candidate_info{static_cast<std::uint8_t>(t_.port_of(cand[k])),
                           static_cast<std::uint8_t>(sets_.first(cand[k].vc)),
                           static_cast<std::uint8_t>(cand[k].adaptive ? 1 : 0), 0};
      // One way on: the packet takes it whenever it goes, so its route
      // state moves on now, while the packet is in cache.
      head.followed = head.ncand == 1;
      if (head.followed) {
        scheme_.follow(r, p.route, cand[0]);
        ++p.hops;
      }
    }
    s_.port[b / s_.vcs].blocked &= ~bits::bit(b % s_.vcs);
  }

  /// The route state of the head of buffer b takes candidate k (unless it
  /// took its only way on at route time).
  void follow_taken(node_id r, std::size_t b, std::uint8_t k, packet<route_state>& p) {
    if (s_.buf[b].followed) return;
    scheme_.follow(r, p.route, s_.cand[b * s_.max_cand + k]);
    ++p.hops;
  }

  /// One cycle of router r: `send(r, in, choice, out, t)` for each grant.
  template <class Send>
  void step(node_id r, std::uint64_t t, Send&& send) {
    std::uint64_t out_requests = 0;
    std::array<std::uint64_t, 64> requesters;  // per output: the input ports asking for it
    std::array<choice, 64> chosen;
    std::array<std::uint16_t, 64> age_of;
    std::array<std::uint8_t, 64> pattern_of;
    std::array<std::uint32_t, 64> flits_of;
    std::array<std::uint8_t, 64> priority_of;
    std::array<choice, 64> options;
    std::array<std::uint8_t, 64> option_out;
    std::uint64_t stalled_ports = 0;  // ports with heads waiting for credits and no request
    std::array<std::uint64_t, 64> port_blocked;  // per stalled port: its VCs waiting for credits
    // The next cycle a busy port this router waits for frees (credits and
    // arrivals wake it by event).
    std::uint64_t wake = ~std::uint64_t{0};
    if constexpr (ages) age_.catch_up(r, t);

    // Input stage: each free input port picks one head that can go now.
    for (std::uint64_t ports = s_.port_mask[r]; ports != 0; ports &= ports - 1) {
      const std::size_t in = bits::lowest_index(ports);
      const std::size_t pi = s_.port_index(r, in);
      if (s_.port[pi].in_free_at > t) {
        wake = std::min(wake, s_.port[pi].in_free_at);
        continue;
      }
      std::uint64_t can_go = 0;
      std::uint64_t blocked_vcs = 0;  // VCs whose head waits for credits
      for (std::uint64_t vcs = s_.port[pi].vcs & ~s_.port[pi].blocked; vcs != 0; vcs &= vcs - 1) {
        const std::size_t v = bits::lowest_index(vcs);
        const std::size_t b = pi * s_.vcs + v;
        if (s_.buf[b].ncand == 0) {
          const std::uint64_t free_at = s_.port[s_.port_index(r, s_.local)].out_free_at;
          if (free_at <= t) {
            can_go |= bits::bit(v);
            options[v] = choice{static_cast<std::uint8_t>(v), choice::eject, 0};
            option_out[v] = static_cast<std::uint8_t>(s_.local);
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
        const std::uint32_t flits = s_.buf[b].flits;
        const candidate_info* info = &s_.cand_info[b * s_.max_cand];
        bool busy = false;
        for (std::size_t k = 0; k < s_.buf[b].ncand; ++k) {
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
            for (std::size_t k = 0; k < s_.buf[b].ncand; ++k)
              s_.port[s_.port_index(r, info[k].port)].waiters |= bits::bit(in);
          }
        }
        if (best >= 0) {
          can_go |= bits::bit(v);
          options[v] = choice{static_cast<std::uint8_t>(v), static_cast<std::uint8_t>(best),
                              static_cast<std::uint8_t>(best_vc)};
          option_out[v] = info[best].port;
        }
      }
      if constexpr (ages) {
        if (blocked_vcs != 0) {
          router_perf_counters& counters = age_.counters(r, in);
          for (std::uint64_t x = blocked_vcs & 0xF; x != 0; x &= x - 1)
            counters.count_blocked_cycle(static_cast<unsigned>(bits::lowest_index(x)));
          if (can_go == 0) {
            counters.count_stalled_cycle();
            stalled_ports |= bits::bit(in);
            port_blocked[in] = blocked_vcs;
          }
        }
      }
      if (can_go == 0) continue;
      const std::size_t v = input_arb_[pi].arbitrate(can_go).index();
      const std::size_t o = option_out[v];
      chosen[in] = options[v];
      if ((out_requests & bits::bit(o)) == 0) requesters[o] = 0;
      out_requests |= bits::bit(o);
      requesters[o] |= bits::bit(in);
      const std::size_t b = pi * s_.vcs + v;
      age_of[in] = s_.buf[b].age;
      pattern_of[in] = s_.buf[b].pattern;
      flits_of[in] = s_.buf[b].flits;
      priority_of[in] = s_.buf[b].priority;
    }
    if (out_requests == 0) {
      // Nothing can go: sleep until a port frees, a credit or a packet arrives.
      s_.sleep_until[r] = wake;
      if constexpr (ages) {
        for (std::uint64_t x = stalled_ports; x != 0; x &= x - 1) {
          const std::size_t in = bits::lowest_index(x);
          age_.fall_asleep(r, in, port_blocked[in]);
        }
      }
    }
    // Output stage: each requested output grants one input port.
    auto& builder = builders_[ages ? r : 0];
    for (std::uint64_t outs = out_requests; outs != 0; outs &= outs - 1) {
      const std::size_t o = bits::lowest_index(outs);
      candidate_view view;
      view.requests = requesters[o];
      view.age = {age_of.data(), s_.ports};
      view.pattern = {pattern_of.data(), s_.ports};
      view.flits = {flits_of.data(), s_.ports};
      view.priority = {priority_of.data(), s_.ports};
      Policy& policy = policies_[s_.port_index(r, o)];
      const auto request = builder(view);
      const grant g = policy.arbitrate(request);
      if (!g) continue;
      policy.commit(g, request);
      const std::size_t in = g.index();
      const choice c = chosen[in];
      input_arb_[s_.port_index(r, in)].commit(grant(c.vc));
      send(r, in, c, o, t);
    }
  }

  /// The output policy of router r's port o.
  Policy& policy(node_id r, std::size_t o) { return policies_[s_.port_index(r, o)]; }

 private:
  const Scheme& scheme_;
  const torus_topology& t_;
  router_state& s_;
  const vc_sets& sets_;
  age_state& age_;
  std::vector<round_robin_arbiter<64>> input_arb_;
  std::vector<Policy> policies_;
  std::vector<request_builder<Policy>> builders_;
};

}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_ROUTER_HPP
