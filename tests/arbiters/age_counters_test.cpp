// SPDX-License-Identifier: BSL-1.0
// Tests of interlock/arbiters/age_counters.hpp: Table 4 and Eq. 17.
#include "support/interlock_test.hpp"

#include <interlock/arbiters/age_counters.hpp>

TEST_CASE("Table 4: the age histogram in four buckets of 64", "[age_counters]") {
  interlock::router_perf_counters perf;
  for (unsigned age : {0u, 63u, 64u, 127u, 128u, 200u, 255u, 255u})
    perf.count_departure_age(static_cast<std::uint8_t>(age));
  CHECK(perf.age_bucket(0) == 2);
  CHECK(perf.age_bucket(1) == 2);
  CHECK(perf.age_bucket(2) == 1);
  CHECK(perf.age_bucket(3) == 3);
  CHECK(perf.age_group0() == (std::uint64_t{2} << 32 | 2));  // RTR_AGE_GROUP0
  CHECK(perf.age_group1() == (std::uint64_t{3} << 32 | 1));  // RTR_AGE_GROUP1
}

TEST_CASE("Table 4 and Eq. 17: stalls, blocked cycles, packets and occupancy", "[age_counters]") {
  interlock::router_perf_counters perf;
  CHECK(perf.occupancy() == 0);
  for (int i = 0; i < 30; ++i) perf.count_stalled_cycle();
  perf.count_received(0, 9);
  perf.count_received(1, 4);
  perf.count_received(2, 9);  // response class: not in Eq. 17's denominator
  perf.count_blocked_cycle(3);
  CHECK(perf.stalled() == 30);
  CHECK(perf.vc_packets(0) == 1);
  CHECK(perf.vc_flits(1) == 4);
  CHECK(perf.vc_blocked(3) == 1);
  CHECK(perf.occupancy() == Approx(15.0));  // 30 / (1 + 1)
  CHECK_THROWS_AS(perf.count_received(4, 1), interlock::contract_violation);
  CHECK(perf.vc_packets(0) == 1);
}

TEST_CASE("counting n cycles at once equals counting each", "[age_counters]") {
  interlock::router_perf_counters one, many;
  for (int i = 0; i < 17; ++i) {
    one.count_blocked_cycle(2);
    one.count_stalled_cycle();
  }
  many.count_blocked_cycles(2, 17);
  many.count_stalled_cycles(17);
  CHECK_THROWS(many.count_blocked_cycles(9, 5));  // not a VC: a contract violation
  CHECK(one.vc_blocked(2) == many.vc_blocked(2));
  CHECK(one.stalled() == many.stalled());
  CHECK(many.vc_blocked(1) == 0);
}
