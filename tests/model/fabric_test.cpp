// SPDX-License-Identifier: BSL-1.0
// The model's fabric (interlock/model/fabric.hpp): a torus as one router per
// node, and the checks of connect().
#include <catch2/catch.hpp>
#include <interlock/core/config_error.hpp>
#include <interlock/model/fabric.hpp>

#include <string>

namespace {

using interlock::no_node;
using interlock::node_id;
using interlock::model::fabric;

TEST_CASE("a torus fabric: every output reaches the neighbor's input of the same port, and back",
          "[model][fabric]") {
  const interlock::torus_topology t({4, 3, 2}, {true, false, true}, 2);
  const fabric f(t);
  REQUIRE(f.routers() == t.node_count());
  REQUIRE(f.network_ports() == t.local_port());
  std::size_t connected = 0;
  for (node_id r = 0; r < f.routers(); ++r)
    for (std::size_t o = 0; o < f.network_ports(); ++o) {
      const auto p = t.port_info(o);
      const auto down = f.downstream(r, o);
      REQUIRE(down.router == t.neighbor(r, p.dimension, p.sign));
      if (down.router == no_node) continue;
      ++connected;
      REQUIRE(down.port == o);
      REQUIRE(f.upstream(down.router, down.port).router == r);
      REQUIRE(f.upstream(down.router, down.port).port == o);
      REQUIRE(f.out_direction(r, o).dimension == static_cast<int>(p.dimension));
      REQUIRE(f.out_direction(r, o).sign == p.sign);
      REQUIRE(f.in_direction(down.router, o).slice == p.slice);
    }
  // Per slice and direction: every node along the rings of 4 and 2, the 16
  // nodes with a neighbor ahead along the lines of 3.
  REQUIRE(connected == 2 * 2 * (24 + 16 + 24));
  REQUIRE(f.describe(t.node({1, 2, 0}), t.port_of(0, -1, 1), t.local_port(), 1) ==
          "node (1,2,0) input -X (travelling -X) slice 1");
  REQUIRE(f.describe(0, t.local_port() + 1, t.local_port(), 2) == "node (0,0,0) input local 1");
}

TEST_CASE("fabric::connect names the argument it refuses", "[model][fabric]") {
  const interlock::torus_topology t({2}, {false});
  fabric f(t, 3, 4);
  f.connect(0, 1, 2, 3);
  auto field = [&](auto&& call) {
    try {
      call();
    } catch (const interlock::config_error& e) {
      return e.field();
    }
    return std::string("none");
  };
  CHECK(field([&] { f.connect(6, 0, 1, 0); }) == "from");
  CHECK(field([&] { f.connect(0, 0, 6, 0); }) == "to");
  CHECK(field([&] { f.connect(0, 4, 1, 0); }) == "out");
  CHECK(field([&] { f.connect(0, 0, 1, 4); }) == "in");
  CHECK(field([&] { f.connect(0, 1, 1, 0); }) == "out");  // already driven
  CHECK(field([&] { f.connect(1, 0, 2, 3); }) == "in");   // already driven
  CHECK(field([&] { f.connect(0, 0, 1, 0, {}, 0.0); }) == "bandwidth");
  CHECK(field([&] { f.connect(0, 0, 1, 0, {}, 1.0, 1001); }) == "extra_latency");
  CHECK(field([] { fabric g(interlock::torus_topology({2}, {false}), 0, 4); }) ==
        "routers_per_node");
  f.connect(0, 0, 1, 0, {}, 0.25, 3);
  CHECK(!f.uniform_bandwidth());
  CHECK(f.max_extra_latency() == 3);
  CHECK(f.upstream(1, 0).router == 0);
  CHECK(f.node_of(4) == 1);
  CHECK(f.kind(4) == 1);
}

}  // namespace
