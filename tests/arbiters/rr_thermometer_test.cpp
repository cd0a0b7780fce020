// SPDX-License-Identifier: BSL-1.0
// Tests of interlock/arbiters/rr_thermometer.hpp: the Anton 2 round-robin state.
#include "support/interlock_test.hpp"
#include "support/reference_arbiters.hpp"

#include <interlock/arbiters/rr_thermometer.hpp>

using interlock::dynamic_rr_thermometer;
using interlock::grant;
using interlock::rr_thermometer;

TEST_CASE("rr_thermometer: Figure 8's state and the update after a grant", "[rr_thermometer]") {
  rr_thermometer<8> rr;
  CHECK(rr.mask() == 0);
  CHECK(rr.highest_priority() == 7);  // all zeros: plain fixed priority, MSB first
  rr.advance(grant(5));
  CHECK(rr.mask() == 0b00011111);  // bits [0, 5): requester 4 is favoured next
  CHECK(rr.highest_priority() == 4);
  CHECK(rr.ones() == 5);
  rr.advance(grant(0));
  CHECK(rr.mask() == 0);
  rr.advance(grant(7));
  CHECK(rr.mask() == 0b01111111);
  rr.advance(grant());   // no grant: unchanged
  rr.advance(grant(8));  // not a requester: unchanged
  CHECK(rr.mask() == 0b01111111);
  CHECK(rr_thermometer<8>::with_highest_priority(2).mask() == 0b111);
  CHECK(rr_thermometer<8>::with_highest_priority(7).highest_priority() == 7);
  CHECK(rr_thermometer<64>(~std::uint64_t{0}).highest_priority() == 63);
}

TEST_CASE("rr_thermometer: a state that is not a thermometer code is a config_error",
          "[rr_thermometer][config]") {
  try {
    rr_thermometer<4> bad(0b0101);
    FAIL("accepted 0b0101");
  } catch (const interlock::config_error& e) {
    CHECK(std::string(e.what()) ==
          "rr_thermometer: rr_therm = 0x5; allowed: a thermometer code (ones from bit 0 up) of "
          "at most 4 bits");
  }
  CHECK_THROWS_AS(rr_thermometer<4>(0b11111), interlock::config_error);
  try {
    static_cast<void>(rr_thermometer<4>::with_highest_priority(4, "round_robin_arbiter"));
    FAIL("accepted requester 4 of 4");
  } catch (const interlock::config_error& e) {
    CHECK(std::string(e.what()) == "round_robin_arbiter: highest_priority = 4; allowed: 0..3");
  }
  CHECK_THROWS_AS(dynamic_rr_thermometer(0), interlock::config_error);
  CHECK_THROWS_WITH(dynamic_rr_thermometer(0, "x"), "x: size = 0; allowed: 1..4294967295");
  interlock::dynamic_request_set holes(100);
  holes.set(0).set(70);
  CHECK_THROWS_AS(dynamic_rr_thermometer(holes, "x"), interlock::config_error);
}

TEST_CASE("dynamic_rr_thermometer: the words of rr_therm", "[rr_thermometer]") {
  const dynamic_rr_thermometer rr(interlock_test::thermometer_set(130, 70), "x");
  CHECK(rr.size() == 130);
  CHECK(rr.ones() == 70);
  CHECK(rr.word(0) == ~std::uint64_t{0});
  CHECK(rr.word(1) == 0b111111);
  CHECK(rr.word(2) == 0);
  CHECK(rr.valid_word(2) == 0b11);
  CHECK(rr.mask() == interlock_test::thermometer_set(130, 70));
  CHECK(rr.highest_priority() == 69);
  CHECK(dynamic_rr_thermometer(130).highest_priority() == 129);
}

TEST_CASE("rr_thermometer: both forms keep the same state", "[rr_thermometer][property]") {
  rc::prop(
      "after any grants, the 64-bit and the dynamic forms agree and stay thermometer codes", [] {
        const auto grants =
            *rc::gen::container<std::vector<std::size_t>>(rc::gen::inRange<std::size_t>(0, 70));
        rr_thermometer<48> fixed;
        dynamic_rr_thermometer dynamic(48);
        for (std::size_t g : grants) {
          fixed.advance(grant(g));
          dynamic.advance(grant(g));
          RC_ASSERT(interlock::invariants::thermometer_coded(fixed.mask(), 48));
          RC_ASSERT(fixed.mask() == dynamic.word(0));
          RC_ASSERT(fixed.highest_priority() == dynamic.highest_priority());
        }
      });
}
