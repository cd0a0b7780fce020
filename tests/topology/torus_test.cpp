// SPDX-License-Identifier: BSL-1.0
// Tests of interlock/topology/torus.hpp against breadth-first search and
// [Abts07]'s Eq. 4-7.
#include "support/interlock_test.hpp"
#include "support/routing_checks.hpp"

#include <interlock/arbiters/age_tuning.hpp>
#include <interlock/routing/route.hpp>
#include <interlock/topology/torus.hpp>

#include <queue>

using interlock::torus_topology;
using namespace interlock_test;

namespace {
// Hop distances from `source` by BFS over the topology's channels.
std::vector<std::size_t> bfs(const torus_topology& t, interlock::node_id source) {
  std::vector<std::size_t> dist(t.node_count(), static_cast<std::size_t>(-1));
  std::queue<interlock::node_id> q;
  dist[source] = 0;
  q.push(source);
  while (!q.empty()) {
    const interlock::node_id v = q.front();
    q.pop();
    for (unsigned d = 0; d < t.dimensions(); ++d)
      for (int sign : {+1, -1}) {
        const interlock::node_id w = t.neighbor(v, d, sign);
        if (w != interlock::no_node && dist[w] == static_cast<std::size_t>(-1)) {
          dist[w] = dist[v] + 1;
          q.push(w);
        }
      }
  }
  return dist;
}
}  // namespace

TEST_CASE("torus_topology: nodes, coordinates, neighbors and channels", "[topology]") {
  torus_topology t({8, 4, 3}, {true, false, true});
  CHECK(t.node_count() == 96);
  CHECK(t.node({1, 2, 0}) == 1 + 8 * 2);
  CHECK(t.coordinates_of(t.node({7, 3, 2})) == interlock::coordinates{7, 3, 2});
  CHECK(t.neighbor(t.node({7, 0, 0}), 0, +1) == t.node({0, 0, 0}));  // X is a ring
  CHECK(t.is_wrap_hop(t.node({7, 0, 0}), 0, +1));
  CHECK(t.neighbor(t.node({0, 3, 0}), 1, +1) == interlock::no_node);  // Y is a line
  CHECK(t.neighbor(t.node({0, 0, 0}), 2, -1) == t.node({0, 0, 2}));
  CHECK(t.with_ordinate(t.node({5, 1, 2}), 1, 3) == t.node({5, 3, 2}));
  const interlock::channel_ref c{t.node({3, 1, 2}), 1, -1, 0};
  CHECK(t.channel_info(t.channel(c)) == c);
  CHECK_FALSE(t.channel_exists(t.channel({t.node({0, 0, 1}), 1, -1, 0})));
  CHECK(t.channel_exists(t.channel({t.node({0, 0, 1}), 0, -1, 0})));
  CHECK(t.diameter() == 4 + 3 + 1);
}

TEST_CASE("torus_topology: peer_port is the same link's port at the neighbour", "[topology]") {
  const interlock::torus_topology t({4, 3}, {true, false}, 2);  // two slices
  for (std::size_t p = 0; p < t.local_port(); ++p) {
    const interlock::port_ref here = t.port_info(p), there = t.port_info(t.peer_port(p));
    CHECK(there.dimension == here.dimension);
    CHECK(there.slice == here.slice);
    CHECK(there.sign == -here.sign);
    CHECK(t.peer_port(t.peer_port(p)) == p);
  }
  CHECK(t.peer_port(t.local_port()) == t.local_port());
  // A packet that hops +X arrives, at the neighbour, on the link's -X port.
  CHECK(t.peer_port(t.port_of(0, +1)) == t.port_of(0, -1));
  CHECK(t.peer_port(t.port_of(1, -1, 1)) == t.port_of(1, +1, 1));
}

TEST_CASE("torus_topology: the tie rule at exactly k/2", "[topology]") {
  torus_topology t({8});
  CHECK(t.minimal_direction(0, 2, 6) == +1);  // even source: +
  CHECK(t.minimal_direction(0, 3, 7) == -1);  // odd source: -
  CHECK(t.minimal_direction(0, 1, 3) == +1);
  CHECK(t.minimal_direction(0, 1, 7) == -1);
  CHECK(t.minimal_direction(0, 4, 4) == 0);
  CHECK(t.minimal_hops(0, 3, 7) == 4);
}

TEST_CASE("torus_topology: distances against breadth-first search", "[topology][property]") {
  rc::prop("distance, diameter and channel ids", [] {
    const torus_topology t = *gen_topology(3, 7);
    const auto source = *rc::gen::inRange<interlock::node_id>(0, t.node_count());
    const std::vector<std::size_t> dist = bfs(t, source);
    std::size_t farthest = 0;
    for (interlock::node_id v = 0; v < t.node_count(); ++v) {
      RC_ASSERT(t.distance(source, v) == dist[v]);
      RC_ASSERT(t.node(t.coordinates_of(v)) == v);
      farthest = std::max(farthest, dist[v]);
      for (unsigned d = 0; d < t.dimensions(); ++d)
        for (int sign : {+1, -1}) {
          const interlock::channel_ref c{v, d, sign, 0};
          RC_ASSERT(t.channel_info(t.channel(c)) == c);
          RC_ASSERT(t.channel_exists(t.channel(c)) ==
                    (t.neighbor(v, d, sign) != interlock::no_node));
        }
    }
    RC_ASSERT(t.diameter() >= farthest);  // BFS from one node; equality checked below
    RC_ASSERT(t.diameter() == [&] {
      std::size_t worst = 0;
      for (interlock::node_id v = 0; v < t.node_count(); ++v)
        worst = std::max(worst, t.distance(0, v));
      return worst;
    }());
  });
}

TEST_CASE("torus_topology: average minimal hops agree with [Abts07]'s Eq. 4-7", "[topology]") {
  using interlock::age_tuning::average_hops;
  using interlock::age_tuning::dimension;
  using interlock::age_tuning::wrap;
  for (std::size_t k = 2; k <= 16; ++k) {
    torus_topology ring({k}), line({k}, {false});
    const double kd = static_cast<double>(k);
    if (k % 2 == 0)
      CHECK(ring.dimension_average_hops(0, interlock::pair_set::all_pairs) ==
            Approx(average_hops(dimension{k})));
    else
      CHECK(ring.dimension_average_hops(0, interlock::pair_set::all_pairs) ==
            Approx((kd * kd - 1.0) / (4.0 * kd)));
    CHECK(line.dimension_average_hops(0, interlock::pair_set::distinct_pairs) ==
          Approx(average_hops(dimension{k, wrap::mesh})));
  }
  // The worked example's torus: 2.75 + 3 + 4 with Eq. 5; the exact average
  // over all pairs differs only in the odd dimension.
  torus_topology xt3({11, 12, 16});
  CHECK(xt3.average_minimal_hops(interlock::pair_set::all_pairs) == Approx(120.0 / 44 + 3 + 4));
}

TEST_CASE("torus_topology: configuration errors", "[topology][config]") {
  CHECK_THROWS_WITH(torus_topology({8, 1}),
                    "torus_topology: radix of dimension 1 = 1; allowed: 2..65535");
  CHECK_THROWS_AS(torus_topology(std::vector<std::size_t>(9, 2)), interlock::config_error);
  CHECK_THROWS_AS(torus_topology({}), interlock::config_error);
  CHECK_THROWS_WITH(torus_topology({4, 4}, {true}),
                    "torus_topology: wrap flags = 1; allowed: one per dimension, 2");
  CHECK_THROWS_AS(torus_topology({4}, {}, 0), interlock::config_error);
  CHECK_THROWS_AS(torus_topology({65535, 65535, 65535}), interlock::config_error);
}

TEST_CASE("torus_topology: a router's ports", "[torus][ports]") {
  const torus_topology t({4, 4, 4}, {}, 2);
  CHECK(t.ports() == 13);  // 2 n slices + 1
  CHECK(t.local_port() == 12);
  CHECK(t.port_of(0, +1, 0) == 0);
  CHECK(t.port_of(0, -1, 0) == 1);
  CHECK(t.port_of(2, -1, 0) == 5);
  CHECK(t.port_of(1, +1, 1) == 8);
  interlock::hop h{2, -1, 1, 3};
  CHECK(t.port_of(h) == 11);
  // port_info inverts port_of, and every direction has its own port.
  std::vector<bool> seen(t.ports(), false);
  for (unsigned slice = 0; slice < 2; ++slice)
    for (unsigned d = 0; d < 3; ++d)
      for (int sign : {+1, -1}) {
        const std::size_t p = t.port_of(d, sign, slice);
        REQUIRE(p < t.local_port());
        CHECK_FALSE(seen[p]);
        seen[p] = true;
        const interlock::port_ref r = t.port_info(p);
        CHECK_FALSE(r.local);
        CHECK(r.dimension == d);
        CHECK(r.sign == sign);
        CHECK(r.slice == slice);
      }
  CHECK(t.port_info(t.local_port()).local);
  CHECK_THROWS_AS(t.port_of(3, +1, 0), interlock::contract_violation);
  CHECK_THROWS_AS(t.port_info(13), interlock::contract_violation);
}
