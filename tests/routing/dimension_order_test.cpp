// SPDX-License-Identifier: BSL-1.0
// Tests of interlock/routing/dimension_order.hpp: SeaStar-style dimension
// order with datelines and Anton 2's randomized orders.
#include "support/interlock_test.hpp"
#include "support/routing_checks.hpp"

#include <interlock/routing/dimension_order.hpp>

using interlock::dimension_order_routing;
using interlock::hop;
using interlock::torus_topology;
using interlock::traffic_class;
using namespace interlock_test;

TEST_CASE("dimension_order_routing: a route over the dateline", "[dimension_order]") {
  torus_topology t({8, 8, 8});
  dimension_order_routing dor(t);
  const auto r =
      record(dor, t.node({7, 0, 0}),
             dor.start_with(t.node({7, 0, 0}), t.node({1, 2, 0}), traffic_class::request));
  REQUIRE(r.arrived);
  REQUIRE(r.hops.size() == 4);
  CHECK(r.hops[0].second == hop{0, +1, 0, 1});  // the wrap link: VC1
  CHECK(r.hops[1].second == hop{0, +1, 0, 1});  // the rest of X stays on VC1
  CHECK(r.hops[2].second == hop{1, +1, 0, 0});  // Y starts on VC0
  CHECK(r.hops[3].second == hop{1, +1, 0, 0});
  const auto response =
      record(dor, t.node({7, 0, 0}),
             dor.start_with(t.node({7, 0, 0}), t.node({1, 2, 0}), traffic_class::response));
  CHECK(response.hops[0].second.vc == 3);  // VC2/VC3 for responses
  CHECK(response.hops[2].second.vc == 2);
}

TEST_CASE("dimension_order_routing: BookSim2's dateline rule picks the VC on entering a ring",
          "[dimension_order]") {
  // BookSim2's dim_order_torus: + routes that take the wrap link and -
  // routes that do not ride VC1 for the whole ring, the others VC0.
  const torus_topology t({8, 8});
  interlock::dimension_order_options o;
  o.rule = interlock::dateline_rule::booksim2;
  const dimension_order_routing dor(t, {}, o);
  const auto vcs = [&](std::uint16_t from, std::uint16_t to) {
    const auto r =
        record(dor, t.node({from, 0}),
               dor.start_with(t.node({from, 0}), t.node({to, 0}), traffic_class::request));
    std::vector<unsigned> v;
    for (const auto& h : r.hops) v.push_back(h.second.vc);
    return v;
  };
  CHECK(vcs(6, 1) == std::vector<unsigned>{1, 1, 1});  // + over the wrap link
  CHECK(vcs(1, 3) == std::vector<unsigned>{0, 0});     // + short of it
  CHECK(vcs(5, 3) == std::vector<unsigned>{1, 1});     // - short of it
  CHECK(vcs(1, 6) == std::vector<unsigned>{0, 0, 0});  // - over the wrap link
  // A new dimension chooses afresh.
  const auto r = record(dor, t.node({6, 5}),
                        dor.start_with(t.node({6, 5}), t.node({1, 3}), traffic_class::response));
  REQUIRE(r.hops.size() == 5);
  CHECK(r.hops[2].second == hop{0, +1, 0, 3});
  CHECK(r.hops[3].second == hop{1, -1, 0, 3});
  CHECK(r.hops[4].second == hop{1, -1, 0, 3});
}

TEST_CASE(
    "dimension_order_routing: on an 8-ring BookSim2's rule balances the VCs, the SeaStar's "
    "does not",
    "[dimension_order]") {
  // Hops per VC over every ordered pair of an 8-ring (ties at k/2 by the
  // topology's rule): switching at the wrap link leaves 28 of 128 hops on
  // VC1; BookSim2's rule puts half there.
  const torus_topology t({8});
  const auto second_vc_hops = [&](interlock::dateline_rule rule) {
    interlock::dimension_order_options o;
    o.rule = rule;
    const dimension_order_routing dor(t, {}, o);
    std::size_t second = 0, all = 0;
    for (interlock::node_id a = 0; a < 8; ++a)
      for (interlock::node_id b = 0; b < 8; ++b) {
        if (a == b) continue;
        const auto r = record(dor, a, dor.start_with(a, b, traffic_class::request));
        for (const auto& h : r.hops) second += h.second.vc, ++all;
      }
    CHECK(all == 128);
    return second;
  };
  CHECK(second_vc_hops(interlock::dateline_rule::switch_at_wrap) == 28);
  CHECK(second_vc_hops(interlock::dateline_rule::booksim2) == 64);
}

TEST_CASE("dimension_order_routing: Anton 2's six orders", "[dimension_order]") {
  const auto orders = interlock::all_dimension_orders(3);
  REQUIRE(orders.size() == 6);
  CHECK(orders.front() == interlock::dimension_sequence{0, 1, 2});
  CHECK(orders.back() == interlock::dimension_sequence{2, 1, 0});
  torus_topology t({4, 4, 4});
  dimension_order_routing anton(t, orders);
  double total = 0;
  std::vector<unsigned> first_dims;
  anton.for_each_start(
      t.node({0, 0, 0}), t.node({1, 1, 1}), traffic_class::request, [&](auto s, double p) {
        total += p;
        first_dims.push_back(record(anton, t.node({0, 0, 0}), s).hops[0].second.dimension);
      });
  CHECK(total == Approx(1.0));
  CHECK(first_dims == std::vector<unsigned>{0, 0, 1, 1, 2, 2});
  // start() draws the order with exactly one uniform_below over the six.
  interlock::splitmix64 rng(7), copy(7);
  const auto s = anton.start(0, t.node({1, 1, 1}), traffic_class::request, rng);
  const auto expected = anton.orders()[interlock::uniform_below(copy, 6)];
  CHECK(rng == copy);
  for (std::size_t i = 0; i < 3; ++i) CHECK(s.order[i] == expected[i]);
  // One order: nothing is drawn.
  interlock::splitmix64 untouched(7);
  dimension_order_routing(t).start(0, t.node({1, 1, 1}), traffic_class::request, untouched);
  CHECK(untouched == interlock::splitmix64(7));
  CHECK_THROWS_WITH(dimension_order_routing(t, {{0, 0, 1}}),
                    "dimension_order_routing: dimension order = [0,0,1]; allowed: a permutation of "
                    "the 3 dimensions");
}

TEST_CASE("dimension_order_routing: routes are minimal, ordered and use the claimed VCs",
          "[dimension_order][property]") {
  rc::prop("for random topologies, pairs, orders and classes", [] {
    const torus_topology t = *gen_topology(3, 8);
    const dimension_order_routing dor(t, interlock::all_dimension_orders(t.dimensions()));
    const auto src = *rc::gen::inRange<interlock::node_id>(0, t.node_count());
    const auto dst = *rc::gen::inRange<interlock::node_id>(0, t.node_count());
    const auto cls = *rc::gen::element(traffic_class::request, traffic_class::response);
    dor.for_each_start(src, dst, cls, [&](const dimension_order_routing::state& s, double) {
      const recorded_route r = record(dor, src, s);
      RC_ASSERT(r.arrived);
      RC_ASSERT(r.end == dst);
      RC_ASSERT(r.hops.size() == t.distance(src, dst));  // minimal
      std::size_t position = 0;
      bool crossed = false;
      unsigned last_dim = 99;
      for (const auto& [from, h] : r.hops) {
        while (s.order[position] != h.dimension) {
          ++position;  // dimensions only in the packet's order
          RC_ASSERT(position < t.dimensions());
        }
        if (h.dimension != last_dim) crossed = false;
        last_dim = h.dimension;
        crossed = crossed || t.is_wrap_hop(from, h.dimension, h.sign);
        RC_ASSERT(h.sign == t.minimal_direction(h.dimension, t.ordinate(src, h.dimension),
                                                t.ordinate(dst, h.dimension)));
        RC_ASSERT(h.vc == 2 * static_cast<unsigned>(cls) +
                              (crossed ? 1u : 0u));  // VC1 from the dateline on
      }
    });
  });
}
