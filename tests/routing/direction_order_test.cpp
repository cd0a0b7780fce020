// SPDX-License-Identifier: BSL-1.0
// Tests of interlock/routing/direction_order.hpp: T3E direction-order
// routing (Scott & Thorson, HOTI'96, Sections 2-4) and Anton 2's on-chip order.
#include "support/interlock_test.hpp"
#include "support/routing_checks.hpp"

#include <interlock/routing/direction_order.hpp>

using interlock::direction;
using interlock::direction_order_routing;
using interlock::hop;
using interlock::route_tag;
using interlock::tag_choice;
using interlock::torus_topology;
using interlock::traffic_class;
using namespace interlock_test;

namespace {
std::vector<direction> directions_of(const recorded_route& r) {
  std::vector<direction> out;
  for (const auto& [from, h] : r.hops)
    if (out.empty() || !(out.back() == direction{h.dimension, h.sign}))
      out.push_back({h.dimension, h.sign});
  return out;
}
}  // namespace

TEST_CASE("Figure 3: direction order turns on different corners", "[direction_order]") {
  torus_topology t({3, 3, 3});
  direction_order_routing t3e(t);
  // (+X, +Y, +Z) travels X, then Y, then Z.
  auto r = record(t3e, t.node({0, 0, 0}),
                  t3e.start_with(t.node({0, 0, 0}), t.node({1, 1, 1}), traffic_class::request));
  CHECK(directions_of(r) == std::vector<direction>{{0, +1}, {1, +1}, {2, +1}});
  // (-X, +Y, +Z) travels Y, then Z, then X.
  r = record(t3e, t.node({1, 0, 0}),
             t3e.start_with(t.node({1, 0, 0}), t.node({0, 1, 1}), traffic_class::request));
  CHECK(directions_of(r) == std::vector<direction>{{1, +1}, {2, +1}, {0, -1}});
}

TEST_CASE("Section 2.2: an initial hop, then the route proper, then a final -Z hop",
          "[direction_order]") {
  torus_topology t({4, 4, 4});
  direction_order_routing t3e(t);
  route_tag tag;
  tag.initial = 0;  // +X
  tag.way[0] = tag_choice::other_way;
  // From (0,0,0) to (1,1,1): the initial +X hop reaches x = 1, so X is done.
  auto r =
      record(t3e, t.node({0, 0, 0}),
             t3e.start_with(t.node({0, 0, 0}), t.node({1, 1, 1}), traffic_class::request, tag));
  REQUIRE(r.arrived);
  CHECK(directions_of(r) == std::vector<direction>{{0, +1}, {1, +1}, {2, +1}});
  CHECK(r.hops[0].second.vc == 0);  // the initial hop uses VC0
  // An initial +X hop, and the X route itself the other way round (-X):
  // +X, +Y, +Z, then -X.
  r = record(t3e, t.node({0, 0, 0}),
             t3e.start_with(t.node({0, 0, 0}), t.node({2, 1, 1}), traffic_class::request, tag));
  CHECK(directions_of(r) == std::vector<direction>{{0, +1}, {1, +1}, {2, +1}, {0, -1}});
  CHECK(r.hops.size() == 1 + 1 + 1 + 3);
  route_tag final_tag;
  final_tag.final_hop = true;
  r = record(
      t3e, t.node({0, 0, 0}),
      t3e.start_with(t.node({0, 0, 0}), t.node({1, 0, 1}), traffic_class::request, final_tag));
  REQUIRE(r.arrived);
  // The final -Z hop turns into -Z: its table's VC (time of crossing: VC0).
  CHECK(r.hops.back().second == hop{2, -1, 0, 0});
  CHECK(directions_of(r) == std::vector<direction>{{0, +1}, {2, +1}, {2, -1}});
  // Straight on: from z = 1 to z = 2 the route proper runs to z = 3 the
  // minimal way, 1 -> 0 -> 3 in -Z (a tie from an odd ordinate goes -),
  // reaching the - dateline node 3 over the wrap link; the final hop leaves
  // it in -Z, so it has passed through on VC0 and goes on on VC1.
  r = record(
      t3e, t.node({0, 0, 1}),
      t3e.start_with(t.node({0, 0, 1}), t.node({0, 0, 2}), traffic_class::request, final_tag));
  REQUIRE(r.arrived);
  std::vector<unsigned> final_vcs;
  for (const auto& [from, h] : r.hops) final_vcs.push_back(h.vc);
  CHECK(directions_of(r) == std::vector<direction>{{2, -1}});
  CHECK(final_vcs == std::vector<unsigned>{0, 0, 1});
  // An initial hop may not land on a dateline node (from x = 3, +X wraps to 0).
  route_tag onto_dateline;
  onto_dateline.initial = 0;
  // check_tag says why; start_with given such a tag is a contract violation.
  CHECK_THROWS_WITH(
      t3e.check_tag(t.node({3, 0, 0}), t.node({1, 1, 1}), onto_dateline),
      Catch::Contains("a hop that stays in the network and does not land on a dateline node"));
  CHECK_FALSE(t3e.usable(t.node({3, 0, 0}), t.node({1, 1, 1}), onto_dateline));
  CHECK_THROWS_AS(
      t3e.start_with(t.node({3, 0, 0}), t.node({1, 1, 1}), traffic_class::request, onto_dateline),
      interlock::contract_violation);
  torus_topology mesh({4, 4}, {false, false});
  direction_order_routing on_mesh(mesh);
  route_tag off_edge;
  off_edge.final_hop = true;
  CHECK_THROWS_AS(on_mesh.check_tag(0, mesh.node({0, 3}), off_edge), interlock::config_error);
  CHECK_THROWS_AS(on_mesh.start_with(0, mesh.node({0, 3}), traffic_class::request, off_edge),
                  interlock::contract_violation);
  route_tag beyond;
  beyond.initial = 3;  // only the first n = 3 directions may start a route
  CHECK_THROWS_AS(t3e.check_tag(0, 1, beyond), interlock::config_error);
  CHECK_FALSE(t3e.usable(0, 1, beyond));
}

TEST_CASE("Anton 2's on-chip order V-, U+, U-, V+ on a mesh", "[direction_order]") {
  torus_topology chip({3, 3}, {false, false});  // U = dimension 0, V = dimension 1
  direction_order_routing local(chip, {{1, -1}, {0, +1}, {0, -1}, {1, +1}});
  auto r = record(local, chip.node({0, 2}),
                  local.start_with(chip.node({0, 2}), chip.node({2, 0}), traffic_class::request));
  CHECK(directions_of(r) == std::vector<direction>{{1, -1}, {0, +1}});
  r = record(local, chip.node({2, 0}),
             local.start_with(chip.node({2, 0}), chip.node({0, 2}), traffic_class::request));
  CHECK(directions_of(r) == std::vector<direction>{{0, -1}, {1, +1}});
  CHECK_THROWS_AS(direction_order_routing(chip, {{1, -1}, {0, +1}, {0, -1}, {1, -1}}),
                  interlock::config_error);
}

TEST_CASE("direction_order_routing: VCs from the tables and the dateline node",
          "[direction_order]") {
  torus_topology t({8});
  // Time of crossing: 6 -> 2 passes node 0 (6 -> 7 -> 0 -> 1 -> 2): VC1 after leaving 0.
  direction_order_routing toc(t);
  auto r = record(
      toc, 6, toc.start_with(6, 2, traffic_class::request));  // a tie at k/2 from an even source: +
  std::vector<unsigned> vcs;
  for (const auto& [from, h] : r.hops) vcs.push_back(h.vc);
  CHECK(vcs == std::vector<unsigned>{0, 0, 1, 1});
  // A route that ends at the dateline node does not cross: 6 -> 0 stays on VC0.
  r = record(toc, 6, toc.start_with(6, 0, traffic_class::request));
  CHECK(r.hops.back().second.vc == 0);
  // A table entry of 1 puts a free route on VC1 from its first hop.
  interlock::ring_vc_assignment table(8);
  table.set(1, 3, 1);  // source 1, destination 3
  direction_order_routing tabled(t, {}, {table});
  r = record(tabled, 1, tabled.start_with(1, 3, traffic_class::response));
  CHECK(r.hops[0].second.vc == 3);  // response class: VC2/VC3
  // A table that puts a route over the dateline on VC1 is rejected.
  interlock::ring_vc_assignment unsafe(8);
  unsafe.set(7, 1, 1);  // 7 -> 1 passes node 0
  CHECK_THROWS_WITH(direction_order_routing(t, {}, {unsafe}),
                    Catch::Contains("the route 7 -> 1 passes the dateline"));
  // 5 -> 1 in + passes node 0 too, but a tie from an odd source goes -: the
  // minimal model never takes it, so only tables that serve other-way tags
  // or final hops must keep it on VC0.
  interlock::ring_vc_assignment long_way(8);
  long_way.set(5, 1, 1);
  CHECK_NOTHROW(interlock::validate(long_way));
  CHECK_NOTHROW(direction_order_routing(t, {}, {long_way}));
  CHECK_THROWS_WITH(interlock::validate(long_way, interlock::vc_routes::every_route),
                    Catch::Contains("the route 5 -> 1 passes the dateline"));
  CHECK_THROWS_AS(direction_order_routing(t, {}, {long_way}, {true, false, false}),
                  interlock::config_error);
  CHECK_THROWS_AS(direction_order_routing(t, {}, {long_way}, {false, false, true}),
                  interlock::config_error);
  // A full turn from 3 back to 3 passes node 0 as well.
  interlock::ring_vc_assignment full_turn(8);
  full_turn.set(3, 3, 1);
  CHECK_NOTHROW(interlock::validate(full_turn));
  CHECK_THROWS_AS(interlock::validate(full_turn, interlock::vc_routes::every_route),
                  interlock::config_error);
}

TEST_CASE(
    "direction_order_routing: routes arrive, respect the order, and are minimal when tagged so",
    "[direction_order][property]") {
  rc::prop("for random topologies, tags, initial and final hops", [] {
    const torus_topology t = *gen_topology(3, 8);
    const direction_order_routing t3e(t, {}, {}, {true, true, true});
    const auto src = *rc::gen::inRange<interlock::node_id>(0, t.node_count());
    const auto dst = *rc::gen::inRange<interlock::node_id>(0, t.node_count());
    double total = 0;
    t3e.for_each_start(
        src, dst, traffic_class::request, [&](const direction_order_routing::state& s, double p) {
          total += p;
          const recorded_route r = record(t3e, src, s);
          RC_ASSERT(r.arrived && r.end == dst);
          // The route proper's directions never go back in the order.
          std::size_t first = s.initial >= 0 ? 1 : 0;
          std::size_t last = r.hops.size() - (s.final_hop ? 1 : 0);
          int previous = -1;
          bool minimal_tag = true;
          for (unsigned d = 0; d < t.dimensions(); ++d) {
            const std::size_t a = t.ordinate(src, d), b = t.ordinate(s.target, d);
            minimal_tag = minimal_tag && s.sign[d] == t.minimal_direction(d, a, b);
          }
          for (std::size_t i = first; i < last; ++i) {
            const hop& h = r.hops[i].second;
            int index = 0;
            while (
                !(t3e.order()[static_cast<std::size_t>(index)] == direction{h.dimension, h.sign}))
              ++index;
            RC_ASSERT(index >= previous);
            previous = index;
            RC_ASSERT(h.vc < 2);
          }
          if (minimal_tag && s.initial < 0 && !s.final_hop)
            RC_ASSERT(r.hops.size() == t.distance(src, dst));
        });
    RC_ASSERT(std::abs(total - 1.0) < 1e-9);
  });
}
