// SPDX-License-Identifier: BSL-1.0
// interlock/verify/unified_deadlock.hpp: deadlock freedom of routing over a node shape, the
// on-chip channels and the torus links in one channel dependency graph.
//
// Dally and Seitz's condition, as verify/channel_dependency_graph.hpp checks
// it on a torus, for a scheme whose nodes are the routers of a unified
// network (Anton 2's, routing/anton2.hpp over topology/anton2_node.hpp): a
// vertex is one VC of one router output (a mesh, skip, adapter or torus
// channel), an edge A -> B says a route takes B right after A.
//
// Contract
//   check_unified_deadlock_freedom(scheme, classes) walks, for every class
//   given, every ordered pair of routers that host cores (the topology's
//   hosts(r)) and every route for_each_start gives, with the scheme's own
//   next() and the topology's next(router, hop) and port_of(router, hop);
//   it adds the dependency between every two consecutive hops and searches
//   the graph for a cycle (iterative depth-first search, O(vertices +
//   edges)). The report says whether every route arrived within the
//   topology's hop_limit() on ports that exist and VCs inside the scheme's
//   range (route_problem names the first that did not), whether the graph is
//   acyclic, its size, and a witness cycle, each resource as
//   "node (0,1,2) R(3,0) -> skip VC1". Cost: routers^2 x routes per pair x
//   hops; it allocates. Run it where a network is set up, not per packet.
//
// Example
//   interlock::torus_topology torus({2, 2, 2}, {}, 2);
//   interlock::anton2_topology node(torus);
//   auto report =
//   interlock::verify::check_unified_deadlock_freedom(interlock::anton2_routing(node));
//   // report.deadlock_free()
#ifndef INTERLOCK_VERIFY_UNIFIED_DEADLOCK_HPP
#define INTERLOCK_VERIFY_UNIFIED_DEADLOCK_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "interlock/routing/route.hpp"
#include "interlock/verify/dependency_graph.hpp"

namespace interlock::verify {

struct unified_cdg_report {
  bool routes_arrive = true;
  std::string route_problem;  // the first route that did not arrive, and why
  bool acyclic = true;
  std::uint64_t routes = 0, hops = 0;
  std::size_t vertices = 0, edges = 0;
  std::vector<std::string> cycle;  // the witness: each resource waits for the next
  bool deadlock_free() const noexcept { return routes_arrive && acyclic; }
};

template <class Scheme>
unified_cdg_report check_unified_deadlock_freedom(const Scheme& scheme,
                                                  const std::vector<traffic_class>& classes = {
                                                      traffic_class::request}) {
  const auto& t = scheme.topology();
  const std::size_t ports = t.network_ports;
  const std::size_t vcs = scheme.vcs_per_channel();
  const node_id routers = t.router_count();
  auto vertex = [&](node_id r, std::size_t p, unsigned vc) {
    return (static_cast<std::uint64_t>(r) * ports + p) * vcs + vc;
  };
  detail::adjacency_lists g(static_cast<std::uint64_t>(routers) * ports * vcs);
  unified_cdg_report report;
  const std::size_t limit = t.hop_limit();
  for (const traffic_class c : classes) {
    const unsigned lo = static_cast<unsigned>(c) * scheme.vcs_per_class();
    const unsigned hi = lo + scheme.vcs_per_class();
    for (node_id s = 0; s < routers; ++s) {
      if (!t.hosts(s)) continue;
      for (node_id d = 0; d < routers; ++d) {
        if (d == s || !t.hosts(d)) continue;
        scheme.for_each_start(s, d, c, [&](typename Scheme::state st, double) {
          ++report.routes;
          node_id at = s;
          std::uint64_t previous = ~std::uint64_t{0};
          std::size_t hops = 0;
          while (!scheme.arrived(at, st)) {
            const hop h = scheme.next(at, st);
            const std::size_t p = t.port_of(at, h);
            const node_id next = t.next(at, h);
            std::string problem;
            if (hops == limit) problem = "no arrival within " + std::to_string(limit) + " hops";
            if (p >= ports || next == no_node) problem = "a hop to no router";
            if (h.vc < lo || h.vc >= hi)
              problem = "VC " + std::to_string(h.vc) + " of another class";
            if (!problem.empty()) {
              if (report.routes_arrive)
                report.route_problem =
                    t.describe_router(s) + " to " + t.describe_router(d) + ": " + problem;
              report.routes_arrive = false;
              return;
            }
            const std::uint64_t v = vertex(at, p, h.vc);
            if (previous != ~std::uint64_t{0}) g.add(previous, v);
            previous = v;
            at = next;
            ++hops;
          }
          report.hops += hops;
        });
      }
    }
  }
  const auto size = g.counts();
  report.vertices = size.first;
  report.edges = size.second;
  const std::vector<std::uint64_t> cycle = detail::find_cycle_in(g);
  report.acyclic = cycle.empty();
  for (const std::uint64_t v : cycle) {
    const auto r = static_cast<node_id>(v / vcs / ports);
    const std::size_t p = static_cast<std::size_t>(v / vcs % ports);
    report.cycle.push_back(t.describe_router(r) + " -> " + t.port_name(r, p) + " VC" +
                           std::to_string(v % vcs));
  }
  return report;
}

}  // namespace interlock::verify

#endif  // INTERLOCK_VERIFY_UNIFIED_DEADLOCK_HPP
