// SPDX-License-Identifier: BSL-1.0
// interlock/traffic/loads.hpp: expected channel and arbiter loads of traffic under a routing
// scheme.
//
// Contract
//   - for_each_hop_load(scheme, pattern, c, f) walks every flow of the
//     pattern along every route the scheme may give it (for_each_start),
//     and calls f(from, hop, rate x probability) for each hop: the
//     expected packets per unit time that take that hop on that VC.
//     Randomized orders and slices are weighted by their probability.
//   - channel_loads sums them per channel id (torus_topology::channel).
//     Under uniform_random traffic on a k-ary n-cube every channel carries
//     k/8 when 4 divides k ([Abts07], Eq. 8); for other even k the channels
//     carry k/8 on average (the k/2 ties cannot be spread evenly); on a mesh
//     the bisection channels carry k/4 (Eq. 9). Tests check all three.
//   - Section 3.1's arbiter loads have their one home here.
//     arbiter_input_loads(traffic, arbiters, inputs, route) sums them for any
//     network: traffic[n][s][d] is the rate from s to d under pattern n,
//     route(s, d) lists the arbiter inputs the route passes (Figure 5's
//     two-arbiter example). router_arbiter_loads(scheme, c, patterns...) does
//     it for a torus under a routing function, numbering arbiters and inputs
//     by the topology's ports (torus_topology::port_of), exactly as a router
//     built on the same topology does: arbiter node * ports() + p is node's
//     output port p (p = local_port(): its ejection port), and its input q is
//     the port of the hop that brought the packet, the direction it travels
//     (local_port(): injection); the link's own port at the router is
//     torus_topology::peer_port(q). Result:
//     [arbiter][input][pattern], ready for weights_from_loads.
//   A route that does not arrive is a contract violation (a broken scheme);
//   it is otherwise counted up to where it stopped. Loads are offline sums:
//   they allocate; their cost is flows x routes per flow x hops.
//
// Example
//   interlock::torus_topology t({8, 8, 8});
//   interlock::dimension_order_routing dor(t);
//   auto loads = interlock::channel_loads(dor, interlock::traffic::uniform_random{});
//   assert(loads.size() == t.channel_count());  // each k/8 = 1 (Eq. 8)
#ifndef INTERLOCK_TRAFFIC_LOADS_HPP
#define INTERLOCK_TRAFFIC_LOADS_HPP

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "interlock/core/assert.hpp"
#include "interlock/core/config_error.hpp"
#include "interlock/routing/route.hpp"
#include "interlock/topology/torus.hpp"

namespace interlock {

template <class Scheme, class Pattern, class F>
void for_each_hop_load(const Scheme& scheme, const Pattern& pattern, traffic_class c, F&& f) {
  static_assert(require_routing_function<Scheme>(), "for_each_hop_load needs a routing function");
  pattern.for_each_flow(scheme.topology(), [&](node_id source, node_id destination, double rate) {
    scheme.for_each_start(source, destination, c, [&](const typename Scheme::state& s, double p) {
      const bool arrived =
          walk(scheme, source, s, [&](node_id from, const hop& h) { f(from, h, rate * p); });
      INTERLOCK_ASSERT(arrived, "a route that does not arrive");
      static_cast<void>(arrived);
    });
  });
}

template <class Scheme, class Pattern>
std::vector<double> channel_loads(const Scheme& scheme, const Pattern& pattern,
                                  traffic_class c = traffic_class::request) {
  const torus_topology& t = scheme.topology();
  std::vector<double> load(static_cast<std::size_t>(t.channel_count()), 0.0);
  for_each_hop_load(scheme, pattern, c, [&](node_id from, const hop& h, double rate) {
    load[static_cast<std::size_t>(t.channel({from, h.dimension, h.sign, h.slice}))] += rate;
  });
  return load;
}

/// Arbiter loads: loads[arbiter][input][pattern].
using arbiter_loads = std::vector<std::vector<std::vector<double>>>;

/// One hop of a route: the input of an arbiter that the packet passes.
struct arbiter_input {
  std::size_t arbiter;
  std::size_t input;
};

/// Section 3.1 for any network: the load each arbiter input sees.
/// traffic[n][s][d] is the expected number of packets per unit time from
/// source s to destination d under pattern n; route(s, d) returns the
/// arbiter inputs the route passes (any range of arbiter_input). Returns
/// loads[a][i][n] for `arbiters` arbiters of `inputs` inputs each;
/// config_error for no pattern, a negative or non-finite rate, or a hop
/// outside the arbiters.
template <class Route>
arbiter_loads arbiter_input_loads(const std::vector<std::vector<std::vector<double>>>& traffic,
                                  std::size_t arbiters, std::size_t inputs, Route&& route) {
  const std::size_t patterns = traffic.size();
  if (patterns == 0)
    throw config_error("arbiter_input_loads", "traffic patterns", "0", "at least 1");
  arbiter_loads loads(arbiters,
                      std::vector<std::vector<double>>(inputs, std::vector<double>(patterns, 0.0)));
  for (std::size_t n = 0; n < patterns; ++n) {
    for (std::size_t s = 0; s < traffic[n].size(); ++s) {
      for (std::size_t d = 0; d < traffic[n][s].size(); ++d) {
        const double rate = traffic[n][s][d];
        if (!std::isfinite(rate) || rate < 0) {
          throw config_error("arbiter_input_loads",
                             "traffic[" + std::to_string(n) + "][" + std::to_string(s) + "][" +
                                 std::to_string(d) + "]",
                             std::to_string(rate), "a finite number >= 0");
        }
        if (rate == 0) continue;
        for (const arbiter_input& hop : route(s, d)) {
          if (hop.arbiter >= arbiters || hop.input >= inputs) {
            throw config_error(
                "arbiter_input_loads",
                "hop of route " + std::to_string(s) + " -> " + std::to_string(d),
                "arbiter " + std::to_string(hop.arbiter) + " input " + std::to_string(hop.input),
                "arbiter < " + std::to_string(arbiters) + ", input < " + std::to_string(inputs));
          }
          loads[hop.arbiter][hop.input][n] += rate;
        }
      }
    }
  }
  return loads;
}

/// The arbiter of `node`'s output port `port` in router_arbiter_loads.
inline std::size_t router_arbiter(const torus_topology& t, node_id node, std::size_t port) {
  return static_cast<std::size_t>(node) * t.ports() + port;
}

/// Section 3.1 on a torus: every router output's per-input loads under each
/// pattern, numbered by the topology's ports (see the contract above).
template <class Scheme, class... Patterns>
arbiter_loads router_arbiter_loads(const Scheme& scheme, traffic_class c,
                                   const Patterns&... patterns) {
  static_assert(require_routing_function<Scheme>(),
                "router_arbiter_loads needs a routing function");
  const torus_topology& t = scheme.topology();
  const std::size_t ports = t.ports();
  arbiter_loads loads(
      static_cast<std::size_t>(t.node_count()) * ports,
      std::vector<std::vector<double>>(ports, std::vector<double>(sizeof...(Patterns), 0.0)));
  std::size_t n = 0;
  auto one_pattern = [&](const auto& pattern) {
    pattern.for_each_flow(t, [&](node_id source, node_id destination, double rate) {
      scheme.for_each_start(source, destination, c, [&](const typename Scheme::state& s, double p) {
        std::size_t input = t.local_port();
        walk(scheme, source, s, [&](node_id from, const hop& h) {
          const std::size_t output = t.port_of(h);
          loads[router_arbiter(t, from, output)][input][n] += rate * p;
          input = output;  // arrives on the input of the direction it travels
        });
        loads[router_arbiter(t, destination, t.local_port())][input][n] += rate * p;
      });
    });
    ++n;
  };
  (one_pattern(patterns), ...);
  return loads;
}

/// Section 3.1's input stage on a torus: the load each VC of every router
/// input port carries under each pattern, [node * ports() + input port][VC]
/// [pattern] (VCs as the scheme numbers them, vcs_per_channel() of them;
/// the injection port's VC is the first hop's), for an input arbiter that
/// picks among its port's VCs. Summed over VCs it is what that input sends
/// to every output in router_arbiter_loads.
template <class Scheme, class... Patterns>
arbiter_loads router_input_loads(const Scheme& scheme, traffic_class c,
                                 const Patterns&... patterns) {
  static_assert(require_routing_function<Scheme>(), "router_input_loads needs a routing function");
  const torus_topology& t = scheme.topology();
  const std::size_t ports = t.ports();
  arbiter_loads loads(static_cast<std::size_t>(t.node_count()) * ports,
                      std::vector<std::vector<double>>(
                          scheme.vcs_per_channel(), std::vector<double>(sizeof...(Patterns), 0.0)));
  std::size_t n = 0;
  auto one_pattern = [&](const auto& pattern) {
    pattern.for_each_flow(t, [&](node_id source, node_id destination, double rate) {
      scheme.for_each_start(source, destination, c, [&](const typename Scheme::state& s, double p) {
        std::size_t input = t.local_port();
        bool first = true;
        unsigned vc = static_cast<unsigned>(c) * scheme.vcs_per_class();
        walk(scheme, source, s, [&](node_id from, const hop& h) {
          if (first) vc = h.vc;  // injected into the first hop's VC
          first = false;
          loads[router_arbiter(t, from, input)][vc][n] += rate * p;
          input = t.port_of(h);
          vc = h.vc;
        });
        loads[router_arbiter(t, destination, input)][vc][n] += rate * p;
      });
    });
    ++n;
  };
  (one_pattern(patterns), ...);
  return loads;
}

}  // namespace interlock

#endif  // INTERLOCK_TRAFFIC_LOADS_HPP
