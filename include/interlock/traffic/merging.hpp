// SPDX-License-Identifier: BSL-1.0
// interlock/traffic/merging.hpp: round robin's share of each source when every node sends to
// one, by the merging rule of the XT parking-lot analysis (Abts & Weisser SC'07, Section 2).
//
// Contract
//   merging_rule_shares(scheme, destination) walks every source's route
//   (the scheme's first route per pair) and, at every output, gives each
//   input port that carries traffic to it an equal part of what the output
//   delivers (round robin among backlogged inputs); a source's share of the
//   destination's ejection port is the product of its parts along its
//   route. The paper works the 8-node line by this rule: P6 1/2, P5 1/4,
//   ..., P1 and P0 1/64 each. Offline: it allocates freely.
//
// Example
//   interlock::torus_topology line({8}, {false});
//   auto share = interlock::traffic::merging_rule_shares(
//       interlock::dimension_order_routing(line), 7);   // share[6] == 0.5
#ifndef INTERLOCK_TRAFFIC_MERGING_HPP
#define INTERLOCK_TRAFFIC_MERGING_HPP

#include <cstddef>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "interlock/core/random.hpp"
#include "interlock/routing/route.hpp"
#include "interlock/topology/torus.hpp"

namespace interlock {
namespace traffic {

/// shares[s]: source s's share of `destination`'s ejection port under a
/// deterministic routing scheme (its first route per pair), 0 for the
/// destination itself.
template <class Scheme>
std::vector<double> merging_rule_shares(const Scheme& scheme, interlock::node_id destination) {
  const interlock::torus_topology& t = scheme.topology();
  const auto walk_source = [&](interlock::node_id s, auto&& on_hop) {
    auto st = scheme.start_with(s, destination, interlock::traffic_class::request);
    std::size_t in = t.local_port();
    interlock::node_id at = s;
    while (!scheme.arrived(at, st)) {
      const interlock::hop h = scheme.next(at, st);
      on_hop(at, in, t.port_of(h));
      in = t.port_of(h);
      at = t.neighbor(at, h.dimension, h.sign);
    }
    on_hop(at, in, t.local_port());
  };
  std::map<std::pair<interlock::node_id, std::size_t>, std::set<std::size_t>> inputs;
  for (interlock::node_id s = 0; s < t.node_count(); ++s)
    if (s != destination)
      walk_source(s, [&](interlock::node_id at, std::size_t in, std::size_t out) {
        inputs[{at, out}].insert(in);
      });
  std::vector<double> share(t.node_count(), 0.0);
  for (interlock::node_id s = 0; s < t.node_count(); ++s) {
    if (s == destination) continue;
    double x = 1;
    walk_source(s, [&](interlock::node_id at, std::size_t, std::size_t out) {
      x /= static_cast<double>(inputs[{at, out}].size());
    });
    share[s] = x;
  }
  return share;
}

}  // namespace traffic
}  // namespace interlock

#endif  // INTERLOCK_TRAFFIC_MERGING_HPP
