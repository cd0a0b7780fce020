// SPDX-License-Identifier: BSL-1.0
// Tests of interlock/qos/dtable_config.hpp: the DTable configuration
// methodology and bandwidth correction of [QoSThesis], Sections 4.3.3.2-4.3.3.3
// and 5.4.4 (Tables 4.4, 4.5 and 5.4).
#include "support/interlock_test.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <interlock/qos/dtable.hpp>
#include <interlock/qos/dtable_config.hpp>

using interlock::qos::apply_bandwidth_correction;
using interlock::qos::dtable_entry;
using interlock::qos::dtable_layout;
using interlock::qos::dtable_scheduler;
using interlock::qos::plan_dtable;
using namespace interlock_test;

namespace {
double round5(double x) { return std::round(x * 1e5) / 1e5; }
}  // namespace

TEST_CASE("dtable_config: Table 5.4, Chapter 5's seven SLs with w = 3 and k = 0.5",
          "[dtable_config][paper]") {
  // N = 64, GMTU = 32 credits of 64 bytes, w = 3, k = 0.5: M = 96, pool = 1024.
  // SLs NC, VO, VI, CL, EE, BE, BK: distances 2, 4, ..., 64 give n_i; MTUs
  // 192, 128, 2048, 2048, 1024, 1024, 1024 bytes in credits; phi as printed.
  const std::vector<interlock::qos::dtable_sl> sls{{32, 3}, {16, 2}, {8, 32}, {4, 32},
                                                   {2, 16}, {1, 16}, {1, 16}};
  const std::vector<double> phi{0.094, 0.164, 0.3, 0.35, 0.04, 0.036, 0.016};
  const auto plan = plan_dtable({64, 32, 3, 0.5}, sls, phi);
  CHECK(plan.max_entry_weight == 96);
  CHECK(plan.pool == 1024);
  // min_phi and max_phi as the formulas give them. Table 5.4 prints VO's
  // minimum as 0.047 (16 x 3 / 1024: a 3-credit MTU, where 128 bytes are 2
  // credits) and BK's bounds as 0.008 and 0.047, half of BE's though BK has
  // BE's entry and MTU; every other bound matches the print.
  const std::array<double, 7> min_phi{0.094, 0.031, 0.25, 0.125, 0.0313, 0.016, 0.016};
  const std::array<double, 7> max_phi{3, 1.5, 0.75, 0.375, 0.188, 0.094, 0.094};
  // E.W. and T.W., Table 5.4's last two columns: the corrected weights.
  const std::array<std::uint32_t, 7> ew_low{3, 11, 40, 93, 21, 39, 17};
  const std::array<std::uint32_t, 7> ew_high{4, 11, 41, 94, 22, 39, 17};
  const std::array<std::uint64_t, 7> tw{101, 176, 322, 375, 43, 39, 17};
  for (std::size_t i = 0; i < sls.size(); ++i) {
    INFO("SL" << i);
    CHECK(plan.sls[i].min_phi == Approx(min_phi[i]).margin(0.0005));
    CHECK(plan.sls[i].max_phi == Approx(max_phi[i]).margin(0.0005));
    CHECK(plan.sls[i].final_weight == tw[i]);
    std::uint32_t low = ~0u, high = 0;
    for (const auto& e : plan.table) {
      if (e.sl != i) continue;
      low = std::min(low, e.weight);
      high = std::max(high, e.weight);
    }
    CHECK(low == ew_low[i]);
    CHECK(high == ew_high[i]);
  }
  CHECK(plan.final_total == 1073);  // Table 5.4's total
}

TEST_CASE("dtable_config: fractional w and k bound M and the pool; nonsense is refused",
          "[dtable_config]") {
  const auto bounds = interlock::qos::dtable_bounds({8, 3, 2.5, 0.5}, {{4, 1}, {4, 3}});
  CHECK(bounds.max_entry_weight == 7);  // 3 x 2.5 = 7.5, a whole weight below
  CHECK(bounds.pool == Approx(12));
  CHECK_THROWS_WITH(interlock::qos::dtable_bounds({8, 3, 2, 2.5}, {{8, 1}}),
                    Catch::Contains("k = 2.5; allowed: 0 < k <= w (2)"));
  CHECK_THROWS_WITH(interlock::qos::dtable_bounds({8, 3, 0, 0}, {{8, 1}}),
                    Catch::Contains("w = 0; allowed: GMTU * w >= 1"));
}

TEST_CASE("dtable_config: Table 4.4, every column", "[dtable_config][paper]") {
  // N = 128, GMTU = 3, w = 4, k = 3; SLs (n_i, MTU_i) = (64, 1), (32, 2), (32, 3).
  const auto plan =
      plan_dtable({128, 3, 4, 3}, {{64, 1}, {32, 2}, {32, 3}}, {0.33334, 0.33333, 0.33333});
  CHECK(plan.max_entry_weight == 12);
  CHECK(plan.pool == 1152);
  const std::array<double, 3> min_phi{0.05556, 0.05556, 0.08333};
  const std::array<double, 3> max_phi{0.66667, 0.33333, 0.33333};
  // Tweight = pool * phi = 384.00768 and 383.99616; Table 4.4 prints
  // 384.0768 and 383.9616, pool times phi cut to four decimals (0.3334,
  // 0.3333), as in its R_phi - phi column below. EW is 7 and 12 either way.
  const std::array<double, 3> tweight{384.00768, 383.99616, 383.99616};
  const std::array<double, 3> printed_tweight{384.0768, 383.9616, 383.9616};
  const std::array<double, 3> printed_phi{0.3334, 0.3333, 0.3333};
  const std::array<std::uint32_t, 3> ew{7, 12, 12};
  const std::array<std::uint64_t, 3> sum{448, 384, 384};
  const std::array<double, 3> rphi{0.36842, 0.31579, 0.31579};
  const std::array<std::int64_t, 3> dweight{-43, 21, 21};
  for (std::size_t i = 0; i < 3; ++i) {
    INFO("SL" << i);
    CHECK(round5(plan.sls[i].min_phi) == Approx(min_phi[i]));
    CHECK(round5(plan.sls[i].max_phi) == Approx(max_phi[i]));
    CHECK(plan.sls[i].total_weight == Approx(tweight[i]).epsilon(1e-9));
    CHECK(double(plan.pool) * printed_phi[i] == Approx(printed_tweight[i]));
    CHECK(plan.sls[i].entry_weight == ew[i]);
    CHECK(plan.sls[i].weight_sum == sum[i]);
    CHECK(round5(plan.sls[i].real_phi) == Approx(rphi[i]));
    CHECK(plan.sls[i].dweight == dweight[i]);
    CHECK(plan.sls[i].final_weight == 405);
    CHECK(round5(plan.sls[i].final_phi) == Approx(0.33333));
  }
  CHECK(plan.weight_total == 1216);
  CHECK(plan.final_total == 1215);
  // R_phi - phi: exact arithmetic gives 0.03508 and -0.01754; the printed
  // 0.03502 and -0.01751 subtract phi rounded to four decimals. Both round
  // to the same Dweight.
  CHECK(round5(plan.sls[0].error) == Approx(0.03508));
  CHECK(round5(plan.sls[1].error) == Approx(-0.01754));
  CHECK(round5(plan.sls[0].real_phi - 0.3334) == Approx(0.03502));
  CHECK(round5(plan.sls[1].real_phi - 0.3333) == Approx(-0.01751));
  CHECK(-std::llround(0.03502 * 1216) == -43);
  CHECK(-std::llround(-0.01751 * 1216) == 21);
  // M = 12 bounds the entry weights of the methodology, not the correction:
  // Table 4.4's F_weight of 405 puts 21 of SL1's 32 entries at 13.
  std::size_t above_m = 0;
  for (const auto& e : plan.table) above_m += e.weight > plan.max_entry_weight ? 1 : 0;
  CHECK(above_m == 42);  // 21 of SL1's and 21 of SL2's
  // The plan's table runs in the scheduler as is.
  dtable_scheduler d(plan.table, {0, 1, 2}, {1, 2, 3});
  for (std::size_t sl = 0; sl < 3; ++sl) CHECK(d.sl_weight(sl) == 405);
}

TEST_CASE("dtable_config: Table 4.5, the bandwidth correction walks each SL from the end",
          "[dtable_config][paper]") {
  std::vector<dtable_entry> table{{0, 4}, {1, 2}, {0, 4}, {2, 3}, {0, 4}, {1, 2}, {0, 4}, {2, 3}};
  apply_bandwidth_correction(table, {-3, 1, 2}, {1, 1, 1}, 255);
  const std::vector<dtable_entry> after{{0, 4}, {1, 2}, {0, 3}, {2, 4},
                                        {0, 3}, {1, 3}, {0, 3}, {2, 4}};
  CHECK(table == after);
  // The layout of Table 4.5 is the even spread of 4, 2 and 2 entries.
  CHECK(dtable_layout(8, {4, 2, 2}) == std::vector<std::uint8_t>{0, 1, 0, 2, 0, 1, 0, 2});
}

TEST_CASE("dtable_config: a correction goes round the SL's entries more than once",
          "[dtable_config]") {
  std::vector<dtable_entry> table{{0, 4}, {1, 2}, {0, 4}};
  apply_bandwidth_correction(table, {3, 0}, {1, 1}, 255);
  CHECK(table == std::vector<dtable_entry>{{0, 5}, {1, 2}, {0, 6}});
  // Never below the MTU: entries at the MTU are skipped, then it fails.
  std::vector<dtable_entry> low{{0, 3}, {0, 2}};
  apply_bandwidth_correction(low, {-1}, {2}, 255);
  CHECK(low == std::vector<dtable_entry>{{0, 2}, {0, 2}});
  CHECK_THROWS_AS(apply_bandwidth_correction(low, {-1}, {2}, 255), interlock::config_error);
  std::vector<dtable_entry> high{{0, 12}};
  CHECK_THROWS_WITH(apply_bandwidth_correction(high, {1}, {1}, 12),
                    "dtable bandwidth correction: Dweight of SL0 = 1; allowed: a change SL0's "
                    "entries can absorb within [MTU_i, 12]; 1 left over");
}

TEST_CASE("dtable_config: errors name the SL, its value and the range", "[dtable_config][config]") {
  CHECK_THROWS_WITH(plan_dtable({128, 3, 4, 3}, {{64, 1}, {32, 2}, {32, 3}}, {0.7, 0.2, 0.1}),
                    "plan_dtable: phi of SL0 = 0.700000; allowed: [min_phi, max_phi] = "
                    "[0.055556, 0.666667]");
  CHECK_THROWS_WITH(plan_dtable({128, 3, 4, 3}, {{64, 1}, {32, 2}, {32, 3}}, {0.5, 0.3, 0.05}),
                    "plan_dtable: phi of SL2 = 0.050000; allowed: [min_phi, max_phi] = "
                    "[0.083333, 0.333333]");
  CHECK_THROWS_WITH(plan_dtable({128, 3, 4, 3}, {{64, 1}, {32, 2}, {16, 3}}, {0.3, 0.3, 0.1}),
                    "dtable configuration: sum of n_i = 112; allowed: N = 128 (every entry belongs "
                    "to one SL)");
  CHECK_THROWS_WITH(
      plan_dtable({128, 3, 2, 3}, {{128, 1}}, {0.5}),
      "dtable configuration: k = 3; allowed: 0 < k <= w (2), with a pool N * GMTU * k >= 1");
  CHECK_THROWS_AS(plan_dtable({128, 3, 4, 3}, {{64, 1}, {64, 13}}, {0.5, 0.5}),
                  interlock::config_error);  // MTU above M = 12
  CHECK_THROWS_AS(plan_dtable({8, 1, 4, 1}, {{4, 1}, {4, 1}}, {0.6, 0.6}),
                  interlock::config_error);  // shares sum above 1
  CHECK_THROWS_AS(plan_dtable({300, 1, 1, 1}, {{300, 1}}, {1.0}), interlock::config_error);
}

TEST_CASE("dtable_config: properties", "[dtable_config][property]") {
  rc::prop("a plan within bounds gives final shares within one unit of weight of phi", [] {
    const std::size_t sl_count = *rc::gen::inRange<std::size_t>(1, 6);
    const std::uint32_t gmtu = *rc::gen::inRange<std::uint32_t>(1, 9);
    const std::uint32_t k = *rc::gen::inRange<std::uint32_t>(1, 5);
    const std::uint32_t w = k + *rc::gen::inRange<std::uint32_t>(0, 5);
    std::vector<interlock::qos::dtable_sl> sls(sl_count);
    std::size_t n = 0;
    for (auto& s : sls) {
      s.entries = *rc::gen::inRange<std::size_t>(1, 33);
      s.mtu = *rc::gen::inRange<std::uint32_t>(1, gmtu + 1);
      n += s.entries;
    }
    const auto bounds = interlock::qos::dtable_bounds({n, gmtu, double(w), double(k)}, sls);
    // Shares: each SL's minimum, the rest spread within each SL's headroom.
    double spare = 1.0;
    for (const auto& s : bounds.sls) spare -= s.min_phi;
    RC_PRE(spare >= 0.0);
    // Shares summing to 1 (as the methodology assumes): minimums, then the
    // spare spread at random within each SL's headroom, then the rest.
    std::vector<double> phi(sl_count);
    for (std::size_t i = 0; i < sl_count; ++i) phi[i] = bounds.sls[i].min_phi;
    for (int pass = 0; pass < 2; ++pass) {
      for (std::size_t i = 0; i < sl_count; ++i) {
        const double room = std::min(spare, bounds.sls[i].max_phi - phi[i]);
        const double extra = pass == 0 ? room * *rc::gen::inRange(0, 101) / 100.0 : room;
        phi[i] += extra;
        spare -= extra;
      }
    }
    RC_PRE(spare <= 1e-12);
    interlock::qos::dtable_plan plan;
    try {
      plan = plan_dtable({n, gmtu, double(w), double(k)}, sls, phi);
    } catch (const interlock::config_error& e) {
      // Only the correction may refuse (entries already at M); say so.
      RC_ASSERT(std::string(e.what()).find("bandwidth correction") != std::string::npos);
      RC_DISCARD("correction cannot fit within M");
    }
    std::uint64_t total = 0;
    for (const auto& e : plan.table) {
      RC_ASSERT(e.weight >= sls[e.sl].mtu);
      // The correction adds at most phi_i * N / n_i + 1 <= w / k + 1 per entry.
      RC_ASSERT(e.weight <= plan.max_entry_weight + w / k + 1);
      total += e.weight;
    }
    RC_ASSERT(total == plan.final_total);
    // The correction moves each SL to round(phi_i * total before) units, so
    // the final share is within (SLs + 1) / 2 units of phi_i of the final total.
    for (std::size_t i = 0; i < sl_count; ++i) {
      RC_ASSERT(std::abs(plan.sls[i].final_phi - phi[i]) <=
                double(sl_count + 1) / 2.0 / double(plan.final_total) + 1e-12);
    }
    std::vector<std::uint8_t> queues(sl_count);
    std::vector<std::uint32_t> mtu(sl_count);
    for (std::size_t i = 0; i < sl_count; ++i) {
      queues[i] = static_cast<std::uint8_t>(i);
      mtu[i] = sls[i].mtu;
    }
    dtable_scheduler d(plan.table, queues, mtu);
    for (std::size_t i = 0; i < sl_count; ++i)
      RC_ASSERT(d.sl_weight(i) == plan.sls[i].final_weight);
  });
}

TEST_CASE("plan_dtable: an exact half rounds away from zero", "[dtable_config]") {
  // SL0 and SL1: n_i EW_i - phi_i W is exactly 2.5; floating point made it
  // 2.4999999999999996 and Dweight -2 instead of -3.
  const auto plan = interlock::qos::plan_dtable({4, 2, 5, 5}, {{1, 1}, {1, 2}, {1, 1}, {1, 2}},
                                                {.25, .25, .163773, .059227});
  REQUIRE(plan.weight_total % 4 != 0);
  const double exact0 = double(plan.sls[0].weight_sum) - 0.25 * double(plan.weight_total);
  CHECK(exact0 == 2.5);
  CHECK(plan.sls[0].dweight == -3);
  CHECK(plan.sls[1].dweight == -3);
  using interlock::qos::round_weight_error;
  CHECK(round_weight_error(10, 0.25, 30) == 3);    // 10 - 7.5 = 2.5 -> 3
  CHECK(round_weight_error(5, 0.25, 30) == -3);    // 5 - 7.5 = -2.5 -> -3
  CHECK(round_weight_error(7, 0.25, 30) == -1);    // -0.5 -> -1
  CHECK(round_weight_error(8, 0.25, 30) == 1);     // 0.5 -> 1
  CHECK(round_weight_error(7, 0.5, 14) == 0);      // 0
  CHECK(round_weight_error(100, 0.1, 1000) == 0);  // 100 - 100.0000000000000055511 -> 0
}

TEST_CASE("plan_dtable: exact rounding agrees with a rational reference",
          "[dtable_config][property]") {
  rc::prop("Round(ws - phi W) from the double phi's exact value", [] {
    const auto ws = *rc::gen::inRange<std::uint64_t>(0, 1u << 20);
    const auto total = *rc::gen::inRange<std::uint64_t>(1, 1u << 21);
    // phi with few significant bits, so the reference can be exact in long arithmetic.
    const auto num = *rc::gen::inRange<std::uint64_t>(0, 1025);
    const double phi = static_cast<double>(num) / 1024.0;
    // V = ws - num * total / 1024, scaled by 1024: an integer.
    const std::int64_t scaled =
        static_cast<std::int64_t>(ws * 1024) - static_cast<std::int64_t>(num * total);
    const std::int64_t mag = scaled < 0 ? -scaled : scaled;
    std::int64_t r = (mag + 512) / 1024;  // half away from zero on the magnitude
    if (scaled < 0) r = -r;
    RC_ASSERT(interlock::qos::round_weight_error(ws, phi, total) == r);
  });
}
