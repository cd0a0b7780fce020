// SPDX-License-Identifier: BSL-1.0
// Anton 2's unified network (topology/anton2_node.hpp, routing/anton2.hpp,
// verify/unified_deadlock.hpp): the node's layout against what Towles et al.
// (ISCA'14) Sections 2.2-2.5 say of it, routes, VC promotion and deadlock
// freedom on the combined on-chip and torus channel graph.
#include <catch2/catch.hpp>
#include <interlock/core/config_error.hpp>
#include <interlock/core/random.hpp>
#include <interlock/routing/anton2.hpp>
#include <interlock/verify/unified_deadlock.hpp>

#include <algorithm>
#include <array>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace {

using interlock::anton2_routing;
using interlock::anton2_topology;
using interlock::hop;
using interlock::mesh_direction;
using interlock::node_id;
using interlock::torus_topology;
using interlock::traffic_class;
using a2 = anton2_topology;

// The routers a route visits (from the source's, before each hop) and its hops.
std::vector<std::pair<node_id, hop>> route_of(const anton2_routing& a, anton2_routing::state s,
                                              node_id from) {
  std::vector<std::pair<node_id, hop>> hops;
  for (node_id r = from; !a.arrived(r, s);) {
    const hop h = a.next(r, s);
    hops.emplace_back(r, h);
    r = a.topology().next(r, h);
    REQUIRE(r != interlock::no_node);
    REQUIRE(hops.size() < a.topology().hop_limit());
  }
  return hops;
}

// The kinds a route visits inside node n, in order.
std::vector<std::string> visits_in(const std::vector<std::pair<node_id, hop>>& hops, node_id n) {
  std::vector<std::string> v;
  for (const auto& x : hops)
    if (a2::node_of(x.first) == n) v.push_back(a2::name(a2::kind(x.first)));
  return v;
}

TEST_CASE("Anton 2 node: the through routes Section 2.4 names", "[routing][anton2]") {
  const torus_topology torus({4, 5, 4}, {}, 2);
  const anton2_topology node(torus);
  const anton2_routing anton(node, {{0, 1, 2}});
  // "Y_0^+ -> R_{0,2} -> Y_0^-": a packet travelling Y- on slice 0 through
  // node (0,1,0) arrives on the Y0+ link (from the Y+ neighbour) and leaves
  // on Y0-, crossing one router.
  const node_id src = node.router(torus.node({0, 2, 0}), a2::kind_of(1, 1));
  const node_id dst = node.router(torus.node({0, 0, 0}), a2::kind_of(1, 1));
  const auto y = route_of(anton, anton.start_with(src, dst, traffic_class::request, 0, 0), src);
  CHECK(visits_in(y, torus.node({0, 1, 0})) ==
        std::vector<std::string>{"C(Y0+)", "R(0,2)", "C(Y0-)"});
  // "X_1^- -> R_{3,0} --skip--> R_{0,0} -> X_1^+": travelling X+ on slice 1.
  const node_id xs = node.router(torus.node({0, 0, 0}), a2::kind_of(2, 2));
  const node_id xd = node.router(torus.node({2, 0, 0}), a2::kind_of(2, 2));
  const auto x = route_of(anton, anton.start_with(xs, xd, traffic_class::request, 0, 1), xs);
  CHECK(visits_in(x, torus.node({1, 0, 0})) ==
        std::vector<std::string>{"C(X1-)", "R(3,0)", "R(0,0)", "C(X1+)"});
  bool skipped = false;
  for (const auto& h : x)
    if (a2::node_of(h.first) == torus.node({1, 0, 0}) && a2::kind(h.first) == a2::kind_of(3, 0))
      skipped = h.second.dimension == a2::dim_skip;
  CHECK(skipped);
  // A local route (injection) crosses the mesh in direction order V-, U+, U-, V+.
  const auto from_core = visits_in(x, torus.node({0, 0, 0}));
  CHECK(from_core ==
        std::vector<std::string>{"R(2,2)", "R(2,1)", "R(2,0)", "R(1,0)", "R(0,0)", "C(X1+)"});
}

TEST_CASE("Anton 2 node: the layout's ports and channels", "[routing][anton2]") {
  const torus_topology torus({3, 3, 3}, {}, 2);
  const anton2_topology node(torus);
  // Six ports in use at every router (Section 4.4: "Routers have six
  // ports"): its mesh channels, skip channel and adapters, and one core;
  // routers with fewer would host more cores on the ASIC (23 endpoint
  // adapters in all), which the model leaves out.
  std::size_t channels_attached = 0;
  for (std::size_t k = 0; k < a2::mesh_routers; ++k) {
    int used = 1;  // the core
    used += (a2::u_of(k) > 0) + (a2::u_of(k) < 3) + (a2::v_of(k) > 0) + (a2::v_of(k) < 3);
    used += node.skip_peer(k) != a2::no_kind;
    for (std::size_t p = a2::port_a; p <= a2::port_b; ++p) {
      const bool has = node.adapter_at(k, p) != a2::no_kind;
      used += has ? 1 : 0;
      channels_attached += has ? 1u : 0u;
    }
    CHECK(used <= 6);
  }
  CHECK(channels_attached == 12);
  // Every torus channel on the I/O edges U = 0 and U = 3; X+ and X- on
  // opposite edges; a slice's Y and Z on the same edge.
  for (unsigned s = 0; s < 2; ++s) {
    CHECK(a2::u_of(node.channel_router(0, +1, s)) == 0);
    CHECK(a2::u_of(node.channel_router(0, -1, s)) == 3);
    for (unsigned d = 1; d < 3; ++d)
      for (int sign : {+1, -1})
        CHECK(a2::u_of(node.channel_router(d, sign, s)) == a2::u_of(node.channel_router(1, +1, s)));
  }
  CHECK(node.channel_router(1, +1, 0) == a2::kind_of(0, 2));
  CHECK(node.channel_router(1, -1, 0) == a2::kind_of(0, 2));
  CHECK(node.channel_router(0, -1, 1) == a2::kind_of(3, 0));
  CHECK(node.channel_router(0, +1, 1) == a2::kind_of(0, 0));
  CHECK(node.skip_peer(a2::kind_of(3, 0)) == a2::kind_of(0, 0));
  // Torus links: adapter (d, +, s) of node n and adapter (d, -, s) of n + 1.
  const node_id n = torus.node({2, 0, 1});
  const hop onto{0, +1, 1, 0};
  CHECK(node.next(node.router(n, a2::adapter_kind(0, +1, 1)), onto) ==
        node.router(torus.node({0, 0, 1}), a2::adapter_kind(0, -1, 1)));
  // Bad input names its field.
  auto field = [](auto&& make) {
    try {
      make();
    } catch (const interlock::config_error& e) {
      return e.field();
    }
    return std::string("none");
  };
  CHECK(field([] { anton2_topology a(torus_topology({4, 4}, {}, 2)); }) == "dimensions");
  CHECK(field([] { anton2_topology a(torus_topology({4, 4, 4}, {}, 1)); }) == "slices");
  CHECK(field([] {
          anton2_topology a(torus_topology({4, 4, 4}, {true, false, true}, 2));
        }) == "wrap");
  CHECK(field([] {
          anton2_topology a(torus_topology({4, 4, 4}, {}, 2), interlock::anton2_links{0.0, 0});
        }) == "torus_bandwidth");
  CHECK(field([&] { anton2_routing r(node, {{0, 0, 1}}); }) != "none");
}

// Section 2.4: the worst-case permutation (1) under a direction order, as
// loads on the mesh channels (each flow one torus channel's worth, both
// slices carrying one flow each).
int worst_mesh_load(const anton2_topology& node, const std::array<mesh_direction, 4>& order) {
  struct flow {
    unsigned d_in;
    int s_in;
    unsigned d_out;
    int s_out;
  };
  // Columns of (1): arriving on the channel labelled (d_in, s_in), leaving on (d_out, s_out).
  const flow flows[] = {{0, +1, 2, -1}, {0, -1, 0, +1}, {1, +1, 1, -1},
                        {1, -1, 2, +1}, {2, +1, 0, -1}, {2, -1, 1, +1}};
  std::map<std::pair<std::size_t, int>, int> load;
  for (unsigned slice = 0; slice < 2; ++slice)
    for (const flow& f : flows) {
      std::size_t k = node.channel_router(f.d_in, f.s_in, slice);
      const std::size_t goal = node.channel_router(f.d_out, f.s_out, slice);
      const bool through = f.d_in == f.d_out;  // X through routes ride the skip channel
      if (through) continue;
      while (k != goal) {
        const mesh_direction d = anton2_topology::ordered_route(order, k, goal);
        ++load[{k, static_cast<int>(d)}];
        k = anton2_topology::mesh_step(k, d);
      }
    }
  int worst = 0;
  for (const auto& x : load) worst = std::max(worst, x.second);
  return worst;
}

TEST_CASE("Anton 2 node: Section 2.4's worst-case permutation loads a mesh channel with two flows",
          "[routing][anton2]") {
  const anton2_topology node(torus_topology({4, 4, 4}, {}, 2));
  using md = mesh_direction;
  // "routing V-, U+, U-, and then V+ ... the most heavily loaded mesh
  // channels carry two torus channels' worth of traffic".
  CHECK(worst_mesh_load(node, {md::v_minus, md::u_plus, md::u_minus, md::v_plus}) == 2);
  // No direction order does better on this permutation with this layout.
  std::array<md, 4> order{md::u_plus, md::u_minus, md::v_plus, md::v_minus};
  std::sort(order.begin(), order.end());
  int best = 100;
  do {
    best = std::min(best, worst_mesh_load(node, order));
  } while (std::next_permutation(order.begin(), order.end()));
  CHECK(best == 2);
}

TEST_CASE("Anton 2 routing: VC promotion raises the VC once per dimension routed",
          "[routing][anton2]") {
  const torus_topology torus({4, 3, 4}, {}, 2);
  const anton2_topology node(torus);
  const anton2_routing anton(node);
  CHECK(anton.vcs_per_class() == 4);
  interlock::splitmix64 rng(3);
  for (int i = 0; i < 400; ++i) {
    const auto src = static_cast<node_id>(interlock::uniform_below(rng, node.router_count()));
    const auto dst = static_cast<node_id>(interlock::uniform_below(rng, node.router_count()));
    if (!a2::hosts(src) || !a2::hosts(dst) || src == dst) continue;
    const traffic_class c = i % 2 ? traffic_class::response : traffic_class::request;
    const auto s = anton.start(src, dst, c, rng);
    const auto hops = route_of(anton, s, src);
    unsigned vc = 0, dims = 0;
    for (std::size_t d = 0; d < 3; ++d)
      dims += torus.ordinate(a2::node_of(src), d) != torus.ordinate(a2::node_of(dst), d);
    for (const auto& h : hops) {
      REQUIRE(h.second.vc / 4 == static_cast<unsigned>(c));
      REQUIRE(h.second.vc % 4 >= vc);  // never down
      vc = h.second.vc % 4;
    }
    // The last dimension's increment comes when the packet turns off it,
    // onto the mesh towards the core: unless its core's router is the one
    // the packet arrives at.
    CHECK((vc == dims || vc + 1 == dims));
    CHECK(vc <= 3);
  }
}

TEST_CASE("Anton 2 routing: every route arrives and the on-chip plus torus graph is acyclic",
          "[routing][anton2][verify]") {
  const torus_topology torus({3, 2, 2}, {}, 2);
  const anton2_topology node(torus);
  const auto report = interlock::verify::check_unified_deadlock_freedom(
      anton2_routing(node), {traffic_class::request, traffic_class::response});
  INFO(report.route_problem);
  CHECK(report.routes_arrive);
  CHECK(report.acyclic);
  CHECK(report.routes == 2u * (12u * 16u) * (12u * 16u - 1u) * 12u);
  CHECK(report.edges > 1000);
  // Without promotion (one VC a class) the rings close cycles, and the
  // checker names one.
  const auto broken = interlock::verify::check_unified_deadlock_freedom(
      anton2_routing(node, interlock::all_dimension_orders(3), {false}));
  CHECK(broken.routes_arrive);
  CHECK(!broken.acyclic);
  CHECK(!broken.cycle.empty());
  CHECK(broken.cycle.front().find("node (") == 0);
}

}  // namespace
