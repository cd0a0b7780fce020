// SPDX-License-Identifier: BSL-1.0
// interlock/model/router_allocation.hpp: how a router's switch allocators match the heads that
// can go to its outputs, and the SeaStar's outputs with staging buffers.
//
// Contract
//   router_allocation<Policy, Allocator, InputPolicy>, the switch allocator
//   part of model::router (router.hpp), over the router's policies part
//   (router_policies.hpp, given when built), takes, for router r at cycle t,
//   the input ports with heads that can go (per port, the VCs, each head's
//   choice in options_) and decides which leave, calling the Moves the
//   network gives (router.hpp's step):
//     separable_input_first: each input's InputPolicy picks a VC, each
//       output's Policy grants one input that picked it (grant_offers);
//       with router_state::split_switch(), SA1 and SA2 in consecutive
//       cycles (Figure 12);
//     separable_output_first: each output grants an input among those
//       with a head for it, then each input accepts one grant;
//     islip<P>, wavefront<P>: interlock's matrix allocators match inputs
//       to outputs; the matched input's InputPolicy picks the VC.
//   step_staged is a cycle of a router with output staging buffers. Each
//   policy commits only for grants used. Nothing here allocates.
//
// Example
//   // router<...>::step(r, t, moves) calls allocation_.allocate_input_first(
//   // r, t, requesting, can_go, moves) by default.
#ifndef INTERLOCK_MODEL_ROUTER_ALLOCATION_HPP
#define INTERLOCK_MODEL_ROUTER_ALLOCATION_HPP

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

#include "interlock/allocators/request_matrix.hpp"
#include "interlock/core/bits.hpp"
#include "interlock/core/grant.hpp"
#include "interlock/model/age_support.hpp"
#include "interlock/model/router_policies.hpp"
#include "interlock/model/router_state.hpp"

namespace interlock {
namespace model {

template <class Policy, class Allocator, class InputPolicy>
class router_allocation {
 public:
  using policies_type = router_policies<Policy, Allocator, InputPolicy>;
  using head_view = typename policies_type::head_view;
  using output_view = typename policies_type::output_view;
  static constexpr bool ages = policies_type::ages;

  /// The allocator part of the routers whose policies are `p`.
  explicit router_allocation(policies_type& p) : p_(p), s_(p.s_), sets_(p.sets_), age_(p.age_) {}
  router_allocation(const router_allocation&) = delete;
  router_allocation& operator=(const router_allocation&) = delete;

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
      if (p_.port_busy(s_.port[po].out_free_at, t, wake)) continue;
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
      const auto request = p_.builders_[po](out.view(o, s_.ports * vcs));
      const grant g = p_.policies_[po].arbitrate(request);
      if (!g) continue;
      p_.policies_[po].commit(g, request);
      const std::size_t x = g.index();
      sent_ports |= bits::bit(x / vcs);
      m.send_staged(r, o, x, out_vc[x], t);
      moved = true;
    }
    // Inputs: each free input port moves one head into its staging buffer.
    head_view f;
    for (std::uint64_t ports = s_.port_mask[r]; ports != 0; ports &= ports - 1) {
      const std::size_t in = bits::lowest_index(ports);
      const std::size_t pi = s_.port_index(r, in);
      if (p_.port_busy(s_.port[pi].in_free_at, t, wake)) continue;
      std::uint64_t can_go = 0;
      for (std::uint64_t vs = s_.port[pi].vcs; vs != 0; vs &= vs - 1) {
        const std::size_t v = bits::lowest_index(vs);
        const std::size_t b = pi * vcs + v;
        if (p_.in_head_pipeline(b, t, wake)) continue;
        const std::uint32_t flits = s_.buf[b].head.flits;
        const auto room = [&](std::size_t o) {
          return s_.staging[s_.staging_index(r, o, in * vcs + v)].free >=
                 static_cast<std::int32_t>(flits);
        };
        if (s_.buf[b].head.ncand == 0) {
          const std::size_t eject_port = s_.local + s_.buf[b].head.endpoint;
          if (room(eject_port)) {
            can_go |= bits::bit(v);
            p_.options_[b] = choice{static_cast<std::uint8_t>(v), choice::eject, 0};
            p_.option_out_[b] = static_cast<std::uint8_t>(eject_port);
          }
          continue;
        }
        // Adaptive hops with room (the most credits downstream) first, the
        // escape hop otherwise.
        int best = -1;
        bool best_adaptive = false;
        std::int32_t best_credits = -1;
        const candidate_info* info = &s_.cand_info[b * s_.max_cand];
        for (std::size_t k = 0; k < s_.buf[b].head.ncand; ++k) {
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
          p_.options_[b] = choice{static_cast<std::uint8_t>(v), static_cast<std::uint8_t>(best),
                                  info[best].first_vc};
          p_.option_out_[b] = info[best].port;
        }
      }
      if (can_go == 0) continue;
      const std::size_t v = p_.pick_vc(pi, can_go, f);
      p_.commit_vc(pi, can_go, v, f);
      m.stage(r, in, p_.options_[pi * vcs + v], p_.option_out_[pi * vcs + v], t);
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

  // Each input port of `offering` offers the head of its VC vc[in] (picked
  // by its input stage among among[in]) to that head's output; each output's
  // Policy grants one of its offers, whose input stage then commits and
  // whose head is sent. Returns the input ports that sent.
  template <class Moves>
  std::uint64_t grant_offers(node_id r, std::uint64_t t, std::uint64_t offering,
                             const std::array<std::uint8_t, 64>& vc,
                             const std::array<std::uint64_t, 64>& among, head_view& f, Moves& m) {
    std::uint64_t out_requests = 0, sent = 0;
    output_view out;
    for (std::uint64_t x = offering; x != 0; x &= x - 1) {
      const std::size_t in = bits::lowest_index(x);
      const std::size_t b = s_.port_index(r, in) * s_.vcs + vc[in];
      const std::size_t o = p_.option_out_[b];
      if ((out_requests & bits::bit(o)) == 0) out.requesters[o] = 0;
      out_requests |= bits::bit(o);
      out.requesters[o] |= bits::bit(in);
      out.offer(in, s_, b);
    }
    for (std::uint64_t outs = out_requests; outs != 0; outs &= outs - 1) {
      const std::size_t o = bits::lowest_index(outs);
      const std::size_t po = s_.port_index(r, o);
      p_.note_requests(po, out.requesters[o]);
      const auto request = p_.builders_[po](out.view(o, s_.ports));
      const grant g = p_.policies_[po].arbitrate(request);
      if (!g) continue;
      p_.policies_[po].commit(g, request);
      const std::size_t in = g.index();
      const std::size_t pi = s_.port_index(r, in);
      p_.commit_vc(pi, among[in], vc[in], f);
      sent |= bits::bit(in);
      m.send(r, in, p_.options_[pi * s_.vcs + vc[in]], o, t);
    }
    return sent;
  }

  template <class Moves>
  void allocate_input_first(node_id r, std::uint64_t t, std::uint64_t requesting,
                            const std::array<std::uint64_t, 64>& can_go, Moves& m) {
    std::array<std::uint8_t, 64> chosen;  // per input port: the VC it offers
    head_view f;
    if (!s_.persistent_picks()) {
      for (std::uint64_t x = requesting; x != 0; x &= x - 1) {
        const std::size_t in = bits::lowest_index(x);
        chosen[in] = static_cast<std::uint8_t>(p_.pick_vc(s_.port_index(r, in), can_go[in], f));
      }
      grant_offers(r, t, requesting, chosen, can_go, f, m);
      return;
    }
    // Persistent picks: a port whose offer lost last cycle offers it again
    // while its head can still go (committed, when granted, over what it
    // was picked among); a pick that cannot go is dropped.
    std::array<std::uint64_t, 64> among;
    for (std::uint64_t x = requesting; x != 0; x &= x - 1) {
      const std::size_t in = bits::lowest_index(x);
      const std::size_t pi = s_.port_index(r, in);
      const std::uint8_t held = s_.held_pick[pi];
      if (held != router_state::no_pick && (can_go[in] & bits::bit(held)) != 0) {
        chosen[in] = held;
        among[in] = s_.held_among[pi];
      } else {
        chosen[in] = static_cast<std::uint8_t>(p_.pick_vc(pi, can_go[in], f));
        among[in] = can_go[in];
      }
    }
    const std::uint64_t sent = grant_offers(r, t, requesting, chosen, among, f, m);
    for (std::size_t q = 0; q < s_.ports_of(r); ++q) {
      const std::size_t pi = s_.port_index(r, q);
      const bool lost = ((requesting & ~sent) & bits::bit(q)) != 0;
      s_.held_pick[pi] = lost ? chosen[q] : router_state::no_pick;
      if (lost) s_.held_among[pi] = among[q];
    }
  }

  // Figure 12's SA1 and SA2 in consecutive cycles. SA2: each output grants
  // one of the input ports whose pick from last cycle points there and can
  // still go (the pick's input policy commits then, over what it picked
  // among). SA1: each input port with heads that can go picks one for the
  // next cycle's SA2, not the VC it just sent from; a pick that lost is
  // replaced (with persistent picks, kept while its head can go).
  template <class Moves>
  void allocate_in_two_stages(node_id r, std::uint64_t t, std::uint64_t requesting,
                              const std::array<std::uint64_t, 64>& can_go, Moves& m) {
    std::uint64_t offering = 0;
    std::array<std::uint8_t, 64> held;
    std::array<std::uint64_t, 64> among;
    head_view f;
    for (std::uint64_t x = requesting; x != 0; x &= x - 1) {
      const std::size_t in = bits::lowest_index(x);
      const std::size_t pi = s_.port_index(r, in);
      held[in] = s_.held_pick[pi];
      if (held[in] == router_state::no_pick || (can_go[in] & bits::bit(held[in])) == 0) continue;
      among[in] = s_.held_among[pi];
      offering |= bits::bit(in);
    }
    const std::uint64_t sent = grant_offers(r, t, offering, held, among, f, m);
    const std::uint64_t lost = s_.persistent_picks() ? offering & ~sent : 0;
    for (std::size_t q = 0; q < s_.ports_of(r); ++q) {
      const std::size_t pi = s_.port_index(r, q);
      if ((lost & bits::bit(q)) != 0) continue;  // offered again next cycle
      std::uint64_t picks = (requesting & bits::bit(q)) != 0 ? can_go[q] : 0;
      if ((sent & bits::bit(q)) != 0) picks &= ~bits::bit(s_.held_pick[pi]);
      s_.held_pick[pi] = router_state::no_pick;
      if (picks == 0) continue;
      s_.held_pick[pi] = static_cast<std::uint8_t>(p_.pick_vc(pi, picks, f));
      s_.held_among[pi] = picks;
    }
  }

  // Output first, `rounds` times (iSLIP's iterations over the ports' own
  // policies): each output not yet matched grants one of the unmatched input
  // ports with a head for it (the head the port's InputPolicy offers there),
  // then each granted input port's InputPolicy accepts one grant. Only the
  // first round's matches commit their policies (as iSLIP moves its pointers
  // only in the first iteration); later rounds fill what it left unmatched.
  template <class Moves>
  void allocate_output_first(node_id r, std::uint64_t t, std::uint64_t requesting,
                             const std::array<std::uint64_t, 64>& can_go, Moves& m,
                             std::size_t rounds = 1) {
    std::uint64_t out_requests = 0;
    output_view out;
    std::array<std::uint64_t, 64> asked;                   // per output: the input ports asking
    std::array<std::array<std::uint8_t, 64>, 64> offered;  // [input][output]: the VC offered
    head_view f;
    for (std::uint64_t x = requesting; x != 0; x &= x - 1) {
      const std::size_t in = bits::lowest_index(x);
      const std::size_t pi = s_.port_index(r, in);
      std::uint64_t outs = 0;
      for (std::uint64_t y = can_go[in]; y != 0; y &= y - 1)
        outs |= bits::bit(p_.option_out_[pi * s_.vcs + bits::lowest_index(y)]);
      for (; outs != 0; outs &= outs - 1) {
        const std::size_t o = bits::lowest_index(outs);
        const std::size_t v = p_.pick_vc(pi, p_.heads_for(pi, can_go[in], o), f);
        offered[in][o] = static_cast<std::uint8_t>(v);
        if ((out_requests & bits::bit(o)) == 0) asked[o] = 0;
        out_requests |= bits::bit(o);
        asked[o] |= bits::bit(in);
      }
    }
    // Per output: its requesters as `among` (an input offers different
    // heads to different outputs; the view holds one per input).
    const auto view_of = [&](std::size_t o, std::uint64_t among) {
      out.requesters[o] = among;
      for (std::uint64_t x = among; x != 0; x &= x - 1) {
        const std::size_t in = bits::lowest_index(x);
        out.offer(in, s_, s_.port_index(r, in) * s_.vcs + offered[in][o]);
      }
      return p_.builders_[s_.port_index(r, o)](out.view(o, s_.ports));
    };
    std::array<std::uint8_t, 64> accepted_by;  // per output: the input it accepted
    std::uint64_t matched_in = 0, matched_out = 0;
    for (std::size_t round = 0; round < rounds; ++round) {
      // Grants (not committed): per input, the outputs that granted it.
      std::array<std::uint64_t, 64> granted_by;
      std::uint64_t granted = 0;
      for (std::uint64_t outs = out_requests & ~matched_out; outs != 0; outs &= outs - 1) {
        const std::size_t o = bits::lowest_index(outs);
        const std::uint64_t among = asked[o] & ~matched_in;
        if (among == 0) continue;
        const std::size_t po = s_.port_index(r, o);
        if (round == 0) p_.note_requests(po, among);
        const grant g = p_.policies_[po].arbitrate(view_of(o, among));
        if (!g) continue;
        const std::size_t in = g.index();
        if ((granted & bits::bit(in)) == 0) granted_by[in] = 0;
        granted |= bits::bit(in);
        granted_by[in] |= bits::bit(o);
      }
      if (granted == 0) break;
      // Accepts: each granted input's InputPolicy picks among the heads it
      // offered to the outputs that granted it.
      std::uint64_t accepted = 0;
      for (std::uint64_t x = granted; x != 0; x &= x - 1) {
        const std::size_t in = bits::lowest_index(x);
        const std::size_t pi = s_.port_index(r, in);
        std::uint64_t heads = 0;
        for (std::uint64_t y = granted_by[in]; y != 0; y &= y - 1)
          heads |= bits::bit(offered[in][bits::lowest_index(y)]);
        const std::size_t v = p_.pick_vc(pi, heads, f);
        if (round == 0) p_.commit_vc(pi, heads, v, f);
        const std::size_t o = p_.option_out_[pi * s_.vcs + v];
        accepted |= bits::bit(o);
        accepted_by[o] = static_cast<std::uint8_t>(in);
        matched_in |= bits::bit(in);
      }
      if (round == 0) {
        // The outputs' policies commit the grants used, each with the
        // request it decided on.
        for (std::uint64_t outs = accepted; outs != 0; outs &= outs - 1) {
          const std::size_t o = bits::lowest_index(outs);
          p_.policies_[s_.port_index(r, o)].commit(grant(accepted_by[o]), view_of(o, asked[o]));
        }
      }
      matched_out |= accepted;
    }
    for (std::uint64_t outs = matched_out; outs != 0; outs &= outs - 1) {
      const std::size_t o = bits::lowest_index(outs);
      const std::size_t in = accepted_by[o];
      const std::size_t pi = s_.port_index(r, in);
      m.send(r, in, p_.options_[pi * s_.vcs + offered[in][o]], o, t);
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
        requests.set(in, p_.option_out_[pi * s_.vcs + bits::lowest_index(y)]);
    }
    const matching<P, P> match = p_.allocators_[r].allocate(requests);
    std::array<std::uint8_t, 64> input_of;
    match.for_each(
        [&](std::size_t in, std::size_t o) { input_of[o] = static_cast<std::uint8_t>(in); });
    head_view f;
    for (std::uint64_t outs = match.matched_outputs(); outs != 0; outs &= outs - 1) {
      const std::size_t o = bits::lowest_index(outs);
      const std::size_t in = input_of[o];
      const std::size_t pi = s_.port_index(r, in);
      const std::uint64_t heads = p_.heads_for(pi, can_go[in], o);
      const std::size_t v = p_.pick_vc(pi, heads, f);
      p_.commit_vc(pi, heads, v, f);
      m.send(r, in, p_.options_[pi * s_.vcs + v], o, t);
    }
  }

 private:
  policies_type& p_;
  router_state& s_;
  const vc_sets& sets_;
  age_state& age_;
};

}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_ROUTER_ALLOCATION_HPP
