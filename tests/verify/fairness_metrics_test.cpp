// SPDX-License-Identifier: BSL-1.0
// Tests of interlock/verify/fairness_metrics.hpp: Jain's index and max/min on
// values worked by hand.
#include "support/interlock_test.hpp"

#include <interlock/verify/fairness_metrics.hpp>

using interlock::verify::jain_index;
using interlock::verify::max_min;

TEST_CASE("jain_index: 1 when equal, 1/n when one holds all, worked values between",
          "[verify][fairness]") {
  CHECK(jain_index({0.25, 0.25, 0.25, 0.25}) == Approx(1.0));
  CHECK(jain_index({1.0, 0.0, 0.0, 0.0}) == Approx(0.25));
  // (0.5 + 0.25 + 0.25)^2 / (3 * (0.25 + 0.0625 + 0.0625)) = 1 / 1.125
  CHECK(jain_index({0.5, 0.25, 0.25}) == Approx(1.0 / 1.125));
  // [Abts07] Figure 4's round robin on the 8-node line: 1/2, 1/4, ..., 1/64, 1/64.
  const std::vector<double> line{1.0 / 64, 1.0 / 64, 1.0 / 32, 1.0 / 16, 1.0 / 8, 1.0 / 4, 0.5};
  double sum = 0, squares = 0;
  for (const double v : line) {
    sum += v;
    squares += v * v;
  }
  CHECK(jain_index(line) == Approx(sum * sum / (7 * squares)));
  // Unnormalized values: the index is scale-free.
  CHECK(jain_index({2.0, 2.0}) == Approx(1.0));
  CHECK(jain_index({3.0, 1.0}) == Approx(16.0 / 20.0));  // (3 + 1)^2 / (2 (9 + 1))
  CHECK(jain_index({30.0, 10.0}) == Approx(jain_index({3.0, 1.0})));
  CHECK(jain_index({}) == 1);
  CHECK(jain_index({0.0, 0.0}) == 1);
}

TEST_CASE("max_min: the spread of the positive values, zeros left out", "[verify][fairness]") {
  CHECK(max_min({0.5, 0.25, 0.25}) == Approx(2.0));
  CHECK(max_min({0.0, 3.0, 12.0}) == Approx(4.0));
  CHECK(max_min({7.0}) == 1);
  CHECK(max_min({}) == 1);
  CHECK(max_min({0.0, -1.0}) == 1);
}
