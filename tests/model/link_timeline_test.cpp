// SPDX-License-Identifier: BSL-1.0
// The torus links' utilization over time (model/link_timeline.hpp): by
// hand on a fabric, and in a run against the network's own channel counts.
#include <catch2/catch.hpp>
#include <interlock/arbiters/round_robin.hpp>
#include <interlock/routing/anton2.hpp>
#include <interlock/traffic/patterns.hpp>

#include <cstdint>
#include <vector>

#include <interlock/model/link_timeline.hpp>
#include <interlock/model/network.hpp>

using interlock::node_id;

TEST_CASE("link_timeline: packets on links between nodes, per bin, over the links' capacity",
          "[model][timeline]") {
  const interlock::torus_topology t({4, 4}, {true, true});
  const interlock::model::fabric f(t);
  interlock::model::link_timeline line(f, 100);
  REQUIRE(line.enabled());
  line.count(0, 0, 1, 150);                             // bin 1
  line.count(3, 2, 4, 199);                             // bin 1
  line.count(5, 1, 2, 0);                               // bin 0
  line.count(5, 4, 9, 0);                               // the local port: not a link
  const std::vector<double> u = line.utilization(250);  // bins of 100, 100, 50 cycles
  REQUIRE(u.size() == 3);
  const double capacity = 16.0 * 4.0;  // 16 routers x 4 links of 1 flit per cycle
  CHECK(u[0] == Approx(2.0 / (capacity * 100)));
  CHECK(u[1] == Approx(5.0 / (capacity * 100)));
  CHECK(u[2] == 0.0);
  CHECK(interlock::model::link_timeline(f, 0).utilization(250).empty());
}

TEST_CASE("link_timeline in a run: the bins add up to the flits the torus links carried",
          "[model][timeline][anton2]") {
  const interlock::torus_topology torus({2, 2, 2}, {}, 2);
  const interlock::anton2_topology node(torus);
  const interlock::anton2_routing anton(node);
  const interlock::model::fabric f = interlock::model::make_fabric(node);
  interlock::model::config c;
  c.batch = 50;
  c.buffer_flits = 4;
  c.measure = 1000000;
  c.utilization_bin = 64;
  using rr8 = interlock::round_robin_arbiter<8>;
  interlock::model::network<interlock::anton2_routing, rr8> net(
      anton, c,
      interlock::model::to_cores(node,
                                 [&torus](node_id s, interlock::splitmix64& g) {
                                   return interlock::traffic::uniform_random{}.destination(torus, s,
                                                                                           g);
                                 }),
      [](node_id, std::size_t) { return rr8{}; });
  const interlock::model::results r = net.run();
  REQUIRE(r.complete);
  double capacity = 0, carried = 0;
  for (node_id x = 0; x < f.routers(); ++x)
    for (std::size_t o = 0; o < f.network_ports(); ++o)
      if (f.out_direction(x, o).between_nodes()) {
        capacity += f.bandwidth(x, o);
        carried += static_cast<double>(net.channel_flits(x, o));
      }
  REQUIRE(carried > 0);
  REQUIRE(r.link_utilization.size() == (net.now() + 63) / 64);
  double sum = 0;
  for (std::size_t k = 0; k < r.link_utilization.size(); ++k) {
    const std::uint64_t cycles = std::min<std::uint64_t>(64, net.now() - k * 64);
    sum += r.link_utilization[k] * capacity * static_cast<double>(cycles);
    CHECK(r.link_utilization[k] <= 1.0 + 1e-9);
  }
  CHECK(sum == Approx(carried));
}
