// SPDX-License-Identifier: BSL-1.0
// Section 3.1's loads on Anton 2's unified network (traffic/anton2_loads.hpp):
// the walk that reuses a route's torus part and on-chip ends against walking
// every core pair's route in full, and what the loads must add up to.
#include <catch2/catch.hpp>
#include <interlock/routing/anton2.hpp>
#include <interlock/traffic/anton2_loads.hpp>
#include <interlock/traffic/patterns.hpp>

#include <cmath>
#include <cstddef>
#include <vector>

namespace {

using interlock::anton2_routing;
using interlock::anton2_topology;
using interlock::node_id;
using a2 = anton2_topology;

// Every core pair's every route, walked in full.
template <class Pattern>
interlock::unified_arbiter_loads brute_force(const anton2_routing& scheme, const Pattern& pattern) {
  const a2& t = scheme.topology();
  interlock::unified_arbiter_loads l;
  l.routers = t.router_count();
  l.ports = a2::network_ports + 1;
  l.vcs = scheme.vcs_per_channel();
  l.patterns = 1;
  l.outputs.assign(l.routers * l.ports * l.ports, 0.0);
  l.inputs.assign(l.routers * l.ports * l.vcs, 0.0);
  pattern.for_each_flow(t.torus(), [&](node_id s, node_id d, double rate) {
    for (std::size_t a = 0; a < 16; ++a)
      for (std::size_t b = 0; b < 16; ++b)
        scheme.for_each_start(t.router(s, a), t.router(d, b), interlock::traffic_class::request,
                              [&](anton2_routing::state st, double p) {
                                const double w = rate * p / 256;
                                node_id r = t.router(s, a);
                                std::size_t in = a2::network_ports, vin = 0;
                                while (!scheme.arrived(r, st)) {
                                  const interlock::hop h = scheme.next(r, st);
                                  const std::size_t o = t.port_of(r, h);
                                  l.outputs[(r * l.ports + o) * l.ports + in] += w;
                                  l.inputs[(r * l.ports + in) * l.vcs + vin] += w;
                                  in = t.next_port(r, h);
                                  vin = h.vc;
                                  r = t.next(r, h);
                                }
                                l.outputs[(r * l.ports + a2::network_ports) * l.ports + in] += w;
                                l.inputs[(r * l.ports + in) * l.vcs + vin] += w;
                              });
  });
  return l;
}

}  // namespace

TEST_CASE("Anton 2 loads: reusing a route's torus part gives the loads of walking every core pair",
          "[traffic][anton2][loads]") {
  const interlock::torus_topology torus({3, 2, 2}, {}, 2);
  const anton2_topology node(torus);
  const anton2_routing anton(node);
  auto compare = [&](const auto& pattern) {
    const auto fast =
        interlock::anton2_arbiter_loads(anton, interlock::traffic_class::request, pattern);
    const auto slow = brute_force(anton, pattern);
    REQUIRE(fast.outputs.size() == slow.outputs.size());
    double total = 0;
    for (std::size_t i = 0; i < fast.outputs.size(); ++i) {
      REQUIRE(fast.outputs[i] == Approx(slow.outputs[i]).margin(1e-12));
      total += fast.outputs[i];
    }
    for (std::size_t i = 0; i < fast.inputs.size(); ++i)
      REQUIRE(fast.inputs[i] == Approx(slow.inputs[i]).margin(1e-12));
    return total;
  };
  SECTION("uniform random") { compare(interlock::traffic::uniform_random{}); }
  SECTION("tornado") { compare(interlock::traffic::tornado{}); }
  SECTION("uniform without the node itself") { compare(interlock::traffic::uniform_random{false}); }
}

TEST_CASE("Anton 2 loads: what enters every arbiter leaves it, and ejection sums to the injection",
          "[traffic][anton2][loads]") {
  const interlock::torus_topology torus({4, 3, 2}, {}, 2);
  const anton2_topology node(torus);
  const anton2_routing anton(node);
  const auto l = interlock::anton2_arbiter_loads(anton, interlock::traffic_class::response,
                                                 interlock::traffic::uniform_random{},
                                                 interlock::traffic::neighbor{1});
  REQUIRE(l.patterns == 2);
  for (std::size_t n = 0; n < 2; ++n) {
    double ejected = 0, injected = 0;
    for (node_id r = 0; r < node.router_count(); ++r) {
      for (std::size_t i = 0; i < l.ports; ++i) {
        ejected += l.output(r, a2::network_ports, i, n);
        // An input port's VCs carry what its port sends on, by output.
        double by_vc = 0, by_output = 0;
        for (std::size_t v = 0; v < l.vcs; ++v) {
          by_vc += l.input(r, i, v, n);
          // Responses ride VCs 4..7.
          if (v < 4) REQUIRE(l.input(r, i, v, n) == 0);
        }
        for (std::size_t o = 0; o < l.ports; ++o) by_output += l.output(r, o, i, n);
        REQUIRE(by_vc == Approx(by_output).margin(1e-9));
      }
      for (std::size_t o = 0; o < l.ports; ++o) injected += l.output(r, o, a2::network_ports, n);
    }
    CHECK(ejected == Approx(24.0));  // every node injects 1
    CHECK(injected == Approx(24.0));
  }
}
