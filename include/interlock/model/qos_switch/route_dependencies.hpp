// SPDX-License-Identifier: BSL-1.0
// interlock/model/qos_switch/route_dependencies.hpp: deadlock freedom of a switch network's routes.
//
// Dally and Seitz's condition on the channels of a layout: a vertex is
// one class of one switch-to-switch link (the VL a route puts a packet on),
// an edge A -> B says some packet can hold A while it waits for B: a route
// of switch s to a NIC takes link A into switch s2, whose route to the same
// NIC takes B. Every port of a route's group counts (the switch may pick
// any). Every switch's route to every NIC counts, whether or not some
// source reaches that switch on its way there, so the check is
// conservative: an acyclic graph proves freedom from deadlock; a cycle is
// named, and may in principle use a route no packet takes.
//
// Contract
//   check_deadlock(layout) -> deadlock_report: acyclic, the
//   graph's vertices (links x classes used) and edges, and a witness cycle
//   as "switch 3 port 12 (class 0)" strings. O(switches x NICs x group
//   sizes^2); it allocates. Run it where a network is set up.
//
// Example (with interlock/model/qos_switch/network_layouts.hpp)
//   auto report = interlock::model::qos_switch::check_deadlock(
//       interlock::model::qos_switch::fat_tree_layout(interlock::kary_ntree(4, 3)));
//   assert(report.acyclic);
#ifndef INTERLOCK_MODEL_QOS_SWITCH_ROUTE_DEPENDENCIES_HPP
#define INTERLOCK_MODEL_QOS_SWITCH_ROUTE_DEPENDENCIES_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "interlock/model/qos_switch/layout.hpp"
#include "interlock/verify/dependency_graph.hpp"

namespace interlock {
namespace model {
namespace qos_switch {

struct deadlock_report {
  bool acyclic = true;
  std::size_t vertices = 0, edges = 0;
  std::vector<std::string> cycle;  // the witness, each link as "switch S port P (class C)"

  std::string describe() const {
    std::string text = acyclic ? "acyclic" : "CYCLE";
    text += ": " + std::to_string(vertices) + " link classes, " + std::to_string(edges) +
            " dependencies";
    if (!acyclic) {
      text += "\n  ";
      for (const std::string& c : cycle) text += c + " -> ";
      if (!cycle.empty()) text += cycle.front();
    }
    return text;
  }
};

inline deadlock_report check_deadlock(const layout& layout) {
  layout.check();
  const std::size_t P = layout.ports();
  constexpr std::size_t classes = 2;
  const auto vertex = [&](std::size_t s, std::size_t p, std::size_t cls) {
    return static_cast<std::uint64_t>((s * P + p) * classes + cls);
  };
  verify::detail::adjacency_lists g(layout.switches() * P * classes);
  for (std::size_t s = 0; s < layout.switches(); ++s) {
    for (std::size_t nic = 0; nic < layout.nics(); ++nic) {
      const route_group& r = layout.route_entry(s, nic);
      for (std::size_t p = r.first; p < std::size_t{r.first} + r.count; ++p) {
        const port_peer& q = layout.peer(s, p);
        if (q.what != port_peer::kind::switch_port) continue;
        const route_group& r2 = layout.route_entry(q.id, nic);
        for (std::size_t p2 = r2.first; p2 < std::size_t{r2.first} + r2.count; ++p2) {
          if (layout.peer(q.id, p2).what != port_peer::kind::switch_port) continue;
          g.add(vertex(s, p, r.cls), vertex(q.id, p2, r2.cls));
        }
      }
    }
  }
  deadlock_report report;
  const auto size = g.counts();
  report.vertices = size.first;
  report.edges = size.second;
  const std::vector<std::uint64_t> cycle = verify::detail::find_cycle_in(g);
  report.acyclic = cycle.empty();
  for (const std::uint64_t v : cycle) {
    const std::size_t link = static_cast<std::size_t>(v / classes);
    report.cycle.push_back("switch " + std::to_string(link / P) + " port " +
                           std::to_string(link % P) + " (class " + std::to_string(v % classes) +
                           ")");
  }
  return report;
}

}  // namespace qos_switch
}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_QOS_SWITCH_ROUTE_DEPENDENCIES_HPP
