// SPDX-License-Identifier: BSL-1.0
// Tests of interlock/arbiters/priority.hpp: the P-level arbiter of [Towles14],
// Section 3.4, checked against a loop reference, against a transcription of
// Figure 8's SystemVerilog, and against the 2P-pass design Figure 7 replaces.
#include "support/interlock_test.hpp"
#include "support/reference_arbiters.hpp"

#include <interlock/arbiters/priority.hpp>
#include <interlock/arbiters/round_robin.hpp>
#include <interlock/verify/arbiter_checks.hpp>

using interlock::dynamic_priority_arbiter;
using interlock::grant;
using interlock::priority_arbiter;
using interlock::priority_requests;
using namespace interlock_test;

namespace {

// Runs a scenario through priority_arbiter<N, P> for a run-time P in 1..4.
template <std::size_t N>
void check_fixed(const arbitration_scenario& s) {
  const std::uint64_t therm = interlock::bits::thermometer(s.ones);
  auto run = [&](auto p) {
    constexpr std::size_t P = decltype(p)::value;
    require_agrees_with_reference(
        priority_arbiter<N, P>(therm), s,
        [](const levels_t& l) { return to_priority_requests<P>(l); }, false);
  };
  switch (s.p) {
    case 1:
      run(std::integral_constant<std::size_t, 1>{});
      break;
    case 2:
      run(std::integral_constant<std::size_t, 2>{});
      break;
    case 3:
      run(std::integral_constant<std::size_t, 3>{});
      break;
    default:
      run(std::integral_constant<std::size_t, 4>{});
      break;
  }
}

template <std::size_t P>
void check_dynamic(const arbitration_scenario& s) {
  std::vector<interlock::dynamic_priority_requests<P>> owned;
  require_agrees_with_reference(
      dynamic_priority_arbiter<P>(thermometer_set(s.n, s.ones)), s,
      [&](const levels_t& l) {
        owned.push_back(to_dynamic_priority_requests<P>(l));
        return owned.back().view();
      },
      false);
}

}  // namespace

TEST_CASE("priority_arbiter: the worked example of the header", "[priority]") {
  priority_arbiter<4, 2> arb;
  priority_requests<2> req;
  req.set(0, 1).set(1, 1).set(3, 0);
  CHECK(arb.grant(req) == grant(1));  // highest level; within it the most significant
  CHECK(arb.grant(req) == grant(0));  // round robin within the level
  CHECK(arb.grant(req) == grant(1));
  priority_requests<2> low_only;
  low_only.set(3, 0).set(2, 0);
  CHECK(arb.thermometer().mask() == 0b0001);
  CHECK(arb.grant(low_only) == grant(3));     // rr_therm holds neither 2 nor 3: MSB first
  CHECK(arb.thermometer().mask() == 0b0111);  // one rr_therm, shared by the levels
}

TEST_CASE("priority_arbiter: Figure 7, the middle pair of request vectors shares one pass",
          "[priority]") {
  // k = 8, two levels, rr_therm = 0b00001111 (inputs 0..3 below the pointer).
  // Level 1 requests at inputs 5 and 6 (above the pointer), level 0 requests
  // at inputs 2 and 7. Typical design: four passes (L1 below the pointer, L1,
  // L0 below the pointer, L0). Figure 7 merges "L1 above the pointer" with
  // "L0 below the pointer": they occupy different bit ranges, so one
  // most-significant-first pass over the union still picks the level 1
  // request. Row 2 (L1 below the pointer) is empty, row 1 = {2, 5, 6}: 6 wins.
  priority_arbiter<8, 2> arb(0b00001111);
  priority_requests<2> req;
  req.set(5, 1).set(6, 1).set(2, 0).set(7, 0);
  CHECK(arb.arbitrate(req) == grant(6));
  const auto row =
      interlock::detail::first_row<2>([&](std::size_t p) { return req.levels[p]; }, 0b00001111);
  CHECK(row.row == 1);
  CHECK(row.bits == 0b01100100);
  CHECK(two_passes_per_level({-1, -1, 0, -1, -1, 1, 1, 0}, 2, 4) == grant(6));
}

TEST_CASE("priority_arbiter: differential against references, N = 1..130, P = 1..4",
          "[priority][property]") {
  rc::prop("priority_arbiter<N, P> (N <= 64) grants as the loop reference", [] {
    const arbitration_scenario s = *gen_scenario(64, 4, 16);
    with_fixed_size(s.n, [&](auto n) { check_fixed<decltype(n)::value>(s); });
  });
  rc::prop("dynamic_priority_arbiter<P> grants as the loop reference", [] {
    const arbitration_scenario s = *gen_scenario(130, 4, 16);
    switch (s.p) {
      case 1:
        check_dynamic<1>(s);
        break;
      case 2:
        check_dynamic<2>(s);
        break;
      case 3:
        check_dynamic<3>(s);
        break;
      default:
        check_dynamic<4>(s);
        break;
    }
  });
  rc::prop("grant_onehot0 and agreement with Figure 8's SystemVerilog, transcribed", [] {
    const arbitration_scenario s = *gen_scenario(130, 4, 1);
    const levels_t& step = s.steps[0];
    bool onehot0 = false;
    const grant hardware = figure8_grant(step, s.p, s.ones, onehot0);
    RC_ASSERT(onehot0);
    RC_ASSERT(hardware == (reference_priority_arbiter{s.n, s.ones}.arbitrate(step)));
    RC_ASSERT(hardware == two_passes_per_level(step, s.p, s.ones));  // Figure 7: P+1 == 2P passes
  });
}

TEST_CASE("priority_arbiter: the named invariants hold", "[priority][property]") {
  rc::prop(
      "grant_implies_request, work_conserving, priority_respected, no_state_change_without_commit",
      [] {
        const arbitration_scenario s = *gen_scenario(64, 2, 16);
        with_fixed_size(s.n, [&](auto n) {
          constexpr std::size_t N = decltype(n)::value;
          priority_arbiter<N, 2> arb(interlock::bits::thermometer(s.ones));
          for (const levels_t& step : s.steps) {
            const auto check =
                interlock::verify::check_decision(arb, to_priority_requests<2>(step));
            RC_ASSERT(check.failed.empty());
            arb.commit(check.g);
          }
        });
      });
  rc::prop("with P = 1 it is the round-robin arbiter", [] {
    const arbitration_scenario s = *gen_scenario(64, 1, 24);
    with_fixed_size(s.n, [&](auto n) {
      constexpr std::size_t N = decltype(n)::value;
      priority_arbiter<N, 1> prio(interlock::bits::thermometer(s.ones));
      interlock::round_robin_arbiter<N> rr(interlock::bits::thermometer(s.ones));
      for (const levels_t& step : s.steps)
        RC_ASSERT(prio.grant(to_priority_requests<1>(step)) == rr.grant(to_mask(step)));
    });
  });
  rc::prop("round_robin_order among the requesters of the highest level", [] {
    // Levels are fixed per requester; the top-level requesters keep asking.
    const auto n = *rc::gen::inRange<std::size_t>(1, 131);
    const auto level = *rc::gen::container<std::vector<int>>(n, rc::gen::inRange(0, 2));
    const auto steps = *rc::gen::inRange<std::size_t>(1, 3 * n + 2);
    dynamic_priority_arbiter<2> arb(n);
    interlock::verify::round_robin_order_monitor monitor(n);
    for (std::size_t k = 0; k < steps; ++k) {
      const auto asks = *rc::gen::container<std::vector<bool>>(n, rc::gen::arbitrary<bool>());
      interlock::dynamic_priority_requests<2> req(n);
      interlock::dynamic_request_set top(n);
      for (std::size_t i = 0; i < n; ++i) {
        if (level[i] == 1) {
          req.set(i, 1);
          top.set(i);
        } else if (asks[i]) {
          req.set(i, 0);
        }
      }
      const grant g = arb.grant(req.view());
      if (top.any()) RC_ASSERT(monitor.observe(top.view(), g));
    }
  });
}

TEST_CASE("priority_arbiter: across words, an equal row in a lower word does not win",
          "[priority]") {
  // rr_therm = 0 and no request above level 0: every word's pick is row 0 or
  // 1 below row P, so the scan visits every word; the most significant
  // request overall (the highest word's) must win.
  dynamic_priority_arbiter<2> two(130);
  interlock::dynamic_priority_requests<2> low(130);
  low.set(3, 0).set(70, 0).set(129, 0);
  CHECK(two.arbitrate(low.view()).index() == 129);
  dynamic_priority_arbiter<3> three(130);
  interlock::dynamic_priority_requests<3> middle(130);
  middle.set(5, 1).set(100, 1).set(120, 0);  // row 1 in words 0 and 1, nothing at level 2
  CHECK(three.arbitrate(middle.view()).index() == 100);
  interlock::dynamic_round_robin_arbiter rr(200);
  interlock::dynamic_request_set req(200);
  req.set(2).set(66).set(199);
  CHECK(rr.arbitrate(req).index() == 199);
}

TEST_CASE("priority_arbiter: bad input", "[priority][contract]") {
  priority_arbiter<4, 2> arb;
  priority_requests<2> beyond;
  beyond.levels[0] = 0b10000;
  CHECK_THROWS_AS(arb.arbitrate(beyond), interlock::contract_violation);
  CHECK_THROWS_AS(arb.commit(grant(4)), interlock::contract_violation);
  CHECK_THROWS_AS((priority_arbiter<4, 2>(0b1001)), interlock::config_error);
  CHECK_THROWS_AS(dynamic_priority_arbiter<2>(0), interlock::config_error);
  dynamic_priority_arbiter<2> wide(70);
  interlock::dynamic_priority_requests<2> other(71);
  CHECK_THROWS_AS(wide.arbitrate(other.view()), interlock::contract_violation);
}
