// SPDX-License-Identifier: BSL-1.0
// interlock/verify/cdg_report.hpp: what a deadlock check reports, and how it prints.
//
// Contract
//   - enumerated_route names a route as the checker enumerates it (source,
//     destination, class, and its index among for_each_start's routes);
//     cdg_dependency an edge of a witness cycle with a route that creates
//     it; cdg_options the checker's settings; cdg_report its result
//     (deadlock_free() when the graph is acyclic and every route arrives).
//   - describe() prints a resource in the network's own terms, as
//     "+X (3,0,1)->(4,0,1) VC1" (dimensions X, Y, Z, then D3, D4, ...;
//     " slice 1" is added on a multi-slice topology), or a route;
//     format_cycle() prints a witness, one line per dependency with its
//     route. They allocate (strings); none is on a decision path.
//
// Example
//   interlock::torus_topology torus({5}, {true});  // a ring of five: deadlocks
//   interlock::dimension_order_routing no_datelines(torus, {}, {/*datelines=*/false});
//   auto report = interlock::verify::check_deadlock_freedom(no_datelines);
//   if (!report.deadlock_free()) std::cout << interlock::verify::format_cycle(torus, report);
#ifndef INTERLOCK_VERIFY_CDG_REPORT_HPP
#define INTERLOCK_VERIFY_CDG_REPORT_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "interlock/routing/route.hpp"
#include "interlock/topology/torus.hpp"
#include "interlock/verify/dependency_graph.hpp"

namespace interlock::verify {

/// A route as the checker enumerates it: the choice-th route that the
/// scheme's for_each_start gives from source to destination in class cls.
struct enumerated_route {
  node_id source = 0;
  node_id destination = 0;
  traffic_class cls = traffic_class::request;
  std::size_t choice = 0;
};

/// One edge of a witness cycle and a route that creates it. An indirect
/// dependency (adaptive wormhole only) is one the route's packet creates by
/// leaving its escape route on adaptive VCs after `from` and coming back to
/// the escape network at `to`.
struct cdg_dependency {
  cdg_resource from;
  cdg_resource to;
  enumerated_route route;
  bool indirect = false;
};

struct cdg_options {
  /// VCs per class the hardware has (0: as many as the scheme uses).
  unsigned vc_limit = 0;
  std::vector<traffic_class> classes{traffic_class::request, traffic_class::response};
  /// Look up a route for every edge of a witness cycle (a second pass).
  bool witness_routes = true;
  /// Threads that walk the routes, the destinations shared out among them
  /// (1..256); the report is the same for any number.
  unsigned threads = 1;
};

struct cdg_report {
  bool acyclic = true;
  bool routes_arrive = true;
  std::string route_problem;                         // what went wrong with failed_route
  enumerated_route failed_route;                     // valid when !routes_arrive
  std::array<unsigned, traffic_classes> vcs_used{};  // highest VC used in the class, plus one
  std::uint64_t routes = 0;
  std::uint64_t hops = 0;
  std::size_t resources = 0;          // (channel, VC) pairs some route takes
  std::size_t dependencies = 0;       // edges
  std::vector<cdg_dependency> cycle;  // cycle[i].to == cycle[i + 1].from, last to first

  bool deadlock_free() const noexcept { return acyclic && routes_arrive; }
};

// ---- printing ------------------------------------------------------------

/// A node's coordinates: "(3,0,1)".
inline std::string describe_node(const torus_topology& t, node_id id) {
  std::string text = "(";
  for (std::size_t d = 0; d < t.dimensions(); ++d)
    text += (d != 0 ? "," : "") + std::to_string(t.ordinate(id, d));
  return text + ")";
}

/// A resource in the network's own terms: "+X (3,0,1)->(4,0,1) VC1".
inline std::string describe(const torus_topology& t, const cdg_resource& r) {
  const channel_ref c = t.channel_info(r.channel);
  std::string text = c.sign > 0 ? "+" : "-";
  if (t.dimensions() <= 3) {
    text += "XYZ"[c.dimension];
  } else {
    text += "D" + std::to_string(c.dimension);
  }
  const node_id to = t.neighbor(c.node, c.dimension, c.sign);
  text += " " + describe_node(t, c.node) + "->" + (to == no_node ? "?" : describe_node(t, to));
  text += " VC" + std::to_string(r.vc);
  if (t.slices() > 1) text += " slice " + std::to_string(c.slice);
  return text;
}

/// "(0,0,0) to (5,2,0), request, route 3".
inline std::string describe(const torus_topology& t, const enumerated_route& r) {
  return describe_node(t, r.source) + " to " + describe_node(t, r.destination) +
         (r.cls == traffic_class::request ? ", request" : ", response") + ", route " +
         std::to_string(r.choice);
}

/// The witness: the cycle on one line, then each dependency with a route
/// that creates it.
inline std::string format_cycle(const torus_topology& t, const cdg_report& report) {
  if (report.cycle.empty()) return {};
  std::string text = "cycle of " + std::to_string(report.cycle.size()) + " dependencies:\n  ";
  for (const cdg_dependency& d : report.cycle) text += describe(t, d.from) + " -> ";
  text += describe(t, report.cycle.front().from) + "\n";
  for (const cdg_dependency& d : report.cycle) {
    text += "  " + describe(t, d.from) + " -> " + describe(t, d.to) + "\n      ";
    text += d.indirect ? "indirect, through adaptive VCs, by " : "by ";
    text += describe(t, d.route) + "\n";
  }
  return text;
}

}  // namespace interlock::verify

#endif  // INTERLOCK_VERIFY_CDG_REPORT_HPP
