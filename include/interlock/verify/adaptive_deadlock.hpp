// SPDX-License-Identifier: BSL-1.0
// interlock/verify/adaptive_deadlock.hpp: deadlock freedom of adaptive routing with an escape
// network.
//
// Contract
//   check_adaptive_deadlock_freedom(scheme, flow_control, options) checks adaptive routing: is
//   Duato's scheme as the T3E applies it: the deterministic escape routes must be deadlock free on
//   their own, and every state a packet can reach must offer its escape hop, with every adaptive
//   hop profitable so adaptive detours end. Then the flow control decides what else must hold:
//     adaptive_flow_control::whole_packet   the T3E: a packet enters an
//         adaptive VC only when the buffer has room for all of it, so an
//         adaptive VC never holds part of a packet and nothing waits while
//         holding one; the escape graph alone decides.
//     adaptive_flow_control::wormhole       Duato's condition: a packet can
//         hold an escape channel while its head wanders on adaptive VCs and
//         then waits for another escape channel; these indirect dependencies
//         join the direct ones in the extended graph, which must be acyclic.
//   The checker relies on, and verifies route by route, that after an
//   adaptive hop the packet continues as a fresh route from where it is
//   (follow(at, s, adaptive hop) routes like start_with(reached, destination)).
//
//
// Example
//   interlock::torus_topology torus({4, 4});
//   interlock::t3e_adaptive_routing t3e(torus);
//   auto report = interlock::verify::check_adaptive_deadlock_freedom(
//       t3e, interlock::verify::adaptive_flow_control::whole_packet);
//   assert(report.deadlock_free());
#ifndef INTERLOCK_VERIFY_ADAPTIVE_DEADLOCK_HPP
#define INTERLOCK_VERIFY_ADAPTIVE_DEADLOCK_HPP

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "interlock/core/assert.hpp"
#include "interlock/core/bits.hpp"
#include "interlock/core/config_error.hpp"
#include "interlock/routing/route.hpp"
#include "interlock/topology/torus.hpp"
#include "interlock/verify/cdg_report.hpp"
#include "interlock/verify/channel_dependency_graph.hpp"
#include "interlock/verify/dependency_graph.hpp"
#include "interlock/verify/route_enumeration.hpp"

namespace interlock::verify {

// ---- adaptive routing --------------------------------------------------------

enum class adaptive_flow_control {
  whole_packet,  // T3E: an adaptive hop needs room for the whole packet
  wormhole       // Duato: a packet may span escape and adaptive VCs
};

struct adaptive_report {
  adaptive_flow_control flow_control = adaptive_flow_control::whole_packet;
  cdg_report escape;                     // the escape routes' own graph
  bool escape_always_offered = true;     // every reachable state offers its escape hop
  bool adaptive_profitable = true;       // every adaptive hop brings the packet closer
  bool continues_as_fresh_route = true;  // after an adaptive hop: start(reached, destination)
  std::string problem;                   // the first violation of the three above
  std::size_t adaptive_resources = 0;    // adaptive (channel, VC) pairs offered
  cdg_report extended;                   // wormhole: escape graph plus indirect dependencies

  bool deadlock_free() const noexcept {
    const bool base = escape.deadlock_free() && escape_always_offered && adaptive_profitable &&
                      continues_as_fresh_route;
    return flow_control == adaptive_flow_control::whole_packet ? base : base && extended.acyclic;
  }
};

namespace detail {

// Every state along every escape route offers the escape hop first, its
// adaptive hops are profitable, and each continues as a fresh route.
template <class Adaptive>
void check_adaptive_offers(const Adaptive& a, const cdg_options& options, adaptive_report& report) {
  using state = typename Adaptive::state;
  const torus_topology& t = a.topology();
  std::vector<hop> candidates(4 + 4 * t.dimensions());  // room beyond the 1 + 2n a scheme may offer
  std::vector<bool> adaptive_used(static_cast<std::size_t>(t.channel_count()), false);
  std::vector<hop> after_follow, after_start;
  const auto fail = [&](bool& flag, const enumerated_route& route, const std::string& what) {
    if (report.problem.empty()) report.problem = describe(t, route) + ": " + what;
    flag = false;
  };
  const auto hops_of = [&](node_id from, const state& s, traffic_class cls, std::vector<hop>& out) {
    out.clear();
    follow_route(
        a, from, s, cls, 0, [](node_id, const state&) {},
        [&](node_id, const hop& h) { out.push_back(h); });
  };
  for (const traffic_class cls : options.classes) {
    for (node_id destination = 0; destination < t.node_count(); ++destination) {
      for_each_route_to(a, destination, cls, [&](const enumerated_route& route, const state& s0) {
        follow_route(
            a, route.source, s0, cls, 0,
            [&](node_id at, const state& s) {
              const std::size_t count = a.candidates(at, s, candidates.data());
              state escape_state = s;
              const hop escape = a.next(at, escape_state);
              if (count == 0 || !(candidates[0] == escape) || escape.vc == a.adaptive_vc())
                fail(report.escape_always_offered, route,
                     "at " + describe_node(t, at) + " the escape hop is not offered first");
              for (std::size_t i = 1; i < count; ++i) {
                const hop& h = candidates[i];
                const node_id w = t.neighbor(at, h.dimension, h.sign);
                if (h.vc != a.adaptive_vc() || w == no_node ||
                    t.distance(w, destination) >= t.distance(at, destination)) {
                  fail(report.adaptive_profitable, route,
                       "at " + describe_node(t, at) + " candidate " + std::to_string(i) +
                           " is not a profitable adaptive hop");
                  continue;
                }
                adaptive_used[static_cast<std::size_t>(
                    t.channel({at, h.dimension, h.sign, h.slice}))] = true;
                if (w == destination) continue;
                state followed = s;
                a.follow(at, followed, h);
                hops_of(w, followed, cls, after_follow);
                hops_of(w, a.start_with(w, destination, cls), cls, after_start);
                if (after_follow != after_start)
                  fail(report.continues_as_fresh_route, route,
                       "after the adaptive hop from " + describe_node(t, at) +
                           " the packet does not route as a fresh packet from " +
                           describe_node(t, w));
              }
            },
            [](node_id, const hop&) {});
        return true;
      });
    }
  }
  report.adaptive_resources =
      static_cast<std::size_t>(std::count(adaptive_used.begin(), adaptive_used.end(), true));
}

// Duato's extended graph for wormhole flow control: the escape routes'
// direct dependencies, and an indirect one from every escape resource a
// packet holds on entering node v to every escape hop it can request after
// one or more adaptive hops from v.
template <class Adaptive, class OnEdge>
void extended_dependencies(const Adaptive& a, const cdg_options& options,
                           const channel_dependency_graph& g, OnEdge&& on_edge) {
  using state = typename Adaptive::state;
  constexpr std::uint64_t none = no_vertex;
  const torus_topology& t = a.topology();
  const node_id nodes = t.node_count();
  std::vector<hop> candidates(4 + 4 * t.dimensions());  // room beyond the 1 + 2n a scheme may offer
  const auto limited = [&](node_id at, hop h, traffic_class cls) {
    const unsigned base = static_cast<unsigned>(cls) * a.vcs_per_class();
    if (options.vc_limit != 0) h.vc = base + std::min(h.vc - base, options.vc_limit - 1);
    return g.vertex(at, h);
  };
  std::vector<std::vector<std::uint64_t>> reachable(nodes);  // escape hops after adaptive hops
  std::vector<node_id> by_distance(nodes);
  for (const traffic_class cls : options.classes) {
    for (node_id destination = 0; destination < nodes; ++destination) {
      // reachable[w]: the escape hops a packet at w (fresh) may request after
      // zero or more adaptive hops; nearer nodes first, since hops are profitable.
      for (node_id w = 0; w < nodes; ++w) by_distance[w] = w;
      std::sort(by_distance.begin(), by_distance.end(), [&](node_id x, node_id y) {
        return t.distance(x, destination) < t.distance(y, destination);
      });
      for (const node_id w : by_distance) {
        std::vector<std::uint64_t>& r = reachable[w];
        r.clear();
        if (w == destination) continue;
        state s = a.start_with(w, destination, cls);
        const std::size_t count = a.candidates(w, s, candidates.data());
        r.push_back(limited(w, a.next(w, s), cls));
        for (std::size_t i = 1; i < count; ++i) {
          const node_id x = t.neighbor(w, candidates[i].dimension, candidates[i].sign);
          if (x != no_node && t.distance(x, destination) < t.distance(w, destination))
            r.insert(r.end(), reachable[x].begin(), reachable[x].end());
        }
        std::sort(r.begin(), r.end());
        r.erase(std::unique(r.begin(), r.end()), r.end());
      }
      for_each_route_to(a, destination, cls, [&](const enumerated_route& route, const state& s0) {
        std::uint64_t previous = none;
        bool go = true;
        follow_route(
            a, route.source, s0, cls, options.vc_limit,
            [&](node_id at, const state& s) {
              if (previous == none || !go) return;
              const std::size_t count = a.candidates(at, s, candidates.data());
              for (std::size_t i = 1; go && i < count; ++i) {
                const node_id x = t.neighbor(at, candidates[i].dimension, candidates[i].sign);
                if (x == no_node || x == destination) continue;
                for (const std::uint64_t v : reachable[x]) {
                  if (!(go = on_edge(previous, v, route, true))) break;
                }
              }
            },
            [&](node_id at, const hop& h) {
              const std::uint64_t v = g.vertex(at, h);
              if (go && previous != none) go = on_edge(previous, v, route, false);
              previous = v;
            });
        return go;
      });
    }
  }
}

}  // namespace detail

/// Checks adaptive routing with an escape network (the contract at the top
/// of this header). Adaptive is a routing scheme for its escape routes that
/// also offers start(source, destination, class), candidates(at, state,
/// hop*) with the escape hop first, follow(at, state, hop) and
/// adaptive_vc(), as t3e_adaptive_routing does.
template <class Adaptive>
adaptive_report check_adaptive_deadlock_freedom(const Adaptive& a,
                                                adaptive_flow_control flow_control,
                                                const cdg_options& options = {}) {
  adaptive_report report;
  report.flow_control = flow_control;
  report.escape = check_deadlock_freedom(a, options);
  if (!report.escape.routes_arrive) return report;
  detail::check_adaptive_offers(a, options, report);
  if (flow_control == adaptive_flow_control::wormhole) {
    const channel_dependency_graph names(a.topology(), traffic_classes * a.vcs_per_class());
    detail::adjacency_lists g(names.vertex_count());
    detail::extended_dependencies(
        a, options, names,
        [&](std::uint64_t from, std::uint64_t to, const enumerated_route&, bool) {
          g.add(from, to);
          return true;
        });
    const auto size = g.counts();
    report.extended.routes = report.escape.routes;
    report.extended.hops = report.escape.hops;
    report.extended.vcs_used = report.escape.vcs_used;
    report.extended.resources = size.first;
    report.extended.dependencies = size.second;
    detail::record_cycle(g, names.vcs(), report.extended);
    if (!report.extended.cycle.empty() && options.witness_routes)
      detail::find_witness_routes(names.vcs(), report.extended.cycle, [&](auto&& on_edge) {
        detail::extended_dependencies(a, options, names, on_edge);
      });
  }
  return report;
}

}  // namespace interlock::verify

#endif  // INTERLOCK_VERIFY_ADAPTIVE_DEADLOCK_HPP
