// SPDX-License-Identifier: BSL-1.0
// Tests of interlock/verify/arbiter_oracle.hpp and share_monitor.hpp: each
// property holds for a correct arbiter and is caught, with its cycle, on an
// arbiter written to break it.
#include "support/interlock_test.hpp"

#include <cstdint>
#include <vector>

#include <interlock/arbiters/round_robin.hpp>
#include <interlock/verify/arbiter_oracle.hpp>
#include <interlock/verify/share_monitor.hpp>

namespace verify = interlock::verify;

namespace {

verify::arbiter_cycle cycle_of(std::uint64_t requests, std::uint64_t grant) {
  verify::arbiter_cycle c;
  c.requests = requests;
  c.grant = grant;
  return c;
}

// Runs `arbiter` (a function from requests to a grant vector) on the
// stream 0b0111, 0b1011, 0b1101, 0b1110, ... and returns the oracle.
template <class Arbiter>
verify::arbiter_oracle run(Arbiter arbiter, verify::arbiter_properties p, int cycles = 64) {
  verify::arbiter_oracle oracle(4, p);
  for (int t = 0; t < cycles; ++t) {
    const std::uint64_t requests = 0b1111u & ~(std::uint64_t{1} << (3 - t % 4));
    if (!oracle.observe(cycle_of(requests, arbiter(requests)))) break;
  }
  return oracle;
}

std::uint64_t highest(std::uint64_t r) {
  return r != 0 ? std::uint64_t{1} << interlock::bits::highest_index(r) : 0;
}

verify::arbiter_properties bounded(std::size_t b) {
  verify::arbiter_properties p;
  p.wait_bound = b;
  return p;
}

}  // namespace

TEST_CASE("arbiter_oracle: round robin passes every property at its bound", "[verify]") {
  interlock::round_robin_arbiter<4> rr;
  auto oracle =
      run([&](std::uint64_t r) { return verify::grant_vector(rr.grant(r)); }, bounded(3), 400);
  CHECK(oracle.passed());
  CHECK(oracle.cycles() == 400);
}

TEST_CASE("arbiter_oracle: a grant outside the requests is caught with its cycle", "[verify]") {
  auto oracle = run(
      [](std::uint64_t r) { return r == 0b1011 ? std::uint64_t{0b0100} : highest(r); }, bounded(3));
  REQUIRE_FALSE(oracle.passed());
  CHECK(oracle.violation()->property == "grant_to_requester");
  CHECK(oracle.violation()->cycle == 1);
  CHECK_THAT(oracle.violation()->what(),
             Catch::Contains("cycle 1: grant vector 0x4 is not inside requests 0xb"));
}

TEST_CASE("arbiter_oracle: two grants at once are caught", "[verify]") {
  auto oracle =
      run([](std::uint64_t r) { return r == 0b1101 ? std::uint64_t{0b0101} : highest(r); },
          verify::arbiter_properties{});
  REQUIRE_FALSE(oracle.passed());
  CHECK(oracle.violation()->cycle == 2);
  CHECK_THAT(oracle.violation()->detail, Catch::Contains("more than one bit"));
}

TEST_CASE("arbiter_oracle: requests outside the arbiter's width are caught", "[verify]") {
  verify::arbiter_oracle oracle(4, verify::arbiter_properties{});
  CHECK_FALSE(oracle.observe(cycle_of(0b10001, 0b1)));
  CHECK_THAT(oracle.violation()->detail, Catch::Contains("bits at or above 4"));
}

TEST_CASE("arbiter_oracle: an idle cycle with requests breaks work conservation", "[verify]") {
  auto oracle = run([](std::uint64_t r) { return r == 0b1110 ? 0 : highest(r); },
                    verify::arbiter_properties{});
  REQUIRE_FALSE(oracle.passed());
  CHECK(oracle.violation()->property == "work_conserving");
  CHECK(oracle.violation()->cycle == 3);
  verify::arbiter_properties lax;
  lax.work_conserving = false;
  CHECK(run([](std::uint64_t r) { return r == 0b1110 ? 0 : highest(r); }, lax).passed());
}

TEST_CASE("arbiter_oracle: fixed priority breaks round robin's wait bound", "[verify]") {
  // Requester 0 always asks; 1, 2 and 3 ask in turn and always win over it.
  const std::uint64_t stream[] = {0b0011, 0b0101, 0b1001};
  verify::arbiter_oracle oracle(4, bounded(3));
  verify::arbiter_oracle free_run(4, verify::arbiter_properties{});
  for (int t = 0; t < 64; ++t) {
    const std::uint64_t r = stream[t % 3];
    oracle.observe(cycle_of(r, highest(r)));
    free_run.observe(cycle_of(r, highest(r)));
  }
  REQUIRE_FALSE(oracle.passed());
  CHECK(oracle.violation()->property == "wait_bound");
  CHECK_THAT(oracle.violation()->what(),
             Catch::Contains("cycle 3: requester 0 was passed over 4 cycles in a row (bound 3)"));
  // Unbounded, the same arbiter passes, and the longest wait is reported.
  CHECK(free_run.passed());
  CHECK(free_run.max_wait() == 64);
}

TEST_CASE("arbiter_oracle: only eligible requesters' waits count; reset forgets them", "[verify]") {
  verify::arbiter_oracle oracle(2, bounded(1));
  verify::arbiter_cycle c = cycle_of(0b11, 0b10);
  c.eligible = 0b10;  // requester 0 asks at a lower level
  for (int t = 0; t < 5; ++t) CHECK(oracle.observe(c));
  CHECK(oracle.max_wait() == 0);
  CHECK(oracle.observe(cycle_of(0b11, 0b10)));
  oracle.reset();
  CHECK(oracle.observe(cycle_of(0b11, 0b10)));  // one wait since the reset
  CHECK_FALSE(oracle.observe(cycle_of(0b11, 0b10)));
  CHECK(oracle.violation()->cycle == 7);
}

TEST_CASE("arbiter_oracle: a held grant must stay with its holder", "[verify]") {
  verify::arbiter_properties p;
  p.grant_hold = true;
  verify::arbiter_oracle oracle(4, p);
  verify::arbiter_cycle c = cycle_of(0b0011, 0b0010);
  c.hold = 0b0010;
  CHECK(oracle.observe(c));  // granted, and asks to hold
  CHECK(oracle.observe(c));  // held
  c.hold = 0;
  c.grant = 0b0001;
  CHECK(oracle.observe(c));  // released: another may win
  c.hold = 0b0001;
  c.grant = 0b0010;
  CHECK_FALSE(oracle.observe(c));
  CHECK(oracle.violation()->property == "grant_hold");
  CHECK(oracle.violation()->cycle == 3);
  CHECK_THAT(oracle.violation()->detail, Catch::Contains("requester 0 holds its grant"));
}

TEST_CASE("arbiter_oracle: a hold by a requester that stopped asking binds nothing", "[verify]") {
  verify::arbiter_properties p;
  p.grant_hold = true;
  verify::arbiter_oracle oracle(4, p);
  verify::arbiter_cycle c = cycle_of(0b0011, 0b0010);
  CHECK(oracle.observe(c));
  c.requests = 0b0001;
  c.grant = 0b0001;
  c.hold = 0b0010;
  CHECK(oracle.observe(c));
}

TEST_CASE("arbiter_oracle: sizes outside 1..64 are refused", "[verify]") {
  CHECK_THROWS_WITH(verify::arbiter_oracle(0, {}), Catch::Contains("requesters = 0"));
  CHECK_THROWS_WITH(verify::arbiter_oracle(65, {}), Catch::Contains("1..64"));
  CHECK_NOTHROW(verify::arbiter_oracle(64, {}));
}

TEST_CASE("share_monitor: shares of saturated decisions against a spread bound", "[verify]") {
  // Grants 0, 0, 1 repeated: costs 1 and 2 give targets 2/3 and 1/3, and
  // the weighted services differ by at most 2.
  verify::share_monitor shares(3, 0b011);
  for (int t = 0; t < 300; ++t) {
    shares.observe(0b111, t % 3 == 2 ? 0b010 : 0b001);
    shares.observe(0b001, 0b001);  // not saturated: not counted
  }
  CHECK(shares.decisions() == 300);
  CHECK(*shares.share(0) == Approx(2.0 / 3));
  const auto b = verify::spread_share_bounds({1.0, 2.0}, 2.0, shares.decisions());
  REQUIRE(b);
  CHECK(b->target[0] == Approx(2.0 / 3));
  CHECK(b->tolerance[0] == Approx(2.0 / 3 * 2 / (200 - 2)));
  CHECK(shares.check(b->target, b->tolerance).outcome == verify::share_check::within);
  // Round robin's halves are outside the same bounds.
  verify::share_monitor even(2, 0b11);
  for (int t = 0; t < 300; ++t) even.observe(0b11, t % 2 == 0 ? 0b01 : 0b10);
  const auto check = even.check(b->target, b->tolerance);
  CHECK(check.outcome == verify::share_check::outside);
  CHECK_THAT(check.detail, Catch::Contains("requester 0 got 150 of 300 grants"));
}

TEST_CASE("share_monitor: no saturated decision is none, not a share", "[verify]") {
  verify::share_monitor shares(2, 0b11);
  shares.observe(0b01, 0b01);
  CHECK_FALSE(shares.share(0));
  CHECK(shares.check({0.5, 0.5}, {0.1, 0.1}).outcome == verify::share_check::none);
  CHECK_FALSE(verify::spread_share_bounds({1.0, 1.0}, 4.0, 8));  // T / H = 4: nothing yet
  CHECK_THROWS_WITH(verify::spread_share_bounds({1.0, 0.0}, 1.0, 8), Catch::Contains("cost = 0"));
  CHECK_THROWS_WITH(verify::share_monitor(2, 0b100), Catch::Contains("non-empty subset"));
}
