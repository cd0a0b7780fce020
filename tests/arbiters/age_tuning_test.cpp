// SPDX-License-Identifier: BSL-1.0
// Tests of interlock/arbiters/age_tuning.hpp: Section 3 of Abts & Weisser
// (SC'07), its worked example, and the equations against enumeration.
#include "support/interlock_test.hpp"

#include <interlock/arbiters/age_tuning.hpp>

#include <cmath>
#include <cstdlib>
#include <vector>

using namespace interlock::age_tuning;

namespace {
const std::vector<dimension> xt3{{11}, {12}, {16}};  // the paper's 11,12,16 torus

// Enumeration: the average of |offset| over every pair of ordinates (torus:
// the shorter way round), with or without a node's own ordinate.
double enumerated_hops(dimension d, bool distinct_pairs) {
  double sum = 0, pairs = 0;
  const long k = static_cast<long>(d.radix);
  for (long a = 0; a < k; ++a)
    for (long b = 0; b < k; ++b) {
      if (distinct_pairs && a == b) continue;
      const long straight = std::labs(a - b);
      sum +=
          static_cast<double>(d.kind == wrap::torus ? std::min(straight, k - straight) : straight);
      pairs += 1;
    }
  return sum / pairs;
}
}  // namespace

TEST_CASE("Section 3.2 worked example: the 11,12,16 torus gives AGE_CLK_PERIOD 18",
          "[age_tuning]") {
  const age_clock_recommendation r = recommend_age_clock({xt3});
  CHECK(r.hops_per_dimension == std::vector<double>{2.75, 3.0, 4.0});  // Eq. 5 terms
  CHECK(r.whole_hops == std::vector<unsigned>{3, 3, 4});               // "3+3+4"
  CHECK(r.hops == 10);
  CHECK(r.biases == std::vector<std::uint8_t>{3, 2, 1});
  CHECK(r.bias_contribution == 19);  // 3x3 + 3x2 + 4x1
  CHECK(r.queueing_age == 109);      // 128 - 19
  CHECK(r.age_ticks_per_hop == Approx(10.9));
  CHECK(r.whole_age_ticks_per_hop == 11);
  CHECK(r.packets_queued_per_hop == 11);  // 10 in the input queue, 1 in the staging buffer
  CHECK(r.cycles_per_packet == 18);       // 2 VCs x 9 flits
  CHECK(r.queueing_cycles_per_hop == 198);
  CHECK(r.age_clk_period == 18);
}

TEST_CASE("Section 3.2 on other tori, computed by hand", "[age_tuning]") {
  // 8,8,8 torus: H = 2+2+2 = 6, T_bias = 6+4+2 = 12, (128-12)/6 = 19.33 -> 19,
  // 198/19 = 10.42 -> 10.
  auto r = recommend_age_clock({{{8}, {8}, {8}}});
  CHECK(r.hops == 6);
  CHECK(r.bias_contribution == 12);
  CHECK(r.whole_age_ticks_per_hop == 19);
  CHECK(r.age_clk_period == 10);
  // 16,16,16 torus: H = 12, T_bias = 24, 104/12 = 8.67 -> 9, 198/9 = 22.
  r = recommend_age_clock({{{16}, {16}, {16}}});
  CHECK(r.hops == 12);
  CHECK(r.bias_contribution == 24);
  CHECK(r.age_clk_period == 22);
  // 8-ary 2-mesh with biases 1/1: (8+1)/3 = 3 hops each, H = 6, T_bias = 6,
  // 122/6 = 20.33 -> 20, 198/20 = 9.9 -> 10.
  r = recommend_age_clock({{{8, wrap::mesh}, {8, wrap::mesh}}, {1, 1}});
  CHECK(r.hops == 6);
  CHECK(r.bias_contribution == 6);
  CHECK(r.age_clk_period == 10);
}

TEST_CASE("Eq. 4-9: average hops and channel load", "[age_tuning]") {
  CHECK(average_hops(xt3) == Approx(9.75));
  CHECK(average_hops(dimension{8, wrap::mesh}) == Approx(3.0));
  CHECK(channel_load(dimension{16}) == Approx(2.0));              // k/8
  CHECK(channel_load(dimension{16, wrap::mesh}) == Approx(4.0));  // k/4
  // Eq. 5 is exact for an even-radix torus counting a node's own ordinate;
  // Eq. 7 is exact for a mesh over distinct pairs.
  for (std::size_t k = 2; k <= 32; ++k) {
    if (k % 2 == 0) CHECK(average_hops(dimension{k}) == Approx(enumerated_hops({k}, false)));
    CHECK(average_hops(dimension{k, wrap::mesh}) == Approx(enumerated_hops({k, wrap::mesh}, true)));
  }
}

TEST_CASE("Eq. 10-13: ejection probabilities", "[age_tuning]") {
  const auto p = ejection_probabilities(xt3);
  CHECK(p[0] == Approx(10.0 / 11 / 12 / 16));
  CHECK(p[1] == Approx(11.0 / 12 / 16));
  CHECK(p[2] == Approx(1 - 10.0 / (11 * 12 * 16) - 11.0 / (12 * 16)));
  rc::prop("they are the probabilities that the last routed dimension is d, by enumeration", [] {
    const auto n = *rc::gen::inRange<std::size_t>(1, 5);
    const auto radices =
        *rc::gen::container<std::vector<std::size_t>>(n, rc::gen::inRange<std::size_t>(2, 9));
    std::vector<dimension> dims;
    for (std::size_t k : radices) dims.push_back({k});
    // Enumerate every offset vector (uniform destinations); the packet leaves
    // from the last dimension with a non-zero offset, or from the last
    // dimension when it is already home (Eq. 12).
    std::vector<double> count(n, 0);
    std::vector<std::size_t> offset(n, 0);
    double total = 0;
    for (;;) {
      std::size_t last = n - 1;
      for (std::size_t i = n; i-- > 0;)
        if (offset[i] != 0) {
          last = i;
          break;
        }
      count[last] += 1;
      total += 1;
      std::size_t i = 0;
      while (i < n && ++offset[i] == radices[i]) offset[i++] = 0;
      if (i == n) break;
    }
    const auto q = ejection_probabilities(dims);
    for (std::size_t i = 0; i < n; ++i) RC_ASSERT(std::abs(q[i] - count[i] / total) < 1e-12);
  });
}

TEST_CASE("Eq. 14-16: utilization bounds", "[age_tuning]") {
  // SeaStar: B_c = 4.8 GB/s, E_p = 2 GB/s. z: min(4.8 * 8/16, 2) = 2, and
  // each earlier dimension is held to what the next accepts.
  const auto u = utilization_bounds(xt3, 4.8, 2.0);
  CHECK(u == std::vector<double>{2.0, 2.0, 2.0});
  const auto fast = utilization_bounds(xt3, 4.8, 10.0);
  CHECK(fast[2] == Approx(4.8 * 8 / 16));
  CHECK(fast[1] == Approx(std::min(4.8 * 8 / 12, fast[2])));
  CHECK(fast[0] == Approx(std::min(4.8 * 8 / 11, fast[1])));
  const auto mesh = utilization_bounds({{16, wrap::mesh}}, 4.8, 10.0);
  CHECK(mesh[0] == Approx(4.8 * 4 / 16));  // the mesh substitution: 4/k
}

TEST_CASE("age bias ordering", "[age_tuning]") {
  CHECK(dor_age_biases(3) == std::vector<std::uint8_t>{3, 2, 1});
  CHECK(dor_age_biases(9).front() == 7);  // 3-bit field
  CHECK(load_proportional_biases({{16}, {12}, {8}}) == std::vector<std::uint8_t>{2, 2, 1});
  CHECK(bias_contribution(xt3, {1, 1, 1}) == 10);
}

TEST_CASE("age_tuning: configuration errors", "[age_tuning][config]") {
  CHECK_THROWS_WITH(average_hops(dimension{1}), "age_tuning: radix = 1; allowed: at least 2");
  CHECK_THROWS_AS(bias_contribution(xt3, {3, 2}), interlock::config_error);
  CHECK_THROWS_WITH(bias_contribution(xt3, {3, 8, 1}),
                    "age_tuning: bias of dimension 1 = 8; allowed: 0..7");
  CHECK_THROWS_AS(recommend_age_clock({xt3, {7, 7, 7}, 60}), interlock::config_error);
  CHECK_THROWS_AS(recommend_age_clock({{}}), interlock::config_error);
}

TEST_CASE("age_tuning: nonsense inputs are refused, not turned into numbers",
          "[age_tuning][config]") {
  age_clock_inputs in{xt3};
  in.vcs_per_link = 0;  // once gave AGE_CLK_PERIOD 1
  CHECK_THROWS_WITH(recommend_age_clock(in), "age_tuning: VCs per link = 0; allowed: 1..64");
  in = age_clock_inputs{xt3};
  in.target_age = 300;  // ages are 8 bits
  CHECK_THROWS_WITH(recommend_age_clock(in), "age_tuning: target age = 300; allowed: 1..255");
  // A radix of 2^34 once gave period 198: the whole-hop count truncated.
  CHECK_THROWS_WITH(recommend_age_clock({{{std::size_t{1} << 34}}}),
                    "age_tuning: radix = 17179869184; allowed: at most 65535 (a torus_topology's "
                    "limit)");
  in = age_clock_inputs{xt3};
  in.max_packet_flits = 0;
  CHECK_THROWS_AS(recommend_age_clock(in), interlock::config_error);
  in = age_clock_inputs{xt3};
  in.input_buffer_flits = 8;  // smaller than a 9-flit packet
  CHECK_THROWS_WITH(recommend_age_clock(in),
                    "age_tuning: input buffer flits = 8; allowed: 9..1048576");
  CHECK_THROWS_AS(recommend_age_clock({std::vector<dimension>(9, dimension{4})}),
                  interlock::config_error);
}

TEST_CASE("age_tuning: the 8x8x8 mesh shows the rounding rule", "[age_tuning]") {
  // H = 3 + 3 + 3, T_bias = 18, (128 - 18) / 9 = 12.2 -> 12 age ticks per
  // hop, 11 packets x 18 cycles = 198 cycles per hop: 198 / 12 = 16.5,
  // which half away from zero makes 17 (16 under half down or half even).
  const auto r = recommend_age_clock({{{8, wrap::mesh}, {8, wrap::mesh}, {8, wrap::mesh}}});
  CHECK(r.hops == 9);
  CHECK(r.bias_contribution == 18);
  CHECK(r.whole_age_ticks_per_hop == 12);
  CHECK(r.queueing_cycles_per_hop == 198);
  CHECK(r.age_clk_period == 17);
}
