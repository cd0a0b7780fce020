// SPDX-License-Identifier: BSL-1.0
// Tests of interlock/traffic/loads.hpp: [Abts07]'s Eq. 8-9 and the arbiter
// loads of [Towles14], Section 3.1.
#include "support/interlock_test.hpp"
#include "support/routing_checks.hpp"

#include <interlock/arbiters/inverse_weights.hpp>
#include <interlock/routing/dimension_order.hpp>
#include <interlock/routing/direction_order.hpp>
#include <interlock/routing/vc_promotion.hpp>
#include <interlock/traffic/loads.hpp>
#include <interlock/traffic/patterns.hpp>

using interlock::torus_topology;
using interlock::traffic_class;

TEST_CASE("Eq. 8: uniform traffic puts k/8 on every torus channel", "[loads]") {
  // Every channel for k divisible by 4. For k = 2 mod 4 the k/2 ties cannot
  // be split evenly over the channels by any deterministic rule (k/4 is not
  // whole); there Eq. 8 holds for the average channel (next test).
  for (std::size_t k : {4u, 8u}) {
    torus_topology t({k, k, k});
    const auto dor = interlock::channel_loads(interlock::dimension_order_routing(t),
                                              interlock::traffic::uniform_random{});
    const auto t3e = interlock::channel_loads(interlock::direction_order_routing(t),
                                              interlock::traffic::uniform_random{});
    const auto anton = interlock::channel_loads(
        interlock::vc_promotion_routing(t, interlock::all_dimension_orders(3)),
        interlock::traffic::uniform_random{});
    for (std::size_t c = 0; c < dor.size(); ++c) {
      CHECK(dor[c] == Approx(static_cast<double>(k) / 8.0));
      CHECK(t3e[c] == Approx(static_cast<double>(k) / 8.0));
      CHECK(anton[c] == Approx(static_cast<double>(k) / 8.0));
    }
  }
}

TEST_CASE("Eq. 8: every channel of a 12-ary 2-cube", "[loads]") {
  torus_topology t({12, 12});
  for (double l : interlock::channel_loads(interlock::direction_order_routing(t),
                                           interlock::traffic::uniform_random{}))
    CHECK(l == Approx(1.5));
}

TEST_CASE("Eq. 8: on average for k = 2 mod 4", "[loads]") {
  for (std::size_t k : {6u, 10u}) {
    torus_topology t({k, k});
    const auto load = interlock::channel_loads(interlock::dimension_order_routing(t),
                                               interlock::traffic::uniform_random{});
    double sum = 0;
    for (double l : load) sum += l;
    CHECK(sum / static_cast<double>(load.size()) == Approx(static_cast<double>(k) / 8.0));
  }
}

TEST_CASE("Eq. 9: uniform traffic puts k/4 on a mesh's bisection channels", "[loads]") {
  for (std::size_t k : {4u, 8u}) {
    torus_topology t({k, k}, {false, false});
    const auto load = interlock::channel_loads(interlock::dimension_order_routing(t),
                                               interlock::traffic::uniform_random{});
    double bisection = 0;
    for (std::size_t c = 0; c < load.size(); ++c) {
      const auto ch = t.channel_info(c);
      if (ch.dimension == 0 && ch.sign > 0 && t.ordinate(ch.node, 0) == k / 2 - 1)
        bisection = std::max(bisection, load[c]);
      CHECK(load[c] <= static_cast<double>(k) / 4.0 + 1e-9);  // the bisection is the busiest
    }
    CHECK(bisection == Approx(static_cast<double>(k) / 4.0));
  }
}

TEST_CASE("loads: every unit of rate is carried for its route's length", "[loads][property]") {
  rc::prop("the sum of channel loads equals the sum of rate x distance", [] {
    const auto k = *rc::gen::inRange<std::size_t>(2, 7);
    torus_topology t({k, k}, {*rc::gen::arbitrary<bool>(), true});
    const interlock::dimension_order_routing dor(t, interlock::all_dimension_orders(2));
    double expected = 0;
    interlock::traffic::tornado{}.for_each_flow(t, [&](auto s, auto d, double r) {
      expected += r * static_cast<double>(t.distance(s, d));
    });
    double carried = 0;
    for (double l : interlock::channel_loads(dor, interlock::traffic::tornado{})) carried += l;
    RC_ASSERT(std::abs(carried - expected) < 1e-9);
  });
}

TEST_CASE("router_arbiter_loads: the parking lot, programmed for equality of service", "[loads]") {
  // [Abts07]'s Figure 4(a): an 8-node line, everyone sending to node 7.
  torus_topology line({8}, {false});
  const auto loads =
      interlock::router_arbiter_loads(interlock::dimension_order_routing(line),
                                      traffic_class::request, interlock::traffic::all_to_one{7});
  // The + port out of node 6 merges what came from node 5 (six sources)
  // with node 6's own packets: inputs +X (arrived going +) and local (injection).
  REQUIRE(line.ports() == 3);
  const std::size_t plus = line.port_of(0, +1), local = line.local_port();
  CHECK(plus == 0);
  CHECK(local == 2);
  REQUIRE(loads.size() == 8 * 3);
  const auto& out6 = loads[interlock::router_arbiter(line, 6, plus)];
  CHECK(out6[plus][0] == Approx(6.0));
  CHECK(out6[local][0] == Approx(1.0));
  CHECK(out6[line.port_of(0, -1)][0] == 0.0);
  const auto w = interlock::weights_from_loads({out6[plus], out6[local]}, 8);
  CHECK(static_cast<double>(w.weights[1][0]) / w.weights[0][0] == Approx(6.0).epsilon(0.01));
  // Node 7's ejection arbiter sees seven sources arriving on its +X input.
  CHECK(loads[interlock::router_arbiter(line, 7, local)][plus][0] == Approx(7.0));
}

TEST_CASE("router_arbiter_loads agrees with channel_loads through the ports", "[loads][property]") {
  rc::prop("each output port's inputs sum to its channel's load", [] {
    const torus_topology base = *interlock_test::gen_topology(3, 5, true);
    const torus_topology t(base.radices(), {}, *rc::gen::inRange<std::size_t>(1, 3));
    const interlock::vc_promotion_routing anton(t, interlock::all_dimension_orders(t.dimensions()));
    const auto channel = interlock::channel_loads(anton, interlock::traffic::uniform_random{});
    const auto arbiters = interlock::router_arbiter_loads(anton, traffic_class::request,
                                                          interlock::traffic::uniform_random{});
    for (interlock::node_id v = 0; v < t.node_count(); ++v) {
      for (std::size_t p = 0; p < t.local_port(); ++p) {
        const interlock::port_ref r = t.port_info(p);
        double sum = 0;
        for (const auto& input : arbiters[interlock::router_arbiter(t, v, p)]) sum += input[0];
        RC_ASSERT(std::abs(sum - channel[t.channel({v, r.dimension, r.sign, r.slice})]) < 1e-9);
      }
      // Every node ejects 1 (uniform traffic, itself included).
      double ejected = 0;
      for (const auto& input : arbiters[interlock::router_arbiter(t, v, t.local_port())])
        ejected += input[0];
      RC_ASSERT(std::abs(ejected - 1.0) < 1e-9);
    }
  });
}

TEST_CASE("router_input_loads: an input's VCs carry what it sends to every output",
          "[loads][input]") {
  const interlock::torus_topology t({4, 3}, {true, true}, 2);
  const interlock::vc_promotion_routing anton(t, interlock::all_dimension_orders(2));
  const auto by_output = interlock::router_arbiter_loads(anton, interlock::traffic_class::request,
                                                         interlock::traffic::uniform_random{});
  const auto by_vc = interlock::router_input_loads(anton, interlock::traffic_class::request,
                                                   interlock::traffic::uniform_random{});
  REQUIRE(by_vc.size() == by_output.size());
  const std::size_t ports = t.ports();
  std::size_t promoted = 0;
  for (interlock::node_id r = 0; r < t.node_count(); ++r)
    for (std::size_t q = 0; q < ports; ++q) {
      double vcs = 0, outputs = 0;
      for (std::size_t v = 0; v < anton.vcs_per_channel(); ++v) {
        vcs += by_vc[r * ports + q][v][0];
        if (v >= anton.vcs_per_class()) REQUIRE(by_vc[r * ports + q][v][0] == 0);  // requests
        if (v > 0 && by_vc[r * ports + q][v][0] > 0) ++promoted;
      }
      for (std::size_t o = 0; o < ports; ++o) outputs += by_output[r * ports + o][q][0];
      REQUIRE(vcs == Approx(outputs).margin(1e-12));
    }
  CHECK(promoted > 0);  // the ports past a dateline or a turn carry the higher VCs
  // Every node injects 1 (a packet whose first hop crosses a dateline is
  // injected into the VC it takes there).
  for (interlock::node_id r = 0; r < t.node_count(); ++r) {
    double injected = 0;
    for (std::size_t v = 0; v < anton.vcs_per_channel(); ++v)
      injected += by_vc[r * ports + t.local_port()][v][0];
    CHECK(injected == Approx(1.0));
  }
}
