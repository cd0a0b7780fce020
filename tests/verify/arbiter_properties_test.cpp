// SPDX-License-Identifier: BSL-1.0
// Every interlock arbiter through the oracles of verify/arbiter_oracle.hpp and
// verify/share_monitor.hpp, with the bounds of verify/arbiter_bounds.hpp, on
// random streams; and the bounds reached by adversarial schedules.
#include "support/interlock_test.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include <interlock/arbiters/age_epoch.hpp>
#include <interlock/arbiters/integer_priority.hpp>
#include <interlock/arbiters/inverse_weighted.hpp>
#include <interlock/arbiters/inverse_weighted_exact.hpp>
#include <interlock/arbiters/priority.hpp>
#include <interlock/arbiters/round_robin.hpp>
#include <interlock/qos/dtable.hpp>
#include <interlock/qos/ib_vl_arbiter.hpp>
#include <interlock/qos/sbt.hpp>
#include <interlock/verify/arbiter_bounds.hpp>
#include <interlock/verify/arbiter_oracle.hpp>
#include <interlock/verify/share_monitor.hpp>

namespace verify = interlock::verify;
using interlock_test::splitmix;

namespace {

std::uint64_t low_bits(std::size_t n) { return interlock::bits::low_mask(n); }

// Requests of n requesters; `density` 0 sparse, 1 even, 2 dense.
std::uint64_t draw(splitmix& rng, std::size_t n, int density) {
  const std::uint64_t a = rng(), b = rng();
  return (density == 0 ? a & b : density == 1 ? a : a | b) & low_bits(n);
}

verify::arbiter_properties bound_of(std::size_t b) {
  verify::arbiter_properties p;
  p.wait_bound = b;
  return p;
}

// 20,000 cycles per stream; 2,000 under the sanitizers.
constexpr std::uint64_t stream_cycles = interlock_test::sized<std::uint64_t>(20000, 2000);

void require_passed(const verify::arbiter_oracle& oracle) {
  if (!oracle.passed()) RC_FAIL(oracle.violation()->what());
  RC_ASSERT(oracle.cycles() == stream_cycles);
}

}  // namespace

TEST_CASE("oracles: round robin, both orders, at its bound N - 1", "[verify]") {
  rc::prop("round_robin_arbiter<N> passes with wait bound N - 1", [] {
    const auto n = *rc::gen::inRange<std::size_t>(1, 65);
    splitmix rng(*rc::gen::arbitrary<std::uint64_t>());
    const int density = *rc::gen::inRange(0, 3);
    auto stream = [&](std::uint64_t) { return draw(rng, n, density); };
    interlock::dynamic_round_robin_arbiter dynamic(n);
    require_passed(verify::check_arbiter(dynamic, stream, stream_cycles,
                                         bound_of(verify::round_robin_wait_bound(n))));
    interlock_test::with_fixed_size<8>(n <= 8 ? n : 8, [&](auto size) {
      constexpr std::size_t N = decltype(size)::value;
      interlock::round_robin_arbiter<N, interlock::rr_order::ascending> pointer;
      auto narrow = [&](std::uint64_t) { return draw(rng, N, density); };
      require_passed(verify::check_arbiter(pointer, narrow, stream_cycles,
                                           bound_of(verify::round_robin_wait_bound(N))));
    });
  });
}

TEST_CASE("oracles: round robin's bound is reached", "[verify]") {
  // Everyone requests from reset: requester 0 is served last, after N - 1.
  interlock::round_robin_arbiter<16> rr;
  auto oracle = verify::check_arbiter(
      rr, [](std::uint64_t) { return std::uint64_t{0xFFFF}; }, 160, bound_of(15));
  CHECK(oracle.passed());
  CHECK(oracle.max_wait() == 15);
  interlock::round_robin_arbiter<16> again;
  CHECK_FALSE(verify::check_arbiter(
                  again, [](std::uint64_t) { return std::uint64_t{0xFFFF}; }, 160, bound_of(14))
                  .passed());
}

TEST_CASE("oracles: the priority arbiter, eligible at the highest level", "[verify]") {
  rc::prop("priority_arbiter<N, 3> passes with wait bound N - 1 at the highest level", [] {
    const auto n = *rc::gen::inRange<std::size_t>(1, 17);
    splitmix rng(*rc::gen::arbitrary<std::uint64_t>());
    const int density = *rc::gen::inRange(0, 3);
    interlock_test::with_fixed_size<16>(n, [&](auto size) {
      constexpr std::size_t N = decltype(size)::value;
      interlock::priority_arbiter<N, 3> arb;
      auto stream = [&](std::uint64_t) {
        interlock::priority_requests<3> r;
        const std::uint64_t mask = draw(rng, N, density);
        for (std::size_t i = 0; i < N; ++i)
          if (((mask >> i) & 1u) != 0) r.set(i, static_cast<std::size_t>(rng.below(3)));
        return r;
      };
      require_passed(verify::check_arbiter(arb, stream, stream_cycles,
                                           bound_of(verify::priority_wait_bound(N))));
    });
  });
}

TEST_CASE("oracles: the integer-priority arbiter, both orders, at the highest priority",
          "[verify]") {
  rc::prop("integer_priority_arbiter<N> passes with wait bound N - 1 at the highest priority", [] {
    const auto n = *rc::gen::inRange<std::size_t>(1, 13);
    splitmix rng(*rc::gen::arbitrary<std::uint64_t>());
    const int density = *rc::gen::inRange(0, 3);
    const auto levels = *rc::gen::inRange<std::uint64_t>(1, 5);
    interlock_test::with_fixed_size<12>(n, [&](auto size) {
      constexpr std::size_t N = decltype(size)::value;
      auto stream = [&](std::uint64_t) {
        interlock::integer_requests<N> r;
        const std::uint64_t mask = draw(rng, N, density);
        for (std::size_t i = 0; i < N; ++i)
          if (((mask >> i) & 1u) != 0) r.set(i, static_cast<std::int64_t>(rng.below(levels)) - 2);
        return r;
      };
      interlock::integer_priority_arbiter<N> thermometer;
      require_passed(verify::check_arbiter(thermometer, stream, stream_cycles,
                                           bound_of(verify::priority_wait_bound(N))));
      interlock::integer_priority_arbiter<N, interlock::rr_order::ascending> pointer;
      require_passed(verify::check_arbiter(pointer, stream, stream_cycles,
                                           bound_of(verify::priority_wait_bound(N))));
    });
  });
}

TEST_CASE("oracles: the inverse-weighted hardware model at its derived bound", "[verify]") {
  rc::prop("inverse_weighted_arbiter<K, 2, M> passes with inverse_weighted_wait_bound", [] {
    const auto k = *rc::gen::inRange<std::size_t>(1, 9);
    splitmix rng(*rc::gen::arbitrary<std::uint64_t>());
    const int density = *rc::gen::inRange(0, 3);
    interlock_test::with_fixed_size<8>(k, [&](auto size) {
      constexpr std::size_t K = decltype(size)::value;
      constexpr unsigned M = 5;
      std::vector<std::vector<std::uint32_t>> weights(K, std::vector<std::uint32_t>(2));
      for (auto& row : weights)
        for (auto& w : row) w = static_cast<std::uint32_t>(1 + rng.below((1u << M) - 1));
      interlock::inverse_weighted_arbiter<K, 2, M> arb(weights);
      std::uint8_t labels[K] = {};
      auto stream = [&](std::uint64_t) {
        for (auto& l : labels) l = static_cast<std::uint8_t>(rng.below(2));
        return interlock::pattern_requests{draw(rng, K, density), labels};
      };
      const std::size_t bound = verify::inverse_weighted_wait_bound(arb);
      require_passed(verify::check_arbiter(arb, stream, stream_cycles, bound_of(bound)));
    });
  });
}

TEST_CASE("oracles: the inverse-weighted bound is reached within K - 1", "[verify]") {
  // Input 0 (weight 2^M - 1) goes low after two grants alone; input 1
  // (weight 1) then wins 2^M times while high before the window slides.
  constexpr unsigned M = 6;
  interlock::inverse_weighted_arbiter<2, 1, M> arb(
      std::vector<std::vector<std::uint32_t>>{{(1u << M) - 1}, {1}});
  const std::uint8_t labels[2] = {0, 0};
  auto stream = [&](std::uint64_t t) {
    return interlock::pattern_requests{t < 2 ? std::uint64_t{0b01} : std::uint64_t{0b11}, labels};
  };
  const std::size_t bound = verify::inverse_weighted_wait_bound(arb);
  CHECK(bound == 1 + (1u << M));
  auto oracle = verify::check_arbiter(arb, stream, 1000, bound_of(bound));
  CHECK(oracle.passed());
  CHECK(oracle.max_wait() == (1u << M));
}

TEST_CASE("oracles: exact Eq. 3 has no wait bound", "[verify]") {
  // Input 1 idles while input 0 is served 500 times; then both request and
  // input 1 wins until its accumulator catches up.
  interlock::inverse_weighted_exact<2, 1> arb(interlock::load_matrix{{1.0}, {1.0}});
  const std::uint8_t labels[2] = {0, 0};
  auto stream = [&](std::uint64_t t) {
    return interlock::pattern_requests{t < 500 ? std::uint64_t{0b01} : std::uint64_t{0b11}, labels};
  };
  verify::arbiter_properties p;
  auto oracle = verify::check_arbiter(arb, stream, 2000, p);
  CHECK(oracle.passed());
  CHECK(oracle.max_wait() >= 499);
}

TEST_CASE("oracles: the age-epoch arbiter, eligible when oldest", "[verify]") {
  rc::prop("age_epoch_arbiter<N> passes with age_epoch_wait_bound", [] {
    const auto n = *rc::gen::inRange<std::size_t>(1, 29);
    splitmix rng(*rc::gen::arbitrary<std::uint64_t>());
    const int density = *rc::gen::inRange(0, 3);
    const int mode = *rc::gen::inRange(0, 4);  // rr, age, age with suspensions, a random mix
    const std::uint64_t select = mode == 0 ? 0 : mode == 3 ? rng() : ~std::uint64_t{0};
    const bool suspends = mode >= 2;
    interlock_test::with_fixed_size<28>(n, [&](auto size) {
      constexpr std::size_t N = decltype(size)::value;
      interlock::age_epoch_arbiter<N> arb(select);
      auto stream = [&](std::uint64_t) {
        interlock::age_requests r;
        r.requests = draw(rng, N, density);
        r.oldest = r.requests & draw(rng, N, 2);
        if (r.oldest == 0) r.oldest = r.requests;
        r.age_suspended = suspends && rng.below(4) == 0;
        return r;
      };
      require_passed(verify::check_arbiter(
          arb, stream, stream_cycles, bound_of(verify::age_epoch_wait_bound(N, select, suspends))));
    });
  });
}

TEST_CASE("oracles: SBT at its stated bound", "[verify]") {
  rc::prop("sbt_scheduler passes with 2 (100 - w) + queues", [] {
    const auto q = *rc::gen::inRange<std::size_t>(1, 9);
    splitmix rng(*rc::gen::arbitrary<std::uint64_t>());
    const int density = *rc::gen::inRange(0, 3);
    std::vector<std::uint32_t> weights(q, 1);  // every SL at least 1, the rest drawn
    for (std::uint32_t left = 100 - static_cast<std::uint32_t>(q); left > 0; --left)
      ++weights[rng.below(q)];
    interlock::qos::queue_sls sls(q);
    for (std::size_t i = 0; i < q; ++i) sls[i] = static_cast<std::uint8_t>(i);
    interlock::qos::sbt_scheduler sbt(weights, sls);
    auto stream = [&](std::uint64_t) {
      return interlock::qos::queue_requests{draw(rng, q, density), {}};
    };
    const std::uint32_t least = *std::min_element(weights.begin(), weights.end());
    require_passed(verify::check_arbiter(sbt, stream, stream_cycles,
                                         bound_of(verify::sbt_wait_bound(least, q))));
  });
}

TEST_CASE("shares: the inverse-weighted hardware model within its window bound", "[verify]") {
  rc::prop("saturated from reset, S_i / T is within 2^(M+1) of weighted service", [] {
    const auto k = *rc::gen::inRange<std::size_t>(2, 9);
    splitmix rng(*rc::gen::arbitrary<std::uint64_t>());
    const auto cycles = *rc::gen::inRange<std::uint64_t>(1000, 20000);
    interlock_test::with_fixed_size<8>(k, [&](auto size) {
      constexpr std::size_t K = decltype(size)::value;
      constexpr unsigned M = 6;
      std::vector<std::vector<std::uint32_t>> weights(K, std::vector<std::uint32_t>(1));
      std::vector<double> costs;
      for (auto& row : weights) {
        row[0] = static_cast<std::uint32_t>(1 + rng.below((1u << M) - 1));
        costs.push_back(row[0]);
      }
      interlock::inverse_weighted_arbiter<K, 1, M> arb(weights);
      const std::uint8_t labels[K] = {};
      verify::share_monitor shares(K, low_bits(K));
      const interlock::pattern_requests all{low_bits(K), labels};
      for (std::uint64_t t = 0; t < cycles; ++t)
        shares.observe(all.requests, verify::grant_vector(arb.grant(all)));
      const auto b = verify::spread_share_bounds(costs, 1u << (M + 1), shares.decisions());
      RC_PRE(b.has_value());
      const auto check = shares.check(b->target, b->tolerance);
      RC_ASSERT(check.outcome == verify::share_check::within);
    });
  });
}

TEST_CASE("shares: exact Eq. 3 within its largest weight", "[verify]") {
  rc::prop("saturated from reset, shares follow the loads", [] {
    const auto k = *rc::gen::inRange<std::size_t>(2, 9);
    splitmix rng(*rc::gen::arbitrary<std::uint64_t>());
    const auto cycles = *rc::gen::inRange<std::uint64_t>(100, 5000);
    interlock_test::with_fixed_size<8>(k, [&](auto size) {
      constexpr std::size_t K = decltype(size)::value;
      interlock::load_matrix loads(K, std::vector<double>(1));
      std::vector<double> costs;
      for (auto& row : loads) {
        row[0] = 0.05 + static_cast<double>(rng.below(1000)) / 500.0;
        costs.push_back(1 / row[0]);
      }
      interlock::inverse_weighted_exact<K, 1> arb(loads);
      const std::uint8_t labels[K] = {};
      verify::share_monitor shares(K, low_bits(K));
      const interlock::pattern_requests all{low_bits(K), labels};
      for (std::uint64_t t = 0; t < cycles; ++t)
        shares.observe(all.requests, verify::grant_vector(arb.grant(all)));
      const double spread = *std::max_element(costs.begin(), costs.end());
      const auto b = verify::spread_share_bounds(costs, spread, shares.decisions());
      RC_PRE(b.has_value());
      RC_ASSERT(shares.check(b->target, b->tolerance).outcome == verify::share_check::within);
    });
  });
}

TEST_CASE("shares: SBT within one table cycle", "[verify]") {
  rc::prop("saturated from reset, SL i's share is weight_i / 100", [] {
    const auto q = *rc::gen::inRange<std::size_t>(2, 9);
    splitmix rng(*rc::gen::arbitrary<std::uint64_t>());
    const auto cycles = *rc::gen::inRange<std::uint64_t>(200, 5000);
    std::vector<std::uint32_t> weights(q, 1);
    for (std::uint32_t left = 100 - static_cast<std::uint32_t>(q); left > 0; --left)
      ++weights[rng.below(q)];
    interlock::qos::queue_sls sls(q);
    std::vector<double> costs;
    for (std::size_t i = 0; i < q; ++i) {
      sls[i] = static_cast<std::uint8_t>(i);
      costs.push_back(100.0 / weights[i]);
    }
    interlock::qos::sbt_scheduler sbt(weights, sls);
    verify::share_monitor shares(q, low_bits(q));
    const interlock::qos::queue_requests all{low_bits(q), {}};
    for (std::uint64_t t = 0; t < cycles; ++t)
      shares.observe(all.requests, verify::grant_vector(sbt.grant(all)));
    const auto b = verify::spread_share_bounds(costs, 100, shares.decisions());
    RC_PRE(b.has_value());
    RC_ASSERT(shares.check(b->target, b->tolerance).outcome == verify::share_check::within);
  });
}

TEST_CASE("shares: DTable within one table cycle", "[verify]") {
  // Packets of one MTU (2 credits): a saturated table cycle of 12 credits
  // sends SL0 3 packets, SL1 1 and SL2 2, so c_i = 6 / packets_i, D = 6.
  interlock::qos::dtable_scheduler dtable({{0, 4}, {1, 2}, {0, 2}, {2, 4}}, {0, 1, 2}, {2, 2, 2});
  const std::array<std::uint32_t, 3> size{2, 2, 2};
  const interlock::qos::queue_requests all{0b111, size};
  verify::share_monitor shares(3, 0b111);
  for (int t = 0; t < 3000; ++t) shares.observe(0b111, verify::grant_vector(dtable.grant(all)));
  const auto b = verify::spread_share_bounds({2.0, 6.0, 3.0}, 6, shares.decisions());
  REQUIRE(b);
  CHECK(shares.check(b->target, b->tolerance).outcome == verify::share_check::within);
  CHECK(*shares.share(0) == Approx(0.5).margin(0.01));
}

TEST_CASE("shares: round robin is outside unequal weights' bounds", "[verify]") {
  interlock::round_robin_arbiter<2> rr;
  verify::share_monitor shares(2, 0b11);
  for (int t = 0; t < 4000; ++t) shares.observe(0b11, verify::grant_vector(rr.grant(0b11)));
  const auto b = verify::spread_share_bounds({1.0, 2.0}, 4.0, shares.decisions());
  REQUIRE(b);
  CHECK(shares.check(b->target, b->tolerance).outcome == verify::share_check::outside);
}

TEST_CASE("oracles: DTable and InfiniBand's VL arbiter grant requesters and conserve work",
          "[verify]") {
  // Their latency bounds are stated in credits and bytes (entry distance,
  // LimitOfHighPriority), not in grants: the oracle checks the per-decision
  // properties here, and qos/ tests check those bounds.
  rc::prop("dtable_scheduler and ib_vl_arbiter on random active queues and sizes", [] {
    splitmix rng(*rc::gen::arbitrary<std::uint64_t>());
    const int density = *rc::gen::inRange(0, 3);
    std::array<std::uint32_t, 4> credits{}, bytes{};
    auto refresh = [&] {
      for (std::size_t q = 0; q < 4; ++q) {
        credits[q] = static_cast<std::uint32_t>(1 + rng.below(2));
        bytes[q] = static_cast<std::uint32_t>(1 + rng.below(4096));
      }
    };
    interlock::qos::dtable_scheduler dtable({{0, 3}, {1, 5}, {2, 2}, {0, 4}, {3, 2}}, {0, 1, 2, 3},
                                            {2, 2, 2, 2});
    auto dtable_stream = [&](std::uint64_t) {
      refresh();
      return interlock::qos::queue_requests{draw(rng, 4, density), credits};
    };
    require_passed(verify::check_arbiter(dtable, dtable_stream, stream_cycles, {}));
    interlock::qos::ib_vl_arbiter ib(interlock::qos::ib_vl_arbitration_config{
        {{0, 3}, {1, 3}}, {{2, 2}, {3, 2}}, 1, interlock::qos::low_priority_turn::one_packet});
    auto ib_stream = [&](std::uint64_t) {
      refresh();
      return interlock::qos::queue_requests{draw(rng, 4, density), bytes};
    };
    require_passed(verify::check_arbiter(ib, ib_stream, stream_cycles, {}));
  });
}
