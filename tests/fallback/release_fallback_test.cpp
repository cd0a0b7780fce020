// SPDX-License-Identifier: BSL-1.0
// Decision paths with INTERLOCK_ASSERT compiled out: bad input must take the
// documented fallback, never undefined behaviour (the sanitizer build runs
// this too). This binary defines INTERLOCK_ASSERT itself, as a user may, and
// INTERLOCK_NO_SIMD, so the portable paths run here too.
#define INTERLOCK_ASSERT(condition, message) static_cast<void>(0)
#define INTERLOCK_NO_SIMD

#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include <interlock/arbiters/age_epoch.hpp>
#include <interlock/arbiters/inverse_weighted.hpp>
#include <interlock/arbiters/priority.hpp>
#include <interlock/arbiters/round_robin.hpp>
#include <interlock/routing/direction_order.hpp>
#include <interlock/routing/vc_table.hpp>
#include <interlock/verify/dependency_graph.hpp>

using interlock::grant;

TEST_CASE("fallback: request bits at or above N are ignored", "[fallback]") {
  interlock::round_robin_arbiter<4> rr;
  CHECK(rr.arbitrate(0xF0) == grant());
  CHECK(rr.arbitrate(0xF2) == grant(1));
  interlock::priority_arbiter<4, 2> prio;
  interlock::priority_requests<2> r;
  r.levels[1] = 0xF0;
  r.levels[0] = 0x1;
  CHECK(prio.arbitrate(r) == grant(0));
}

TEST_CASE("fallback: committing a grant to a requester that does not exist is a no-op",
          "[fallback]") {
  interlock::round_robin_arbiter<4> rr =
      interlock::round_robin_arbiter<4>::with_highest_priority(1);
  rr.commit(grant(4));
  rr.commit(grant(1000));
  rr.commit(grant());
  CHECK(rr.highest_priority() == 1);
  interlock::dynamic_round_robin_arbiter wide(100);
  wide.commit(grant(100));
  CHECK(wide.highest_priority() == 99);
}

TEST_CASE("fallback: a request view of another size reads only the arbiter's requesters",
          "[fallback]") {
  interlock::dynamic_round_robin_arbiter wide(70);
  interlock::dynamic_request_set longer(200), shorter(10);
  longer.set(150).set(69);
  shorter.set(3);
  CHECK(wide.arbitrate(longer) == grant(69));
  CHECK(wide.arbitrate(shorter) == grant(3));
  interlock::dynamic_request_set set(5);
  set.set(7);  // out of range: ignored
  CHECK(set.none());
}

TEST_CASE("fallback: the portable age_heads path agrees with per-head ages", "[fallback]") {
  interlock::age_clock clock(1);
  std::uint64_t x = 0x9e3779b97f4a7c15u;
  for (int round = 0; round < 200; ++round) {
    for (int t = 0; t < 37; ++t) clock.tick();
    interlock::age_heads<28> heads;
    std::array<std::uint8_t, 28> ages{};
    for (std::size_t i = 0; i < 28; ++i) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      heads.set(i, interlock::age_field::from_bits(static_cast<std::uint16_t>(x)));
      ages[i] = heads.age(i, clock);
    }
    const std::uint64_t req = x & interlock::bits::low_mask(28);
    REQUIRE(heads.oldest(req, clock) == interlock::oldest_by_age(req, ages));
  }
}

TEST_CASE("fallback: an inconsistent oldest set falls back to the requests", "[fallback]") {
  interlock::age_epoch_arbiter<8> arb;
  CHECK(arb.arbitrate(interlock::age_requests{0b0100, 0b0010}) == grant(2));
  CHECK(arb.arbitrate(interlock::age_requests{0b0110, 0}) == grant(2));
  CHECK(arb.arbitrate(interlock::age_requests{0x300, 0x300}) == grant());
  interlock::age_clock clock(1);
  for (int i = 0; i < 3000; ++i) clock.admit();  // beyond 2047: stays at the bound
  CHECK(clock.packet_count(0) == interlock::age_clock::max_packet_count);
}

TEST_CASE("fallback: a pattern label out of range is charged the input's largest weight",
          "[fallback]") {
  // The documented fallback, not free service: input 0's packet with label
  // 7 (N = 2) adds max(3, 9) = 9, the same as a packet of pattern 1.
  interlock::inverse_weighted_arbiter<2, 2, 8> bad(
      std::vector<std::vector<std::uint32_t>>{{3, 9}, {4, 4}});
  interlock::inverse_weighted_arbiter<2, 2, 8> largest = bad;
  const std::uint8_t out_of_range[2] = {7, 0};
  const std::uint8_t pattern_one[2] = {1, 0};
  bad.commit(interlock::grant(0), interlock::pattern_requests{0b01, out_of_range});
  largest.commit(interlock::grant(0), interlock::pattern_requests{0b01, pattern_one});
  CHECK(bad.accumulator(0) == 9);
  CHECK(bad == largest);
}

TEST_CASE("fallback: a T3E route tag that does not work takes the minimal route", "[fallback]") {
  const interlock::torus_topology t({4, 4, 4});
  const interlock::direction_order_routing t3e(t);
  interlock::route_tag onto_dateline;
  onto_dateline.initial = 0;  // from x = 3, +X lands on the dateline node 0
  const auto src = t.node({3, 0, 0}), dst = t.node({1, 1, 1});
  const auto fallback = t3e.start_with(src, dst, interlock::traffic_class::request, onto_dateline);
  const auto minimal = t3e.start_with(src, dst, interlock::traffic_class::request);
  CHECK(std::memcmp(&fallback, &minimal, sizeof fallback) == 0);
}

TEST_CASE("fallback: out-of-range arguments to public entry points change nothing", "[fallback]") {
  // Each of these once wrote or shifted out of bounds (the sanitizer build
  // runs this binary): now each is ignored.
  interlock::ring_vc_assignment ring(4);
  const interlock::ring_vc_assignment before = ring;
  ring.flip(70, 0);
  ring.flip(0, 70);
  CHECK(ring == before);
  const interlock::torus_topology t({3});
  interlock::verify::channel_dependency_graph g(t, 2);
  const std::uint64_t v = g.vertex(interlock::verify::cdg_resource{0, 1});
  CHECK(g.vertex(interlock::verify::cdg_resource{0, 2}) ==
        g.vertex_count());  // VC beyond the graph
  CHECK_FALSE(g.add_successor(v, 1u << 20));
  CHECK_FALSE(g.add_successor(g.vertex_count() + 5, 0));
  CHECK_FALSE(g.add(v, interlock::hop{0, +1, 0, 9}));
  CHECK_FALSE(g.add(g.vertex_count(), v));
  g.use(g.vertex_count() + 100);
  CHECK(g.edge_count() == 0);
  CHECK(g.used_count() == 0);
}
