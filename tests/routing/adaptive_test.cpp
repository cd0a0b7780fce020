// SPDX-License-Identifier: BSL-1.0
// Tests of interlock/routing/adaptive.hpp: T3E adaptive routing (Section 5).
#include "support/interlock_test.hpp"
#include "support/routing_checks.hpp"

#include <interlock/routing/adaptive.hpp>

using interlock::hop;
using interlock::t3e_adaptive_routing;
using interlock::torus_topology;
using interlock::traffic_class;
using namespace interlock_test;

TEST_CASE("t3e_adaptive_routing: the escape hop first, then every profitable direction",
          "[adaptive]") {
  torus_topology t({8, 8});
  t3e_adaptive_routing ar(t);
  CHECK(ar.adaptive_vc() == 4);  // after the four escape VCs of two classes
  hop c[1 + 2 * interlock::max_dimensions];
  auto s = ar.start_with(t.node({0, 0}), t.node({2, 4}), traffic_class::request);
  const std::size_t n = ar.candidates(t.node({0, 0}), s, c);
  REQUIRE(n == 4);
  CHECK(c[0] == hop{0, +1, 0, 0});        // escape: +X on its table VC
  CHECK(c[1] == hop{0, +1, 0, 4, true});  // adaptive +X
  CHECK(c[2] == hop{1, +1, 0, 4, true});  // Y at exactly k/2: both ways are minimal
  CHECK(c[3] == hop{1, -1, 0, 4, true});
  CHECK(interlock::adaptive_hop_allowed(22, 10));
  CHECK_FALSE(interlock::adaptive_hop_allowed(9, 10));
}

TEST_CASE("t3e_adaptive_routing: any choice among the candidates arrives", "[adaptive][property]") {
  rc::prop("a packet picking candidates at random reaches its destination minimally", [] {
    const torus_topology t = *gen_topology(3, 8);
    const t3e_adaptive_routing ar(t);
    const auto src = *rc::gen::inRange<interlock::node_id>(0, t.node_count());
    const auto dst = *rc::gen::inRange<interlock::node_id>(0, t.node_count());
    splitmix rng(*rc::gen::arbitrary<std::uint64_t>());
    auto s = ar.start_with(src, dst, traffic_class::response);
    interlock::node_id at = src;
    std::size_t hops = 0;
    hop c[1 + 2 * interlock::max_dimensions];
    while (!ar.arrived(at, s)) {
      const std::size_t n = ar.candidates(at, s, c);
      const hop taken = c[rng.below(n)];
      RC_ASSERT(taken.vc == ar.adaptive_vc() || taken.vc / 2 == 1);  // response class or adaptive
      ar.follow(at, s, taken);
      at = t.neighbor(at, taken.dimension, taken.sign);
      RC_ASSERT(at != interlock::no_node);
      RC_ASSERT(++hops <= t.distance(src, dst));  // every candidate is profitable
    }
    RC_ASSERT(at == dst);
    RC_ASSERT(hops == t.distance(src, dst));
  });
}
