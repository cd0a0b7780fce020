// SPDX-License-Identifier: BSL-1.0
// The model on Anton 2's unified network (model/anton2_node.hpp): a node of
// 16 mesh routers and 12 channel adapters, routed by anton2_routing.
#include <catch2/catch.hpp>
#include <interlock/arbiters/round_robin.hpp>
#include <interlock/routing/anton2.hpp>
#include <interlock/traffic/patterns.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>

#include <interlock/model/network.hpp>
#include "support/network_makers.hpp"

namespace {

using interlock::node_id;
using interlock_test::make;
using rr = interlock::round_robin_arbiter<64>;
using a2 = interlock::anton2_topology;
using anton2_net = interlock::model::network<interlock::anton2_routing, rr>;

}  // namespace

TEST_CASE("Anton 2 network: the fabric links every router as the topology numbers it",
          "[model][anton2]") {
  const interlock::torus_topology torus({3, 2, 2}, {}, 2);
  const interlock::anton2_topology node(torus);
  const interlock::model::fabric f = interlock::model::make_fabric(node);
  REQUIRE(f.routers() == 12 * 28);
  REQUIRE(f.host_count() == 12 * 16);
  std::size_t mesh = 0, skip = 0, adapter = 0, torus_links = 0;
  for (node_id r = 0; r < f.routers(); ++r)
    for (std::size_t o = 0; o < f.network_ports(); ++o) {
      const auto down = f.downstream(r, o);
      if (down.router == interlock::no_node) continue;
      REQUIRE(f.upstream(down.router, down.port).router == r);
      if (f.out_direction(r, o).between_nodes()) {
        ++torus_links;
        REQUIRE(f.bandwidth(r, o) < 0.32);
      } else if (a2::is_adapter(a2::kind(r)) || a2::is_adapter(a2::kind(down.router))) {
        ++adapter;
      } else if (o == a2::port_skip) {
        ++skip;
      } else {
        ++mesh;
      }
    }
  CHECK(mesh == 12u * 48u);         // 24 mesh links of a 4x4 mesh, both ways
  CHECK(skip == 12u * 4u);          // two skip channels, both ways
  CHECK(adapter == 12u * 24u);      // 12 adapters linked both ways
  CHECK(torus_links == 12u * 12u);  // 12 channels out of every node
}

TEST_CASE("Anton 2 network: conservation and credit loops every cycle past saturation",
          "[model][anton2][invariants]") {
  const interlock::torus_topology torus({3, 2, 2}, {}, 2);
  const interlock::anton2_topology node(torus);
  const interlock::anton2_routing anton(node);
  interlock::model::config c;
  c.load = 0.3;  // per core: far past the torus links' saturation
  c.lengths = {{1, 0.6}, {2, 0.4}};
  c.buffer_flits = 4;
  c.response_share = 0.5;
  c.warmup = 100;
  c.measure = 1500;
  c.drain = 20000;
  anton2_net net(anton, c,
                 interlock::model::to_cores(
                     node,
                     [&torus](node_id s, interlock::splitmix64& g) {
                       return interlock::traffic::uniform_random{}.destination(torus, s, g);
                     }),
                 make<rr>());
  net.start();
  for (int i = 0; i < 1500; ++i) {
    net.step();
    const std::string problem = net.check_invariants();
    INFO("cycle " << net.now() << ": " << problem);
    REQUIRE(problem.empty());
  }
  CHECK(net.delivered() > 1000);
  CHECK(!net.deadlock().deadlocked);
}

TEST_CASE("Anton 2 network: a batch delivers every packet to its core, without deadlock",
          "[model][anton2][batch]") {
  const interlock::torus_topology torus({4, 3, 2}, {}, 2);
  const interlock::anton2_topology node(torus);
  const interlock::anton2_routing anton(node);
  interlock::model::config c;
  c.batch = 40;
  c.buffer_flits = 2;
  c.measure = 200000;
  std::uint64_t wrong = 0, delivered = 0;
  anton2_net net(anton, c,
                 interlock::model::to_cores(node,
                                            [&torus](node_id s, interlock::splitmix64& g) {
                                              return interlock::traffic::tornado{}.destination(
                                                  torus, s, g);
                                            }),
                 make<rr>());
  net.on_delivery = [&](node_id s, node_id d, unsigned, std::uint64_t, std::uint64_t) {
    ++delivered;
    // Tornado: node (x, y, z) sends to (x + k/2 - 1, ...); any core there.
    const auto from = torus.coordinates_of(a2::node_of(s));
    const auto to = torus.coordinates_of(a2::node_of(d));
    for (std::size_t k = 0; k < 3; ++k)
      if (to[k] != (from[k] + torus.radix(k) / 2 - 1) % torus.radix(k)) ++wrong;
    if (!a2::hosts(d)) ++wrong;
  };
  const interlock::model::results r = net.run();
  CHECK(r.complete);
  CHECK(!r.deadlock.deadlocked);
  CHECK(delivered == 40u * 24u * 16u);
  CHECK(wrong == 0);
  CHECK(r.sources.size() == 24u * 16u);  // cores only: adapters send nothing
  // Every torus link carries at most its bandwidth.
  for (const auto& u : r.utilization)
    for (const double x : u) CHECK(x <= node.links().torus_bandwidth + 1e-9);
}

TEST_CASE("Anton 2 network: zero-load latency counts every router and adapter on the way",
          "[model][anton2][latency]") {
  const interlock::torus_topology torus({4, 4, 4}, {}, 2);
  const interlock::anton2_topology node(torus);
  const interlock::anton2_routing anton(node, {{0, 1, 2}});
  interlock::model::config c;
  c.batch = 1;
  c.measure = 10000;
  // One packet: core R(1,1) of node 0 to core R(1,1) of node (0,1,0) on a
  // slice the route draws. Each hop costs channel_latency + router_delay = 2
  // cycles, plus the injection channel's and the ejection port's cycle; a
  // 1-flit packet crosses a torus link in ceil(1 / 0.311) = 4 cycles.
  const node_id src = node.router(0, a2::kind_of(1, 1));
  const node_id dst = node.router(torus.node({0, 1, 0}), a2::kind_of(1, 1));
  anton2_net net(
      anton, c,
      [src, dst](node_id s, interlock::splitmix64&) { return s == src ? dst : interlock::no_node; },
      make<rr>());
  std::uint64_t hops = 0;
  net.on_send = [&](node_id, std::size_t, std::size_t, unsigned, std::uint64_t) { ++hops; };
  const interlock::model::results r = net.run();
  REQUIRE(r.complete);
  REQUIRE(r.latency_mean > 0);
  // hops sends (the last the ejection): injection 2 cycles, then per send
  // 2 cycles, the torus link 3 more, ejection 1.
  CHECK(r.latency_mean == Approx(2.0 + 2.0 * static_cast<double>(hops - 1) + 3.0 + 1.0));
}

namespace {

// Cycles a batch of 1-flit uniform packets takes on a 2x2x2 torus of Anton 2
// nodes whose torus links take `latency` extra cycles, with 2-flit buffers at
// the mesh routers and `adapter` flits at the channel adapters.
std::uint64_t batch_cycles(unsigned latency, unsigned adapter, std::string& problem) {
  const interlock::torus_topology torus({2, 2, 2}, {}, 2);
  interlock::anton2_links links;
  links.torus_latency = latency;
  const interlock::anton2_topology node(torus, links);
  const interlock::anton2_routing anton(node);
  interlock::model::config c;
  c.batch = 60;
  c.buffer_flits = 2;
  c.adapter_buffer_flits = adapter;
  c.measure = 1000000;
  anton2_net net(anton, c,
                 interlock::model::to_cores(
                     node,
                     [&torus](node_id s, interlock::splitmix64& g) {
                       return interlock::traffic::uniform_random{}.destination(torus, s, g);
                     }),
                 make<rr>());
  // Each kind of input has its own depth: a mesh router's ports 2 flits, an
  // adapter's (from its router and from the torus link) `adapter`.
  const node_id mesh = node.router(0, 0), adapter_router = node.router(0, a2::mesh_routers);
  for (std::size_t p = 0; p < a2::network_ports; ++p) CHECK(net.buffer_flits(mesh, p) == 2);
  CHECK(net.buffer_flits(adapter_router, a2::adapter_router_port) == adapter);
  CHECK(net.buffer_flits(adapter_router, a2::adapter_torus_port) == adapter);
  net.start();
  while (!net.finished()) {
    net.step();
    if (problem.empty()) problem = net.check_invariants();
  }
  CHECK(net.delivered() == 60u * 16u * 8u);
  return net.now();
}

}  // namespace

TEST_CASE(
    "Anton 2 network: adapter buffers deep enough for a long torus link's credit round trip "
    "keep it busy",
    "[model][anton2][buffers]") {
  // A torus link of 40 extra cycles: credits come back 2 x 41 cycles after
  // a flit leaves, so at 0.31 flits per cycle a VC needs about 26 flits of
  // buffer at the adapter to keep its link busy; 2 flits starve it.
  std::string problem;
  const std::uint64_t shallow = batch_cycles(40, 2, problem);
  const std::uint64_t deep = batch_cycles(40, 32, problem);
  CHECK(problem.empty());
  CHECK(static_cast<double>(shallow) > 1.5 * static_cast<double>(deep));
  // With no extra latency the deep adapters change far less.
  const std::uint64_t near_shallow = batch_cycles(0, 2, problem);
  const std::uint64_t near_deep = batch_cycles(0, 32, problem);
  CHECK(problem.empty());
  CHECK(static_cast<double>(near_shallow) < 1.5 * static_cast<double>(near_deep));
}

TEST_CASE("Anton 2 network: an adapter buffer shorter than a packet is refused by its name",
          "[model][anton2][buffers][contract]") {
  const interlock::torus_topology torus({2, 2, 2}, {}, 2);
  const interlock::anton2_topology node(torus);
  const interlock::anton2_routing anton(node);
  interlock::model::config c;
  c.lengths = {{4, 1.0}};
  c.buffer_flits = 4;
  c.adapter_buffer_flits = 3;
  try {
    anton2_net net(
        anton, c, [](node_id, interlock::splitmix64&) { return interlock::no_node; }, make<rr>());
    FAIL("accepted 3-flit adapter buffers for 4-flit packets");
  } catch (const interlock::config_error& e) {
    CHECK(e.field() == "adapter_buffer_flits");
  }
}

TEST_CASE("Anton 2 network: each router holds the ports it has, and policies only for them",
          "[model][anton2][layout]") {
  const interlock::torus_topology torus({2, 2, 2}, {}, 2);
  const interlock::anton2_topology node(torus);
  const interlock::model::fabric f = interlock::model::make_fabric(node);
  // Adapters use their two ports (from the router, from the torus link);
  // mesh routers every network port and the core's.
  const interlock::model::router_state s(f, 8, {8, 8, 32}, 1, 1);
  std::size_t total = 0;
  for (node_id r = 0; r < f.routers(); ++r) {
    const std::size_t expected = a2::is_adapter(a2::kind(r)) ? 2 : a2::network_ports + 1;
    REQUIRE(s.ports_of(r) == expected);
    REQUIRE(s.port_index(r, 0) == total);
    for (std::size_t p = 0; p < s.ports_of(r); ++p) REQUIRE(s.router_of(s.port_index(r, p)) == r);
    total += expected;
  }
  CHECK(s.total_ports == 8u * (16u * 8u + 12u * 2u));
  CHECK(s.buf.size() == s.total_ports * 8);
  CHECK(s.credits.size() == s.total_ports * 8);
  // A mesh router's credits are for the buffer downstream: an adapter's.
  const node_id mesh = node.router(0, node.channel_router(0, +1, 0));
  const std::size_t to_adapter = node.channel_port(0, +1, 0);
  CHECK(s.credits[s.buffer(mesh, to_adapter, 3)] == 32);
  CHECK(s.buffer_flits(node.router(0, a2::adapter_kind(0, +1, 0)), a2::adapter_torus_port) == 32);

  interlock::model::config c;
  c.batch = 4;
  interlock::traffic::uniform_random uniform;
  std::size_t made = 0;
  const interlock::anton2_routing anton(node);
  anton2_net net(anton, c,
                 interlock::model::to_cores(node,
                                            [&](node_id n, interlock::splitmix64& g) {
                                              return uniform.destination(torus, n, g);
                                            }),
                 [&made](node_id, std::size_t) {
                   ++made;
                   return rr{};
                 });
  CHECK(made == s.total_ports);
  const node_id adapter = node.router(1, a2::adapter_kind(1, -1, 1));
  CHECK(net.routers().ports(adapter) == 2);
  CHECK_THROWS_AS(net.routers().policy(adapter, 2), std::out_of_range);
  CHECK_THROWS_AS(net.routers().policy(f.routers(), 0), std::out_of_range);
  CHECK(net.routers().arbitrations(adapter, 5) == 0);
}
