// SPDX-License-Identifier: BSL-1.0
// Tests of interlock/traffic/arbitration_weights.hpp: every arbitration point
// of a network gets the table of its own loads ([Towles14] Section 3.1),
// equal loads share one table, the arbiter's input numbering maps onto the
// loads', and each pattern label keeps its own weights.
#include "support/interlock_test.hpp"

#include <interlock/routing/dimension_order.hpp>
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
