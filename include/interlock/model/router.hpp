// SPDX-License-Identifier: BSL-1.0
// interlock/model/router.hpp: how a router composes interlock's policies: route computation,
// the input stage, the switch allocator and the output policies.
//
// Contract
//   router<Scheme, Policy, Allocator, InputPolicy> decides, for every
//   router of a network, which packets leave this cycle and where;
//   interlock::model::network moves them. It reaches the policies only through the surface every
//   interlock policy has:
//   - Route computation, once per packet, when it reaches the head of its
//     buffer (route_head): Scheme::arrived() and Scheme::candidates() give
//     the ways on, each a hop (dimension, sign, slice, scheme VC, adaptive);
//     the topology's port_of(hop) names the output port (a node shape's
//     port_of(router, hop), model/anton2_node.hpp) and vc_sets the
//     physical VCs. A head with one way on takes it at once (follow()), while
//     its packet is in cache; otherwise follow() is applied to the hop taken
//     (follow_taken).
//   - Heads that can go: at each input port whose crossbar input is free,
//     a head can go when its output channel is free and, for some
//     candidate, the downstream VC set has credits for the whole packet
//     (virtual cut-through); an adaptive scheme's adaptive hops are
//     preferred (the one with the most credits) over the escape hop, the
//     T3E's rule.
//   - Switch allocation, by the Allocator parameter:
//       separable_input_first (default): each input port's InputPolicy
//         (round robin by default; any policy with a request_builder, over
//         a candidate_view of the port's VCs) picks one of its heads that
//         can go; each requested output grants one of the input ports that
//         picked it with Policy, over a candidate_view of the input ports
//         holding each offered head's 11-bit age field, pattern label, size
//         in flits and priority (its class);
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
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "interlock/allocators/islip.hpp"
#include "interlock/allocators/request_matrix.hpp"
#include "interlock/allocators/wavefront.hpp"
#include "interlock/arbiters/round_robin.hpp"
#include "interlock/core/bits.hpp"
#include "interlock/core/candidates.hpp"
#include "interlock/core/config_error.hpp"
#include "interlock/core/grant.hpp"
#include "interlock/model/age_support.hpp"
#include "interlock/model/packet.hpp"
#include "interlock/model/router_state.hpp"
#include "interlock/model/switch_allocators.hpp"
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

/// An input's decision: which VC's head goes, by which candidate, into which VC.
struct choice {
  std::uint8_t vc;
  std::uint8_t candidate;  // index into the head's candidates; eject: it leaves here
  std::uint8_t out_vc;
  static constexpr std::uint8_t eject = 0xFF;
};

template <class Scheme, class Policy, class Allocator = separable_input_first,
          class InputPolicy = round_robin_arbiter<64>>
class router {
 public:
  using route_state = typename Scheme::state;
  using topology_type = std::decay_t<decltype(std::declval<const Scheme&>().topology())>;
  using policy_factory = std::function<Policy(node_id router, std::size_t output_port)>;
  using input_policy_factory = std::function<InputPolicy(node_id router, std::size_t input_port)>;
  static constexpr bool ages = reads_age_v<Policy> || reads_age_v<InputPolicy>;
  static constexpr bool matrix = detail::matrix_allocator<Allocator>::value;
  static_assert(matrix || std::is_same<Allocator, separable_input_first>::value ||
                    std::is_same<Allocator, separable_output_first>::value,
                "Allocator: separable_input_first, separable_output_first, islip<P> or "
                "wavefront<P>");
  static_assert(!matrix || std::is_same<Policy, round_robin_arbiter<64>>::value,
                "islip and wavefront grant with their own round-robin pointers and "
                "diagonals: the output Policy must be round_robin_arbiter<64>");

  router(const Scheme& scheme, router_state& s, const vc_sets& sets, age_state& age,
         const policy_factory& make_policy, saturation_rule rule, const Allocator& allocator = {},
         const input_policy_factory& make_input = {})
      : scheme_(scheme), t_(scheme.topology()), s_(s), sets_(sets), age_(age) {
    static_assert(require_routing_scheme<Scheme>(), "Scheme must be a routing scheme");
    static_assert(has_request_builder_v<Policy>, "Policy needs a request_builder");
    static_assert(has_request_builder_v<InputPolicy>, "InputPolicy needs a request_builder");
    if (s.staged() && !std::is_same<Allocator, separable_input_first>::value)
      throw config_error("interlock::model::config", "staging_flits",
                         std::to_string(s.staging_flits()),
                         "0 with a switch allocator other than separable_input_first (with "
                         "staging buffers no two inputs contend for one buffer)");
    if (s.split_switch() && !std::is_same<Allocator, separable_input_first>::value)
      throw config_error("interlock::model::config", "switch_stages", "2",
                         "1 with a switch allocator other than separable_input_first (SA1 is "
                         "its input stage, SA2 its output stage)");
    if (s.split_switch() && s.staged())
      throw config_error("interlock::model::config", "switch_stages", "2",
                         "1 with staging buffers (their outputs arbitrate alone)");
    if (s.staged() && s.ports * s.vcs > 64)
      throw config_error("interlock::model::config", "staging_flits",
                         std::to_string(s.staging_flits()),
                         "0 when ports x VCs (" + std::to_string(s.ports * s.vcs) +
                             ") exceed the 64 candidates an output policy takes");
    const std::size_t ports = static_cast<std::size_t>(s.nodes) * s.ports;
    policies_.reserve(ports);
    inputs_.reserve(ports);
    for (node_id r = 0; r < s.nodes; ++r)
      for (std::size_t q = 0; q < s.ports; ++q) {
        policies_.push_back(make_policy(r, q));
        if (make_input) {
          inputs_.push_back(make_input(r, q));
        } else if constexpr (std::is_default_constructible<InputPolicy>::value) {
          inputs_.push_back(InputPolicy{});
        } else {
          throw config_error("interlock::model::router", "input policy", "none",
                             "a factory for an input policy that has no default");
        }
        check_size(policies_.back(), s.staged() ? s.ports * s.vcs : s.ports, "output policy");
        check_size(inputs_.back(), s.vcs, "input policy");
      }
    builders_.reserve(ports);
    input_builders_.reserve(ports);
    for (node_id r = 0; r < s.nodes; ++r)
      for (std::size_t q = 0; q < s.ports; ++q) {
        builders_.push_back(detail::make_builder(policies_[s.port_index(r, q)], age, r, rule));
        input_builders_.push_back(detail::make_builder(inputs_[s.port_index(r, q)], age, r, rule));
      }
    if constexpr (matrix) {
      if (s.ports > detail::matrix_allocator<Allocator>::ports)
        throw config_error("interlock::model::router", "allocator ports", std::to_string(s.ports),
                           "at most the allocator's " +
                               std::to_string(detail::matrix_allocator<Allocator>::ports) +
                               " ports (its template parameter)");
      allocators_.assign(s.nodes, detail::matrix_allocator<Allocator>::make(allocator));
    } else {
      (void)allocator;
    }
    options_.resize(ports * s.vcs);
    option_out_.resize(ports * s.vcs);
  }
  router(const router&) = delete;
  router& operator=(const router&) = delete;

  /// Route computation for the packet at the head of buffer b of router r
  /// from cycle `at`. With a head pipeline it competes head_cycles after
  /// `at` or after the tail before it left (ready_at holds that while the
  /// buffer is empty), whichever is later.
  void route_head(node_id r, std::size_t b, packet<route_state>& p, std::uint64_t at) {
    if (s_.head_cycles != 0) s_.ready_at[b] = std::max(at, s_.ready_at[b]) + s_.head_cycles;
    buffer_state& head = s_.buf[b];
    head.flits = p.flits;
    head.age = p.age;
    head.pattern = p.pattern;
    head.priority = p.cls;
    head.endpoint = static_cast<std::uint8_t>(p.endpoint);
    if (scheme_.arrived(r, p.route)) {
      head.ncand = 0;
    } else {
      hop* cand = &s_.cand[b * s_.max_cand];
      head.ncand = static_cast<std::uint8_t>(scheme_.candidates(r, p.route, cand));
      for (std::size_t k = 0; k < head.ncand; ++k)
        s_.cand_info[b * s_.max_cand + k] =
            candidate_info{static_cast<std::uint8_t>(detail::hop_port(t_, r, cand[k])),
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

  /// One cycle of router r. `m` moves what the router decides:
  ///   m.send(r, in, choice, out, t): a head from its input buffer to the
  ///     output channel (or ejection), by output port;
  ///   with output staging buffers (router_state::staged()),
  ///   m.stage(r, in, choice, out, t): a head into its staging buffer at
  ///     `out`, and m.send_staged(r, out, x, out_vc, t): staging buffer x's
  ///     head out of `out` into downstream VC out_vc.
  template <class Moves>
  void step(node_id r, std::uint64_t t, Moves& m) {
    if (s_.staged()) {
      step_staged(r, t, m);
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
      if (s_.port[pi].in_free_at > t) {
        wake = std::min(wake, s_.port[pi].in_free_at);
        continue;
      }
      std::uint64_t blocked_vcs = 0;
      can_go[in] = heads_that_can_go(r, in, t, wake, blocked_vcs);
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
      if (s_.split_switch())
        for (std::size_t q = 0; q < s_.ports; ++q)
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
    if constexpr (std::is_same<Allocator, separable_input_first>::value) {
      if (s_.split_switch())
        allocate_in_two_stages(r, t, requesting, can_go, m);
      else
        allocate_input_first(r, t, requesting, can_go, m);
    } else if constexpr (std::is_same<Allocator, separable_output_first>::value) {
      allocate_output_first(r, t, requesting, can_go, m);
    } else {
      allocate_matrix(r, t, requesting, can_go, m);
    }
  }

  // The SeaStar's shape: input buffers, then per output a staging buffer for
  // each (input port, VC). Outputs first: each output's Policy chooses among
  // the heads of its staging buffers that have credits downstream (the
  // candidates are input port x VCs + VC); then each input port's
  // InputPolicy moves one head whose staging buffer has room for it (no
  // output conflict: every (output, input, VC) has its own buffer). A packet
  // staged in a cycle competes at its output from the next.
  template <class Moves>
  void step_staged(node_id r, std::uint64_t t, Moves& m) {
    std::uint64_t wake = ~std::uint64_t{0};
    if constexpr (ages) age_.catch_up(r, t);
    bool moved = false;
    const std::size_t vcs = s_.vcs;
    std::array<std::uint64_t, 64> port_blocked;  // per blocked input port: its staged heads' VCs
    std::uint64_t blocked_ports = 0, sent_ports = 0;
    output_view out;
    for (std::uint64_t outs = s_.staged_outputs[r]; outs != 0; outs &= outs - 1) {
      const std::size_t o = bits::lowest_index(outs);
      const std::size_t po = s_.port_index(r, o);
      if (s_.port[po].out_free_at > t) {
        wake = std::min(wake, s_.port[po].out_free_at);
        continue;
      }
      std::uint64_t ready = 0;
      std::array<std::uint8_t, 64> out_vc;
      for (std::uint64_t xs = s_.staged_mask[po]; xs != 0; xs &= xs - 1) {
        const std::size_t x = bits::lowest_index(xs);
        const staging_state& h = s_.staging[s_.staging_index(r, o, x)];
        if (h.eject == 0) {
          const std::size_t set = s_.buffer(r, o, h.first_vc);
          const int pv = sets_.pick(&s_.credits[set], h.flits);
          if (pv < 0) {
            const std::size_t in = x / vcs;
            if ((blocked_ports & bits::bit(in)) == 0) port_blocked[in] = 0;  // no clearing per step
            port_blocked[in] |= bits::bit(x % vcs);
            blocked_ports |= bits::bit(in);
            continue;
          }
          out_vc[x] = static_cast<std::uint8_t>(h.first_vc + static_cast<std::size_t>(pv));
        }
        ready |= bits::bit(x);
        out.age[x] = h.age;
        out.pattern[x] = h.pattern;
        out.flits[x] = h.flits;
        out.priority[x] = h.priority;
      }
      if (ready == 0) continue;
      out.requesters[o] = ready;
      const auto request = builders_[po](out.view(o, s_.ports * vcs));
      const grant g = policies_[po].arbitrate(request);
      if (!g) continue;
      policies_[po].commit(g, request);
      const std::size_t x = g.index();
      sent_ports |= bits::bit(x / vcs);
      m.send_staged(r, o, x, out_vc[x], t);
      moved = true;
    }
    // Inputs: each free input port moves one head into its staging buffer.
    head_fields f;
    for (std::uint64_t ports = s_.port_mask[r]; ports != 0; ports &= ports - 1) {
      const std::size_t in = bits::lowest_index(ports);
      const std::size_t pi = s_.port_index(r, in);
      if (s_.port[pi].in_free_at > t) {
        wake = std::min(wake, s_.port[pi].in_free_at);
        continue;
      }
      std::uint64_t can_go = 0;
      for (std::uint64_t vs = s_.port[pi].vcs; vs != 0; vs &= vs - 1) {
        const std::size_t v = bits::lowest_index(vs);
        const std::size_t b = pi * vcs + v;
        if (in_head_pipeline(b, t, wake)) continue;
        const std::uint32_t flits = s_.buf[b].flits;
        const auto room = [&](std::size_t o) {
          return s_.staging[s_.staging_index(r, o, in * vcs + v)].free >=
                 static_cast<std::int32_t>(flits);
        };
        if (s_.buf[b].ncand == 0) {
          const std::size_t eject_port = s_.local + s_.buf[b].endpoint;
          if (room(eject_port)) {
            can_go |= bits::bit(v);
            options_[b] = choice{static_cast<std::uint8_t>(v), choice::eject, 0};
            option_out_[b] = static_cast<std::uint8_t>(eject_port);
          }
          continue;
        }
        // Adaptive hops with room (the most credits downstream) first, the
        // escape hop otherwise.
        int best = -1;
        bool best_adaptive = false;
        std::int32_t best_credits = -1;
        const candidate_info* info = &s_.cand_info[b * s_.max_cand];
        for (std::size_t k = 0; k < s_.buf[b].ncand; ++k) {
          const candidate_info ci = info[k];
          if (!room(ci.port)) continue;
          const std::size_t set = s_.buffer(r, ci.port, ci.first_vc);
          const int pv = sets_.pick(&s_.credits[set], flits);
          const std::int32_t c = pv < 0 ? -1 : s_.credits[set + static_cast<std::size_t>(pv)];
          const bool better = best < 0 || (ci.adaptive != 0 && c >= 0 && !best_adaptive) ||
                              (ci.adaptive != 0 && c > best_credits);
          if (better && (ci.adaptive == 0 || c >= 0 || best < 0)) {
            best = static_cast<int>(k);
            best_credits = c;
            best_adaptive = ci.adaptive != 0 && c >= 0;
          }
        }
        if (best >= 0) {
          can_go |= bits::bit(v);
          options_[b] = choice{static_cast<std::uint8_t>(v), static_cast<std::uint8_t>(best),
                               info[best].first_vc};
          option_out_[b] = info[best].port;
        }
      }
      if (can_go == 0) continue;
      const std::size_t v = pick_vc(pi, can_go, f);
      commit_vc(pi, can_go, v, f);
      m.stage(r, in, options_[pi * vcs + v], option_out_[pi * vcs + v], t);
      moved = true;
    }
    if constexpr (ages) {
      for (std::uint64_t x = blocked_ports; x != 0; x &= x - 1) {
        const std::size_t in = bits::lowest_index(x);
        router_perf_counters& counters = age_.counters(r, in);
        for (std::uint64_t v = port_blocked[in] & 0xF; v != 0; v &= v - 1)
          counters.count_blocked_cycle(static_cast<unsigned>(bits::lowest_index(v)));
        if ((sent_ports & bits::bit(in)) == 0) counters.count_stalled_cycle();
      }
    }
    if (!moved) {
      // Nothing moved: sleep until a port frees, a credit or a packet arrives.
      s_.sleep_until[r] = wake;
      if constexpr (ages)
        for (std::uint64_t x = blocked_ports; x != 0; x &= x - 1) {
          const std::size_t in = bits::lowest_index(x);
          age_.fall_asleep(r, in, port_blocked[in]);
        }
    }
  }

  /// Counting, from now on (true) or no longer (false), the cycles each
  /// output arbiter arbitrates and each input port requests it there.
  void count_requests(bool on) {
    if (on && arbitrations_.empty()) {
      arbitrations_.assign(policies_.size(), 0);
      request_cycles_.assign(policies_.size() * s_.ports, 0);
    }
    counting_ = on;
  }
  /// Cycles router r's output o arbitrated, and input port i requested it.
  std::uint64_t arbitrations(node_id r, std::size_t o) const {
    return arbitrations_.empty() ? 0 : arbitrations_[s_.port_index(r, o)];
  }
  std::uint64_t request_cycles(node_id r, std::size_t o, std::size_t i) const {
    return request_cycles_.empty() ? 0 : request_cycles_[s_.port_index(r, o) * s_.ports + i];
  }

  /// The output policy of router r's port o, and the input policy of its input port i.
  Policy& policy(node_id r, std::size_t o) { return policies_[s_.port_index(r, o)]; }
  InputPolicy& input_policy(node_id r, std::size_t i) { return inputs_[s_.port_index(r, i)]; }

 private:
  template <class P>
  static void check_size(const P& p, std::size_t needed, const char* what) {
    if constexpr (detail::has_size<P>::value) {
      if (static_cast<std::size_t>(p.size()) < needed)
        throw config_error("interlock::model::router", what, std::to_string(p.size()) + " queues",
                           "at least " + std::to_string(needed) +
                               " (one per candidate: the router's ports, or an input's VCs)");
    } else {
      (void)p, (void)needed, (void)what;
    }
  }

  void note_requests(std::size_t po, std::uint64_t requesters) {
    if (!counting_) return;
    ++arbitrations_[po];
    for (std::uint64_t x = requesters; x != 0; x &= x - 1)
      ++request_cycles_[po * s_.ports + bits::lowest_index(x)];
  }

  // Whether buffer b's head is still in the head pipeline at cycle t (then
  // `wake` is lowered to when it leaves it).
  bool in_head_pipeline(std::size_t b, std::uint64_t t, std::uint64_t& wake) const {
    if (s_.head_cycles == 0 || s_.ready_at[b] <= t) return false;
    wake = std::min(wake, s_.ready_at[b]);
    return true;
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
      if (in_head_pipeline(b, t, wake)) continue;
      if (s_.buf[b].ncand == 0) {
        const std::size_t out = s_.local + s_.buf[b].endpoint;
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
    return can_go;
  }

  // The VCs of `mask` at input port `in` whose head goes to output o.
  std::uint64_t heads_for(std::size_t pi, std::uint64_t mask, std::size_t o) const {
    std::uint64_t m = 0;
    for (std::uint64_t x = mask; x != 0; x &= x - 1) {
      const std::size_t v = bits::lowest_index(x);
      if (option_out_[pi * s_.vcs + v] == o) m |= bits::bit(v);
    }
    return m;
  }

  // The candidate view of input port pi's heads in `mask` (VCs as candidates).
  struct head_fields {
    std::array<std::uint16_t, 64> age;
    std::array<std::uint8_t, 64> pattern;
    std::array<std::uint32_t, 64> flits;
    std::array<std::uint8_t, 64> priority;
  };

  // InputPolicy's request for the heads of `mask` at input port pi.
  typename InputPolicy::request_type input_request(std::size_t pi, std::uint64_t mask,
                                                   head_fields& f) {
    candidate_view view;
    view.requests = mask;
    if constexpr (!detail::takes_mask_v<InputPolicy>) {
      for (std::uint64_t x = mask; x != 0; x &= x - 1) {
        const std::size_t v = bits::lowest_index(x);
        const buffer_state& h = s_.buf[pi * s_.vcs + v];
        f.age[v] = h.age;
        f.pattern[v] = h.pattern;
        f.flits[v] = h.flits;
        f.priority[v] = h.priority;
      }
      view.age = {f.age.data(), s_.vcs};
      view.pattern = {f.pattern.data(), s_.vcs};
      view.flits = {f.flits.data(), s_.vcs};
      view.priority = {f.priority.data(), s_.vcs};
    } else {
      (void)f;
    }
    return input_builders_[pi](view);
  }

  // The input stage's pick among `mask` at port pi (not committed).
  std::size_t pick_vc(std::size_t pi, std::uint64_t mask, head_fields& f) {
    return inputs_[pi].arbitrate(input_request(pi, mask, f)).index();
  }
  // Commits the input stage's pick of v among `mask` at port pi.
  void commit_vc(std::size_t pi, std::uint64_t mask, std::size_t v, head_fields& f) {
    inputs_[pi].commit(grant(v), input_request(pi, mask, f));
  }

  // Each output's candidates: the input ports, with their offered head's fields.
  struct output_view {
    std::array<std::uint64_t, 64> requesters;
    std::array<std::uint16_t, 64> age;
    std::array<std::uint8_t, 64> pattern;
    std::array<std::uint32_t, 64> flits;
    std::array<std::uint8_t, 64> priority;
    void offer(std::size_t in, const buffer_state& h) {
      age[in] = h.age;
      pattern[in] = h.pattern;
      flits[in] = h.flits;
      priority[in] = h.priority;
    }
    candidate_view view(std::size_t o, std::size_t ports) const {
      candidate_view v;
      v.requests = requesters[o];
      v.age = {age.data(), ports};
      v.pattern = {pattern.data(), ports};
      v.flits = {flits.data(), ports};
      v.priority = {priority.data(), ports};
      return v;
    }
  };

  // Each input port of `offering` offers the head of its VC vc[in] (picked
  // by its input stage among among[in]) to that head's output; each output's
  // Policy grants one of its offers, whose input stage then commits and
  // whose head is sent. Returns the input ports that sent.
  template <class Moves>
  std::uint64_t grant_offers(node_id r, std::uint64_t t, std::uint64_t offering,
                             const std::array<std::uint8_t, 64>& vc,
                             const std::array<std::uint64_t, 64>& among, head_fields& f, Moves& m) {
    std::uint64_t out_requests = 0, sent = 0;
    output_view out;
    for (std::uint64_t x = offering; x != 0; x &= x - 1) {
      const std::size_t in = bits::lowest_index(x);
      const std::size_t b = s_.port_index(r, in) * s_.vcs + vc[in];
      const std::size_t o = option_out_[b];
      if ((out_requests & bits::bit(o)) == 0) out.requesters[o] = 0;
      out_requests |= bits::bit(o);
      out.requesters[o] |= bits::bit(in);
      out.offer(in, s_.buf[b]);
    }
    for (std::uint64_t outs = out_requests; outs != 0; outs &= outs - 1) {
      const std::size_t o = bits::lowest_index(outs);
      const std::size_t po = s_.port_index(r, o);
      note_requests(po, out.requesters[o]);
      const auto request = builders_[po](out.view(o, s_.ports));
      const grant g = policies_[po].arbitrate(request);
      if (!g) continue;
      policies_[po].commit(g, request);
      const std::size_t in = g.index();
      const std::size_t pi = s_.port_index(r, in);
      commit_vc(pi, among[in], vc[in], f);
      sent |= bits::bit(in);
      m.send(r, in, options_[pi * s_.vcs + vc[in]], o, t);
    }
    return sent;
  }

  template <class Moves>
  void allocate_input_first(node_id r, std::uint64_t t, std::uint64_t requesting,
                            const std::array<std::uint64_t, 64>& can_go, Moves& m) {
    std::array<std::uint8_t, 64> chosen;  // per input port: the VC it offers
    head_fields f;
    for (std::uint64_t x = requesting; x != 0; x &= x - 1) {
      const std::size_t in = bits::lowest_index(x);
      chosen[in] = static_cast<std::uint8_t>(pick_vc(s_.port_index(r, in), can_go[in], f));
    }
    grant_offers(r, t, requesting, chosen, can_go, f, m);
  }

  // Figure 12's SA1 and SA2 in consecutive cycles. SA2: each output grants
  // one of the input ports whose pick from last cycle points there and can
  // still go (the pick's input policy commits then, over what it picked
  // among). SA1: each input port with heads that can go picks one for the
  // next cycle's SA2, not the VC it just sent from; a pick that lost is
  // replaced.
  template <class Moves>
  void allocate_in_two_stages(node_id r, std::uint64_t t, std::uint64_t requesting,
                              const std::array<std::uint64_t, 64>& can_go, Moves& m) {
    std::uint64_t offering = 0;
    std::array<std::uint8_t, 64> held;
    std::array<std::uint64_t, 64> among;
    head_fields f;
    for (std::uint64_t x = requesting; x != 0; x &= x - 1) {
      const std::size_t in = bits::lowest_index(x);
      const std::size_t pi = s_.port_index(r, in);
      held[in] = s_.held_pick[pi];
      if (held[in] == router_state::no_pick || (can_go[in] & bits::bit(held[in])) == 0) continue;
      among[in] = s_.held_among[pi];
      offering |= bits::bit(in);
    }
    const std::uint64_t sent = grant_offers(r, t, offering, held, among, f, m);
    for (std::size_t q = 0; q < s_.ports; ++q) {
      const std::size_t pi = s_.port_index(r, q);
      std::uint64_t picks = (requesting & bits::bit(q)) != 0 ? can_go[q] : 0;
      if ((sent & bits::bit(q)) != 0) picks &= ~bits::bit(s_.held_pick[pi]);
      s_.held_pick[pi] = router_state::no_pick;
      if (picks == 0) continue;
      s_.held_pick[pi] = static_cast<std::uint8_t>(pick_vc(pi, picks, f));
      s_.held_among[pi] = picks;
    }
  }

  template <class Moves>
  void allocate_output_first(node_id r, std::uint64_t t, std::uint64_t requesting,
                             const std::array<std::uint64_t, 64>& can_go, Moves& m) {
    std::uint64_t out_requests = 0;
    output_view out;
    std::array<std::array<std::uint8_t, 64>, 64> offered;  // [input][output]: the VC offered
    head_fields f;
    for (std::uint64_t x = requesting; x != 0; x &= x - 1) {
      const std::size_t in = bits::lowest_index(x);
      const std::size_t pi = s_.port_index(r, in);
      std::uint64_t outs = 0;
      for (std::uint64_t y = can_go[in]; y != 0; y &= y - 1)
        outs |= bits::bit(option_out_[pi * s_.vcs + bits::lowest_index(y)]);
      for (; outs != 0; outs &= outs - 1) {
        const std::size_t o = bits::lowest_index(outs);
        const std::size_t v = pick_vc(pi, heads_for(pi, can_go[in], o), f);
        offered[in][o] = static_cast<std::uint8_t>(v);
        if ((out_requests & bits::bit(o)) == 0) out.requesters[o] = 0;
        out_requests |= bits::bit(o);
        out.requesters[o] |= bits::bit(in);
        // An input offers different heads to different outputs; the view
        // holds one per input, so it is filled per output below.
      }
    }
    // Grants (not committed yet): per input, the outputs that granted it.
    std::array<std::uint64_t, 64> granted_by;
    std::uint64_t granted = 0;
    for (std::uint64_t outs = out_requests; outs != 0; outs &= outs - 1) {
      const std::size_t o = bits::lowest_index(outs);
      for (std::uint64_t x = out.requesters[o]; x != 0; x &= x - 1) {
        const std::size_t in = bits::lowest_index(x);
        out.offer(in, s_.buf[s_.port_index(r, in) * s_.vcs + offered[in][o]]);
      }
      const std::size_t po = s_.port_index(r, o);
      note_requests(po, out.requesters[o]);
      const grant g = policies_[po].arbitrate(builders_[po](out.view(o, s_.ports)));
      if (!g) continue;
      const std::size_t in = g.index();
      if ((granted & bits::bit(in)) == 0) granted_by[in] = 0;
      granted |= bits::bit(in);
      granted_by[in] |= bits::bit(o);
    }
    // Accepts: each granted input's InputPolicy picks among the heads it
    // offered to the outputs that granted it.
    std::array<std::uint8_t, 64> accepted_by;  // per output: the input it accepted, or 0xFF
    std::uint64_t accepted = 0;
    for (std::uint64_t x = granted; x != 0; x &= x - 1) {
      const std::size_t in = bits::lowest_index(x);
      const std::size_t pi = s_.port_index(r, in);
      std::uint64_t heads = 0;
      for (std::uint64_t y = granted_by[in]; y != 0; y &= y - 1)
        heads |= bits::bit(offered[in][bits::lowest_index(y)]);
      const std::size_t v = pick_vc(pi, heads, f);
      commit_vc(pi, heads, v, f);
      const std::size_t o = option_out_[pi * s_.vcs + v];
      accepted |= bits::bit(o);
      accepted_by[o] = static_cast<std::uint8_t>(in);
    }
    for (std::uint64_t outs = accepted; outs != 0; outs &= outs - 1) {
      const std::size_t o = bits::lowest_index(outs);
      const std::size_t in = accepted_by[o];
      // The output's policy commits the grant that was used, with the
      // request it decided on.
      for (std::uint64_t x = out.requesters[o]; x != 0; x &= x - 1) {
        const std::size_t i = bits::lowest_index(x);
        out.offer(i, s_.buf[s_.port_index(r, i) * s_.vcs + offered[i][o]]);
      }
      const std::size_t po = s_.port_index(r, o);
      const auto request = builders_[po](out.view(o, s_.ports));
      policies_[po].commit(grant(in), request);
      const std::size_t pi = s_.port_index(r, in);
      m.send(r, in, options_[pi * s_.vcs + offered[in][o]], o, t);
    }
  }

  template <class Moves>
  void allocate_matrix(node_id r, std::uint64_t t, std::uint64_t requesting,
                       const std::array<std::uint64_t, 64>& can_go, Moves& m) {
    constexpr std::size_t P = detail::matrix_allocator<Allocator>::ports;
    request_matrix<P, P> requests;
    for (std::uint64_t x = requesting; x != 0; x &= x - 1) {
      const std::size_t in = bits::lowest_index(x);
      const std::size_t pi = s_.port_index(r, in);
      for (std::uint64_t y = can_go[in]; y != 0; y &= y - 1)
        requests.set(in, option_out_[pi * s_.vcs + bits::lowest_index(y)]);
    }
    const matching<P, P> match = allocators_[r].allocate(requests);
    std::array<std::uint8_t, 64> input_of;
    match.for_each(
        [&](std::size_t in, std::size_t o) { input_of[o] = static_cast<std::uint8_t>(in); });
    head_fields f;
    for (std::uint64_t outs = match.matched_outputs(); outs != 0; outs &= outs - 1) {
      const std::size_t o = bits::lowest_index(outs);
      const std::size_t in = input_of[o];
      const std::size_t pi = s_.port_index(r, in);
      const std::uint64_t heads = heads_for(pi, can_go[in], o);
      const std::size_t v = pick_vc(pi, heads, f);
      commit_vc(pi, heads, v, f);
      m.send(r, in, options_[pi * s_.vcs + v], o, t);
    }
  }

  const Scheme& scheme_;
  const topology_type& t_;
  router_state& s_;
  const vc_sets& sets_;
  age_state& age_;
  // count_requests(): per (router, output), cycles arbitrated; per (router,
  // output, input port), cycles requested.
  bool counting_ = false;
  std::vector<std::uint64_t> arbitrations_, request_cycles_;
  std::vector<Policy> policies_;                              // per (router, output port)
  std::vector<request_builder<Policy>> builders_;             // per (router, output port)
  std::vector<InputPolicy> inputs_;                           // per (router, input port)
  std::vector<request_builder<InputPolicy>> input_builders_;  // per (router, input port)
  std::vector<typename detail::matrix_allocator<Allocator>::type> allocators_;  // per router
  std::vector<choice> options_;           // per (router, input port, VC): the head's choice
  std::vector<std::uint8_t> option_out_;  // and its output port
};

}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_ROUTER_HPP
