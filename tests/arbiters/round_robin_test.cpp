// SPDX-License-Identifier: BSL-1.0
// Tests of interlock/arbiters/round_robin.hpp: worked examples, the named
// invariants as properties, and differential checks against a loop reference
// and against a transcription of Figure 8 ([Towles14]) for N = 1..130.
#include "support/interlock_test.hpp"
#include "support/reference_arbiters.hpp"

#include <interlock/arbiters/round_robin.hpp>
#include <interlock/verify/arbiter_checks.hpp>

using interlock::dynamic_round_robin_arbiter;
using interlock::grant;
using interlock::round_robin_arbiter;
using namespace interlock_test;

TEST_CASE("round_robin_arbiter: the worked example of the header", "[round_robin]") {
  round_robin_arbiter<4> rr;  // rr_therm = 0: requester 3 first
  CHECK(rr.grant(0b1011) == grant(3));
  CHECK(rr.thermometer().mask() == 0b0111);
  CHECK(rr.grant(0b1011) == grant(1));
  CHECK(rr.thermometer().mask() == 0b0001);
  CHECK(rr.grant(0b1011) == grant(0));
  CHECK(rr.thermometer().mask() == 0);
  CHECK(rr.grant(0b1011) == grant(3));
}

TEST_CASE("round_robin_arbiter: after a grant to g, g-1 is favoured and g comes last",
          "[round_robin]") {
  round_robin_arbiter<8> rr = round_robin_arbiter<8>::with_highest_priority(2);
  std::vector<std::size_t> order;
  for (int k = 0; k < 10; ++k) order.push_back(rr.grant(0xff).index());
  CHECK(order == std::vector<std::size_t>{2, 1, 0, 7, 6, 5, 4, 3, 2, 1});
  CHECK(rr.grant(0) == grant());  // no request: no grant, state unchanged
  CHECK(rr.highest_priority() == 0);
}

TEST_CASE("round_robin_arbiter: decide without committing", "[round_robin]") {
  round_robin_arbiter<8> rr;
  const grant first = rr.arbitrate(0b0110);
  CHECK(rr.arbitrate(0b0110) == first);  // arbitrate changes nothing
  rr.commit(grant());                    // committing no grant: no-op
  CHECK(rr.arbitrate(0b0110) == first);
  rr.commit(first);
  CHECK(rr.arbitrate(0b0110) != first);
  CHECK(round_robin_arbiter<1>().grant(1) == grant(0));
  CHECK(round_robin_arbiter<1>().size() == 1);
}

TEST_CASE("round_robin_arbiter: differential against references, N = 1..130",
          "[round_robin][property]") {
  rc::prop("round_robin_arbiter<N> (N <= 64) grants as the loop reference", [] {
    const arbitration_scenario s = *gen_scenario(64, 1, 24);
    with_fixed_size(s.n, [&](auto n) {
      constexpr std::size_t N = decltype(n)::value;
      require_agrees_with_reference(
          round_robin_arbiter<N>(interlock::bits::thermometer(s.ones)), s,
          [](const levels_t& l) { return to_mask(l); }, true);
    });
  });
  rc::prop("dynamic_round_robin_arbiter grants as the loop reference", [] {
    const arbitration_scenario s = *gen_scenario(130, 1, 24);
    const interlock::dynamic_request_set therm = thermometer_set(s.n, s.ones);
    std::vector<interlock::dynamic_request_set> owned;  // views must outlive the call
    require_agrees_with_reference(
        dynamic_round_robin_arbiter(therm), s,
        [&](const levels_t& l) {
          owned.push_back(to_request_set(l));
          return owned.back().view();
        },
        true);
  });
  rc::prop("grant_onehot0: Figure 8's grant vector with P = 1 is one-hot and is the grant", [] {
    const arbitration_scenario s = *gen_scenario(130, 1, 1);
    dynamic_round_robin_arbiter rr(thermometer_set(s.n, s.ones));
    bool onehot0 = false;
    const grant hardware = figure8_grant(s.steps[0], 1, s.ones, onehot0);
    RC_ASSERT(onehot0);
    RC_ASSERT(rr.arbitrate(to_request_set(s.steps[0])) == hardware);
  });
}

TEST_CASE("round_robin_arbiter: the named invariants hold", "[round_robin][property]") {
  rc::prop("grant_implies_request, work_conserving, no_state_change_without_commit", [] {
    const arbitration_scenario s = *gen_scenario(64, 1, 16);
    with_fixed_size(s.n, [&](auto n) {
      constexpr std::size_t N = decltype(n)::value;
      round_robin_arbiter<N> rr(interlock::bits::thermometer(s.ones));
      for (const levels_t& step : s.steps) {
        const std::uint64_t req = to_mask(step);
        const auto check = interlock::verify::check_decision(rr, req);
        RC_ASSERT(check.failed.empty());
        rr.commit(check.g);
        RC_ASSERT(interlock::invariants::thermometer_coded(rr.thermometer().mask(), N));
      }
    });
  });
  rc::prop("round_robin_order: served within N decisions, persistent requesters alternate", [] {
    const auto n = *rc::gen::inRange<std::size_t>(1, 131);
    // A fixed set keeps requesting; everyone else comes and goes at random.
    const auto persistent = *rc::gen::container<std::vector<bool>>(n, rc::gen::arbitrary<bool>());
    const auto steps = *rc::gen::inRange<std::size_t>(1, 4 * n + 2);
    dynamic_round_robin_arbiter rr =
        dynamic_round_robin_arbiter::with_highest_priority(n, *rc::gen::inRange<std::size_t>(0, n));
    interlock::verify::round_robin_order_monitor monitor(n);
    for (std::size_t k = 0; k < steps; ++k) {
      const auto transient = *rc::gen::container<std::vector<bool>>(n, rc::gen::arbitrary<bool>());
      interlock::dynamic_request_set req(n);
      for (std::size_t i = 0; i < n; ++i)
        if (persistent[i] || transient[i]) req.set(i);
      RC_ASSERT(monitor.observe(req.view(), rr.grant(req)));
    }
    RC_ASSERT(monitor.max_wait() < n);
  });
}

TEST_CASE("round_robin_arbiter: the wait bound N - 1 is reached", "[round_robin]") {
  // With every requester asking, each waits exactly N - 1 decisions between
  // grants: the bound of round_robin_order is tight.
  for (std::size_t n : {2u, 3u, 17u, 64u, 65u, 130u}) {
    dynamic_round_robin_arbiter rr(n);
    interlock::dynamic_request_set all(n);
    for (std::size_t i = 0; i < n; ++i) all.set(i);
    interlock::verify::round_robin_order_monitor monitor(n);
    for (std::size_t k = 0; k < 3 * n; ++k) REQUIRE(monitor.observe(all.view(), rr.grant(all)));
    CHECK(monitor.max_wait() == n - 1);
  }
}

TEST_CASE("round_robin_arbiter: bad input is a contract violation", "[round_robin][contract]") {
  round_robin_arbiter<4> rr;
  CHECK_THROWS_AS(rr.arbitrate(0b10000), interlock::contract_violation);
  CHECK_THROWS_AS(rr.commit(grant(4)), interlock::contract_violation);
  dynamic_round_robin_arbiter wide(100);
  interlock::dynamic_request_set other(99);
  CHECK_THROWS_AS(wide.arbitrate(other), interlock::contract_violation);
  CHECK_THROWS_AS(round_robin_arbiter<4>(0b0110), interlock::config_error);
  CHECK_THROWS_AS(dynamic_round_robin_arbiter(0), interlock::config_error);
  CHECK_THROWS_AS(dynamic_round_robin_arbiter::with_highest_priority(10, 10),
                  interlock::config_error);
}

TEST_CASE("dynamic_round_robin_arbiter: built empty, sized at run time, fed masks",
          "[round_robin]") {
  // A simulator that reads N from its configuration after building its
  // arbiters: default construction, resize(N), and the same mask requests
  // as round_robin_arbiter<N>, decision for decision.
  dynamic_round_robin_arbiter late;
  CHECK(late.size() == 0);
  CHECK(late.arbitrate(interlock::request_view()) == grant());
  late.resize(7);
  CHECK(late.size() == 7);
  round_robin_arbiter<7> fixed;
  splitmix rng(7);
  for (int k = 0; k < 500; ++k) {
    const std::uint64_t mask = rng.below(128);
    REQUIRE(late.grant(mask) == fixed.grant(mask));
  }
  CHECK_THROWS_AS(late.resize(0), interlock::config_error);
}
