// SPDX-License-Identifier: BSL-1.0
// interlock/traffic/anton2_loads.hpp: Section 3.1's loads at every arbitration point of Anton 2's
// unified network.
//
// Models Towles et al., ISCA'14, Sections 3.1 and 4.1: the
// inverse-weighted arbiters are programmed from the load each input of each
// arbiter carries under a traffic pattern ("a single set of arbiter
// weights, based on the channel loads induced by the uniform pattern, was
// used for all traffic patterns"). In the unified network
// (routing/anton2.hpp) every router and channel adapter arbitrates twice, as
// the model's separable input-first allocation does:
//   output stage: arbiter (router, output port), its inputs the input ports
//     (the endpoint's injection port is port network_ports);
//   input stage: arbiter (router, input port), its inputs the VCs.
//
// Contract
//   anton2_arbiter_loads(scheme, c, patterns...) sums, for each pattern n,
//   the expected packets per unit time of class c through every
//   (arbiter, input): every node injects 1 in total under a pattern
//   (traffic/patterns.hpp), spread evenly over its 16 cores, each core's
//   packets going to the node the pattern gives and to its 16 cores evenly
//   (model/anton2_node.hpp's to_cores); routes weighted by for_each_start.
//   A route from node s to node d != s is walked once from core 0 to core 0,
//   and its on-chip ends once per core (the torus part of a route does not
//   depend on the cores, nor the ends on the other end's core), so the cost
//   is node pairs x 12 routes x (hops + 32 short walks), not x 256.
//   The result is flat: output(r, o, i, n) and input(r, q, v, n).
//   Memory: 2 x routers x 8 x 8 x patterns doubles (8x8x8 nodes: 470 MB for
//   two patterns). Offline: it allocates.
//
// Example
//   interlock::torus_topology torus({2, 2, 2}, {}, 2);
//   interlock::anton2_topology node(torus);
//   interlock::anton2_routing anton(node);
//   auto loads = interlock::anton2_arbiter_loads(anton, interlock::traffic_class::request,
//                                                interlock::traffic::uniform_random{});
//   const interlock::node_id r = node.router(0, 5);
//   double l = loads.output(r, interlock::anton2_topology::port_u_plus, 0, 0);
//   assert(l >= 0);
#ifndef INTERLOCK_TRAFFIC_ANTON2_LOADS_HPP
#define INTERLOCK_TRAFFIC_ANTON2_LOADS_HPP

#include <cstddef>
#include <vector>

#include "interlock/core/assert.hpp"
#include "interlock/routing/anton2.hpp"
#include "interlock/routing/route.hpp"
#include "interlock/topology/anton2_node.hpp"

namespace interlock {

struct unified_arbiter_loads {
  std::size_t routers = 0, ports = 0, vcs = 0, patterns = 0;
  std::vector<double> outputs;  // [((r * ports + o) * ports + i) * patterns + n]
  std::vector<double> inputs;   // [((r * ports + q) * vcs + v) * patterns + n]

  double output(node_id r, std::size_t o, std::size_t i, std::size_t n) const {
    return outputs[((static_cast<std::size_t>(r) * ports + o) * ports + i) * patterns + n];
  }
  double input(node_id r, std::size_t q, std::size_t v, std::size_t n) const {
    return inputs[((static_cast<std::size_t>(r) * ports + q) * vcs + v) * patterns + n];
  }
};

namespace detail {

// One step of a walk: at router `at`, in on port `in` and VC `vin`, out on port `out`.
struct unified_step {
  node_id at;
  std::uint8_t in, vin, out;
};

}  // namespace detail

template <class... Patterns>
unified_arbiter_loads anton2_arbiter_loads(const anton2_routing& scheme, traffic_class c,
                                           const Patterns&... patterns) {
  using at = anton2_topology;
  const at& t = scheme.topology();
  const torus_topology& torus = t.torus();
  unified_arbiter_loads l;
  l.routers = t.router_count();
  l.ports = at::network_ports + 1;
  l.vcs = scheme.vcs_per_channel();
  l.patterns = sizeof...(Patterns);
  l.outputs.assign(l.routers * l.ports * l.ports * l.patterns, 0.0);
  l.inputs.assign(l.routers * l.ports * l.vcs * l.patterns, 0.0);
  const std::size_t local = at::network_ports;
  std::size_t n = 0;
  auto add = [&](const detail::unified_step& s, double w) {
    const std::size_t r = s.at;
    l.outputs[((r * l.ports + s.out) * l.ports + s.in) * l.patterns + n] += w;
    l.inputs[((r * l.ports + s.in) * l.vcs + s.vin) * l.patterns + n] += w;
  };
  // Walks from router `from` (entered on `in`, VC `vin`) in state s, calling
  // step(unified_step, state after the hop) for every hop, until arrival
  // (then the ejection step) or until stop(router) holds before a hop.
  auto walk_from = [&](node_id from, std::size_t in, std::size_t vin, anton2_routing::state s,
                       auto&& stop, auto&& step) {
    node_id r = from;
    for (std::size_t hops = 0; !scheme.arrived(r, s); ++hops) {
      INTERLOCK_ASSERT(hops < t.hop_limit(), "a route that does not arrive");
      if (stop(r)) return;
      const hop h = scheme.next(r, s);
      step(detail::unified_step{r, static_cast<std::uint8_t>(in), static_cast<std::uint8_t>(vin),
                                static_cast<std::uint8_t>(t.port_of(r, h))},
           s);
      in = t.next_port(r, h);
      vin = h.vc;
      r = t.next(r, h);
    }
    step(detail::unified_step{r, static_cast<std::uint8_t>(in), static_cast<std::uint8_t>(vin),
                              static_cast<std::uint8_t>(local)},
         s);
  };
  const auto never = [](node_id) { return false; };
  const auto at_adapter = [](node_id r) { return at::is_adapter(at::kind(r)); };
  const double cores = static_cast<double>(at::mesh_routers);
  std::vector<detail::unified_step> steps;
  auto one_pattern = [&](const auto& pattern) {
    pattern.for_each_flow(torus, [&](node_id src, node_id dst, double rate) {
      if (rate == 0) return;
      scheme.for_each_start(
          t.router(src, 0), t.router(dst, 0), c, [&](const anton2_routing::state& start, double p) {
            const double w = rate * p;
            const unsigned first_vc = static_cast<unsigned>(c) * scheme.vcs_per_class();
            if (src == dst) {  // on-chip only: every core pair
              for (std::size_t a = 0; a < at::mesh_routers; ++a)
                for (std::size_t b = 0; b < at::mesh_routers; ++b) {
                  anton2_routing::state s = start;
                  s.to = t.router(dst, b);
                  walk_from(t.router(src, a), local, first_vc, s, never,
                            [&](const detail::unified_step& x, const anton2_routing::state&) {
                              add(x, w / (cores * cores));
                            });
                }
              return;
            }
            // Core 0 to core 0: the torus part, and the state on the last inbound hop.
            steps.clear();
            anton2_routing::state inbound = start;
            std::size_t last_inbound = 0;
            walk_from(t.router(src, 0), local, first_vc, start, never,
                      [&](const detail::unified_step& x, const anton2_routing::state& s) {
                        if (at::is_adapter(at::kind(x.at)) && x.out == at::adapter_router_port) {
                          inbound = s;
                          last_inbound = steps.size();
                        }
                        steps.push_back(x);
                      });
            std::size_t first_adapter = 0;
            while (!at::is_adapter(at::kind(steps[first_adapter].at))) ++first_adapter;
            for (std::size_t i = first_adapter; i <= last_inbound; ++i) add(steps[i], w);
            // The source ends: each core to the first adapter.
            for (std::size_t a = 0; a < at::mesh_routers; ++a)
              walk_from(t.router(src, a), local, first_vc, start, at_adapter,
                        [&](const detail::unified_step& x, const anton2_routing::state&) {
                          add(x, w / cores);
                        });
            // The destination ends: from the inbound router to each core.
            const detail::unified_step& in_hop = steps[last_inbound];
            const node_id inbound_router =
                t.router(dst, t.channel_router(at::channel_dimension(at::kind(in_hop.at)),
                                               at::channel_sign(at::kind(in_hop.at)),
                                               at::channel_slice(at::kind(in_hop.at))));
            const std::size_t in_port = steps[last_inbound + 1].in;
            const std::size_t in_vc = steps[last_inbound + 1].vin;
            for (std::size_t b = 0; b < at::mesh_routers; ++b) {
              anton2_routing::state s = inbound;
              s.to = t.router(dst, b);
              walk_from(inbound_router, in_port, in_vc, s, never,
                        [&](const detail::unified_step& x, const anton2_routing::state&) {
                          add(x, w / cores);
                        });
            }
          });
    });
    ++n;
  };
  (one_pattern(patterns), ...);
  return l;
}

}  // namespace interlock

#endif  // INTERLOCK_TRAFFIC_ANTON2_LOADS_HPP
