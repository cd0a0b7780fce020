// SPDX-License-Identifier: BSL-1.0
// Tests of interlock/verify/arbiter_checks.hpp: the checks accept correct
// arbiters and catch broken ones.
#include "support/interlock_test.hpp"

#include <interlock/arbiters/round_robin.hpp>
#include <interlock/verify/arbiter_checks.hpp>

using interlock::grant;
using interlock::verify::round_robin_order_monitor;

namespace {

// Fixed priority: the highest index always wins. Starves low indices.
grant fixed_priority(std::uint64_t requests) {
  return requests != 0 ? grant(interlock::bits::highest_index(requests)) : grant();
}

// A broken arbiter for check_decision: grants requester 0 whatever is asked.
struct always_zero {
  using request_type = std::uint64_t;
  interlock::grant arbitrate(std::uint64_t) const { return interlock::grant(0); }
  void commit(interlock::grant, const std::uint64_t&) {}
  interlock::grant grant(std::uint64_t r) { return arbitrate(r); }
  std::size_t size() const { return 64; }
  friend bool operator==(const always_zero&, const always_zero&) { return true; }
};

}  // namespace

TEST_CASE("round_robin_order_monitor: fixed priority breaks the wait bound", "[verify]") {
  // Requester 0 always asks; 1, 2, 3 ask in turn and always win over it.
  round_robin_order_monitor monitor(4);
  CHECK(monitor.observe(std::uint64_t{0b0011}, fixed_priority(0b0011)));
  CHECK(monitor.observe(std::uint64_t{0b0101}, fixed_priority(0b0101)));
  CHECK(monitor.observe(std::uint64_t{0b1001}, fixed_priority(0b1001)));
  CHECK(monitor.max_wait() == 3);
  CHECK_FALSE(monitor.observe(std::uint64_t{0b0011}, fixed_priority(0b0011)));
  CHECK_THAT(monitor.violation(), Catch::Contains("requester 0 kept requesting for 4 decisions"));
}

TEST_CASE("round_robin_order_monitor: fixed priority breaks alternation", "[verify]") {
  round_robin_order_monitor monitor(4);
  CHECK(monitor.observe(std::uint64_t{0b1001}, fixed_priority(0b1001)));
  CHECK_FALSE(monitor.observe(std::uint64_t{0b1001}, fixed_priority(0b1001)));
  CHECK_THAT(monitor.violation(), Catch::Contains("requester 3 was granted at decisions 0 and 1"));
}

TEST_CASE("round_robin_order_monitor: a repeat grant while another waits breaks alternation",
          "[verify]") {
  round_robin_order_monitor monitor(8);
  CHECK(monitor.observe(std::uint64_t{0b11}, grant(1)));
  CHECK_FALSE(monitor.observe(std::uint64_t{0b11}, grant(1)));
  CHECK_THAT(monitor.violation(),
             Catch::Contains("requester 1 was granted at decisions 0 and 1 while requester 0"));
  CHECK_FALSE(monitor.observe(std::uint64_t{0b11}, grant(0)));  // stays failed
}

TEST_CASE("round_robin_order_monitor: a grant before the window does not count", "[verify]") {
  round_robin_order_monitor monitor(8);
  CHECK(monitor.observe(std::uint64_t{0b11}, grant(0)));
  CHECK(monitor.observe(std::uint64_t{0b11}, grant(1)));
  CHECK_FALSE(monitor.observe(std::uint64_t{0b11},
                              grant(1)));  // 0 was served, but not since 1's last grant
  CHECK_THAT(monitor.violation(), Catch::Contains("requester 1 was granted at decisions 1 and 2"));
}

TEST_CASE("round_robin_order_monitor: a requester that comes and goes may be passed over",
          "[verify]") {
  round_robin_order_monitor monitor(8);
  CHECK(monitor.observe(std::uint64_t{0b11}, grant(1)));
  CHECK(monitor.observe(std::uint64_t{0b10}, grant(1)));  // 0 stopped asking: no obligation
  CHECK(monitor.observe(std::uint64_t{0b11}, grant(0)));
  CHECK(monitor.decisions() == 3);
}

TEST_CASE("round_robin_order_monitor: the round-robin arbiter passes", "[verify]") {
  interlock::round_robin_arbiter<16> rr;
  round_robin_order_monitor monitor(16);
  std::uint64_t x = 0x9e3779b97f4a7c15u;
  for (int k = 0; k < 2000; ++k) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    const std::uint64_t req = (x & 0xffff) | 0x0101;  // 0 and 8 always ask
    REQUIRE(monitor.observe(req, rr.grant(req)));
  }
  CHECK(monitor.max_wait() <= 15);
}

TEST_CASE("check_decision: reports the invariants a broken arbiter violates", "[verify]") {
  const auto good =
      interlock::verify::check_decision(interlock::round_robin_arbiter<8>(), std::uint64_t{0b100});
  CHECK(static_cast<bool>(good));
  CHECK(good.g == grant(2));
  const auto bad = interlock::verify::check_decision(always_zero{}, std::uint64_t{0b100});
  CHECK_FALSE(static_cast<bool>(bad));
  CHECK(bad.failed == "grant_implies_request");
  const auto idle = interlock::verify::check_decision(always_zero{}, std::uint64_t{0});
  CHECK(idle.failed == "grant_implies_request work_conserving");
}
