// SPDX-License-Identifier: BSL-1.0
// Tests of interlock/arbiters/inverse_weighted.hpp: the hardware model
// against a transcription of Figures 6 and 8 of [Towles14], equality of
// service under saturation and under blended patterns (Eq. 2-5) with bounds
// derived from M and the window, the exact model, and round robin as the
// equal-load case.
#include "support/interlock_test.hpp"
#include "support/reference_arbiters.hpp"

#include <interlock/arbiters/inverse_weight_tables.hpp>
#include <interlock/arbiters/inverse_weighted.hpp>
#include <interlock/arbiters/inverse_weighted_exact.hpp>
#include <interlock/arbiters/round_robin.hpp>
#include <interlock/verify/arbiter_checks.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

using interlock::grant;
using interlock::inverse_weighted_arbiter;
using interlock::inverse_weighted_exact;
using interlock::load_matrix;
using interlock::pattern_requests;
using namespace interlock_test;

namespace {

// Figure 6 (module accumulator_update) and Figure 8 (module priority_arb),
// transcribed: accumulators as plain integers, the grant vector from the
// transcription of Figure 8, and the round-robin state updated to the bits
// below the grant.
struct figure6_reference {
  std::size_t k;
  unsigned m;
  std::vector<std::vector<std::uint32_t>> inv_weight;  // [i][pattern]
  std::vector<std::uint32_t> accum;
  std::size_t rr_ones = 0;

  grant step(std::uint64_t req, const std::vector<std::uint8_t>& pattern) {
    std::vector<bool> request(k), therm(k);
    std::vector<std::size_t> pri(k);
    for (std::size_t i = 0; i < k; ++i) {
      request[i] = (req >> i & 1u) != 0;
      pri[i] = (accum[i] >> m & 1u) == 0 ? 1 : 0;  // pri[i] = !accum[i][M]
      therm[i] = i < rr_ones;
    }
    const std::vector<bool> grant_vector = figure8_priority_arb(k, 2, request, pri, therm);
    grant g;
    for (std::size_t i = 0; i < k; ++i)
      if (grant_vector[i]) g = grant(i);
    bool low_grant = false;  // |(grant & ~pri)
    for (std::size_t i = 0; i < k; ++i) low_grant = low_grant || (grant_vector[i] && pri[i] == 0);
    std::vector<std::uint32_t> next(k);
    for (std::size_t i = 0; i < k; ++i) {
      const std::uint32_t accum_msb0 = accum[i] & ((1u << m) - 1);  // {1'b0, accum[i][M-1:0]}
      next[i] = grant_vector[i] ? accum_msb0 + inv_weight[i][pattern[i]]
                : low_grant     ? (pri[i] != 0 ? 0u : accum_msb0)
                                : accum[i];
    }
    accum = next;
    if (g) rr_ones = g.index();
    return g;
  }
};

template <std::size_t K, unsigned M>
void check_against_figure6(std::uint64_t seed, std::size_t steps) {
  splitmix rng(seed);
  constexpr std::size_t n = 2;
  std::vector<std::vector<std::uint32_t>> weights(K, std::vector<std::uint32_t>(n));
  for (auto& row : weights)
    for (auto& w : row) w = static_cast<std::uint32_t>(1 + rng.below((std::uint64_t{1} << M) - 1));
  inverse_weighted_arbiter<K, n, M> arb(weights);
  figure6_reference ref{K, M, weights, std::vector<std::uint32_t>(K, 0)};
  std::vector<std::uint8_t> pattern(K);
  for (std::size_t s = 0; s < steps; ++s) {
    const std::uint64_t density = rng.below(4);
    std::uint64_t req = rng.next();
    for (std::uint64_t d = 0; d < density; ++d) req &= rng.next();
    req &= interlock::bits::low_mask(K);
    for (auto& p : pattern) p = static_cast<std::uint8_t>(rng.below(n));
    const pattern_requests r{req, pattern};
    const auto check = interlock::verify::check_decision(arb, r);
    RC_ASSERT(check.failed.empty());
    const grant expected = ref.step(req, pattern);
    RC_ASSERT(check.g == expected);
    arb.commit(check.g, r);
    for (std::size_t i = 0; i < K; ++i) {
      RC_ASSERT(arb.accumulator(i) == ref.accum[i]);
      RC_ASSERT(arb.accumulator(i) < (2u << M));  // below 2^(M+1)
    }
  }
}

// Bresenham labels: the k-th packet of input i gets the pattern whose count
// lags its share p_n the most, so every count stays within 1 of k * p_n.
struct labeller {
  std::vector<double> share;
  std::vector<double> count;
  double packets = 0;
  std::uint8_t next() {
    packets += 1;
    std::size_t best = 0;
    for (std::size_t n = 1; n < share.size(); ++n)
      if (packets * share[n] - count[n] > packets * share[best] - count[best]) best = n;
    count[best] += 1;
    return static_cast<std::uint8_t>(best);
  }
};

}  // namespace

TEST_CASE("inverse_weighted_arbiter: Figure 6 and Figure 8, transcribed",
          "[inverse_weighted][property]") {
  rc::prop("grants and (M+1)-bit accumulators equal the SystemVerilog, step by step", [] {
    const auto seed = *rc::gen::arbitrary<std::uint64_t>();
    const std::size_t steps = sized<std::size_t>(300, 100);
    check_against_figure6<1, 3>(seed, steps * 2 / 3);
    check_against_figure6<2, 5>(seed, steps);
    check_against_figure6<6, 4>(seed, steps);
    check_against_figure6<6, 8>(seed, steps);
    check_against_figure6<33, 6>(seed, steps);
    check_against_figure6<64, 10>(seed, steps);
  });
}

TEST_CASE("inverse_weighted_arbiter: the window base is rewritten without changing anything",
          "[inverse_weighted]") {
  // M = 2: the base is rewritten every 2^12 slides; run past many.
  constexpr std::size_t k = 3;
  const std::vector<std::vector<std::uint32_t>> weights{{3}, {2}, {1}};
  inverse_weighted_arbiter<k, 1, 2> arb(weights);
  figure6_reference ref{k, 2, weights, std::vector<std::uint32_t>(k, 0)};
  std::vector<std::uint8_t> pattern(k, 0);
  splitmix rng(7);
  for (std::size_t s = 0; s < sized<std::size_t>(200'000, 50'000); ++s) {
    const std::uint64_t req =
        rng.below(8) == 0 ? (rng.next() & 0b111) : 0b011;  // input 2 mostly idle
    const grant g = arb.grant(pattern_requests{req, pattern});
    REQUIRE(g == ref.step(req, pattern));
    if (s % 64 == 0)
      for (std::size_t i = 0; i < k; ++i) REQUIRE(arb.accumulator(i) == ref.accum[i]);
  }
}

TEST_CASE("Figure 5: arbiter A grants input 0 twice as often, arbiter B 1.5 times",
          "[inverse_weighted]") {
  inverse_weighted_arbiter<2, 1, 8> a(interlock::weights_from_loads({{1.0}, {0.5}}, 8));
  inverse_weighted_arbiter<2, 1, 8> b(interlock::weights_from_loads({{1.5}, {1.0}}, 8));
  const std::uint8_t labels[2] = {0, 0};
  const pattern_requests both{0b11, labels};
  double sa[2] = {}, sb[2] = {};
  for (int t = 0; t < 30000; ++t) {
    ++sa[a.grant(both).index()];
    ++sb[b.grant(both).index()];
    // The window bound |S_0 m_0 - S_1 m_1| < 2^(M+1) = 512, in grant units:
    REQUIRE(std::abs(127 * sa[0] - 254 * sa[1]) < 512);
    REQUIRE(std::abs(170 * sb[0] - 255 * sb[1]) < 512);
  }
  CHECK(sa[0] / sa[1] == Approx(2.0).epsilon(0.001));
  CHECK(sb[0] / sb[1] == Approx(1.5).epsilon(0.001));
}

TEST_CASE("inverse_weighted_arbiter: equality of service under saturation",
          "[inverse_weighted][property]") {
  rc::prop("|S_i m_i - S_j m_j| < 2^(M+1) at every step, so S_i/S_j -> gamma_i/gamma_j", [] {
    constexpr std::size_t k = 12;
    constexpr unsigned m = 7;
    const auto active = *rc::gen::inRange<std::size_t>(2, k + 1);
    load_matrix loads(k, std::vector<double>{0.0});
    for (std::size_t i = 0; i < active; ++i) loads[i][0] = *rc::gen::inRange(10, 400) / 100.0;
    const std::uint64_t idle = interlock::bits::low_mask(k) & ~interlock::bits::low_mask(active);
    const auto q = interlock::weights_from_loads(loads, m, idle);
    inverse_weighted_arbiter<k, 1, m> arb(q);
    const std::vector<std::uint8_t> labels(k, 0);
    const pattern_requests all{interlock::bits::low_mask(active), labels};
    std::vector<double> served(k, 0);
    const double window = std::pow(2.0, m + 1);
    for (int t = 0; t < 20000; ++t) {
      const grant g = arb.grant(all);
      RC_ASSERT(g.index() < active);
      served[g.index()] += 1;
      double lo = 1e300, hi = -1e300;
      for (std::size_t i = 0; i < active; ++i) {
        lo = std::min(lo, served[i] * q.weights[i][0]);
        hi = std::max(hi, served[i] * q.weights[i][0]);
      }
      RC_ASSERT(hi - lo < window);
    }
    // The ratio bound: S_i/S_j = (tau_i/m_i)/(tau_j/m_j) with tau within the
    // window, and m_j/m_i within the quantization error of gamma_i/gamma_j.
    const double e = q.max_relative_error;
    double tau_min = 1e300;
    for (std::size_t i = 0; i < active; ++i)
      tau_min = std::min(tau_min, served[i] * q.weights[i][0]);
    const double spread = (tau_min + window) / tau_min;
    const double quantization = (1 + e) / (1 - e);
    for (std::size_t i = 0; i < active; ++i)
      for (std::size_t j = 0; j < active; ++j) {
        const double measured = served[i] / served[j];
        const double target = loads[i][0] / loads[j][0];
        RC_ASSERT(measured <= target * quantization * spread * (1 + 1e-12));
        RC_ASSERT(measured >= target / (quantization * spread) * (1 - 1e-12));
      }
  });
}

namespace {

// Saturation with two patterns blended by `alpha`: input i labels its
// packets in the proportions alpha_n gamma_{i,n} / gammabar_i (Eq. 5). Returns
// the service counts.
template <class Arbiter>
std::vector<double> blended_run(Arbiter& arb, const load_matrix& loads,
                                const std::vector<double>& alpha, int decisions) {
  const std::size_t k = loads.size();
  std::vector<labeller> labels;
  for (std::size_t i = 0; i < k; ++i) {
    const double blended = alpha[0] * loads[i][0] + alpha[1] * loads[i][1];
    labels.push_back(
        {{alpha[0] * loads[i][0] / blended, alpha[1] * loads[i][1] / blended}, {0, 0}});
  }
  std::vector<std::uint8_t> current(k);
  for (std::size_t i = 0; i < k; ++i) current[i] = labels[i].next();
  std::vector<double> served(k, 0);
  for (int t = 0; t < decisions; ++t) {
    const grant g = arb.grant(pattern_requests{interlock::bits::low_mask(k), current});
    served[g.index()] += 1;
    current[g.index()] = labels[g.index()].next();  // the next packet of that input
  }
  return served;
}

struct blend_case {
  load_matrix loads;
  std::vector<double> alpha;
};

rc::Gen<blend_case> gen_blend(std::size_t k) {
  return rc::gen::exec([k] {
    blend_case c;
    for (std::size_t i = 0; i < k; ++i)
      c.loads.push_back({*rc::gen::inRange(20, 300) / 100.0, *rc::gen::inRange(20, 300) / 100.0});
    const double a = *rc::gen::inRange(0, 101) / 100.0;
    c.alpha = {a, 1 - a};
    return c;
  });
}

}  // namespace

TEST_CASE("inverse-weighted arbiters: equality of service for any blend of patterns",
          "[inverse_weighted][property]") {
  constexpr std::size_t k = 6;
  rc::prop("exact model: |S_i/gbar_i - S_j/gbar_j| <= max weight + label discrepancy", [] {
    const blend_case c = *gen_blend(k);
    inverse_weighted_exact<k, 2> arb(c.loads);  // knows the patterns' loads, not alpha
    const std::vector<double> served = blended_run(arb, c.loads, c.alpha, 6000);
    double w_max = 0;
    for (const auto& row : c.loads)
      for (double g : row) w_max = std::max(w_max, 1 / g);
    for (std::size_t i = 0; i < k; ++i)
      for (std::size_t j = 0; j < k; ++j) {
        const double gbar_i = c.alpha[0] * c.loads[i][0] + c.alpha[1] * c.loads[i][1];
        const double gbar_j = c.alpha[0] * c.loads[j][0] + c.alpha[1] * c.loads[j][1];
        const double slack =
            w_max + 1 / c.loads[i][0] + 1 / c.loads[i][1] + 1 / c.loads[j][0] + 1 / c.loads[j][1];
        RC_ASSERT(std::abs(served[i] / gbar_i - served[j] / gbar_j) <= slack + 1e-9);
      }
  });
  rc::prop("hardware model: the same, within the quantization error and the window", [] {
    constexpr unsigned m = 9;
    const blend_case c = *gen_blend(k);
    const auto q = interlock::weights_from_loads(c.loads, m);
    inverse_weighted_arbiter<k, 2, m> arb(q);
    const std::vector<double> served = blended_run(arb, c.loads, c.alpha, 6000);
    // tau_i / beta = sum_n s_{i,n} (1 + q_{i,n}) / gamma_{i,n} lies within
    // (1 -+ e)(X_i -+ c_i) with X_i = S_i / gbar_i and c_i = sum_n 1/gamma_{i,n};
    // |tau_i - tau_j| < 2^(M+1) then bounds X_i by X_j.
    const double e = q.max_relative_error;
    const double window = std::pow(2.0, m + 1) / q.beta;
    for (std::size_t i = 0; i < k; ++i)
      for (std::size_t j = 0; j < k; ++j) {
        const double x_i = served[i] / (c.alpha[0] * c.loads[i][0] + c.alpha[1] * c.loads[i][1]);
        const double x_j = served[j] / (c.alpha[0] * c.loads[j][0] + c.alpha[1] * c.loads[j][1]);
        const double c_i = 1 / c.loads[i][0] + 1 / c.loads[i][1];
        const double c_j = 1 / c.loads[j][0] + 1 / c.loads[j][1];
        RC_ASSERT(x_i <= ((1 + e) * (x_j + c_j) + window) / (1 - e) + c_i + 1e-9);
      }
  });
}

TEST_CASE("inverse_weighted_arbiter: tracks the exact model's long-run shares",
          "[inverse_weighted][property]") {
  rc::prop("shares differ by no more than the quantization and window bounds allow", [] {
    constexpr std::size_t k = 8;
    constexpr unsigned m = 8;
    load_matrix loads;
    for (std::size_t i = 0; i < k; ++i) loads.push_back({*rc::gen::inRange(10, 500) / 100.0});
    const auto q = interlock::weights_from_loads(loads, m);
    inverse_weighted_arbiter<k, 1, m> hw(q);
    inverse_weighted_exact<k, 1> exact(loads);
    const std::vector<std::uint8_t> labels(k, 0);
    const pattern_requests all{interlock::bits::low_mask(k), labels};
    std::vector<double> s_hw(k, 0), s_exact(k, 0);
    const int decisions = 40000;
    for (int t = 0; t < decisions; ++t) {
      s_hw[hw.grant(all).index()] += 1;
      s_exact[exact.grant(all).index()] += 1;
    }
    // Hardware: S_i m_i within [tau_min, tau_min + 2^(M+1)); exact: S_i/gamma_i
    // within [A_min, A_min + w_max]. Each measured share is its target share
    // times a factor these ranges bound, and the two targets differ by the
    // weights' quantization, (1 -+ e)/(1 +- e).
    double tau_min = 1e300, a_min = 1e300, w_max = 0;
    for (std::size_t i = 0; i < k; ++i) {
      tau_min = std::min(tau_min, s_hw[i] * q.weights[i][0]);
      a_min = std::min(a_min, s_exact[i] / loads[i][0]);
      w_max = std::max(w_max, 1 / loads[i][0]);
    }
    const double e = q.max_relative_error;
    const double factor = ((tau_min + std::pow(2.0, m + 1)) / tau_min) * ((a_min + w_max) / a_min) *
                          ((1 + e) / (1 - e));
    for (std::size_t i = 0; i < k; ++i) {
      const double ratio = (s_hw[i] / decisions) / (s_exact[i] / decisions);
      RC_ASSERT(ratio <= factor * (1 + 1e-12));
      RC_ASSERT(ratio >= 1 / factor * (1 - 1e-12));
    }
  });
}

TEST_CASE("inverse-weighted arbiters: equal loads reduce to round robin",
          "[inverse_weighted][property]") {
  rc::prop("with every input requesting, both models grant exactly as round_robin_arbiter", [] {
    constexpr std::size_t k = 16;
    const auto weight = *rc::gen::inRange<std::uint32_t>(1, 64);
    inverse_weighted_arbiter<k, 1, 6> hw(std::vector<std::vector<std::uint32_t>>(k, {weight}));
    inverse_weighted_exact<k, 1> exact(load_matrix(k, std::vector<double>{1.0 / weight}));
    interlock::round_robin_arbiter<k> rr;
    const std::vector<std::uint8_t> labels(k, 0);
    const pattern_requests all{interlock::bits::low_mask(k), labels};
    for (int t = 0; t < 500; ++t) {
      const grant g = rr.grant(all.requests);
      RC_ASSERT(hw.grant(all) == g);
      RC_ASSERT(exact.grant(all) == g);
    }
  });
}

TEST_CASE("inverse_weighted_exact: the lowest accumulator wins, ties round robin",
          "[inverse_weighted]") {
  inverse_weighted_exact<3, 2> arb({{1.0, 0.5}, {2.0, 1.0}, {1.0, 1.0}});
  const std::uint8_t labels[3] = {1, 0, 0};
  const pattern_requests all{0b111, labels};
  CHECK(arb.grant(all) == grant(2));  // all 0: round robin from the top
  CHECK(arb.accumulator(2) == 1.0);
  CHECK(arb.grant(all) == grant(1));
  CHECK(arb.accumulator(1) == 0.5);  // 1 / gamma_{1,0} = 1/2
  CHECK(arb.grant(all) == grant(0));
  CHECK(arb.accumulator(0) == 2.0);   // pattern 1: 1 / 0.5
  CHECK(arb.grant(all) == grant(1));  // 0.5 is the lowest

  // A tie that round robin, not the index, decides: after a grant to 1 the
  // pointer favours 0 over 2.
  inverse_weighted_exact<3, 1> tie(load_matrix{{1.0}, {1.0}, {1.0}});
  const std::uint8_t zero[3] = {0, 0, 0};
  CHECK(tie.grant(pattern_requests{0b010, zero}) == grant(1));
  CHECK(tie.grant(pattern_requests{0b101, zero}) == grant(0));
  CHECK(tie.grant(pattern_requests{0b101, zero}) == grant(2));
}

TEST_CASE("inverse-weighted arbiters: bad input", "[inverse_weighted][config][contract]") {
  using three = std::vector<std::vector<std::uint32_t>>;
  CHECK_THROWS_WITH((inverse_weighted_arbiter<2, 1, 4>(three{{16}, {1}})),
                    "inverse_weighted_arbiter: weight of input 0, pattern 0 = 16; allowed: 1..15");
  // A weight of 0 would serve its input for free (with {0, 5} the second
  // input got 52 grants in 100,000): refused.
  CHECK_THROWS_WITH((inverse_weighted_arbiter<2, 1, 4>(three{{0}, {5}})),
                    "inverse_weighted_arbiter: weight of input 0, pattern 0 = 0; allowed: 1..15");
  // Weights computed for another M are reported as the M mismatch they are.
  CHECK_THROWS_WITH(
      (inverse_weighted_arbiter<2, 1, 4>(interlock::weights_from_loads({{1.0}, {0.25}}, 8))),
      "inverse_weighted_arbiter: M of the weights = 8; allowed: 4..4");
  CHECK_THROWS_AS((inverse_weighted_arbiter<2, 1, 4>(three{{1}, {1}, {1}})),
                  interlock::config_error);
  CHECK_THROWS_AS((inverse_weighted_arbiter<2, 2, 4>(three{{1}, {1}})), interlock::config_error);
  CHECK_THROWS_AS(
      (inverse_weighted_arbiter<2, 1, 4>(interlock::weights_from_loads({{1.0}, {0.5}}, 8))),
      interlock::config_error);
  CHECK_THROWS_AS((inverse_weighted_exact<2, 1>(load_matrix{{1.0}, {0.0}})),
                  interlock::config_error);
  inverse_weighted_arbiter<2, 2, 4> hw(three{{1, 2}, {3, 4}});
  const std::uint8_t bad[2] = {2, 0};
  CHECK_THROWS_AS(hw.commit(grant(0), pattern_requests{0b01, bad}), interlock::contract_violation);
  CHECK_THROWS_AS(hw.arbitrate(pattern_requests{0b100, bad}), interlock::contract_violation);
  inverse_weighted_exact<2, 2> exact(load_matrix{{1.0, 0.0}, {1.0, 1.0}});
  const std::uint8_t absent[2] = {1, 0};  // pattern 1 never arrives at input 0
  CHECK_THROWS_AS(exact.commit(grant(0), pattern_requests{0b01, absent}),
                  interlock::contract_violation);
}

TEST_CASE("inverse-weighted: a pattern that never reaches an input defeats the blend",
          "[inverse_weighted][paper]") {
  // Eq. 5 assumes every pattern loads every input. Loads {{1, 0}, {0, 1}}:
  // input 0 sees only pattern 0, input 1 only pattern 1. Whatever the blend
  // (10% / 90% would be fair as 0.1 / 0.9), two saturated inputs get 0.5 / 0.5.
  const load_matrix loads{{1.0, 0.0}, {0.0, 1.0}};
  inverse_weighted_exact<2, 2> exact(loads);
  inverse_weighted_arbiter<2, 2, 8> hw(interlock::weights_from_loads(loads, 8));
  const std::uint8_t labels[2] = {0, 1};
  const pattern_requests both{0b11, labels};
  int exact_served[2] = {}, hw_served[2] = {};
  for (int k = 0; k < 10000; ++k) {
    ++exact_served[exact.grant(both).index()];
    ++hw_served[hw.grant(both).index()];
  }
  CHECK(exact_served[0] == 5000);
  CHECK(hw_served[0] == 5000);
}

TEST_CASE(
    "inverse_weight_tables: one table per distinct set of loads, as weights_from_loads makes it",
    "[inverse_weighted][tables]") {
  interlock::inverse_weight_tables<4, 2, 8> tables;
  const std::vector<std::vector<double>> a = {{1.0, 0.5}, {0.5, 1.0}, {0, 0}};
  const std::vector<std::vector<double>> b = {{1.0, 0.5}, {0.5, 2.0}, {0, 0}};
  auto loads = [](const std::vector<std::vector<double>>& l) {
    return [&l](std::size_t i, std::size_t n) { return l[i][n]; };
  };
  const auto ta = tables.from_loads(3, loads(a));
  const auto ta2 = tables.from_loads(3, loads(a));
  const auto tb = tables.from_loads(3, loads(b));
  CHECK(ta == ta2);  // shared
  CHECK(ta != tb);
  CHECK(tables.distinct() == 2);
  // The weights are weights_from_loads's, inputs 2 and 3 idle.
  const interlock::quantized_weights q =
      interlock::weights_from_loads({{1.0, 0.5}, {0.5, 1.0}, {0, 0}, {0, 0}}, 8, 0b1100);
  for (std::size_t i = 0; i < 4; ++i)
    for (std::size_t n = 0; n < 2; ++n) CHECK(ta->weight(i, n) == q.weights[i][n]);
  // No load at all: equal weights, so the arbiter serves round robin.
  const auto none = tables.from_loads(4, [](std::size_t, std::size_t) { return 0.0; });
  for (std::size_t i = 0; i < 4; ++i) CHECK(none->weight(i, 0) == 255);
}

TEST_CASE("inverse_weight_tables with headroom: M - h bits of weight in the M-bit arbiter",
          "[inverse_weighted][tables]") {
  // Figure 5's arbiter A (loads 1 and 0.5): 127 : 254 with all 8 bits, 31 : 62 with 2 spare.
  auto figure5 = [](std::size_t i, std::size_t) { return i == 0 ? 1.0 : 0.5; };
  interlock::inverse_weight_tables<4, 1, 8> full, spare(2);
  CHECK(full.headroom() == 0);
  CHECK(spare.headroom() == 2);
  const auto a = full.from_loads(2, figure5);
  const auto b = spare.from_loads(2, figure5);
  CHECK(a->weight(0, 0) == 127);
  CHECK(a->weight(1, 0) == 254);
  CHECK(b->weight(0, 0) == 31);
  CHECK(b->weight(1, 0) == 62);
  // Its weights are weights_from_loads's at M - h bits, idle inputs included.
  const interlock::quantized_weights q =
      interlock::weights_from_loads({{1.0}, {0.5}, {0}, {0}}, 6, 0b1100);
  for (std::size_t i = 0; i < 4; ++i) CHECK(b->weight(i, 0) == q.weights[i][0]);
  // No load at all: equal weights of M - h bits, round robin.
  const auto none = spare.from_loads(4, [](std::size_t, std::size_t) { return 0.0; });
  for (std::size_t i = 0; i < 4; ++i) CHECK(none->weight(i, 0) == 63);
  // The same service ratio in the M-bit arbiter while both inputs request:
  // within the EoS bound, |31 S_0 - 62 S_1| < 2^9.
  interlock::inverse_weighted_arbiter<4, 1, 8> arb(b);
  const std::uint8_t labels[4] = {};
  const interlock::pattern_requests both{0b11, labels};
  int served[2] = {};
  for (int k = 0; k < 3000; ++k) ++served[arb.grant(both).index()];
  CHECK(std::abs(31 * served[0] - 62 * served[1]) < 512);
  CHECK(served[0] + served[1] == 3000);
  CHECK(served[0] > 1980);
}

TEST_CASE("inverse_weight_tables refuses headroom that leaves no weight bit",
          "[inverse_weighted][tables][contract]") {
  using tables = interlock::inverse_weight_tables<4, 1, 8>;
  CHECK_NOTHROW(tables(7));
  try {
    tables t(8);
    FAIL("accepted 8 bits of headroom in an 8-bit arbiter");
  } catch (const interlock::config_error& e) {
    CHECK(e.field() == "headroom");
    CHECK(std::string(e.what()).find("0..7") != std::string::npos);
  }
}

TEST_CASE("exact_weight_tables: Eq. 3's 1 / gamma, shared, the least service for a zero load",
          "[inverse_weighted][tables]") {
  interlock::exact_weight_tables<4, 2> tables;
  const std::vector<std::vector<double>> a = {{1.0, 0.5}, {0.25, 0.0}};
  auto loads = [&a](std::size_t i, std::size_t n) { return a[i][n]; };
  const auto t = tables.from_loads(2, loads);
  CHECK(tables.from_loads(2, loads) == t);
  CHECK(tables.distinct() == 1);
  CHECK(t->weight(0, 0) == 1.0);
  CHECK(t->weight(0, 1) == 2.0);
  CHECK(t->weight(1, 0) == 4.0);
  // Zero loads (pattern 1 at input 1; inputs 2 and 3): the least loaded input's weight.
  CHECK(t->weight(1, 1) == 4.0);
  CHECK(t->weight(2, 0) == 4.0);
  CHECK(t->weight(3, 1) == 4.0);
  // No load at all: equal weights.
  const auto none = tables.from_loads(4, [](std::size_t, std::size_t) { return 0.0; });
  for (std::size_t i = 0; i < 4; ++i) CHECK(none->weight(i, 0) == 1.0);
  // An arbiter over the table serves inputs 0 and 1 (pattern 0) 4 : 1.
  interlock::inverse_weighted_exact<4, 2> arb(t);
  const std::uint8_t labels[4] = {};
  const interlock::pattern_requests both{0b11, labels};
  int served[2] = {};
  for (int k = 0; k < 5000; ++k) ++served[arb.grant(both).index()];
  CHECK(served[0] == 4000);
  CHECK(served[1] == 1000);
}
