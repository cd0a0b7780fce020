// SPDX-License-Identifier: BSL-1.0
// Tests of interlock/arbiters/inverse_weights.hpp: Section 3.1's loads,
// Figure 5, and the choice of beta and M ([Towles14], Section 3.3).
#include "support/interlock_test.hpp"

#include <interlock/arbiters/inverse_weights.hpp>
#include <interlock/traffic/loads.hpp>

#include <cmath>
#include <vector>

using interlock::arbiter_input;
using interlock::load_matrix;
using interlock::weights_from_loads;

namespace {

// Figure 5: sources E0, E1, E2 (0..2) send to one destination (3). E0 and E1
// meet at arbiter A (0): E1 on input 0, E0 on input 1. A's output and E2 meet
// at arbiter B (1): A on input 0, E2 on input 1.
const std::vector<std::vector<std::vector<double>>> figure5_traffic = {
    {{0, 0, 0, 0.5}, {0, 0, 0, 1}, {0, 0, 0, 1}, {0, 0, 0, 0}}};

std::vector<arbiter_input> figure5_route(std::size_t source, std::size_t) {
  switch (source) {
    case 0:
      return {{0, 1}, {1, 0}};
    case 1:
      return {{0, 0}, {1, 0}};
    default:
      return {{1, 1}};
  }
}

}  // namespace

TEST_CASE("Figure 5: the loads on the inputs of arbiters A and B", "[inverse_weights]") {
  const auto loads = interlock::arbiter_input_loads(figure5_traffic, 2, 2, figure5_route);
  CHECK(loads[0] == load_matrix{{1.0}, {0.5}});  // A: "input zero is 1 and input one is 0.5"
  CHECK(loads[1] == load_matrix{{1.5}, {1.0}});  // B: A's output carries 0.5 + 1 = 1.5
}

TEST_CASE("Figure 5: weights that grant A's input 0 twice as often, B's 1.5 times",
          "[inverse_weights]") {
  const auto a = weights_from_loads({{1.0}, {0.5}}, 8);
  CHECK(a.weights == std::vector<std::vector<std::uint32_t>>{{127}, {254}});
  CHECK(a.beta == 127.0);
  CHECK(a.max_relative_error == 0);
  const auto b = weights_from_loads({{1.5}, {1.0}}, 8);
  CHECK(b.weights == std::vector<std::vector<std::uint32_t>>{{170}, {255}});
  CHECK(b.max_relative_error == 0);
  // Grants are inversely proportional to the weights: 254/127 = 2, 255/170 = 1.5.
  CHECK(static_cast<double>(a.weights[1][0]) / a.weights[0][0] == 2.0);
  CHECK(static_cast<double>(b.weights[1][0]) / b.weights[0][0] == 1.5);
}

TEST_CASE("weights_from_loads: beta and the quantization error", "[inverse_weights][property]") {
  rc::prop("every weight fits M bits, is at least 1, and is within the reported error", [] {
    const auto inputs = *rc::gen::inRange<std::size_t>(1, 9);
    const auto patterns = *rc::gen::inRange<std::size_t>(1, 4);
    const auto bits = *rc::gen::inRange(4u, 17u);
    load_matrix loads(inputs, std::vector<double>(patterns));
    for (auto& row : loads)
      for (double& g : row) g = *rc::gen::inRange(1, 1000) / 100.0;  // 0.01 .. 10
    double least = 1e9, most = 0;
    for (const auto& row : loads)
      for (double g : row) least = std::min(least, g), most = std::max(most, g);
    RC_PRE(((1u << bits) - 1) * least / most >= 1.0);  // M bits can hold the spread
    const auto q = weights_from_loads(loads, bits);
    RC_ASSERT(q.bits == bits);
    double worst = 0;
    for (std::size_t i = 0; i < inputs; ++i)
      for (std::size_t n = 0; n < patterns; ++n) {
        const double m = q.weights[i][n];
        RC_ASSERT(m >= 1);
        RC_ASSERT(m < std::pow(2.0, bits));
        RC_ASSERT(m == std::floor(q.beta / loads[i][n] + 0.5));  // nint(beta / gamma)
        worst = std::max(worst, std::abs(m * loads[i][n] / q.beta - 1));
      }
    RC_ASSERT(std::abs(worst - q.max_relative_error) < 1e-12);
    // No worse than the plain choice beta = (2^M - 1) gamma_min: at most half
    // a unit on the smallest weight.
    RC_ASSERT(q.max_relative_error <= 0.5 / (((1u << bits) - 1) * least / most) + 1e-12);
  });
}

TEST_CASE("weights_for_accuracy: the smallest M that reaches the accuracy", "[inverse_weights]") {
  const load_matrix loads{{1.0}, {0.3}, {0.7}};
  const auto q = interlock::weights_for_accuracy(loads, 0.01);
  CHECK(q.max_relative_error <= 0.01);
  for (unsigned bits = 1; bits < q.bits; ++bits) {  // every smaller M falls short (or cannot fit)
    bool short_of = true;
    try {
      short_of = weights_from_loads(loads, bits).max_relative_error > 0.01;
    } catch (const interlock::config_error&) {
    }
    CHECK(short_of);
  }
  CHECK(interlock::weights_for_accuracy({{1.0}, {0.5}}, 0).max_relative_error == 0);
  CHECK_THROWS_AS(interlock::weights_for_accuracy(loads, 1e-12, 0, 6), interlock::config_error);
}

TEST_CASE("inverse weights: configuration errors", "[inverse_weights][config]") {
  CHECK_THROWS_WITH(weights_from_loads({{1.0}, {-0.5}}, 8),
                    "inverse weights: load of input 1, pattern 0 = -0.500000; allowed: a finite "
                    "number >= 0");
  CHECK_THROWS_AS(weights_from_loads({{1.0}, {std::nan("")}}, 8), interlock::config_error);
  CHECK_THROWS_WITH(weights_from_loads({{1.0, 0.0}, {0.0, 0.0}}, 8),
                    Catch::Contains("load of input 1 = 0 in every pattern"));
  // An input that never requests may have no load; its weight is the largest.
  const auto idle = weights_from_loads({{1.0, 0.0}, {0.0, 0.0}}, 8, 0b10);
  CHECK(idle.weights[1] == std::vector<std::uint32_t>{255, 255});
  CHECK_THROWS_AS(weights_from_loads({{1.0}}, 0), interlock::config_error);
  CHECK_THROWS_AS(weights_from_loads({{1.0}}, 32), interlock::config_error);
  CHECK_THROWS_WITH(
      weights_from_loads({{1.0}, {1000.0}}, 4),
      Catch::Contains("M (weight bits) = 4; allowed: enough bits for the load ratio"));
  CHECK_THROWS_AS(weights_from_loads({{1.0, 1.0}, {1.0}}, 8), interlock::config_error);
  CHECK_THROWS_AS(weights_from_loads(load_matrix(65, std::vector<double>{1.0}), 8),
                  interlock::config_error);
  CHECK_THROWS_WITH(interlock::arbiter_input_loads(figure5_traffic, 1, 2, figure5_route),
                    Catch::Contains("hop of route 0 -> 3 = arbiter 1 input 0"));
}

namespace {
// Brute force over weight vectors: the least error any M-bit weights reach.
// m (one weight per distinct load) is realizable when some beta has
// nint(beta / g) = m for every g: beta in [(m - 1/2) g, (m + 1/2) g) for all.
double brute_force_error(const std::vector<double>& g, unsigned bits) {
  const std::uint32_t top = (1u << bits) - 1;
  std::vector<std::uint32_t> m(g.size(), 1);
  double best = -1;
  for (;;) {
    double a = 0, b = 1e300, vmin = 1e300, vmax = 0;
    for (std::size_t k = 0; k < g.size(); ++k) {
      a = std::max(a, (m[k] - 0.5) * g[k]);
      b = std::min(b, (m[k] + 0.5) * g[k]);
      vmin = std::min(vmin, m[k] * g[k]);
      vmax = std::max(vmax, m[k] * g[k]);
    }
    if (a < b) {
      double x = std::min(std::max((vmin + vmax) / 2, a), std::nextafter(b, a));
      const double e = std::max(vmax / x - 1, 1 - vmin / x);
      if (best < 0 || e < best) best = e;
    }
    std::size_t k = 0;
    while (k < m.size() && m[k] == top) m[k++] = 1;
    if (k == m.size()) return best;
    ++m[k];
  }
}
}  // namespace

TEST_CASE("weights_for_accuracy: the reported case, M = 3 reaches 1%", "[inverse_weights]") {
  // Only multiples of the smallest load were tried before, which gave M = 5.
  const auto q = interlock::weights_for_accuracy({{1.826}, {1.076}}, 0.01);
  CHECK(q.bits == 3);
  CHECK(q.weights == std::vector<std::vector<std::uint32_t>>{{3}, {5}});
  CHECK(q.max_relative_error < 0.0091);
}

TEST_CASE("weights_from_loads is optimal and weights_for_accuracy minimal, against brute force",
          "[inverse_weights][property]") {
  rc::prop("2 or 3 loads, M = 1..5", [] {
    const auto count = *rc::gen::inRange<std::size_t>(2, 4);
    std::vector<double> g(count);
    for (double& x : g) x = *rc::gen::inRange(100, 3000) / 1000.0;
    load_matrix loads;
    for (double x : g) loads.push_back({x});
    std::vector<double> distinct = g;
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    std::vector<double> least(6, -1);
    for (unsigned bits = 1; bits <= 5; ++bits) {
      least[bits] = brute_force_error(distinct, bits);
      if (least[bits] < 0) {
        RC_ASSERT_THROWS_AS(weights_from_loads(loads, bits), interlock::config_error);
      } else {
        RC_ASSERT(std::abs(weights_from_loads(loads, bits).max_relative_error - least[bits]) <
                  1e-9);
      }
    }
    const double target = *rc::gen::inRange(1, 200) / 1000.0;
    unsigned smallest = 0;
    for (unsigned bits = 1; bits <= 5 && smallest == 0; ++bits)
      if (least[bits] >= 0 && least[bits] <= target) smallest = bits;
    RC_PRE(smallest != 0);
    RC_ASSERT(interlock::weights_for_accuracy(loads, target).bits == smallest);
  });
}
