// SPDX-License-Identifier: BSL-1.0
// Tests of the ascending rotation order (interlock/arbiters/rr_pointer.hpp) in
// round_robin_arbiter and priority_arbiter: a loop reference of the order
// software simulators use (highest level first; among equals, the smallest
// distance from the pointer going up; pointer = winner + 1), and the mirror
// correspondence with Anton 2's descending order.
#include "support/interlock_test.hpp"
#include "support/reference_arbiters.hpp"

#include <interlock/arbiters/integer_priority.hpp>
#include <interlock/arbiters/priority.hpp>
#include <interlock/arbiters/round_robin.hpp>
#include <interlock/arbiters/rr_pointer.hpp>

#include <utility>

using interlock::grant;
using interlock::priority_arbiter;
using interlock::round_robin_arbiter;
using interlock::rr_order;
using namespace interlock_test;

namespace {

/// The ascending order as a loop over requesters: requester a beats b when
/// its level is higher, or the levels are equal and a is fewer steps up from
/// the pointer.
struct ascending_reference {
  std::size_t n = 1;
  std::size_t pointer = 0;

  grant arbitrate(const levels_t& levels) const {
    std::size_t best = n;
    const auto distance = [&](std::size_t i) { return (i + n - pointer) % n; };
    for (std::size_t i = 0; i < n; ++i) {
      if (levels[i] < 0) continue;
      const bool beats = best == n || levels[i] > levels[best] ||
                         (levels[i] == levels[best] && distance(i) < distance(best));
      if (beats) best = i;
    }
    return best == n ? interlock::no_grant() : grant(best);
  }
  void commit(grant g) {
    if (g) pointer = (g.index() + 1) % n;
  }
};

/// Runs f(std::integral_constant<std::size_t, N>{}) for the N among a few
/// sizes that equals n (router radixes and the word's edges).
template <class F>
void with_size(std::size_t n, F&& f) {
  const auto one = [&](auto size) {
    if (n == decltype(size)::value) f(size);
  };
  one(std::integral_constant<std::size_t, 1>{});
  one(std::integral_constant<std::size_t, 2>{});
  one(std::integral_constant<std::size_t, 5>{});
  one(std::integral_constant<std::size_t, 7>{});
  one(std::integral_constant<std::size_t, 28>{});
  one(std::integral_constant<std::size_t, 63>{});
  one(std::integral_constant<std::size_t, 64>{});
}

rc::Gen<std::size_t> gen_size() { return rc::gen::element<std::size_t>(1, 2, 5, 7, 28, 63, 64); }

/// A scenario of exactly n requesters and p levels (inside a property).
arbitration_scenario exact_scenario(std::size_t n, std::size_t p, std::size_t max_steps) {
  arbitration_scenario s;
  s.n = n;
  s.p = p;
  const int idle_permille = *rc::gen::inRange(0, 950);
  const std::size_t count = *rc::gen::inRange<std::size_t>(1, max_steps + 1);
  for (std::size_t k = 0; k < count; ++k) {
    levels_t draw = *rc::gen::container<levels_t>(n, rc::gen::inRange(0, 1000));
    for (int& d : draw) d = d < idle_permille ? -1 : d % static_cast<int>(p);
    s.steps.push_back(draw);
  }
  return s;
}

}  // namespace

TEST_CASE("ascending round robin: the lowest requester at or after the pointer wins",
          "[round_robin][rr_order]") {
  round_robin_arbiter<4, rr_order::ascending> rr;  // pointer 0
  CHECK(rr.grant(0b1010) == grant(1));             // pointer 2
  CHECK(rr.highest_priority() == 2);
  CHECK(rr.grant(0b1010) == grant(3));  // pointer 0 (wraps)
  CHECK(rr.grant(0b1010) == grant(1));
  CHECK(rr.arbitrate(0b0001) == grant(0));  // nothing at or after 2: the lowest
  CHECK(rr.arbitrate(0) == interlock::no_grant());
  const auto from_3 = round_robin_arbiter<4, rr_order::ascending>::with_highest_priority(3);
  CHECK(from_3.arbitrate(0b1111) == grant(3));
  CHECK_THROWS_AS((round_robin_arbiter<4, rr_order::ascending>::with_highest_priority(4)),
                  interlock::config_error);
  // Eight requesters, all requesting: 0, 1, 2, ... in turn.
  round_robin_arbiter<8, rr_order::ascending> all;
  std::vector<std::size_t> order;
  for (int k = 0; k < 10; ++k) order.push_back(all.grant(0xff).index());
  CHECK(order == std::vector<std::size_t>{0, 1, 2, 3, 4, 5, 6, 7, 0, 1});
}

TEST_CASE("ascending round robin and priority arbiter grant as the loop reference",
          "[round_robin][priority][rr_order][property]") {
  rc::prop("round_robin_arbiter<N, ascending>", [] {
    const std::size_t n = *gen_size();
    const arbitration_scenario s = exact_scenario(n, 1, 32);
    const std::size_t start = *rc::gen::inRange<std::size_t>(0, s.n);
    with_size(s.n, [&](auto size) {
      constexpr std::size_t N = decltype(size)::value;
      auto rr = round_robin_arbiter<N, rr_order::ascending>::with_highest_priority(start);
      ascending_reference reference{N, start};
      for (const levels_t& drawn : s.steps) {
        const levels_t step = flatten(drawn);
        const grant expected = reference.arbitrate(step);
        RC_ASSERT(rr.arbitrate(to_mask(step)) == expected);
        // Commit about half of the decisions: an uncommitted one moves nothing.
        if (*rc::gen::arbitrary<bool>()) {
          rr.commit(expected);
          reference.commit(expected);
        }
        RC_ASSERT(rr.highest_priority() == reference.pointer);
      }
    });
  });
  rc::prop("priority_arbiter<N, 4, ascending>", [] {
    const std::size_t n = *gen_size();
    const arbitration_scenario s = exact_scenario(n, 4, 32);
    const std::size_t start = *rc::gen::inRange<std::size_t>(0, s.n);
    with_size(s.n, [&](auto size) {
      constexpr std::size_t N = decltype(size)::value;
      auto arb = priority_arbiter<N, 4, rr_order::ascending>::with_highest_priority(start);
      ascending_reference reference{N, start};
      for (const levels_t& step : s.steps) {
        const grant expected = reference.arbitrate(step);
        RC_ASSERT(arb.grant(to_priority_requests<4>(step)) == expected);
        reference.commit(expected);
        RC_ASSERT(arb.highest_priority() == reference.pointer);
      }
    });
  });
}

TEST_CASE("the two orders are mirror images, decision by decision", "[round_robin][rr_order]") {
  // Requester i of one is requester N-1-i of the other; from the default
  // states (pointer 0, rr_therm 0) every decision and commit corresponds.
  rc::prop("ascending on r grants N-1-g where descending on mirror(r) grants g", [] {
    const std::size_t n = *gen_size();
    const arbitration_scenario s = exact_scenario(n, 1, 40);
    with_size(s.n, [&](auto size) {
      constexpr std::size_t N = decltype(size)::value;
      round_robin_arbiter<N, rr_order::ascending> up;
      round_robin_arbiter<N> down;
      for (const levels_t& drawn : s.steps) {
        const std::uint64_t r = to_mask(flatten(drawn));
        std::uint64_t mirrored = 0;
        for (std::size_t i = 0; i < N; ++i)
          if ((r >> i) & 1u) mirrored |= std::uint64_t{1} << (N - 1 - i);
        const grant g_up = up.grant(r), g_down = down.grant(mirrored);
        RC_ASSERT(static_cast<bool>(g_up) == static_cast<bool>(g_down));
        if (g_up) RC_ASSERT(g_up.index() == N - 1 - g_down.index());
      }
    });
  });
}

TEST_CASE("request builders take both orders", "[round_robin][priority][rr_order]") {
  interlock::candidate_view view;
  view.requests = 0b0110;
  const std::uint8_t priority[4] = {0, 0, 1, 0};
  view.priority = priority;
  round_robin_arbiter<4, rr_order::ascending> rr;
  interlock::request_builder<round_robin_arbiter<4, rr_order::ascending>> rr_build(rr);
  CHECK(rr.arbitrate(rr_build(view)) == grant(1));
  priority_arbiter<4, 2, rr_order::ascending> pri;
  interlock::request_builder<priority_arbiter<4, 2, rr_order::ascending>> pri_build(pri);
  CHECK(pri.arbitrate(pri_build(view)) == grant(2));  // the higher level
}

TEST_CASE("a 64-wide arbiter serves any N <= 64 as an N-wide one does, in both orders",
          "[round_robin][rr_order][property]") {
  // The fast path for a simulator that learns N at run time: one
  // round_robin_arbiter<64> for every N up to 64.
  rc::prop("round_robin_arbiter<64, O> = round_robin_arbiter<N, O> on N requesters", [] {
    const std::size_t n = *gen_size();
    const arbitration_scenario s = exact_scenario(n, 1, 40);
    with_size(s.n, [&](auto size) {
      constexpr std::size_t N = decltype(size)::value;
      round_robin_arbiter<N> narrow_down;
      round_robin_arbiter<64> wide_down;
      round_robin_arbiter<N, rr_order::ascending> narrow_up;
      round_robin_arbiter<64, rr_order::ascending> wide_up;
      for (const levels_t& drawn : s.steps) {
        const std::uint64_t r = to_mask(flatten(drawn));
        RC_ASSERT(narrow_down.grant(r) == wide_down.grant(r));
        RC_ASSERT(narrow_up.grant(r) == wide_up.grant(r));
      }
    });
  });
}

// C++17 takes T{} for aggregate initialization when T has no user-provided
// constructor; with a protected base, `integer_priority_arbiter<64> a{};` and
// the ascending arbiters' T{} did not compile.
TEMPLATE_TEST_CASE("every arbiter is value-initialized by {} as by ()", "[rr_order]",
                   interlock::round_robin_arbiter<8>,
                   (interlock::round_robin_arbiter<8, interlock::rr_order::ascending>),
                   (interlock::priority_arbiter<8, 2>),
                   (interlock::priority_arbiter<8, 2, interlock::rr_order::ascending>),
                   interlock::integer_priority_arbiter<8>,
                   (interlock::integer_priority_arbiter<8, interlock::rr_order::ascending>)) {
  TestType braced{};
  TestType parenthesized;
  CHECK(braced == parenthesized);
}
