// SPDX-License-Identifier: BSL-1.0
// Tests of interlock/traffic/arbitration_weights.hpp: every arbitration point
// of a network gets the table of its own loads ([Towles14] Section 3.1),
// equal loads share one table, the arbiter's input numbering maps onto the
// loads', each pattern label keeps its own weights, patterns computed alone
// stack into labels, and Anton 2's unified network gets both stages' tables.
#include "support/interlock_test.hpp"

#include <interlock/routing/anton2.hpp>
#include <interlock/routing/dimension_order.hpp>
#include <interlock/traffic/anton2_loads.hpp>
#include <interlock/traffic/arbitration_weights.hpp>
#include <interlock/traffic/loads.hpp>
#include <interlock/traffic/patterns.hpp>

#include <cstddef>
#include <set>

using interlock::torus_topology;
using interlock::traffic_class;

TEST_CASE("the parking lot: each merge's through input weighs less than its local one",
          "[arbitration_weights]") {
  // P0..P6 send to P7 on a line: at router r's +X output, the input
  // travelling +X carries r sources and the local input one; an input's
  // weight is the inverse of its load, so the through input's is smaller.
  const torus_topology t({8}, {false});
  const interlock::dimension_order_routing dor(t);
  const auto loads = interlock::router_arbiter_loads(dor, traffic_class::request,
                                                     interlock::traffic::all_to_one{7});
  interlock::inverse_weight_tables<64, 1, 8> tables;
  const auto weights = interlock::arbitration_tables(tables, loads);
  REQUIRE(weights.size() == loads.size());
  const std::size_t plus_x = t.port_of(0, +1), local = t.local_port();
  for (interlock::node_id r = 2; r < 7; ++r) {
    const auto& w = *weights[interlock::router_arbiter(t, r, plus_x)];
    CAPTURE(r);
    CHECK(w.weight(plus_x, 0) < w.weight(local, 0));
  }
  // The merges carry different loads, so their tables differ; every output
  // no packet takes has no load and shares the one table of equal weights.
  std::set<const void*> distinct;
  for (const auto& w : weights) distinct.insert(w.get());
  CHECK(distinct.size() == tables.distinct());
  CHECK(weights[interlock::router_arbiter(t, 3, plus_x)] !=
        weights[interlock::router_arbiter(t, 4, plus_x)]);
  CHECK(weights[interlock::router_arbiter(t, 7, plus_x)] ==
        weights[interlock::router_arbiter(t, 6, t.port_of(0, -1))]);
}

TEST_CASE("an arbiter that numbers its inputs by the link's port sees them through input_of",
          "[arbitration_weights]") {
  const torus_topology t({6, 4});
  const interlock::dimension_order_routing dor(t);
  const auto loads = interlock::router_arbiter_loads(dor, traffic_class::request,
                                                     interlock::traffic::uniform_random{});
  interlock::inverse_weight_tables<64, 1, 8> tables;
  const auto same = interlock::arbitration_tables(tables, loads);
  const auto peer =
      interlock::arbitration_tables(tables, loads, [&](std::size_t i) { return t.peer_port(i); });
  bool any_differs = false;
  for (std::size_t a = 0; a < loads.size(); ++a)
    for (std::size_t i = 0; i < t.ports(); ++i) {
      CHECK(peer[a]->weight(i, 0) == same[a]->weight(t.peer_port(i), 0));
      any_differs = any_differs || peer[a]->weight(i, 0) != same[a]->weight(i, 0);
    }
  CHECK(any_differs);  // an output's through input is loaded, the input opposite it idle
}

TEST_CASE("two labelled patterns keep a weight per label", "[arbitration_weights]") {
  const torus_topology t({8, 8});
  const interlock::dimension_order_routing dor(t);
  const auto loads =
      interlock::router_arbiter_loads(dor, traffic_class::request, interlock::traffic::tornado{},
                                      interlock::traffic::uniform_random{});
  interlock::inverse_weight_tables<64, 2, 8> tables;
  const auto weights = interlock::arbitration_tables(tables, loads);
  bool labels_differ = false;
  for (std::size_t a = 0; a < loads.size(); ++a) {
    const auto direct = tables.from_loads(
        loads[a].size(), [&](std::size_t i, std::size_t n) { return loads[a][i][n]; });
    CHECK(weights[a] == direct);  // the same loads: the table shared
    for (std::size_t i = 0; i < t.ports(); ++i)
      labels_differ = labels_differ || weights[a]->weight(i, 0) != weights[a]->weight(i, 1);
  }
  CHECK(labels_differ);
}

TEST_CASE("patterns computed alone, stacked, are the loads of the patterns computed together",
          "[arbitration_weights]") {
  const torus_topology t({6, 4});
  const interlock::dimension_order_routing dor(t);
  const auto together =
      interlock::router_arbiter_loads(dor, traffic_class::request, interlock::traffic::tornado{},
                                      interlock::traffic::uniform_random{});
  const auto tornado =
      interlock::router_arbiter_loads(dor, traffic_class::request, interlock::traffic::tornado{});
  const auto uniform = interlock::router_arbiter_loads(dor, traffic_class::request,
                                                       interlock::traffic::uniform_random{});
  const auto stacked = interlock::stack_labels({&tornado, &uniform});
  REQUIRE(stacked.size() == together.size());
  for (std::size_t a = 0; a < together.size(); ++a) {
    REQUIRE(stacked[a].size() == together[a].size());
    for (std::size_t i = 0; i < together[a].size(); ++i) {
      REQUIRE(stacked[a][i].size() == 2);
      CHECK(stacked[a][i][0] == Approx(together[a][i][0]).margin(1e-12));
      CHECK(stacked[a][i][1] == Approx(together[a][i][1]).margin(1e-12));
    }
  }
}

TEST_CASE("Anton 2's unified network: both stages' tables, stacked labels kept apart",
          "[arbitration_weights]") {
  const torus_topology t({2, 2, 2}, {}, 2);
  const interlock::anton2_topology node(t);
  const interlock::anton2_routing scheme(node, interlock::all_dimension_orders(3));
  const auto tornado = interlock::anton2_arbiter_loads(scheme, traffic_class::request,
                                                       interlock::traffic::tornado{});
  const auto uniform = interlock::anton2_arbiter_loads(scheme, traffic_class::request,
                                                       interlock::traffic::uniform_random{});
  const auto both = interlock::stack_unified_labels({&tornado, &uniform});
  REQUIRE(both.patterns == 2);
  // Anton 2's 12-bit weights (8 under the sanitizers: the sweep for beta
  // over each table's breakpoints is most of the run there).
  interlock::inverse_weight_tables<8, 2, interlock_test::sized(12u, 8u)> tables;
  const auto w = interlock::unified_arbitration_tables(tables, both);
  REQUIRE(w.outputs.size() == both.routers * both.ports);
  bool labels_differ = false, stages_differ = false;
  for (interlock::node_id r = 0; r < both.routers; ++r)
    for (std::size_t p = 0; p < both.ports; ++p) {
      // Each stage's table is the one its own loads make, label by label.
      const auto out = tables.from_loads(both.ports, [&](std::size_t i, std::size_t n) {
        return (n == 0 ? tornado : uniform).output(r, p, i, 0);
      });
      const auto in = tables.from_loads(both.vcs, [&](std::size_t v, std::size_t n) {
        return (n == 0 ? tornado : uniform).input(r, p, v, 0);
      });
      CHECK(w.output(r, p) == out);
      CHECK(w.input(r, p) == in);
      stages_differ = stages_differ || w.output(r, p) != w.input(r, p);
      for (std::size_t i = 0; i < both.ports; ++i)
        labels_differ = labels_differ || out->weight(i, 0) != out->weight(i, 1);
    }
  CHECK(labels_differ);
  CHECK(stages_differ);
}

TEST_CASE("Anton 2's unified network: the exact model's tables are Eq. 3's inverse loads",
          "[arbitration_weights]") {
  const torus_topology t({2, 2, 2}, {}, 2);
  const interlock::anton2_topology node(t);
  const interlock::anton2_routing scheme(node, interlock::all_dimension_orders(3));
  const auto uniform = interlock::anton2_arbiter_loads(scheme, traffic_class::request,
                                                       interlock::traffic::uniform_random{});
  interlock::exact_weight_tables<8, 1> tables;
  const auto w = interlock::unified_arbitration_tables(tables, uniform);
  REQUIRE(w.outputs.size() == uniform.routers * uniform.ports);
  std::size_t loaded = 0;
  for (interlock::node_id r = 0; r < uniform.routers; ++r)
    for (std::size_t p = 0; p < uniform.ports; ++p)
      for (std::size_t i = 0; i < uniform.ports; ++i) {
        const double g = uniform.output(r, p, i, 0);
        if (g <= 0) continue;
        ++loaded;
        CHECK(w.output(r, p)->weight(i, 0) == Approx(1.0 / g));
      }
  CHECK(loaded > 0);
}

TEST_CASE("stacking refuses nothing to stack and loads of different networks",
          "[arbitration_weights][contract]") {
  const interlock::arbiter_loads two = {{{1.0}, {2.0}}}, three = {{{1.0}, {2.0}, {3.0}}};
  CHECK_THROWS_AS(interlock::stack_labels(std::vector<const interlock::arbiter_loads*>{}),
                  interlock::config_error);
  CHECK_THROWS_AS(interlock::stack_labels({&two, &three}), interlock::config_error);
  const auto stacked = interlock::stack_labels({&two, &two});
  CHECK(stacked[0][1] == std::vector<double>{2.0, 2.0});
}
